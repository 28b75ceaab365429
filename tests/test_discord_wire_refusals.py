"""The real bot when Discord refuses it, at the wire: a turn post Discord will not let it edit
(archived thread, old message past its edit limit, an image it may no longer attach), a turn
post grown past 2,000 characters, an answer given after its 15-minute token, a direct message
to a player who closed them. No move and no line of the thread may be lost."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest

from bot.core.results import Caller
from tests.fake_discord import CHANNEL_ID, GUILD_ID, THREAD_ID, FakeDiscord, channel_data
from tests.wire_bot import ANN, BOB, SlowStore, answered, bots, move, thread_posts, until


@pytest.fixture
async def connect(db_path, monkeypatch):
    async with bots(db_path, monkeypatch) as start:
        yield start


async def refused_then_posted(fake: FakeDiscord, code: int, line: str) -> list[str]:
    """Wait for Discord's refusal `code`, then (briefly) for `line` in a post of the thread;
    the thread's posts."""
    await until(lambda: fake.refused(code), f"the refusal {code}")
    try:
        await until(lambda: any(line in p for p in thread_posts(fake)), f"{line!r} posted", 1)
    except AssertionError:
        pass  # the assertions below say what is missing
    return thread_posts(fake)


async def test_a_turn_post_in_an_archived_thread_goes_on_in_a_new_post(connect) -> None:
    """The thread archived itself after a week; bob moves from the channel: the turn's post
    may not be edited (50083), a new post (which unarchives the thread) carries the turn."""
    wire = await connect(free_for_all=True)
    fake = wire.fake
    await move(fake, 7901, ANN, 3)
    await until(lambda: thread_posts(fake), "the turn post")
    await fake.archive(THREAD_ID)
    await fake.command(
        7902, BOB, "game-admin", "act", where=channel_data(), action='{"type": "pass"}'
    )
    posts = await refused_then_posted(fake, 50083, "bob passed.")
    assert len(posts) == 2 and posts[1].splitlines()[:2] == ["ann added 3.", "bob passed."]


async def test_a_turn_post_past_the_edit_limit_goes_on_in_a_new_post(connect) -> None:
    wire = await connect(free_for_all=True)
    fake = wire.fake
    await move(fake, 7911, ANN, 3)
    await until(lambda: thread_posts(fake), "the turn post")
    [first] = fake.posts(THREAD_ID)
    fake.limit_old_edits(first.id)  # an hour old, and Discord's edits of those used up
    await move(fake, 7912, BOB, 4)
    posts = await refused_then_posted(fake, 30046, "bob added 4.")
    assert len(posts) == 2 and posts[1].splitlines()[:2] == ["ann added 3.", "bob added 4."]


async def test_a_turn_post_that_may_not_attach_its_image_loses_no_line(connect) -> None:
    """Attach Files taken away in the channel: the edit uploading the new board is refused
    (50013); the move's line still reaches the thread."""
    wire = await connect(free_for_all=True)
    fake = wire.fake
    await move(fake, 7921, ANN, 3)
    await until(lambda: thread_posts(fake), "the turn post")
    fake.deny(CHANNEL_ID, "attach_files")
    await move(fake, 7922, BOB, 4)  # the board changes: a new image
    posts = await refused_then_posted(fake, 50013, "bob added 4.")
    assert any(p.splitlines()[:2] == ["ann added 3.", "bob added 4."] for p in posts)


async def test_a_turn_post_over_2000_characters_goes_on_in_a_new_post(connect) -> None:
    """A long turn (everyone may move at any time): the post keeps every line, the newest in
    the newest post."""
    wire = await connect(free_for_all=True, options={"target": 10**6})
    fake, bot = wire.fake, wire.bot
    ann = Caller(11, "ann", guild_id=GUILD_ID)
    added = [1 + n % 9 for n in range(200)]  # 200 lines of 12 characters
    moves = [{"type": "add", "amount": amount} for amount in added]
    results = [await wire.service.act(wire.game_id, ann, action) for action in moves]
    for result in results:  # gathered into one post, as rapid moves are
        bot.poster.queue(result)
    await bot.poster.drain()
    await move(fake, 7931, BOB, 5)
    await until(lambda: answered(fake, 7931), "the answer to bob's move")
    await asyncio.sleep(0.5)
    lines = [line for post in thread_posts(fake) for line in post.splitlines()]
    expected = [f"ann added {n}." for n in added] + ["bob added 5."]
    assert [line for line in lines if " added " in line] == expected
    assert thread_posts(fake)[-1].splitlines()[-2] == "bob added 5."


async def test_an_answer_after_its_token_expired_is_lost_but_not_the_move(
    connect, monkeypatch
) -> None:
    """The store took so long (here: the clock jumps) that the follow-up comes after the
    interaction's 15 minutes (50027): the user's answer never arrives, the move and its post
    do."""
    wire = await connect()
    fake = wire.fake
    SlowStore(monkeypatch, wire.service, 0.3)
    await move(fake, 7941, ANN, 3)
    await until(lambda: fake.interaction(7941).answer == 5, "the deferral")
    fake.clock.advance(15 * 60 + 1)
    await until(lambda: fake.refused(50027), "the follow-up refused")
    await until(lambda: thread_posts(fake), "the move's post")
    assert answered(fake, 7941) == []  # still "thinking" for ann
    assert thread_posts(fake)[0].splitlines()[0] == "ann added 3."
    assert await wire.service.store.action_count(wire.game_id) == 1


async def test_a_player_with_closed_dms_is_still_pinged_in_the_thread(connect) -> None:
    wire = await connect()
    fake = wire.fake
    await fake.command(7951, BOB, "settings", "turn-dm", dm="on")
    await until(lambda: answered(fake, 7951), "the answer to /settings turn-dm")
    fake.close_dms(12)
    await move(fake, 7952, ANN, 3)
    await until(lambda: fake.refused(50007), "the DM refused")
    await asyncio.sleep(0.2)
    [post] = thread_posts(fake)
    assert post.splitlines() == ["ann added 3.", "To act: <@12>"]


async def test_a_reminder_by_direct_message_to_closed_dms_is_refused_and_not_repeated(
    connect,
) -> None:
    """ann takes reminders by DM, bob too but has closed his: the second reminder goes to
    both by DM; Discord refuses bob's (50007), ann's arrives, and neither is sent again."""
    wire = await connect(free_for_all=True)
    fake = wire.fake
    for iid, who in ((7961, ANN), (7962, BOB)):
        await fake.command(iid, who, "settings", "reminder-dm", dm="on")
        await until(lambda: answered(fake, iid), "the answer to /settings reminder-dm")
    fake.close_dms(12)
    since = datetime.fromisoformat((await wire.service.store.game(wire.game_id)).turn_since)
    await wire.bot.send_reminders(since + timedelta(hours=24))
    await until(lambda: thread_posts(fake), "the first reminder, in the thread")
    second = await wire.bot.send_reminders(since + timedelta(hours=48))
    assert not second.reminders[0].in_thread
    await until(lambda: fake.refused(50007), "bob's DM refused")
    [dm_channel] = [c for c, u in fake.world.dm_channels.items() if u == 11]
    [dm] = fake.posts(dm_channel)
    assert dm.content.startswith(f"Reminder: game #{wire.game_id} (tally) has waited 2 days")
    assert (await wire.bot.send_reminders(since + timedelta(hours=49))).reminders == ()
    assert thread_posts(fake)[0].startswith(f"Reminder: game #{wire.game_id} has waited 24 h")
