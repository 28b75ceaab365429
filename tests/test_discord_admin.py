"""Discord offline with the Tally title: undo votes by button, admin commands, spectator reads,
reminders, and buttons that keep working after a restart."""

from __future__ import annotations

from datetime import datetime, timedelta
from types import SimpleNamespace

import pytest

from bot.core.service import GameService
from bot.core.store import Store
from bot.discord_ui.app import RailchatBot
from tests.discord_world import Sent, World, make_world, posts, three_players


@pytest.fixture
async def world(db_path):
    return await make_world(db_path)


def add(seat: int, amount: int = 1) -> str:
    return '{"type": "add", "amount": %d, "entity": %d, "entity_type": "player"}' % (amount, seat)


async def test_undo_after_others_moved_is_voted_with_buttons(world):
    thread = await three_players(world)
    for user in (1, 2, 3):
        await world.run(
            "act", world.interaction(user, where=thread.id), game=None, action=add(user)
        )
    sent = await world.run("undo", world.interaction(2, where=thread.id), game=None)
    assert sent[-1].text.startswith("Done: user2 asks to take back actions 2-3")
    post = posts(thread)[-1]
    assert post.pinged == [3] and "user3 must approve" in post.text
    assert [label for _, label in post.buttons][:2] == ["Approve undo", "Reject undo"]
    approve = post.buttons[0][0]
    refused = await world.press(approve, world.interaction(9, where=thread.id))
    assert refused[-1] == Sent(
        "Refused: only the players whose actions would be undone "
        "(user3) or a game admin vote on this undo",
        True,
    )
    done = await world.press(approve, world.interaction(3, where=thread.id))
    assert done[-1].text.startswith("Done: user3 approved: the game is back to action 1")
    assert posts(thread)[-1].text.endswith("To act: <@2>")
    assert await world.bot.service.store.action_count(1) == 1
    again = await world.press(approve, world.interaction(3, where=thread.id))
    assert again[-1] == Sent("Refused: this undo request is already done", True)


async def test_admin_commands(world):
    thread = await three_players(world)
    at = lambda user, **kw: world.interaction(user, where=thread.id, **kw)  # noqa: E731
    refused = await world.run("pause", at(2), game=None)
    assert refused[-1] == Sent(
        "Refused: only the creator of game #1 or a server admin can pause or resume it", True
    )
    await world.run("pause", at(5, admin=True), game=None)
    assert posts(thread)[-1].text.startswith("user5 paused game #1")
    sent = await world.run("act", at(1), game=None, action=add(1))
    assert sent[-1].text == (
        "Refused: game #1 is paused; nothing changes until a game admin resumes it with "
        "/game-admin resume (its creator: /game status)"
    )
    await world.run("resume", at(1), game=None)
    assert posts(thread)[-1].text == "user1 resumed game #1.\nTo act: user1"
    for user in (1, 2):
        await world.run("act", at(user), game=None, action=add(user))
    history = await world.run("view", at(9), what="history", detail="10", game=None)
    assert history[-1] == Sent(
        "Game #1: actions 1-2 of 2\n1. user1 added 1.\n2. user2 added 1.", True
    )
    await world.run("rewind", at(1), action=0, game=None)
    assert posts(thread)[-1].text.startswith(
        "user1 rewound game #1 to action 0, taking back from user1 added 1. (2 actions)"
    )
    await world.run("replace", at(1), seat=3, user=_user(8), game=None)
    assert posts(thread)[-1].text.startswith(
        "user1 offers seat 3 (user3) of game #1 to user8; it is theirs once they accept"
    )
    thread.add_user.assert_awaited()
    await world.run("remind", at(1), hours=6.0, game=None)
    assert posts(thread)[-1].text.startswith("Game #1 reminds whoever must act after 6 h")
    await world.run("abandon", at(1), game=None)
    assert posts(thread)[-1].text.startswith("user1 abandoned game #1")
    sent = await world.run("act", at(1), game=None, action=add(1))
    assert sent[-1].text == "Refused: game #1 was abandoned; it can only be read now"


async def test_spectators_read_privately(world):
    thread = await three_players(world)
    at = world.interaction(42, where=thread.id)
    for view in ("market", "sheet"):
        sent = await world.run("view", world.interaction(42, where=thread.id), what=view, game=None)
        assert sent == [Sent("Refused: tally has no %s image (it has: board)" % view, True)]
    sent = await world.run("view", world.interaction(42, where=thread.id), what="map", game=None)
    assert sent[-1].ephemeral and sent[-1].files == ["board.png"]  # the title's board
    sent = await world.run("view", at, what="routes", detail="PRR", game=None)
    assert sent == [Sent("Refused: tally has no train routes", True)]
    asking = world.interaction(42, where=thread.id, what="routes")
    assert await world.suggest("view", "detail", asking, "") == []
    sent = await world.run("view", world.interaction(42, where=thread.id), what="moves", game=None)
    assert sent == [Sent("You have no move to make now.", True)]
    sent = await world.run("status", world.interaction(42, where=thread.id), game=None)
    assert sent[-1].ephemeral and "To act: user1" in sent[-1].text


