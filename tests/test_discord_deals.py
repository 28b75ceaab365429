"""Discord offline with the Tally title: a deal that takes another player's property is asked
in the thread (the other owner @mentioned, Accept/Decline buttons that work after a restart),
answered by button or by /play answer; and a restart does not mention again
whoever was already mentioned for the turn."""

from __future__ import annotations

import pytest

from bot.core.service import GameService
from bot.core.store import Store
from bot.discord_ui.app import RailchatBot
from tests.discord_world import GUILD, Sent, World, fake_renderer, make_world, posts, three_players


def take(entity: int, source: int, amount: int) -> str:
    return '{"type": "take", "entity": %d, "entity_type": "player", "from": %d, "amount": %d}' % (
        entity,
        source,
        amount,
    )


@pytest.fixture
async def world(db_path):
    return await make_world(db_path)  # seed 7: user1 5 points, user2 2, user3 6


def restart(db_path, thread) -> World:
    """A new bot process on the same database; the thread is still there."""
    bot = RailchatBot(GameService(Store(db_path)), renderer=fake_renderer, post_delay=0)
    world = World(bot)
    world.threads[thread.id] = thread
    return world


async def test_a_deal_is_asked_in_the_thread_and_accepted_by_button_after_a_restart(db_path):
    world = await make_world(db_path)
    thread = await three_players(world)
    await world.run("turn-dm", world.interaction(2), group="settings", dm="on", game=None)
    sent = await world.run(
        "act", world.interaction(1, where=thread.id), game=None, action=take(1, 2, 2)
    )
    assert sent[-1] == Sent("Done: user1 proposes deal #1 to user2: user1 took 2 from user2.", True)
    post = posts(thread)[-1]
    assert post.text == (
        "user1 proposes deal #1 to user2: user1 took 2 from user2.\nuser2, do you agree? Until "
        "you answer nothing changes; the deal lapses if the game moves on first.\n"
        "To answer: <@2>\nTo act: user1"
    )  # user1 was mentioned for this turn already
    assert post.pinged == [2] and post.files == {}
    assert world.dms == [(2, f"A request awaits your answer in game #1: {thread.jump_url}")]
    assert post.buttons == [
        ("rc:d:1:yes", "Accept deal"),
        ("rc:d:1:no", "Decline deal"),
        ("rc:m:1:1:pass", "pass"),
    ]  # then the proposer's one-click moves
    assert await world.bot.service.store.action_count(1) == 0

    again = restart(db_path, thread)
    await again.bot.load_cogs()
    sent = await again.press("rc:d:1:yes", again.interaction(3, where=thread.id))
    assert sent[-1] == Sent("Refused: only user2 can accept deal #1: it takes their property", True)
    sent = await again.press("rc:d:1:no", again.interaction(3, where=thread.id))
    assert sent[-1] == Sent(
        "Refused: only user2 (whose property deal #1 takes), user1 (who "
        "proposed it) or a game admin can decline it",
        True,
    )
    sent = await again.press("rc:d:1:yes", again.interaction(2, where=thread.id))
    assert sent[-1] == Sent("Done: user2 accepted deal #1: user1 took 2 from user2.", True)
    post = posts(thread)[-1]
    assert post.text == "user2 accepted deal #1: user1 took 2 from user2.\nTo act: <@2>"
    assert list(post.files) == ["board.png"]
    assert post.buttons == [("rc:s:1:2", ""), ("rc:m:1:2:pass", "pass")]  # the menu, a button
    store = again.bot.service.store
    assert [(a.user_id, a.payload["type"]) for a in await store.actions(1)] == [(1, "take")]
    for answer in ("yes", "no"):  # the deal's buttons are stale now
        sent = await again.press(f"rc:d:1:{answer}", again.interaction(2, where=thread.id))
        assert sent[-1] == Sent("Refused: this deal was already accepted and made", True)


async def test_deals_are_answered_with_play_answer_and_lapse(world):
    thread = await three_players(world)
    at = lambda user: world.interaction(user, where=thread.id)  # noqa: E731
    await world.run("act", at(1), game=None, action=take(1, 3, 4))
    choices = await world.suggest("answer", "request", at(3), "")
    assert [(c.name, c.value) for c in choices] == [
        ("deal #1 from user1: user1 took 4 from user3.", "r:1")
    ]
    assert await world.suggest("answer", "request", at(3), "9") == []
    sent = await world.play("answer", at(3), request="r:1", answer="no")
    assert sent[-1] == Sent(
        "Done: user3 declined deal #1 (user1 took 4 from user3.); nothing changed.", True
    )
    assert posts(thread)[-1].text == (
        "user3 declined deal #1 (user1 took 4 from user3.); nothing changed.\nTo act: user1"
    )
    sent = await world.play("answer", at(3), request="1", answer="yes")  # typed, not picked
    assert sent[-1] == Sent("Refused: this deal was declined or withdrawn", True)

    await world.run("act", at(1), game=None, action=take(1, 3, 4))
    await world.run(
        "act",
        at(1),
        game=None,
        action='{"type": "add", "amount": 1, "entity": 1, "entity_type": "player"}',
    )
    assert posts(thread)[-1].text == (
        "user1 added 1.\nDeal #2 (user1's: user1 took 4 from user3.) lapsed: the game moved on "
        "before it was accepted.\nTo act: <@2>"
    )
    sent = await world.play("answer", at(3), request="#2", answer="yes")
    assert sent[-1].text.startswith("Refused: this deal lapsed: the game moved on")
    sent = await world.press("rc:d:2:yes", at(3))  # the lapsed deal's button
    assert sent[-1].text.startswith("Refused: this deal lapsed: the game moved on")
    assert await world.suggest("answer", "request", at(3), "") == []

    sent = await world.run("act", at(2), game=None, action=take(2, 1, 99))
    assert sent[-1] == Sent("Refused: user1 has only 6 points", True)  # nobody is asked
    assert await world.bot.service.open_requests(1, guild_id=GUILD) == []


async def test_a_restart_does_not_mention_again_whoever_was_mentioned(db_path):
    world = await make_world(db_path)
    thread = await three_players(world)
    assert posts(thread)[-1].text.endswith("To act: <@1>")
    again = restart(db_path, thread)
    await again.bot.load_cogs()
    await again.run("remind", again.interaction(1, where=thread.id), hours=6.0, game=None)
    post = posts(thread)[-1]
    assert post.text.endswith("To act: user1") and post.pinged == []
    await again.run(
        "act",
        again.interaction(1, where=thread.id),
        game=None,
        action='{"type": "pass", "entity": 1, "entity_type": "player"}',
    )
    post = posts(thread)[-1]
    assert post.text == "user1 passed.\nTo act: <@2>" and post.pinged == [2]
    assert (await again.bot.service.store.game(1)).mentioned == (2,)
