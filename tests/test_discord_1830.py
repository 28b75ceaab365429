"""Acceptance: a 4-player 1830 game played through the Discord command callbacks and buttons
(offline): the auction, a stock round, operating rounds with tile, token, routes, dividend and
trains; the thread posts, mentions, images and buttons are checked, and every refusal path."""

from __future__ import annotations

import pytest

from bot.core.moves import choice_key
from tests.discord_world import Post, Sent, World, make_world, posts


@pytest.fixture
async def world(db_path):
    return await make_world(db_path)


class Table:
    """One 1830 game in its thread: helpers that act as a user, in the thread."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.thread = None

    def at(self, user: int, **typed):
        return self.world.interaction(user, where=self.thread.id, **typed)

    async def play(self, user: int, command: str, **options) -> list[Sent]:
        """A move by `user`: with its command (pass, lay, run), else typed into /play move."""
        return await self.world.play(command, self.at(user), game=None, **options)

    async def game(self, user: int, command: str, **options) -> list[Sent]:
        return await self.world.run(command, self.at(user), **options)

    @property
    def last(self) -> Post:
        return posts(self.thread)[-1]

    @property
    def labels(self) -> list[str]:
        """The last post's buttons (the menu of moves left out)."""
        return [label for cid, label in self.last.buttons if not cid.startswith(("rc:s:", "rc:v:"))]

    @property
    def image_buttons(self) -> list[str]:
        """The last post's buttons that show a full image privately."""
        return [label for cid, label in self.last.buttons if cid.startswith("rc:v:")]

    async def press(self, user: int, label_start: str) -> list[Sent]:
        """Press the last post's button whose label starts so, as `user`."""
        custom_id = next(cid for cid, label in self.last.buttons if label.startswith(label_start))
        return await self.world.press(custom_id, self.at(user))


async def open_table(world: World) -> Table:
    table = Table(world)
    sent = await world.run("new", world.interaction(1), title="1830", seats=4, options=None)
    assert sent[-1].text.startswith("Game #1 is open in <#")
    table.thread = list(world.threads.values())[-1]
    for user in (2, 3, 4):
        await table.game(user, "join", game=None)
    await table.game(1, "start", game=None)
    return table


def done(sent: list[Sent], sentence: str) -> None:
    """The caller's private acknowledgement starts with the engine's sentence for the move
    (which may go on to tell what the move set off)."""
    assert sent[-1].ephemeral and sent[-1].text.startswith(f"Done: {sentence}"), sent


