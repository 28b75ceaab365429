"""Chat below a game's live prompt: a phone shows about five messages, so when players talk
the prompt (with its images, menu and buttons) goes out of sight. After five messages from
others and a quiet spell it is posted again below, its older copy deleted and nobody pinged
again; a move made meanwhile goes to a new post below the chat instead of the buried one."""

from __future__ import annotations

import pytest

from bot.discord_ui.thread_posts import BUMP_AFTER
from tests.fake_discord import THREAD_ID
from tests.wire_bot import ANN, BOB, bots, move, red_of, settled, until


@pytest.fixture
async def connect(db_path, monkeypatch):
    async with bots(db_path, monkeypatch) as start:
        yield start


def bot_posts(fake):
    return [m for m in fake.posts(THREAD_ID) if m.author is None]


async def chat(fake, count: int) -> None:
    for n in range(count):
        await fake.say(BOB if n % 2 else ANN, f"chat {n}")


async def test_chat_that_buries_the_prompt_gets_it_posted_again_below(connect) -> None:
    wire = await connect(free_for_all=True)
    fake = wire.fake
    wire.bot.poster.bump_quiet = 0.3
    await move(fake, 7701, ANN, 3)
    await until(lambda: bot_posts(fake), "the turn post")
    [first] = bot_posts(fake)
    await chat(fake, BUMP_AFTER)
    await until(lambda: first.id in fake.deleted_messages, "the buried prompt deleted", 10)
    [again] = bot_posts(fake)
    everything = fake.posts(THREAD_ID)
    assert everything[-1] is again  # the newest message of the thread
    assert first.content.splitlines() == ["ann added 3.", "To act: <@11> <@12>"]
    assert again.content.splitlines() == ["ann added 3.", "To act: ann, bob"]  # no new ping
    assert again.embeds == first.embeds
    assert again.components == first.components
    assert [a.filename for a in again.attachments] == ["board.png"]
    assert red_of(again.attachments[0].data) == 3
    [sent] = fake.calls("POST", rf"/channels/{THREAD_ID}/messages")[-1:]
    assert sent.body["allowed_mentions"]["users"] == []  # not pinged a second time
    await settled(fake)


async def test_less_chat_leaves_the_prompt_where_it_is(connect) -> None:
    wire = await connect(free_for_all=True)
    fake = wire.fake
    wire.bot.poster.bump_quiet = 0.1
    await move(fake, 7711, ANN, 3)
    await until(lambda: bot_posts(fake), "the turn post")
    await chat(fake, BUMP_AFTER - 1)
    await settled(fake)
    await move(fake, 7712, BOB, 2)
    [first] = bot_posts(fake)
    await until(lambda: first.edits == 1, "the move edited into the post")
    assert [m.content for m in fake.posts(THREAD_ID)][1:] == [f"chat {n}" for n in range(4)]


async def test_a_move_after_chat_goes_below_it_with_the_turns_moves(connect) -> None:
    wire = await connect(free_for_all=True)
    fake = wire.fake
    wire.bot.poster.bump_quiet = 60.0  # the move comes before the quiet spell ends
    await move(fake, 7721, ANN, 3)
    await until(lambda: bot_posts(fake), "the turn post")
    [first] = bot_posts(fake)
    await chat(fake, BUMP_AFTER + 2)
    await move(fake, 7722, BOB, 4)
    await until(lambda: first.id in fake.deleted_messages, "the buried post deleted")
    [again] = bot_posts(fake)
    assert fake.posts(THREAD_ID)[-1] is again
    assert again.content.splitlines()[:2] == ["ann added 3.", "bob added 4."]
    assert red_of(again.attachments[0].data) == 7
    await move(fake, 7723, ANN, 1)  # no more chat: edited in place again
    await until(lambda: again.edits == 1, "the edit of the new post")
    await settled(fake)
