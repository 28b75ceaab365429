"""Discord at the wire: the real discord.py client (its HTTP and gateway code, not stand-ins)
against tests/fake_discord.py on loopback. Command sync, deferred answers and follow-ups, thread
posts; a 429 and a 500 on the way, a dropped gateway and a redelivered interaction lose or
double no move and no post."""
from __future__ import annotations

import asyncio
import json

import discord
import pytest
import yarl

from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from bot.discord_ui.app import RailchatBot
from tests import fake_discord
from tests.fake_discord import GUILD_ID, THREAD_ID, FakeDiscord, command_interaction, user

ANN, BOB = user(11, "ann"), user(12, "bob")
POSTS = rf"/channels/{THREAD_ID}/messages"
LOG: list = []  # the running fake's requests, named when a wait times out


async def until(condition, what: str, seconds: float = 15.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    seen = [(r.method, r.path) for r in LOG[0]]
    raise AssertionError(f"timed out waiting for {what}; requests: {seen}")


@pytest.fixture
async def wire(db_path, monkeypatch):
    fake = FakeDiscord()
    LOG[:] = [fake.requests]
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", f"{fake.base}/api/v10")
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                        yarl.URL(f"ws://127.0.0.1:{fake.port}/ws"))
    service = GameService(Store(db_path), new_seed=lambda: 1)
    ann, bob = Caller(11, "ann", guild_id=GUILD_ID), Caller(12, "bob", guild_id=GUILD_ID)
    created = await service.create_game(ann, "tally", seats=2, guild_id=GUILD_ID,
                                        channel_id=fake_discord.CHANNEL_ID, thread_id=THREAD_ID)
    await service.join(created.game_id, bob)
    await service.start(created.game_id, ann)
    bot = RailchatBot(service, post_delay=0.01)
    runner = asyncio.create_task(bot.start("not-a-real-token"))
    await until(bot.is_ready, "the bot to be ready")
    yield fake, bot, service, created.game_id
    await bot.close()
    await asyncio.wait_for(runner, 10)
    await fake.stop()
    service.store.close()


async def move(fake: FakeDiscord, iid: int, who: dict, amount: int) -> None:
    await fake.dispatch("INTERACTION_CREATE", command_interaction(
        iid, who, "game", "act", {"action": json.dumps({"type": "add", "amount": amount})}))


def thread_posts(fake: FakeDiscord) -> list[str]:
    return [r.body.get("content") or r.body["payload_json"]["content"]
            for r in fake.calls("POST", POSTS)]


async def test_commands_sync_and_a_move_is_answered_and_posted(wire) -> None:
    fake, bot, service, gid = wire
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
    answer = fake.calls("POST", r"/webhooks/900/tok7001")
    assert len(answer) == 1 and answer[0].body["content"].startswith("Done")
    [post] = thread_posts(fake)
    assert "ann" in post.lower() and "3" in post
    assert service.store.action_count(gid) == 1


async def test_429_and_500_are_retried_without_losing_or_doubling_a_post(wire) -> None:
    fake, bot, service, gid = wire
    fake.failures[f"POST {POSTS}"] = [429, 500]
    fake.failures[r"POST /webhooks/900/tok7002"] = [500]
    await move(fake, 7002, ANN, 4)
    await until(lambda: thread_posts(fake), "the thread post after 429 and 500")
    await until(lambda: fake.calls("POST", r"/webhooks/900/tok7002"),
                "the follow-up after a 500")
    await asyncio.sleep(0.3)  # a doubled post would arrive by now
    assert [r.path for r in fake.requests if r.path.startswith(POSTS)] == [
        f"{POSTS} -> 429", f"{POSTS} -> 500", POSTS]
    assert len(thread_posts(fake)) == 1
    assert len(fake.calls("POST", r"/webhooks/900/tok7002")) == 1
    assert service.store.action_count(gid) == 1


async def test_a_dropped_gateway_resumes_and_a_redelivered_interaction_is_applied_once(
        wire) -> None:
    fake, bot, service, gid = wire
    await move(fake, 7003, ANN, 2)
    await until(lambda: len(thread_posts(fake)) == 1, "the first post")
    await fake.drop()
    await until(lambda: fake.resumes + fake.identifies >= 2, "the bot to reconnect")
    await until(lambda: not fake.sockets[-1].closed and bot.is_ready(), "the new connection")
    await move(fake, 7003, ANN, 2)  # the same interaction delivered again
    await move(fake, 7004, BOB, 5)  # and a new one on the new connection
    await until(lambda: len(thread_posts(fake)) == 2, "the post of bob's move")
    await until(lambda: fake.calls("POST", r"/interactions/7003/tok7003/callback")
                and len(fake.calls("POST", r"/interactions/7003/tok7003/callback")) == 2,
                "the answer to the redelivered interaction")
    await asyncio.sleep(0.3)
    assert service.store.action_count(gid) == 2
    assert len(thread_posts(fake)) == 2
    second = fake.calls("POST", r"/webhooks/900/tok7003")
    assert "already handled" in second[-1].body["content"]