async def test_a_four_player_1830_game_through_discord(world):
    table = await open_table(world)
    start = table.last
    assert start.text.startswith(
        "Game #1 of 1830 has started. Seat order: 1. user1, 2. user2, 3. user3, 4. user4."
    )
    assert start.text.endswith("To act: <@1>") and start.pinged == [1]
    # phone-first: the compact market (no close-up before anything is on the map); the full
    # map, market and sheet are one tap away
    assert sorted(start.files) == ["market_compact.png"]
    assert table.image_buttons == ["Map", "Market", "Sheet"]
    assert all(png.startswith(b"\x89PNG") for png in start.files.values())
    assert start.buttons[0][0] == "rc:s:1:1"  # the menu of moves, then the buttons
    assert table.labels == ["Pass (Bid on Companies)"]
    assert start.embed.title == "To act: user1" and start.embed.description == "Bid on Companies"

    # -- the auction: suggestions come from the engine's legal bids ---------------------------
    suggestions = await world.suggest_move(table.at(1), "bid cs")
    assert [s.name for s in suggestions] == ["Bid CS (Champlain & St.Lawrence) for $45"]
    assert suggestions[0].value == choice_key(
        {"type": "bid", "entity": 1, "entity_type": "player", "company": "CS", "price": 45}
    )
    done(
        await table.play(1, "bid", company="CS", price=50),
        "user1 bids $50 on CS ($10 over its face value).",
    )
    post = table.last
    assert (
        post.text == "user1 bids $50 on CS ($10 over its face value).\nTo act: <@2>"
        and post.pinged == [2]
    )
    # the compact market's header names who acts, so it is drawn again with every turn
    assert sorted(post.files) == ["market_compact.png"]
    assert "Player" not in post.embed.fields[0].value and "cash $600" in post.embed.fields[0].value
    done(await table.play(2, "bid", company="SV"), "user2 buys SV for $20.")
    done(await table.play(3, "bid", company="DH"), "user3 buys DH for $70.")
    done(await table.play(4, "bid", company="Mohawk"), "user4 buys MH for $110.")
    done(await table.play(1, "bid", company="CA"), "user1 buys CA for $160.")
    done(await table.play(2, "bid", company="BO"), "user2 buys BO for $220.")
    par_choices = await world.suggest_move(table.at(2), "par")
    assert [s.name for s in par_choices][:2] == ["Par B&O at $100", "Par B&O at $90"]
    done(await table.play(2, "par", company="B&O 100"), "user2 pars B&O at $100.")
    assert table.last.text.startswith("user2 pars B&O at $100.")
    assert table.last.text.endswith("To act: <@3>")

    # -- the first stock round ---------------------------------------------------------------
    done(
        await table.play(3, "par", company="PRR 67"),
        "user3 pars PRR at $67, paying $134 for the president's certificate.",
    )
    for user in (4, 1, 2, 3, 4):
        done(
            await table.play(user, "buy", share="PRR IPO"),
            f"user{user} buys 10% of PRR from the IPO for $67.",
        )
    done(await table.press(1, "Pass"), "user1 passes (Sell/Buy/Sell Shares).")
    for user in (2, 3, 4):
        await table.press(user, "Pass")
    assert table.last.text.endswith("To act: <@3>")  # user3 presides over PRR
    assert sorted(table.last.files) == ["market_compact.png"]  # a new round, nothing laid yet
    assert table.last.embed.title == "To act: user3 for PRR"
    assert table.last.embed.description == "Lay/Upgrade Track"
    turn_post = len(posts(table.thread))

    # -- operating round 1: tile, token, trains ----------------------------------------------
    hexes = await world.suggest("lay", "hex", table.at(3), "")
    assert [h.value for h in hexes] == ["H10", "H14"]
    tiles = await world.suggest("lay", "tile", table.at(3, hex="H10"), "")
    assert [(t.name, t.value) for t in tiles] == [("57", "57")]  # turned half way it is the same
    rotations = await world.suggest("lay", "rotation", table.at(3, hex="H10", tile="57"), "")
    assert [r.value for r in rotations] == [1]
    done(
        await table.play(3, "lay", hex="h10", tile="57", rotation=1),
        "PRR lays tile 57 on H10 (Pittsburgh), track W toward H8, E toward Altoona (H12).",
    )
    assert table.labels == ["Done (Place a Token)"]
    assert len(posts(table.thread)) == turn_post and table.last.edits == 1  # the same post
    assert "focus.png" in table.last.files and table.last.text.splitlines()[-2].startswith(
        "PRR lays tile 57 on H10"
    )
    message = table.thread.messages[-1]
    uploads = lambda name: [n for n, _ in message.uploads].count(name)  # noqa: E731
    assert uploads("focus.png") == 1 and uploads("sheet.png") == uploads("map.png") == 0
    assert uploads("market_compact.png") == 1  # a lay moves no price: uploaded once
    [city] = [c for c in await world.suggest_move(table.at(3), "place") if "token in" in c.name]
    done(
        await table.play(3, "move", move=city.value),
        "PRR places a station token in H10 (Pittsburgh) for $40. PRR skips Run Routes: it has "
        "no train. Share price: PRR $67 → $65 (no revenue this turn).",
    )
    assert table.labels == ["Buy a 2-train from the bank for $80"]
    assert "PRR must buy a train" in table.last.embed.fields[0].value
    # the price drop moved PRR's marker: the compact market again, the close-up with the token
    assert uploads("market_compact.png") == 2 and uploads("focus.png") == 2
    done(await table.press(3, "Buy a 2-train"), "PRR buys a 2-train from the bank for $80.")
    # the train changed neither the map nor a price: the bank's figure in the market's header
    assert uploads("market_compact.png") == 3 and uploads("focus.png") == 2
    assert table.thread.messages[-1] is message
    done(await table.play(3, "train", train="2-train"), "PRR buys a 2-train from the bank for $80.")
    done(await table.press(3, "Done"), "PRR passes (Buy Trains).")
    for user in (1, 2, 3, 4):  # stock round 2: everybody passes
        await table.press(user, "Pass")

    # -- operating round 2: routes and dividend ----------------------------------------------
    asking = world.interaction(9, what="routes")
    companies = await world.suggest("view", "detail", asking, "")
    assert [(c.name, c.value) for c in companies] == [("PRR (Pennsylvania Railroad)", "PRR")]
    assert await world.suggest("view", "detail", asking, "nyc") == []
    routes = await world.run(
        "view", world.interaction(9, where=table.thread.id), what="routes", detail="prr", game=None
    )
    assert routes[0].ephemeral and routes[0].text.startswith("PRR can earn $")
    best = int(routes[0].text.split("$")[1].split(":")[0])
    done(await table.play(3, "pass"), "PRR passes (Lay/Upgrade Track).")
    assert table.labels == [f"Run best routes for ${best}"]
    sent = await table.press(3, "Run best routes")
    assert sent[-1].text.startswith(f"Done: PRR runs for ${best} (2-train $")
    assert table.labels == [f"Pay out ${best} (${best // 10} a share)", f"Withhold ${best}"]
    sent = await table.press(3, "Pay out")
    assert sent[-1].text.startswith(f"Done: PRR pays out ${best}")
    assert "Buy a 2-train from the bank for $80" in table.labels
    history = await world.run(
        "view", world.interaction(9, where=table.thread.id), what="history", detail="3", game=None
    )
    assert history[0].ephemeral and history[0].text.splitlines()[-1].startswith(
        f"{await world.bot.service.store.action_count(1)}. PRR pays out ${best}"
    )
    image = await world.run(
        "view", world.interaction(9, where=table.thread.id), what="market", game=None
    )
    assert image == [Sent("Game #1 · market", ephemeral=True, files=["market.png"])]
    assert image[0].files == ["market.png"]
    # the post's Map button shows the full map to whoever presses it, privately
    shown = await table.press(9, "Map")
    assert shown[-1].ephemeral and shown[-1].files == ["map.png"]
    status = await world.run("status", world.interaction(9, where=table.thread.id), game=None)
    assert "Operating Round 2.1" in status[0].text and status[0].ephemeral


