"""The thread of an 1830 game through the real command tree and callbacks (Discord offline):
turn prompts with a menu of legal moves, moves picked from the menu and lays picked by
picture, the reference at hand, and the end of a game (ranking, charts, status in its thread)."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from bot.core.results import Caller
from engine.eighteen import io as game_files
from tests.discord_world import make_world, posts
from tests.reference_games import game_path
from tests.test_discord_1830 import Table, open_table


@pytest.fixture
async def world(db_path):
    return await make_world(db_path)


async def test_the_menu_offers_the_legal_moves_grouped_and_makes_the_one_picked(world):
    table = await open_table(world)
    post = table.last
    labels = [o.label for o in post.menu]
    # 1830's auction: a bid (or purchase) for each private, and the pass
    assert labels[0].startswith("Buy SV (Schuylkill Valley) for $20") and len(labels) <= 25
    # Pass is a button; the menu ends with the picker's own programmed moves
    assert all(label.startswith(("Buy ", "Bid ")) for label in labels[:-1])
    assert labels[-1] == "Your programmed moves…"
    assert [label for _, label in post.buttons if label] == [
        "Pass (Bid on Companies)",
        "Map",
        "Market",
        "Sheet",
    ]
    ca = next(o for o in post.menu if o.label.startswith("Bid CA"))
    menu_id = next(cid for cid, _ in post.buttons if cid.startswith("rc:s:"))
    sent = await world.select(menu_id, post.menu, ca.value, table.at(1))
    assert sent[-1].ephemeral and sent[-1].text.startswith(
        "Done: user1 bids $165 on CA ($5 over its face value)."
    )
    assert table.last.text.startswith(
        "user1 bids $165 on CA ($5 over its face value)."
    ) and table.last.pinged == [2]
    # the same menu, now from an earlier turn, is refused and changes nothing
    sent = await world.select(menu_id, post.menu, ca.value, table.at(2))
    assert sent[-1].text.startswith("Refused: this button is from an earlier turn")
    assert await world.bot.service.store.action_count(1) == 1


async def _to_first_operating_round(table: Table) -> None:
    script = [
        (1, "bid", {"company": "SV"}),
        (2, "bid", {"company": "CS"}),
        (3, "bid", {"company": "DH"}),
        (4, "bid", {"company": "MH"}),
        (1, "bid", {"company": "CA"}),
        (2, "bid", {"company": "BO"}),
        (2, "par", {"company": "B&O 100"}),
        (3, "par", {"company": "PRR 67"}),
    ]
    script += [(u, "buy", {"share": "PRR IPO"}) for u in (4, 1, 2, 3, 4)]
    script += [(u, "pass", {}) for u in (1, 2, 3, 4)]
    for user, command, options in script:
        assert (await table.play(user, command, **options))[-1].text.startswith("Done"), command


async def test_a_lay_is_picked_by_picture(world):
    table = await open_table(world)
    await _to_first_operating_round(table)
    sent = await table.play(3, "lay", hex="H14")  # tiles 7 and 8 two ways, straight 9 one
    answer = sent[-1]
    assert answer.ephemeral and answer.files == ["lays.png"]
    assert answer.images[0].startswith(b"\x89PNG")
    assert answer.text.splitlines()[0] == "5 ways to lay on H14; pick one (numbered as drawn):"
    assert [label for _, label in answer.buttons] == [
        "1: SW toward I13, W toward Altoona (H12)",
        "2: W toward Altoona (H12), NW toward G13",
        "3: W toward Altoona (H12), NE toward G15",
        "4: W toward Altoona (H12), SE toward Baltimore (I15)",
        "5: W toward Altoona (H12), E toward Lancaster (H16)",
    ]
    assert not any(label.split(": ", 1)[1].isdigit() for _, label in answer.buttons)
    turn_post = len(posts(table.thread))
    custom_id, label = answer.buttons[4]  # the straight track to Lancaster
    sent = await world.press(custom_id, table.at(3))
    assert sent[-1].text.startswith(
        "Done: PRR lays tile 9 on H14, track W toward Altoona (H12), E toward Lancaster (H16)."
    )
    assert len(posts(table.thread)) == turn_post  # the lay is edited into the turn's post
    assert "PRR lays tile 9 on H14" in table.last.text and "focus.png" in table.last.files
    sent = await world.press(custom_id, table.at(3))  # pressed again: made once only
    assert sent[-1].text == "That command was already handled."
    assert await world.bot.service.store.action_count(1) == 18
    # a tile narrows the picture; rotations are suggested in words, never as bare numbers
    rotations = await world.suggest("lay", "rotation", table.at(3, hex="H10", tile="57"), "")
    assert [(r.name, r.value) for r in rotations] == []  # PRR has laid its tile this turn


async def test_rotations_are_suggested_by_their_exits(world):
    table = await open_table(world)
    await _to_first_operating_round(table)
    rotations = await world.suggest("lay", "rotation", table.at(3, hex="H14", tile="7"), "")
    assert [(r.name, r.value) for r in rotations] == [
        ("Lay tile 7 on H14: track SW to I13, W to Altoona", 0),
        ("Lay tile 7 on H14: track W to Altoona, NW to G13", 1),
    ]
    narrowed = await world.suggest("lay", "rotation", table.at(3, hex="H14", tile="7"), "g13")
    assert [r.value for r in narrowed] == [1]


async def test_the_reference_is_at_hand(world):
    table = await open_table(world)
    sent = await table.game(2, "view", what="info", detail="phases", game=None)
    assert sent[-1].ephemeral and sent[-1].text.startswith("**Phases**")
    assert "2: the start; yellow; limit 4; 1 OR ← now" in sent[-1].text
    sent = await table.game(2, "view", what="info", game=None)
    assert all(len(s.text) <= 2000 for s in sent) and len(sent) >= 2
    text = "\n".join(s.text for s in sent)
    assert "**Private companies**" in text and "**Stock market zones**" in text
    topics = await world.suggest("view", "detail", table.at(2, what="info"), "")
    assert [t.value for t in topics] == ["privates", "phases", "certificates", "market"]
    sent = await table.game(2, "view", what="info", detail="weather", game=None)
    assert sent[-1].text == (
        "Refused: no topic 'weather'; topics: privates, phases, certificates, market"
    )


async def test_the_game_over_post_ranks_the_players_and_status_works_in_the_thread(world):
    data = json.loads(game_path("1830", "29133").read_text())
    moves = [a for _, a in game_files.effective_actions(data["actions"])]
    last = moves[-1]
    assert last["type"] == "bankrupt"
    thread = await world._create_thread(name="import")
    service = world.bot.service
    index = data["actions"].index(last)
    opened = await service.import_game(
        Caller(1, "user1", guild_id=500),
        {**data, "actions": data["actions"][:index]},
        [1, 2, 3, 4],
        guild_id=500,
        thread_id=thread.id,
        offer=False,  # the players have agreed already
    )
    assert opened.ok, opened.error
    president = (await service.prompt(opened.game_id, choices=False)).notify[0]
    move = {k: v for k, v in last.items() if k not in ("id", "user", "created_at")}
    result = await service.act(
        opened.game_id, Caller(president, f"user{president}", guild_id=500), move
    )
    assert result.ok, result.error
    world.bot.poster.queue(result)
    await world.bot.poster.drain()
    post = posts(thread)[-1]
    assert "Game over (bankrupt)" in post.text
    # the ranking is the game file's result, in an embed (the text does not repeat it)
    assert post.embed.title == "Final ranking · 1830"
    assert post.embed.description == (
        "1. **Player 2** $1,477\n2. **Player 3** $951 ($526 behind)\n"
        "3. **Player 1** $887 ($590 behind)\n4. **Player 4** $416 ($1,061 behind)"
    )
    assert "Final ranking" not in post.text
    # the charts, and a phone's images; the full ones stay one tap away, answered privately
    assert sorted(post.files) == [
        "chart-prices.png",
        "chart-revenue.png",
        "chart-worth.png",
        "market_compact.png",
    ]
    assert Image.open(io.BytesIO(post.files["chart-worth.png"])).width == 800
    assert [label for _, label in post.buttons] == ["Map", "Market", "Sheet"]
    sent = await world.run("status", world.interaction(2, where=thread.id), game=None)
    assert sent[-1].ephemeral and "finished" in sent[-1].text
    assert "Result: Player 2 $1,477" in sent[-1].text


async def test_direct_messages_carry_the_turn_prompt(world):
    await world.run("turn-dm", world.interaction(2), group="settings", dm="on", game=None)
    table = await open_table(world)
    await table.play(1, "bid", company="CS", price=50)
    assert world.dms[-1] == (
        2,
        f"Your move in game #1 (1830): {table.thread.jump_url}\n"
        "Since the start (you have not moved yet): 1 move.\n"
        "Cash $600 · worth $600 · rank 1st of 4\n"
        "user1: 1 move (bids $50 on CS)",
        "To act: user2",
    )


async def test_an_autocomplete_asks_the_engine_only_for_its_command_s_moves(world, monkeypatch):
    table = await open_table(world)
    await _to_first_operating_round(table)
    game = await world.bot.service._live(await world.bot.service.store.game(1))
    asked: list = []
    listing = type(game).legal_actions

    def spy(self, player, kinds=None):
        asked.append(kinds)
        return listing(self, player, kinds)

    monkeypatch.setattr(type(game), "legal_actions", spy)
    world.bot.service._choices.clear()
    await world.suggest("lay", "hex", table.at(3), "")
    assert asked == [("lay_tile",)]  # a lay's suggestions: the lays alone
    await world.suggest_move(table.at(3), "")
    assert asked[-1] is None  # any move: all of them


async def test_prices_by_name_or_typed_after_the_company_alike(world):
    table = await open_table(world)
    for user, company in ((1, "SV"), (2, "CS"), (3, "DH"), (4, "MH")):
        done = await table.play(user, "bid", company=company)
        assert done[-1].text.startswith("Done"), done
    # a bid: the price typed after the company is the price option
    sent = await table.play(1, "bid", company="CA 170")
    assert sent[-1].text.startswith("Done: user1 buys CA for $170.")
    sent = await table.play(2, "bid", company="BO", price=230)
    assert sent[-1].text.startswith("Done: user2 buys BO for $230.")
    # a par without its price lists the prices; the price option (or typed after) picks one
    sent = await table.play(2, "par", company="B&O")
    assert sent[-1].text == (
        "Refused: give the price too: 6 prices are open ($100, $90, $82, "
        "$76, $71, $67), e.g. /play move par B&O 100"
    )
    sent = await table.play(2, "par", company="B&O", price=50)
    assert sent[-1].text.startswith("Refused: $50 is not a par price; B&O can be parred at $100")
    sent = await table.play(2, "par", company="B&O", price=90)
    assert sent[-1].text.startswith("Done: user2 pars B&O at $90.")
