"""Discord's rate limits and message limits, kept by the fake Discord and by the bot.

The fake counts on a clock a test moves by hand (`Ticks`), so what is refused does not depend
on how fast the machine is; discord.py's own client is seen waiting out a bucket's headers."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import aiohttp
import discord
import pytest

from bot.core.help_text import SECTIONS
from bot.core.results import Caller
from bot.discord_ui.help_embed import clickable, help_embeds
from tests.fake_discord import CHANNEL_ID, GUILD_ID, THREAD_ID, FakeDiscord, Posted, channel_data
from tests.fake_discord.limits import embed_size
from tests.fake_discord.rate_limits import Quota, RateLimits
from tests.wire_bot import (
    ANN,
    BOB,
    Wire,
    answered,
    bots,
    move,
    settled,
    started_fake,
    thread_posts,
    until,
)


class Ticks:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def fake():
    found = FakeDiscord()
    await found.start()
    found.ticks = Ticks()
    found.limits = RateLimits(found.ticks)
    yield found
    await found.stop()


async def send(
    fake: FakeDiscord, method: str, path: str, payload: Any = None, form: Any = None
) -> tuple[int, Any, dict[str, str]]:
    """One request as a bot would make it: its status, body and headers."""
    async with aiohttp.ClientSession() as session:
        url = f"{fake.base}/api/v10{path}"
        async with session.request(method, url, json=payload, data=form) as answer:
            text = await answer.text()
            try:
                body = json.loads(text)
            except ValueError:
                body = text
            return answer.status, body, dict(answer.headers)


POSTS = f"/channels/{THREAD_ID}/messages"


async def test_every_answer_names_its_bucket_and_what_is_left_of_it(fake) -> None:
    status, _, headers = await send(fake, "POST", POSTS, {"content": "one"})
    assert status == 200
    assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Remaining"] == "4"
    assert float(headers["X-RateLimit-Reset-After"]) == 5.0
    assert float(headers["X-RateLimit-Reset"]) > 0 and headers["X-RateLimit-Bucket"]
    _, _, other = await send(fake, "GET", f"/channels/{THREAD_ID}")
    assert other["X-RateLimit-Bucket"] != headers["X-RateLimit-Bucket"]
    assert "X-RateLimit-Scope" not in headers  # only a 429 has it


async def test_a_sixth_message_in_five_seconds_is_refused_until_the_bucket_resets(fake) -> None:
    for n in range(5):
        assert (await send(fake, "POST", POSTS, {"content": str(n)}))[0] == 200
    fake.ticks.now += 2
    status, body, headers = await send(fake, "POST", POSTS, {"content": "too soon"})
    assert status == 429 and body["retry_after"] == 3.0 and body["global"] is False
    assert headers["X-RateLimit-Scope"] == "user" and headers["Retry-After"] == "3"
    assert headers["X-RateLimit-Remaining"] == "0"
    other = await send(fake, "POST", "/channels/1/messages", {"content": "x"})
    assert other[0] != 429  # another channel's bucket (that channel does not exist: 404)
    fake.ticks.now += 3
    assert (await send(fake, "POST", POSTS, {"content": "now"}))[0] == 200
    assert len(fake.posts(THREAD_ID)) == 6 and fake.limits.invalid_count == 1


async def test_the_global_limit_is_50_requests_a_second_but_not_for_interactions(fake) -> None:
    for n in range(50):
        await send(fake, "GET", f"/channels/{n + 1}")  # each its own bucket
    status, body, headers = await send(fake, "GET", "/channels/99")
    assert status == 429 and body["global"] is True
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    status, _, _ = await send(fake, "POST", "/interactions/1/tok1/callback", {"type": 1})
    assert status != 429  # interaction endpoints are not bound to the global limit
    fake.ticks.now += 1
    assert (await send(fake, "GET", "/channels/99"))[0] == 404


async def test_invalid_requests_are_counted_and_too_many_ban_the_bot(fake) -> None:
    fake.limits = RateLimits(fake.ticks, invalid_limit=Quota(3, 600.0))
    fake.deny(THREAD_ID, "view_channel")
    await send(fake, "GET", "/channels/1")  # 404: not counted
    for _ in range(2):
        assert (await send(fake, "POST", POSTS, {"content": "x"}))[0] == 403
    assert fake.limits.invalid_count == 2
    fake.ticks.now += 600  # they age out of the ten minutes
    assert fake.limits.invalid_count == 0
    for _ in range(3):
        await send(fake, "POST", POSTS, {"content": "x"})
    status, body, headers = await send(fake, "GET", "/users/@me")
    assert status == 429 and isinstance(body, str) and "Via" not in headers


async def test_old_messages_past_their_edit_limit_may_be_edited_again_later(fake) -> None:
    _, posted, _ = await send(fake, "POST", POSTS, {"content": "old"})
    fake.world.clock = fake.ticks  # type: ignore[assignment]
    fake.limit_old_edits(int(posted["id"]), seconds=600)
    status, body, _ = await send(fake, "PATCH", f"{POSTS}/{posted['id']}", {"content": "x"})
    assert status == 429 and body["code"] == 30046 and "Try again later" in body["message"]
    fake.ticks.now += 600
    assert (await send(fake, "PATCH", f"{POSTS}/{posted['id']}", {"content": "y"}))[0] == 200
    assert fake.messages[int(posted["id"])].content == "y"


async def test_opening_direct_messages_too_fast_is_forbidden(fake) -> None:
    fake.limits = RateLimits(fake.ticks, dm_opens=Quota(2, 60.0))
    for uid in (11, 12):
        fake.add_user({"id": str(uid), "username": str(uid)})
        assert (await send(fake, "POST", "/users/@me/channels", {"recipient_id": uid}))[0] == 200
    status, body, _ = await send(fake, "POST", "/users/@me/channels", {"recipient_id": 11})
    assert (status, body["code"]) == (403, 40003)


def _button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "b", "custom_id": custom_id}


async def test_messages_over_discords_limits_are_refused(fake) -> None:
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "files"}))
    for n in range(11):
        form.add_field(f"files[{n}]", b"x", filename=f"{n}.png")
    status, body, _ = await send(fake, "POST", POSTS, form=form)
    assert status == 400 and "more than 10 files" in body["message"]
    twice = {"type": 1, "components": [_button("a"), _button("a")]}
    status, body, _ = await send(fake, "POST", POSTS, {"content": "x", "components": [twice]})
    assert status == 400 and "custom_id used twice" in body["message"]
    fake.ticks.now += 5
    # 3,000 + 2,999 + the footer and author: over 6,000 only counted over every embed
    embeds = [
        {"description": "d" * 3000, "author": {"name": "a"}},
        {"description": "d" * 2999, "footer": {"text": "f"}},
    ]
    status, body, _ = await send(fake, "POST", POSTS, {"embeds": embeds})
    assert status == 400 and "6000" in body["message"]
    embeds[1]["footer"] = {"text": ""}
    assert (await send(fake, "POST", POSTS, {"embeds": embeds}))[0] == 200


async def test_discord_py_waits_out_a_bucket_instead_of_being_refused(monkeypatch) -> None:
    """Seven messages in a row where five are allowed per (shortened) window: discord.py reads
    the headers and waits before the sixth; no 429 is ever answered."""
    fake = await started_fake(monkeypatch)
    fake.limits = RateLimits(fake.clock, messages=Quota(5, 0.3))
    client = discord.Client(intents=discord.Intents.default())
    client._connection.guild_ready_timeout = 0.05
    runner = asyncio.create_task(client.start("not-a-real-token"))
    try:
        await until(client.is_ready, "the client to be ready")
        thread = client.get_channel(THREAD_ID)
        assert isinstance(thread, discord.Thread)
        for n in range(7):
            await thread.send(str(n))
    finally:
        await client.close()
        await asyncio.wait_for(runner, 10)
        await fake.stop()
    assert [m.content for m in fake.posts(THREAD_ID)] == [str(n) for n in range(7)]
    assert fake.limits.limited == 0 and fake.limits.invalid_count == 0


# -- the bot within Discord's limits -------------------------------------------------------------
def test_the_help_fits_discords_embed_limits_with_real_command_ids() -> None:
    """Real command ids have 19 digits: the fields are cut at line ends, every line is there
    whole, and the message stays within 6,000 characters."""
    ids = dict.fromkeys(("game", "play", "game-admin", "settings", "turns"), 1234567890123456789)
    [embed] = help_embeds(None, ids)
    values = [f.value or "" for f in embed.fields]
    assert all(len(v) <= 1024 for v in values)
    shown = [line for v in values for line in v.splitlines()]
    expected = [
        clickable(f"/{c.name}", ids) + f" {c.usage} — {c.what}"
        for _, commands in SECTIONS
        for c in commands
    ]
    assert shown == expected
    assert all(re.fullmatch(r"(</[\w -]+:\d{19}>)[^<]*", line) for line in shown)
    assert embed_size(embed.to_dict()) <= 6000  # type: ignore[arg-type]


@pytest.fixture
async def connect(db_path, monkeypatch):
    async with bots(db_path, monkeypatch) as start:
        yield start


async def new_lobby(wire: Wire, iid: int) -> tuple[Posted, int, dict[str, Any]]:
    """A three-seat game ann opens in the text channel: its lobby, number and thread."""
    fake = wire.fake
    await fake.command(iid, ANN, "game", "new", where=channel_data(), title="tally", seats=3)
    await until(lambda: answered(fake, iid), "the answer to /game new")
    [lobby] = fake.posts(CHANNEL_ID)
    await until(lambda: "1 of 3 seats" in lobby.content, "the lobby filled in")
    record = await wire.service.store.game_by_thread(lobby.id)
    assert record is not None
    return lobby, record.id, fake.threads[lobby.id]


async def test_a_lobby_past_its_edit_limit_is_edited_later_and_never_posted_again(
    connect,
) -> None:
    """The lobby is over an hour old and its edits ran out (30046, "try again later"): bob's
    join is not shown until Discord takes edits again, and the lobby is not posted anew (a
    lobby reposted at each change would flood the channel)."""
    wire = await connect()
    fake = wire.fake
    wire.bot.lobbies.retry_seconds = 0.2
    lobby, game_id, where = await new_lobby(wire, 8101)
    fake.limit_old_edits(lobby.id, seconds=3600)
    await fake.command(8102, BOB, "game", "join", where=where)
    await until(lambda: answered(fake, 8102), "the answer to /game join")
    await until(lambda: fake.refused(30046), "the edit refused")
    await asyncio.sleep(0.5)  # a retry or two, still refused
    assert "1 of 3 seats" in lobby.content
    fake.clock.advance(3600)
    await until(lambda: "2 of 3 seats" in lobby.content, "the lobby edited later")
    assert fake.posts(CHANNEL_ID) == [lobby]
    assert await wire.service.lobby_post(game_id) == (CHANNEL_ID, lobby.id)


async def test_a_lobby_is_edited_only_when_what_it_shows_changed(connect) -> None:
    """A burst of refreshes after one join makes one edit; a refresh with nothing new none."""
    wire = await connect()
    fake = wire.fake
    lobby, game_id, where = await new_lobby(wire, 8111)
    await settled(fake)
    before = lobby.edits
    await wire.service.join(game_id, Caller(12, "bob", guild_id=GUILD_ID))
    await asyncio.gather(*(wire.bot.lobbies.refresh(game_id) for _ in range(5)))
    await wire.bot.lobbies.refresh(game_id)
    assert "2 of 3 seats" in lobby.content and lobby.edits == before + 1


async def dms_on(fake: FakeDiscord, *who: dict[str, Any]) -> None:
    for n, user in enumerate(who):
        await fake.command(8200 + n, user, "settings", "turn-dm", dm="on")
        await until(lambda: answered(fake, 8200 + n), "the answer to /settings turn-dm")


async def turns(fake: FakeDiscord, first: int, count: int) -> None:
    """`count` moves, ann and bob in turn (ann first), each posted before the next."""
    for n in range(count):
        who = (ANN, BOB)[n % 2]
        await move(fake, first + n, who, 1)
        await until(lambda: answered(fake, first + n), "the move's answer")
        await until(lambda: len(wire_lines(fake)) > n, "the move's line")


def wire_lines(fake: FakeDiscord) -> list[str]:
    return [line for post in thread_posts(fake) for line in post.splitlines() if " added " in line]


async def test_a_player_whose_dms_are_closed_is_not_tried_again_at_each_turn(connect) -> None:
    """Discord refuses every DM to bob (50007, counted among invalid requests): after the first
    refusal he is not tried again for a day; the thread still pings him."""
    wire = await connect()
    fake = wire.fake
    await dms_on(fake, BOB)
    fake.close_dms(12)
    await turns(fake, 8211, 5)  # bob's turn three times
    await settled(fake)
    assert len(fake.refused(50007)) == 1
    assert sum("<@12>" in post for post in thread_posts(fake)) >= 3


async def test_dms_opened_too_fast_pause_the_dms_instead_of_trying_each_one(connect) -> None:
    """Discord takes one new DM channel for now (40003 for the next): the bot pauses its DMs
    rather than be refused again at each turn."""
    wire = await connect()
    fake = wire.fake
    fake.limits = RateLimits(fake.clock, dm_opens=Quota(1, 3600.0))
    await dms_on(fake, ANN, BOB)
    await turns(fake, 8221, 5)
    await settled(fake)
    assert len(fake.refused(40003)) == 1
    assert len(fake.calls("POST", "/users/@me/channels")) == 1


async def test_moves_made_while_the_bot_was_away_are_summed_up_past_a_few(connect) -> None:
    """312 moves stored but not posted (the bot stopped, other processes played on): the
    catch-up tells the newest ones and counts the others, in one post."""
    wire = await connect(free_for_all=True, options={"target": 10**6})
    fake = wire.fake
    await move(fake, 8301, ANN, 3)
    await until(lambda: thread_posts(fake), "the turn post")
    await settled(fake)
    ann = Caller(11, "ann", guild_id=GUILD_ID)
    for n in range(342):  # stored, not posted
        await wire.service.act(wire.game_id, ann, {"type": "add", "amount": 1 + n % 9})
    assert await wire.bot.post_missed() == 1
    await wire.bot.poster.drain()
    *_, post = thread_posts(fake)
    assert len(fake.posts(THREAD_ID)) == 2
    assert post.startswith("… 312 earlier moves: /game view what:history\nann added 7.\n")
    assert post.count(" added ") == 30 and post.splitlines()[-2] == "ann added 9."