async def test_every_refusal_is_private_and_changes_nothing(world):
    table = await open_table(world)
    store = world.bot.service.store
    posted = len(posts(table.thread))

    # not your turn (and the wrong player for a button)
    sent = await table.play(3, "bid", company="SV")
    assert sent[-1] == Sent("Refused: it is not your turn in game #1; waiting for user1", True)
    sent = await table.press(2, "Pass")
    assert sent[-1] == Sent("Refused: it is not your turn in game #1; waiting for user1", True)
    # acting for another seat
    sent = await table.game(
        1, "act", game=None, action='{"type": "pass", "entity": 2, "entity_type": "player"}'
    )
    assert sent[-1] == Sent("Refused: you can only act for your own seat", True)
    # a spectator acting
    sent = await world.play(
        "bid", world.interaction(9, where=table.thread.id), company="SV", game=None
    )
    assert sent[-1] == Sent(
        "Refused: you are not seated in game #1; spectators can only watch", True
    )
    assert await world.suggest_move(table.at(9), "") == []
    # an unaffordable purchase (the engine's reason)
    sent = await table.play(1, "bid", company="BO", price=2000)
    assert sent[-1] == Sent(
        "Refused: user1 cannot afford a $2,000 bid; the most they can bid "
        "on Baltimore & Ohio is $600",
        True,
    )
    # a move that is not open now, and typed text that matches nothing
    sent = await table.play(1, "lay", hex="H10")
    assert sent[-1].text.startswith(
        "Refused: you cannot lay now: it is Bid on Companies in Auction Round 1; tiles are laid "
        "by a company in its operating turn, before its token; you can: /play move Buy SV"
    )
    sent = await table.play(1, "bid", company="Reading")
    assert sent[-1].text.startswith("Refused: nothing you can bid matches 'Reading'; you can: ")
    assert await store.action_count(1) == 0 and len(posts(table.thread)) == posted

    # a stale button from an earlier turn
    old = next(cid for cid, label in table.last.buttons if label.startswith("Pass"))
    await table.press(1, "Pass")
    sent = await world.press(old, table.at(2))
    assert sent[-1] == Sent(
        "Refused: this button is from an earlier turn of game #1; the game "
        "has moved on. Use the newest post's buttons or /play",
        True,
    )
    assert await store.action_count(1) == 1
    # a suggestion picked before the game moved on
    key = (await world.suggest_move(table.at(2), "buy SV"))[0].value
    await table.play(2, "pass")
    await table.play(3, "pass")
    await table.play(4, "pass")
    sent = await table.play(1, "bid", company=key)  # user1's SV key differs from user2's
    assert sent[-1].text == (
        "Refused: that suggestion is no longer available (the game has "
        "moved on); pick again from the list"
    )


