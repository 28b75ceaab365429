"""Discord at the wire: the real discord.py client (its HTTP and gateway code, not stand-ins)
against tests/fake_discord.py on loopback, driven by INTERACTION_CREATE events as Discord
sends them. Command sync, deferred answers and follow-ups (with image attachments), game threads
created by `/game new`, turn posts edited in place; a 429 or a 500 on the way, a dropped
gateway and a redelivered interaction lose or double no move and no post."""

from __future__ import annotations

import asyncio
import io
import json
import random

import pytest
from PIL import Image

from bot.core.service import GameService
from bot.core.store import Store
from bot.discord_ui.app import RailchatBot
from tests.fake_discord import (
    CHANNEL_ID,
    THREAD_ID,
    UPLOAD_LIMIT,
    FakeDiscord,
    channel_data,
)
from tests.wire_bot import (
    ANN,
    BOB,
    answered,
    bots,
    move,
    red_of,
    settled,
    started_fake,
    thread_posts,
    until,
)

POSTS = rf"/channels/{THREAD_ID}/messages"
FAILURES = ("429", "500", "dropped gateway")


@pytest.fixture
async def connect(db_path, monkeypatch):
    async with bots(db_path, monkeypatch) as start:
        yield start


@pytest.fixture
async def wire(connect):
    return await connect()


def fail(fake: FakeDiscord, failure: str, route: str) -> None:
    """The next request of `route` is answered 429 or 500, or drops the gateway."""
    if failure == "dropped gateway":
        fake.drop_at.append(route)
    else:
        fake.failures.setdefault(route, []).append(int(failure))


async def failed(fake: FakeDiscord, failure: str) -> None:
    """The failures asked for happened (and the bot came back after a dropped gateway)."""
    if failure == "dropped gateway":
        assert not fake.drop_at
        await until(lambda: fake.resumes >= 1 and fake.live is not None, "the resume")
    else:
        assert not any(fake.failures.values())
        assert [r for r in fake.requests if r.path.endswith(f" -> {failure}")]


async def test_the_bot_subscribes_to_server_events_and_new_messages_only(wire) -> None:
    """Servers and their channels, and that a message was posted (to keep the live prompt in
    sight); never what messages say, nor typing or presence."""
    assert wire.fake.intents == 1 | 1 << 9  # GUILDS, GUILD_MESSAGES; not MESSAGE_CONTENT


async def test_commands_are_uploaded_again_only_when_they_changed(db_path, monkeypatch) -> None:
    """A restart (say, a crash loop) with the same commands does not upload them again; the
    digest of what was uploaded is kept in the database."""
    uploads = []
    for digest in (None, None, "changed"):
        if digest is not None:
            monkeypatch.setattr(RailchatBot, "command_digest", lambda bot, d=digest: d)
        fake = await started_fake(monkeypatch)
        store = Store(db_path)
        bot = RailchatBot(GameService(store), post_delay=0.01)
        bot._connection.guild_ready_timeout = 0.05
        runner = asyncio.create_task(bot.start("not-a-real-token"))
        await until(bot.is_ready, "the bot to be ready")
        uploads.append(len(fake.calls("PUT", r"/applications/900/commands")))
        await bot.close()
        await asyncio.wait_for(runner, 10)
        await fake.stop()
        store.close()
    assert uploads == [1, 0, 1]


async def test_commands_sync_and_a_move_is_answered_and_posted(wire) -> None:
    fake = wire.fake
    synced = fake.calls("PUT", r"/applications/900/commands")
    assert len(synced) == 1
    groups = {c["name"]: c for c in synced[0].body}
    assert {"game", "play"} <= set(groups)
    assert all(len(c.get("options", [])) <= 25 for c in synced[0].body)
    await move(fake, 7001, ANN, 3)
    await until(lambda: thread_posts(fake), "the thread post")
    callback = fake.calls("POST", r"/interactions/7001/tok7001/callback")
    assert [c.body["type"] for c in callback] == [5]  # deferred, thinking, only to ann
    assert callback[0].body["data"]["flags"] == 64
    await until(lambda: answered(fake, 7001), "the answer")
    [answer] = answered(fake, 7001)
    assert answer.content.startswith("Done") and answer.flags == 64
    [post] = thread_posts(fake)
    assert "ann" in post.lower() and "3" in post
    assert await wire.service.store.action_count(wire.game_id) == 1


