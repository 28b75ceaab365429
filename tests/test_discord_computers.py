"""Computer seats through Discord (offline, tests/discord_world.py): games opened with them and
played to the end, a seat handed to the computer and back by `/game-admin computer` and by the
creator's controls, `/play away` and `/play back`; a computer seat is never pinged and never
posts a move while its game is paused."""

from __future__ import annotations

import discord
import pytest

from bot.core.service import computers
from bot.core.service.computers import MARK
from tests.discord_world import GUILD, World, make_world, posts, three_players


@pytest.fixture
async def world(db_path):
    return await make_world(db_path)


async def _opened(world: World, title: str, computers: int, level: str | None, **kw) -> object:
    await world.run(
        "new", world.interaction(1), title=title, computers=computers, level=level, **kw
    )
    thread = list(world.threads.values())[-1]
    await world.run("start", world.interaction(1, where=thread.id), game=None)
    return thread


def _pinged(thread) -> set[int]:
    return {u for m in thread.messages for u in m.pinged}


def _text(thread) -> str:
    return "\n".join(m.content for m in thread.messages)


async def test_a_whole_game_against_computers_in_discord(world):
    thread = await _opened(world, "tally", 2, "random", seats=3, options="target=60")
    assert "Played by the computer: Computer 1 (random), Computer 2 (random)." in _text(thread)
    for _ in range(20):
        game = await world.bot.service.peek(1, lambda g: g, guild_id=GUILD)
        if game.finished:
            break
        await world.play("move", world.interaction(1, where=thread.id), move="add 9", game=None)
    assert game.finished
    text = _text(thread)
    assert "Computer 1 added" in text and "Computer 2 added" in text
    assert "Computer 1 added 3. (computer)" in text.splitlines() and "Final ranking" in text
    assert _pinged(thread) == {1}  # only the person; a computer seat never
    assert {a["type"] for a in game.actions} <= {"add", "pass"}
    assert [a["amount"] for a in game.actions if a["entity"] == 1] == [9] * len(
        [a for a in game.actions if a["entity"] == 1]
    )


async def test_string_railway_played_to_its_end_by_computers_while_away(world):
    thread = await _opened(world, "string_railway", 2, None, seats=3)
    assert "Played by the computer: Computer 1 (standard), Computer 2 (standard)." in _text(thread)
    sent = await world.play("away", world.interaction(1, where=thread.id), level=None, game=None)
    assert sent[-1].text.startswith("Done: user1 is away: the computer (standard) plays")
    pinged_before = len([m for m in thread.messages if m.pinged])
    for _ in range(200):
        if not await world.bot.play_due_computers():
            break
        await world.bot.poster.drain()
    game = await world.bot.service.peek(1, lambda g: g, guild_id=GUILD)
    assert game.finished and not world.bot.service.computers_waiting.is_set()
    assert len([m for m in thread.messages if m.pinged]) == pinged_before  # nobody since
    assert _text(thread).count(MARK) > 20
    back = await world.play("back", world.interaction(1, where=thread.id), game=None)
    assert back[-1].text == "Refused: game #1 is over"


async def test_a_seat_handed_to_the_computer_and_back(world):
    thread = await three_players(world)
    at = lambda user, **kw: world.interaction(user, where=thread.id, **kw)  # noqa: E731
    sent = await world.run("computer", at(5, admin=True), seat=2, level="random", game=None)
    assert sent[-1].text.startswith("Done: user5 handed seat 2 (user2) to the computer")
    add = '{"type": "add", "amount": 4}'
    await world.run("act", at(1, admin=True), action=add, game=None)
    latest = posts(thread)[-1]
    assert latest.pinged == [3] and "user2 added" in latest.text and MARK in latest.text
    status = await world.run("status", at(1), game=None)
    assert "Played by the computer: user2 (random)." in status[-1].text
    assert ("rc:ac:1", "") in status[-1].buttons  # the creator's control for it
    options = [discord.SelectOption(label="Seat 2: user2 · back from the computer", value="2:off")]
    back = await world.select("rc:ac:1", options, "2:off", at(1))
    assert back[-1].text.startswith("Done: user1 took seat 2 (user2) back from the computer")
    await world.run("act", at(3, admin=True), action=add, game=None)
    await world.run("act", at(1, admin=True), action=add, game=None)
    assert posts(thread)[-1].pinged == [2]  # user2 plays (and is pinged) again
    seats = await world.bot.service.store.seats(1)
    assert [(s.user_id, s.computer) for s in seats] == [(1, None), (2, None), (3, None)]


async def test_no_computer_move_is_posted_in_a_paused_game(world):
    thread = await _opened(world, "tally", 2, "random", seats=3)
    at = lambda user, **kw: world.interaction(user, where=thread.id, **kw)  # noqa: E731
    await world.play("away", at(1), level=None, game=None)  # three computers now
    await world.run("pause", at(1, admin=True), game=None)
    moves = await world.bot.service.store.action_count(1)
    thread.send.reset_mock()
    assert await world.bot.play_due_computers(stored=True) == 0
    await world.bot.poster.drain()
    assert posts(thread) == [] and await world.bot.service.store.action_count(1) == moves
    handed = await world.run("computer", at(1, admin=True), seat=2, level="off", game=None)
    assert handed[-1].text.startswith("Done: user1 took seat 2 (Computer 1) back")
    assert await world.bot.service.store.action_count(1) == moves
    await world.run("resume", at(1, admin=True), game=None)
    assert await world.bot.service.store.action_count(1) > moves
    assert not any(p.pinged for p in posts(thread))  # seat 2 is held by nobody: unpinged


async def test_computer_moves_between_two_turns_grow_one_post(world, monkeypatch):
    """The worker's batches while only computers move edit the post they started in: a post
    each would bury the thread (three computers, one move per batch here)."""
    monkeypatch.setattr(computers, "MOVES_PER_CALL", 1)
    thread = await _opened(world, "tally", 2, "random", seats=3, options="target=60")
    at = lambda user, **kw: world.interaction(user, where=thread.id, **kw)  # noqa: E731
    await world.play("away", at(1), level=None, game=None)  # three computers now
    await world.bot.poster.drain()
    thread.send.reset_mock()
    batches = 0
    while await world.bot.play_due_computers():
        batches += 1
        await world.bot.poster.drain()
    game = await world.bot.service.peek(1, lambda g: g, guild_id=GUILD)
    assert game.finished and batches >= 10
    made = posts(thread)
    assert len(made) == 1 and "Final ranking" in made[0].text, [p.text[:60] for p in made]
    stretch = thread.messages[-2]  # opened by the move that left the seats to the computer
    assert stretch.edits >= batches - 1 and stretch.content.count(MARK) >= batches - 1
    assert not made[0].pinged and not stretch.pinged