async def test_a_refusal_suggests_commands_typed_as_they_read(world):
    """`you can: /play move <a move>`: that text typed into /play move makes the move."""
    table = await open_table(world)
    sent = await table.play(1, "lay", hex="H10")
    offered = sent[-1].text.partition("; you can: ")[2].split("; ")
    assert offered[0] == "/play move Buy SV (Schuylkill Valley) for $20"
    assert offered[-1] == "/play move Pass (Bid on Companies)"
    await table.play(1, "move", move=offered[-1].removeprefix("/play move "))
    assert await world.bot.service.store.action_count(1) == 1
    await table.play(2, "move", move=offered[0].removeprefix("/play move "))
    assert (await world.bot.service.store.actions(1))[-1].payload["company"] == "SV"


async def test_an_illegal_tile_is_refused_with_the_legal_ones(world):
    table = await open_table(world)
    service = world.bot.service
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
    before = await service.store.action_count(1)
    sent = await table.play(3, "lay", hex="H10", tile="9")
    assert sent[-1] == Sent("Refused: tile 9 is not possible in a lay now; possible: 57", True)
    sent = await table.play(3, "lay", hex="A1")
    assert sent[-1] == Sent(
        "Refused: hex A1 is not possible in a lay now; possible: H10, H14", True
    )
    sent = await table.play(3, "lay", hex="H14", tile="7")  # two ways: drawn, to pick one
    assert sent[-1].ephemeral and sent[-1].files == ["lays.png"]
    assert sent[-1].text == (
        "2 ways to lay on H14; pick one (numbered as drawn):\n"
        "1: SW toward I13, W toward Altoona (H12)\n"
        "2: W toward Altoona (H12), NW toward G13"
    )
    sent = await table.game(
        3,
        "act",
        game=None,
        action='{"type": "lay_tile", "entity": "PRR", '
        '"entity_type": "corporation", "hex": "H10", "tile": "57-0", '
        '"rotation": 0}',
    )
    assert sent[-1].ephemeral and sent[-1].text.startswith("Refused: ")
    assert await service.store.action_count(1) == before
    moves = await table.game(3, "view", what="moves", game=None)
    assert moves[-1] == Sent(
        "Your moves (each typed as it reads after /play move):\n"
        "pass: Pass (Lay/Upgrade Track)\nlay: Lay tile 57 on H10: track W to H8, E to "
        "Altoona; Lay tile 7 on H14: track SW to I13, W to Altoona; Lay tile 7 on H14: track W to "
        "Altoona, NW to G13; Lay tile 8 on H14: track W to Altoona, NE to G15; Lay tile 8 on H14: "
        "track W to Altoona, SE to Baltimore; Lay tile 9 on H14: track W to Altoona, E to "
        "Lancaster",
        True,
    )
    assert (await table.game(1, "view", what="moves", game=None))[-1].text == (
        "You have no move to make now."
    )