async def test_429_and_500_are_retried_without_losing_or_doubling_a_post(wire) -> None:
    fake = wire.fake
    fake.failures[f"POST {POSTS}"] = [429, 500]
    fake.failures[r"POST /webhooks/900/tok7002"] = [500]
    await move(fake, 7002, ANN, 4)
    await until(lambda: thread_posts(fake), "the thread post after 429 and 500")
    await until(lambda: answered(fake, 7002), "the follow-up after a 500")
    await settled(fake)
    assert [r.path for r in fake.requests if r.path.startswith(POSTS)] == [
        f"{POSTS} -> 429",
        f"{POSTS} -> 500",
        POSTS,
    ]
    assert len(thread_posts(fake)) == 1
    assert len(answered(fake, 7002)) == 1
    assert await wire.service.store.action_count(wire.game_id) == 1


async def test_a_dropped_gateway_resumes_and_a_replayed_interaction_is_not_answered_twice(
    wire,
) -> None:
    """An interaction sent again after a resume is the same interaction, with the same token:
    Discord refuses its second acknowledgement (40060), and nothing is applied twice."""
    fake, bot = wire.fake, wire.bot
    await move(fake, 7003, ANN, 2)
    await until(lambda: len(thread_posts(fake)) == 1, "the first post")
    await fake.drop()
    await until(lambda: fake.resumes + fake.identifies >= 2, "the bot to reconnect")
    await until(lambda: fake.live is not None and bot.is_ready(), "the new connection")
    await move(fake, 7003, ANN, 2)  # the same interaction delivered again
    await move(fake, 7004, BOB, 5)  # and a new one on the new connection
    await until(lambda: len(thread_posts(fake)) == 2, "the post of bob's move")
    await until(lambda: fake.refused(40060), "the refusal of a second acknowledgement")
    await settled(fake)
    assert await wire.service.store.action_count(wire.game_id) == 2
    assert len(thread_posts(fake)) == 2
    assert len(answered(fake, 7003)) == 1 and answered(fake, 7003)[0].content.startswith("Done")


async def test_an_interaction_sent_while_the_gateway_is_down_arrives_on_resume(wire) -> None:
    fake = wire.fake
    await fake.drop()
    await move(fake, 7005, ANN, 6)  # Discord holds it until the bot resumes
    await until(lambda: thread_posts(fake), "the post of the move sent during the outage")
    await settled(fake)
    assert fake.resumes == 1 and fake.identifies == 1
    assert len(thread_posts(fake)) == 1 and len(answered(fake, 7005)) == 1
    assert await wire.service.store.action_count(wire.game_id) == 1


# -- follow-ups and posts with attachments --------------------------------------------------------
@pytest.mark.parametrize("failure", FAILURES)
async def test_images_reach_the_thread_post_and_the_follow_up_as_uploads(wire, failure) -> None:
    fake = wire.fake
    fail(fake, failure, f"POST {POSTS}")
    fail(fake, failure, r"POST /webhooks/900/tok7102")
    await move(fake, 7101, ANN, 7)
    await until(lambda: thread_posts(fake), "the turn post with its image")
    await fake.command(7102, ANN, "game", "view", what="map")
    await until(lambda: answered(fake, 7102), "the follow-up with the image")
    await settled(fake)
    await failed(fake, failure)
    [post] = fake.posts(THREAD_ID)
    assert [a.filename for a in post.attachments] == ["board.png"]
    assert red_of(post.attachments[0].data) == 7
    assert [e["title"] for e in post.embeds] == ["To act: bob"]
    [shown] = answered(fake, 7102)
    assert shown.flags == 64 and [a.filename for a in shown.attachments] == ["board.png"]
    assert red_of(shown.attachments[0].data) == 7
    uploads = fake.calls("POST", r"/webhooks/900/tok7102(?: -> \d+)?")
    for request in uploads:  # a retry sends the whole file again
        [upload] = request.files
        assert upload.field == "files[0]" and upload.filename == "board.png"
        assert upload.data == shown.attachments[0].data and len(upload.data) <= UPLOAD_LIMIT
        assert request.body["attachments"] == [{"id": 0, "filename": "board.png"}]
        assert request.body["flags"] == 64
    assert len(uploads) == (1 if failure == "dropped gateway" else 2)
    assert [r.path for r in fake.requests if r.path.startswith(POSTS)] == (
        [POSTS] if failure == "dropped gateway" else [f"{POSTS} -> {failure}", POSTS]
    )
    assert await wire.service.store.action_count(wire.game_id) == 1