async def test_reminders_are_posted_once_per_period(world):
    thread = await three_players(world)
    since = datetime.fromisoformat((await world.bot.service.store.game(1)).turn_since)
    for hours, count in ((1, 0), (24.02, 1), (30, 0)):
        sweep = await world.bot.send_reminders(since + timedelta(hours=hours))
        assert len(sweep.reminders) == count
    reminder = thread.send.call_args
    assert reminder.args[0] == "Reminder: game #1 has waited 24 h for user1.\n<@1>"


async def test_buttons_work_after_a_restart_and_refuse_when_stale(db_path):
    world = await make_world(db_path)
    thread = await three_players(world)
    await world.run("act", world.interaction(1, where=thread.id), game=None, action=add(1))
    stale = posts(thread)[0].buttons  # the start post had none: tally has no quick moves
    assert stale == []
    restarted = RailchatBot(GameService(Store(db_path)), post_delay=0)
    await restarted.load_cogs()
    again = World(restarted)
    again.threads[thread.id] = thread
    sent = await again.press("rc:m:1:1:pass", again.interaction(2, where=thread.id))
    assert sent[-1] == Sent(
        "Refused: this button is from an earlier turn of game #1; the game "
        "has moved on. Use the newest post's buttons or /play",
        True,
    )
    version = (await restarted.service.store.game(1)).version
    sent = await again.press(f"rc:m:1:{version}:payout", again.interaction(2, where=thread.id))
    assert sent[-1] == Sent("Refused: that button's move (payout) is not open to you now", True)
    sent = await again.press(f"rc:m:1:{version}:pass", again.interaction(2, where=thread.id))
    assert sent[-1] == Sent("Done: user2 passed.", True)
    assert posts(thread)[-1].text == "user2 passed.\nTo act: <@3>"


def _user(user_id: int):
    return SimpleNamespace(id=user_id, display_name=f"user{user_id}")


async def test_an_admin_undoing_another_players_move_confirms_it_first(world):
    thread = await three_players(world)
    await world.run("act", world.interaction(1, where=thread.id), game=None, action=add(1, 4))
    store = world.bot.service.store
    sent = await world.run("undo", world.interaction(5, where=thread.id, admin=True), game=None)
    assert sent[-1].ephemeral and sent[-1].text == (
        "This takes back user1's move (action 1): user1 added 4. Confirm to take it back."
    )
    [(custom_id, label)] = sent[-1].buttons
    assert label == "Confirm undo" and await store.action_count(1) == 1  # nothing taken back yet
    sent = await world.press(custom_id, world.interaction(5, where=thread.id, admin=True))
    assert sent[-1].text.startswith("Done: user5 undid action 1: user1 added 4.")
    assert await store.action_count(1) == 0
    # typed at once with confirm:yes; the player's own undo never asks
    await world.run("act", world.interaction(1, where=thread.id), game=None, action=add(1, 2))
    sent = await world.run(
        "undo", world.interaction(5, where=thread.id, admin=True), confirm=True, game=None
    )
    assert sent[-1].text.startswith("Done: user5 undid action 1: user1 added 2.")
    await world.run("act", world.interaction(1, where=thread.id), game=None, action=add(1, 3))
    sent = await world.run("undo", world.interaction(1, where=thread.id), game=None)
    assert sent[-1].text.startswith("Done: user1 undid action 1")


async def test_redo_through_the_command_tree(world):
    thread = await three_players(world)
    await world.run("act", world.interaction(1, where=thread.id), game=None, action=add(1, 4))
    await world.run("undo", world.interaction(1, where=thread.id), game=None)
    sent = await world.run("redo", world.interaction(2, where=thread.id), game=None)
    assert sent[-1] == Sent("Refused: only user1 (who undid it) or a game admin can redo it", True)
    sent = await world.run("redo", world.interaction(1, where=thread.id), game=None)
    assert sent[-1].text.startswith("Done: user1 redid action 1: user1 added 4.")
    assert await world.bot.service.store.action_count(1) == 1
    post = posts(thread)[-1]
    assert post.text.startswith("user1 redid action 1: user1 added 4.") and post.pinged == [2]
