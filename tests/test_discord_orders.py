"""Programmed moves in Discord: `/play auto` (set, list, cancel, with suggestions) and the turn
menu's entry, answered to the player alone; the thread tells the moves made for a player
"(programmed)" and pings the next human; why a program stopped reaches its player alone, by
direct message when they allow it, else with their next command."""

from __future__ import annotations

import pytest
from discord import SelectOption

from tests.discord_world import GUILD, make_world, posts
from tests.test_discord_1830 import Table, open_table

AUCTION = "pass in the auction until it ends"


@pytest.fixture
async def world(db_path):
    return await make_world(db_path)


async def auto(table: Table, user: int, what: str, program: str | None = None, **more):
    return await table.world.run(
        "auto", table.at(user), group="play", what=what, program=program, game=None, **more
    )


async def test_play_auto_sets_lists_and_cancels_for_the_player_alone(world):
    table = await open_table(world)
    world_posts = len(posts(table.thread))
    found = await world.suggest("auto", "program", table.at(2, what="set"), "auction bids on ca")
    assert [c.name for c in found] == ["pass in the auction until another player bids on CA"]
    sent = await auto(table, 2, "set", found[0].value)
    assert sent[-1].ephemeral and sent[-1].text == (
        "Programmed: you pass in the auction until another player bids on CA."
    )
    sent = await auto(table, 2, "set", AUCTION)  # instead of the one before
    assert sent[-1].text == (
        f"Programmed: you {AUCTION} (instead of: pass in the auction until another player bids "
        "on CA)."
    )
    await auto(table, 2, "set", "away")
    assert len(posts(table.thread)) == world_posts  # nothing for the thread
    listed = await auto(table, 2, "list")
    assert listed[-1].ephemeral and listed[-1].text == (
        "Your programmed moves in game #1 (only you see them):\n"
        f"- you {AUCTION}\n"
        "- you are away: railchat passes for you in stock rounds, auctions and Buy Companies "
        "steps"
    )
    assert [cid for cid, _ in listed[-1].buttons] == ["rc:o:1:set", "rc:o:1:cancel"]
    theirs = await auto(table, 3, "list")  # Cy sees none of Bob's
    assert theirs[-1].text.startswith("You have no programmed moves in game #1.")
    assert [cid for cid, _ in theirs[-1].buttons] == ["rc:o:1:set"]
    spectator = await auto(table, 9, "set", AUCTION)
    assert spectator[-1].text == (
        "Refused: you are not seated in game #1: only its players program moves, each for "
        "their own seat"
    )
    cancels = await world.suggest("auto", "program", table.at(2, what="cancel"), "")
    assert [c.name for c in cancels][:1] == ["all: every programmed move of yours"]
    sent = await auto(table, 2, "cancel", "all")
    assert sent[-1].text.startswith("Cancelled your programmed move: you")
    assert await world.suggest("auto", "program", table.at(2, what="cancel"), "") == []
    assert (await auto(table, 2, "set"))[-1].text == (
        "Refused: which programmed move to set? pick a suggestion"
    )


async def test_the_thread_tells_programmed_moves_and_pings_the_next_human(world):
    table = await open_table(world)
    await auto(table, 2, "set", AUCTION)
    await auto(table, 3, "set", "away")
    sent = await table.play(1, "pass")
    assert sent[-1].text.startswith("Done: user1 passes (Bid on Companies).")
    post = table.last
    assert post.text.startswith(
        "user1 passes (Bid on Companies). user2 passes (programmed). user3 passes (programmed)."
    )
    assert post.text.endswith("To act: <@4>") and post.pinged == [4]
    assert post.embed.title == "To act: user4"
    assert "Programmed" not in [f.name for f in post.embed.fields]  # railchat's own: untold


async def test_the_turn_prompt_names_an_18xx_program_for_everyone(world):
    table = await open_table(world)
    share_pass = "pass in the next stock round until another player's move changes things"
    await auto(table, 3, "set", share_pass)
    await table.play(1, "pass")  # the turn post is brought up to date
    [field] = [f for f in table.last.embed.fields if f.name == "Programmed"]
    assert field.value == (
        "user3 automatically passes in the next stock round until another player's move "
        "changes things"
    )


async def test_the_turn_menu_shows_whoever_picks_its_entry_their_own_programs(world):
    table = await open_table(world)
    post = table.last
    entry = post.menu[-1]
    assert entry.label == "Your programmed moves…"
    menu_id = next(cid for cid, _ in post.buttons if cid.startswith("rc:s:"))
    shown = await world.select(menu_id, post.menu, entry.value, table.at(3))  # not Cy's turn
    assert shown[-1].ephemeral and shown[-1].text.startswith("You have no programmed moves")
    [(set_id, _)] = shown[-1].buttons  # the menu to set one (none to cancel yet)
    [(_, key)] = await world.bot.service.order_suggestions(
        1, 3, "away", guild_id=GUILD, cancel=False
    )
    made = await world.select(set_id, [SelectOption(label="away", value=key)], key, table.at(3))
    assert made[-1].text.startswith("Programmed: you are away")
    assert await world.bot.service.store.action_count(1) == 1  # Cy's program, and no move


@pytest.mark.parametrize("dm", [True, False])
async def test_why_a_program_stopped_is_told_to_its_player_alone(world, dm):
    table = await open_table(world)
    if dm:
        await world.run("turn-dm", table.at(4), group="settings", dm="on", game=None)
    await auto(table, 3, "set", "away")
    await auto(table, 4, "set", "pass in the auction until another player bids on CA")
    await table.play(1, "bid", company="CA", price="170")
    await table.play(2, "pass")  # Cy passes (away); Dan's program stops: CA has a bid
    why = (
        "Game #1: Your programmed move stopped: user1 bid $170 on CA. (It was: you pass in "
        "the auction until another player bids on CA.)"
    )
    assert why not in table.last.text and "CA" not in table.last.text.split("\n")[-1]
    assert table.last.pinged == [4]
    dms = [text for user, text, *_ in world.dms if user == 4 and "stopped" in text]
    if dm:
        assert dms == [why]
        sent = await table.play(4, "pass")
        assert all(why not in s.text for s in sent)  # told once
    else:
        assert dms == []
        sent = await table.play(4, "pass")  # Dan's next command tells him first
        assert sent[0].ephemeral and sent[0].text == why
        assert sent[-1].text.startswith("Done: user4 passes")
        again = await table.play(1, "pass")
        assert all(why not in s.text for s in again)