# -- game threads ---------------------------------------------------------------------------------
@pytest.mark.parametrize("failure", FAILURES)
async def test_game_new_opens_a_thread_that_the_game_is_played_in(wire, failure) -> None:
    fake, store = wire.fake, wire.service.store
    threads = rf"/channels/{CHANNEL_ID}/messages/\d+/threads"
    fail(fake, failure, f"POST {threads}")
    await fake.command(7201, ANN, "game", "new", where=channel_data(), title="tally", seats=2)
    await until(lambda: answered(fake, 7201), "the answer to /game new")
    [created] = fake.calls("POST", threads)
    assert {k: created.body[k] for k in ("name", "auto_archive_duration")} == {
        "name": "tally · ann's game",
        "auto_archive_duration": 10080,
    }
    [tid] = [t for t in fake.threads if t != THREAD_ID]
    [lobby] = fake.posts(CHANNEL_ID)  # the thread starts from the lobby, with its id
    assert lobby.id == tid and lobby.thread == tid
    assert fake.threads[tid]["parent_id"] == str(CHANNEL_ID)
    assert fake.threads[tid]["type"] == 11 and fake.threads[tid]["name"] == "tally · ann's game"
    [record] = [g for g in await store.games(statuses=None, limit=10) if g.id != wire.game_id]
    assert record.thread_id == tid and record.channel_id == CHANNEL_ID
    assert answered(fake, 7201)[0].content == f"Game #{record.id} is open in <#{tid}>."
    assert fake.calls("PUT", rf"/channels/{tid}/thread-members/11")
    where = fake.threads[tid]
    await fake.command(7202, BOB, "game", "join", where=where)
    await until(lambda: answered(fake, 7202), "the answer to /game join")
    await fake.command(7203, ANN, "game", "start", where=where)
    await until(lambda: answered(fake, 7203), "the answer to /game start")
    await fake.command(
        7204, ANN, "game-admin", "act", where=where, action=json.dumps({"type": "add", "amount": 2})
    )
    await until(
        lambda: any("ann added 2" in p for p in thread_posts(fake, tid)),
        "the move's post in the new thread",
    )
    await settled(fake)
    await failed(fake, failure)
    posted = "\n".join(thread_posts(fake, tid))
    for line in ("ann opened game", "bob joined game", "has started", "ann added 2."):
        assert posted.count(line) == 1, line
    assert fake.deleted == [] and thread_posts(fake) == []
    assert lobby.content.splitlines()[:3] == [
        f"**Game #{record.id} · tally** · in play",
        "Players: 1. ann, 2. bob",
        "To act: bob",
    ]
    assert lobby.components == []
    boards = [a.data for m in fake.posts(tid) for a in m.attachments if a.filename == "board.png"]
    assert red_of(boards[-1]) == 2  # the thread shows the board after the move
    assert await store.action_count(record.id) == 1
    assert len(await store.games(statuses=None, limit=10)) == 2


async def test_a_replayed_game_new_leaves_one_game_and_one_thread(wire) -> None:
    """The same `/game new` sent twice: its second acknowledgement is refused (40060) before
    the bot opens a thread for it."""
    fake, store = wire.fake, wire.service.store
    for _ in range(2):
        await fake.command(7301, ANN, "game", "new", where=channel_data(), title="tally")
    await until(lambda: answered(fake, 7301), "the answer")
    await until(lambda: fake.refused(40060), "the refusal of a second acknowledgement")
    await settled(fake)
    [record] = [g for g in await store.games(statuses=None, limit=10) if g.id != wire.game_id]
    assert [t for t in fake.threads if t != THREAD_ID] == [record.thread_id]
    assert fake.deleted == [] and len(fake.posts(record.thread_id)) == 1
    [answer] = answered(fake, 7301)
    assert answer.content == f"Game #{record.id} is open in <#{record.thread_id}>."


