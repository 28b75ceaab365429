"""Two bot processes on one database, each serving half of the Discord shards (the real
RailchatBot on the fake Discord, which sends each server's events to the session of its
shard): each is told of its own servers only, answers the interactions of those and posts to
their threads; a process that died is replaced by a new one on its shards, which posts the
move the dead one stored but did not post, and goes on editing the turn posts the store
remembers."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.shards import Shards
from bot.core.store import Store
from bot.discord_ui.app import RailchatBot
from tests.fake_discord import GUILD_ID, THREAD_ID, FakeDiscord
from tests.titles_for_tests import Tally
from tests.wire_bot import ANN, board_png, started_fake, tally_turn, until

GUILDS = [(k << 22) + 5 for k in range(4)]  # on shards 0, 1, 0, 1 of 2


async def game_in(service: GameService, guild: int, thread: dict[str, Any]) -> int:
    ann, bob = Caller(11, "ann", guild_id=guild), Caller(12, "bob", guild_id=guild)
    created = await service.create_game(
        ann,
        "tally",
        seats=2,
        guild_id=guild,
        channel_id=int(thread["parent_id"]),
        thread_id=int(thread["id"]),
        options={"free_for_all": True},
    )
    assert created.game_id is not None, created.error
    await service.join(created.game_id, bob)
    assert (await service.start(created.game_id, ann)).ok
    return created.game_id


async def start(url: str, shard: int) -> tuple[RailchatBot, asyncio.Task[None]]:
    service = GameService(Store(url), shards=Shards((shard,), 2), game_caps=(100, 100))
    bot = RailchatBot(service, renderer=board_png, post_delay=0.01)
    bot._connection.guild_ready_timeout = 0.05
    runner = asyncio.create_task(bot.start("not-a-real-token"))
    await until(bot.is_ready, f"the bot of shard {shard} to be ready")
    return bot, runner


async def add(fake: FakeDiscord, iid: int, thread: dict[str, Any], amount: int) -> None:
    action = json.dumps({"type": "add", "amount": amount})
    await fake.command(iid, ANN, "game-admin", "act", where=thread, action=action)


def posts_in(fake: FakeDiscord, thread: dict[str, Any]) -> list[Any]:
    return fake.posts(int(thread["id"]))


async def test_two_processes_each_serve_their_shards_and_a_replacement_goes_on(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Tally, "turn_info", tally_turn, raising=False)
    fake = await started_fake(monkeypatch)
    threads = {}
    for guild in GUILDS:
        channel = fake.world.add_guild(guild)
        threads[guild] = fake.world.add_thread(f"game in {guild}", parent=int(channel["id"]))
    fake.world.outbox.clear()  # made before any bot connected
    setup = Store(store_url)
    games = {g: await game_in(GameService(setup), g, threads[g]) for g in GUILDS}
    setup.close()
    running = [await start(store_url, 0), await start(store_url, 1)]
    try:
        for shard, (bot, _) in enumerate(running):  # told of its servers only
            first_server = {GUILD_ID} if shard == 0 else set()  # the fake's own, on shard 0
            assert {g.id for g in bot.guilds} == set(GUILDS[shard::2]) | first_server
            assert {t.id for g in bot.guilds for t in g.threads} == {
                int(threads[g]["id"]) for g in GUILDS[shard::2]
            } | ({THREAD_ID} if shard == 0 else set())
        assert sorted((s.shard, s.count) for s in fake.sessions.values()) == [(0, 2), (1, 2)]

        for n, guild in enumerate(GUILDS):
            await add(fake, 8100 + n, threads[guild], n + 1)
        for guild in GUILDS:
            await until(lambda g=guild: posts_in(fake, threads[g]), f"the post in {guild}")
        for n in range(len(GUILDS)):
            await until(lambda n=n: fake.interaction(8100 + n).answer is not None, "the answer")
        for shard, (bot, _) in enumerate(running):  # each posted its own servers' moves
            own = {games[g] for g in GUILDS[shard::2]}
            await until(lambda b=bot, o=own: set(b.poster._turns) == o, "the turn posts kept")

        # the process of shard 1 dies (no clean stop) between storing a move of server 3's
        # game and posting it; a new process takes its shard and posts that move
        dead, dead_runner = running.pop()
        dead_runner.cancel()
        late = GameService(Store(store_url))
        ann = Caller(11, "ann", guild_id=GUILDS[3])
        assert (await late.act(games[GUILDS[3]], ann, {"type": "add", "amount": 6})).changed
        (*_, stored), before = await late.store.actions(games[GUILDS[3]]), len(fake.requests)
        late.store.close()
        running.append(await start(store_url, 1))
        assert fake.identifies == 3 and len(fake.sessions) == 2
        missed = threads[GUILDS[3]]
        await until(lambda: stored.text in posts_in(fake, missed)[-1].content, "the missed move")
        assert not any(  # the other games of its servers were shown whole: not posted again
            r.method == "POST" and str(threads[GUILDS[1]]["id"]) in r.path
            for r in fake.requests[before:]
        )
        guild = GUILDS[1]
        first = posts_in(fake, threads[guild])
        await add(fake, 8200, threads[guild], 7)
        await until(lambda: "7" in posts_in(fake, threads[guild])[-1].content, "the edit")
        after = posts_in(fake, threads[guild])
        assert [m.id for m in after] == [m.id for m in first]  # the same turn post, edited
        assert set(running[1][0].poster._turns) == {games[g] for g in GUILDS[1::2]}
        assert [a.payload["amount"] for a in await running[1][0].service.store.actions(
            games[guild])] == [2, 7]  # fmt: skip
        await dead.close()
    finally:
        for bot, runner in running:
            await bot.close()
            await asyncio.wait_for(runner, 10)
            bot.service.store.close()
        await fake.stop()
