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
from dataclasses import dataclass

import aiohttp
import discord
import pytest
import yarl
from PIL import Image

from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from bot.discord_ui.app import RailchatBot
from engine.game import TurnInfo
from tests.fake_discord import (
    CHANNEL_ID,
    GUILD_ID,
    THREAD_ID,
    UPLOAD_LIMIT,
    FakeDiscord,
    Posted,
    channel_data,
    command_interaction,
    user,
)
from tests.titles_for_tests import Tally

ANN, BOB = user(11, "ann"), user(12, "bob")
POSTS = rf"/channels/{THREAD_ID}/messages"
LOG: list = []  # the running fake's requests, named when a wait times out
FAILURES = ("429", "500", "dropped gateway")


@dataclass
class Wire:
    fake: FakeDiscord
    bot: RailchatBot
    service: GameService
    game_id: int


async def until(condition, what: str, seconds: float = 15.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    seen = [(r.method, r.path) for r in LOG[0]]
    raise AssertionError(f"timed out waiting for {what}; requests: {seen}")


def board_png(game, view: str, *focus: object) -> bytes:
    """A stand-in for render/ that the tests can read back: a PNG whose red channel is the
    sum of the amounts added in the game's log (a pass leaves the picture as it was)."""
    added = sum(a.get("amount", 0) for a in game.actions if a.get("type") == "add")
    buffer = io.BytesIO()
    Image.new("RGB", (48, 32), (added % 256, 40, 80)).save(buffer, format="PNG")
    return buffer.getvalue()


def red_of(png: bytes) -> int:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (48, 32)
    return image.getpixel((0, 0))[0]


def tally_turn(game) -> list[TurnInfo]:
    """A turn prompt for the test title, so that posts carry an embed."""
    return [
        TurnInfo(p, None, "Add 1 to 9, or pass", (f"Score {game.scores[p]}",))
        for p in game.active_players()
    ]


@pytest.fixture
async def connect(db_path, monkeypatch):
    """Start the bot on the fake Discord with a started two-player tally game in THREAD_ID
    (`free_for_all`: both may add at any time, so one turn post collects every move)."""
    running: list[tuple[Wire, asyncio.Task]] = []
    monkeypatch.setattr(Tally, "turn_info", tally_turn, raising=False)

    async def start(free_for_all: bool = False, renderer=board_png) -> Wire:
        fake = FakeDiscord()
        LOG[:] = [fake.requests]
        await fake.start()
        monkeypatch.setattr(discord.http.Route, "BASE", f"{fake.base}/api/v10")
        monkeypatch.setattr(
            discord.gateway.DiscordWebSocket,
            "DEFAULT_GATEWAY",
            yarl.URL(f"ws://127.0.0.1:{fake.port}/ws"),
        )
        service = GameService(Store(db_path), new_seed=lambda: 1)
        ann, bob = Caller(11, "ann", guild_id=GUILD_ID), Caller(12, "bob", guild_id=GUILD_ID)
        created = await service.create_game(
            ann,
            "tally",
            seats=2,
            guild_id=GUILD_ID,
            channel_id=CHANNEL_ID,
            thread_id=THREAD_ID,
            options={"free_for_all": True} if free_for_all else None,
        )
        await service.join(created.game_id, bob)
        await service.start(created.game_id, ann)
        bot = RailchatBot(service, renderer=renderer, post_delay=0.01)
        bot._connection.guild_ready_timeout = 0.05  # discord.py's wait for more servers
        wire = Wire(fake, bot, service, created.game_id)
        running.append((wire, asyncio.create_task(bot.start("not-a-real-token"))))
        await until(bot.is_ready, "the bot to be ready")
        return wire

    yield start
    for wire, runner in running:
        await wire.bot.close()
        await asyncio.wait_for(runner, 10)
        await wire.fake.stop()
        wire.service.store.close()


@pytest.fixture
async def wire(connect) -> Wire:
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


async def command(
    fake: FakeDiscord,
    iid: int,
    who: dict,
    group: str,
    sub: str,
    where: dict | None = None,
    **options,
) -> None:
    await fake.dispatch(
        "INTERACTION_CREATE",
        command_interaction(iid, who, group, sub, options, where or fake.threads[THREAD_ID]),
    )


async def move(fake: FakeDiscord, iid: int, who: dict, amount: int | None) -> None:
    action = {"type": "add", "amount": amount} if amount else {"type": "pass"}
    await command(fake, iid, who, "game", "act", action=json.dumps(action))


def answered(fake: FakeDiscord, iid: int) -> list[Posted]:
    """The messages that answered interaction `iid` (at once, or deferred and followed up)."""
    return fake.posts(f"tok{iid}")


def thread_posts(fake: FakeDiscord, thread: int = THREAD_ID) -> list[str]:
    return [m.content for m in fake.posts(thread)]


async def settled(fake: FakeDiscord) -> None:
    """Give a doubled post or edit the time to arrive; nothing was refused as over Discord's
    limits."""
    await asyncio.sleep(0.3)
    assert not [r.path for r in fake.requests if r.path.endswith(("-> 400", "-> 413"))]


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


async def test_a_dropped_gateway_resumes_and_a_redelivered_interaction_is_applied_once(
    wire,
) -> None:
    fake, bot = wire.fake, wire.bot
    await move(fake, 7003, ANN, 2)
    await until(lambda: len(thread_posts(fake)) == 1, "the first post")
    await fake.drop()
    await until(lambda: fake.resumes + fake.identifies >= 2, "the bot to reconnect")
    await until(lambda: fake.live is not None and bot.is_ready(), "the new connection")
    await move(fake, 7003, ANN, 2)  # the same interaction delivered again
    await move(fake, 7004, BOB, 5)  # and a new one on the new connection
    await until(lambda: len(thread_posts(fake)) == 2, "the post of bob's move")
    await until(lambda: len(answered(fake, 7003)) == 2, "the answer to the redelivered interaction")
    await settled(fake)
    assert await wire.service.store.action_count(wire.game_id) == 2
    assert len(thread_posts(fake)) == 2
    assert "already handled" in answered(fake, 7003)[-1].content


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
    await command(fake, 7102, ANN, "game", "show", view="board")
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
    threads = rf"/channels/{CHANNEL_ID}/threads"
    fail(fake, failure, f"POST {threads}")
    await command(fake, 7201, ANN, "game", "new", where=channel_data(), title="tally", seats=2)
    await until(lambda: answered(fake, 7201), "the answer to /game new")
    [created] = fake.calls("POST", threads)
    assert {k: created.body[k] for k in ("name", "type", "auto_archive_duration")} == {
        "name": "tally · ann's game",
        "type": 11,
        "auto_archive_duration": 10080,
    }
    [tid] = [t for t in fake.threads if t != THREAD_ID]
    assert fake.threads[tid]["parent_id"] == str(CHANNEL_ID)
    assert fake.threads[tid]["type"] == 11 and fake.threads[tid]["name"] == "tally · ann's game"
    [record] = [g for g in await store.games(statuses=None, limit=10) if g.id != wire.game_id]
    assert record.thread_id == tid and record.channel_id == CHANNEL_ID
    assert answered(fake, 7201)[0].content == f"Game #{record.id} is open in <#{tid}>."
    assert fake.calls("PUT", rf"/channels/{tid}/thread-members/11")
    where = fake.threads[tid]
    await command(fake, 7202, BOB, "game", "join", where=where)
    await until(lambda: answered(fake, 7202), "the answer to /game join")
    await command(fake, 7203, ANN, "game", "start", where=where)
    await until(lambda: answered(fake, 7203), "the answer to /game start")
    await command(
        fake, 7204, ANN, "game", "act", where=where, action=json.dumps({"type": "add", "amount": 2})
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
    boards = [a.data for m in fake.posts(tid) for a in m.attachments if a.filename == "board.png"]
    assert red_of(boards[-1]) == 2  # the thread shows the board after the move
    assert await store.action_count(record.id) == 1
    assert len(await store.games(statuses=None, limit=10)) == 2


async def test_a_redelivered_game_new_leaves_one_game_and_one_thread(wire) -> None:
    fake, store = wire.fake, wire.service.store
    for _ in range(2):
        await command(fake, 7301, ANN, "game", "new", where=channel_data(), title="tally")
    await until(lambda: len(answered(fake, 7301)) == 2, "both answers")
    await settled(fake)
    [record] = [g for g in await store.games(statuses=None, limit=10) if g.id != wire.game_id]
    new_threads = [t for t in fake.threads if t != THREAD_ID]
    assert len(new_threads) == 2 and fake.deleted == [
        t for t in new_threads if t != record.thread_id
    ]
    assert fake.posts(fake.deleted[0]) == [] and len(fake.posts(record.thread_id)) == 1
    # the two deliveries run side by side: either may be the one told it was already handled
    answers = sorted("already handled" in m.content for m in answered(fake, 7301))
    assert answers == [False, True]


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
    await command(fake, 7502, ANN, "game", "show", view="board")
    await until(lambda: answered(fake, 7502), "the answer to /game show")
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
    del fake.messages[first.id]  # a moderator deletes it in the Discord client
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


async def test_the_fake_refuses_what_discord_refuses() -> None:
    """The limits the other tests rely on: over 2000 characters, 25 menu options or 10 MiB of
    uploads, or a command with a required option after an optional one, Discord answers 400
    or 413."""
    fake = FakeDiscord()
    await fake.start()
    url = f"{fake.base}/api/v10{POSTS}"
    menu = {
        "type": 1,
        "components": [
            {
                "type": 3,
                "custom_id": "m",
                "options": [{"label": str(n), "value": str(n)} for n in range(26)],
            }
        ],
    }
    try:
        async with aiohttp.ClientSession() as session:
            for payload in ({"content": "x" * 2001}, {"content": "x", "components": [menu]}):
                async with session.post(url, json=payload) as answer:
                    assert answer.status == 400
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps({"content": "big"}))
            form.add_field("files[0]", b"\0" * (UPLOAD_LIMIT + 1), filename="big.png")
            async with session.post(url, data=form) as answer:
                assert answer.status == 413
            async with session.post(url, json={"content": "x" * 2000}) as answer:
                assert answer.status == 200
            command = {
                "name": "game",
                "description": "d",
                "options": [
                    {"name": "a", "description": "d", "type": 3},
                    {"name": "b", "description": "d", "type": 3, "required": True},
                ],
            }
            async with session.put(
                f"{fake.base}/api/v10/applications/900/commands", json=[command]
            ) as answer:
                assert answer.status == 400
                assert "a required option after an optional one" in (await answer.json())["message"]
    finally:
        await fake.stop()
    assert len(fake.posts(THREAD_ID)) == 1