# -- turn posts edited in place -------------------------------------------------------------------
@pytest.mark.parametrize("failure", FAILURES)
async def test_a_turn_post_is_edited_in_place_with_its_new_image(connect, failure) -> None:
    wire = await connect(free_for_all=True)
    fake = wire.fake
    await move(fake, 7401, ANN, 3)
    await until(lambda: thread_posts(fake), "the turn post")
    [first] = fake.posts(THREAD_ID)
    [original] = first.attachments
    edits = rf"/channels/{THREAD_ID}/messages/{first.id}"
    fail(fake, failure, f"PATCH {edits}")
    await move(fake, 7402, BOB, None)  # a pass: the picture stays
    await until(lambda: first.edits == 1, "the edit for bob's pass")
    fail(fake, failure, f"PATCH {edits}")
    await move(fake, 7403, ANN, 2)
    await until(lambda: first.edits == 2, "the edit for ann's second move")
    await settled(fake)
    await failed(fake, failure)
    assert fake.posts(THREAD_ID) == [first] and first.edits == 2
    lines = first.content.splitlines()
    assert lines[:3] == ["ann added 3.", "bob passed.", "ann added 2."]
    assert lines[3:] == ["To act: ann, bob"]
    [image] = first.attachments
    assert image.filename == "board.png" and red_of(image.data) == 5
    [embed] = first.embeds  # brought up to date: both may act
    assert embed["title"] == "To act: ann" and [f["name"] for f in embed["fields"]] == [
        "ann",
        "bob",
    ]
    patches = fake.calls("PATCH", edits)
    assert len(patches) == 2
    kept, replaced = patches
    assert kept.files == [] and kept.body["attachments"][0]["id"] == original.id
    assert [f.filename for f in replaced.files] == ["board.png"]
    assert replaced.body["attachments"] == [{"id": 0, "filename": "board.png"}]
    answered_with_failure = [r for r in fake.requests if r.path.startswith(edits + " -> ")]
    assert len(answered_with_failure) == (0 if failure == "dropped gateway" else 2)
    assert await wire.service.store.action_count(wire.game_id) == 3


def huge_png(game, view: str, *focus: object) -> bytes:
    """A picture over Discord's upload limit (noise does not compress)."""
    buffer = io.BytesIO()
    Image.frombytes(
        "L", (3400, 3400), random.Random(len(game.actions)).randbytes(3400 * 3400)
    ).save(buffer, format="PNG", compress_level=0)
    assert len(buffer.getvalue()) > UPLOAD_LIMIT
    return buffer.getvalue()


async def test_an_image_over_the_upload_limit_is_left_out_with_a_note(connect) -> None:
    """Discord refuses a message whose uploads pass 10 MiB (the fake answers 413): the post and
    the answer go out without the image, saying why."""
    wire = await connect(renderer=huge_png)
    fake = wire.fake
    await move(fake, 7501, ANN, 3)
    await until(lambda: thread_posts(fake), "the turn post")
    await fake.command(7502, ANN, "game", "view", what="map")
    await until(lambda: answered(fake, 7502), "the answer to /game view")
    await settled(fake)
    [post] = fake.posts(THREAD_ID)
    assert post.attachments == [] and "board image is too large to attach" in post.content
    [shown] = answered(fake, 7502)
    assert (
        shown.attachments == []
        and "board.png is 11.0 MiB, more than Discord lets me "
        "upload in one message (10 MiB); it is left out."
        in shown.content
    )


async def test_a_turn_post_deleted_by_a_moderator_is_posted_again_with_its_moves(connect) -> None:
    wire = await connect(free_for_all=True)
    fake = wire.fake
    await move(fake, 7601, ANN, 3)
    await until(lambda: thread_posts(fake), "the turn post")
    [first] = fake.posts(THREAD_ID)
    await fake.delete_message(first.id)  # a moderator deletes it in the Discord client
    await move(fake, 7602, BOB, 4)
    await until(lambda: thread_posts(fake), "the turn posted again")
    await settled(fake)
    [again] = fake.posts(THREAD_ID)
    assert again.content.splitlines()[:2] == ["ann added 3.", "bob added 4."]
    assert [a.filename for a in again.attachments] == ["board.png"]
    assert red_of(again.attachments[0].data) == 7
    assert fake.calls("PATCH", rf"/channels/{THREAD_ID}/messages/{first.id} -> 404")
    await move(fake, 7603, ANN, 1)  # the new post is the one edited from now on
    await until(lambda: again.edits == 1, "the edit of the new post")
    assert again.content.splitlines()[2] == "ann added 1."
