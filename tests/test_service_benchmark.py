"""Benchmarks of the service (skipped unless run with --benchmark-enable): the cost of one
accepted action (engine + one SQLite transaction) and of rebuilding a game from its log."""

from __future__ import annotations

import asyncio
import itertools

from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store

A, B = Caller(1, "A"), Caller(2, "B")


def add(player: int) -> dict:
    return {"type": "add", "amount": 1, "entity": player, "entity_type": "player"}


async def _game(service: GameService) -> int:
    game_id = (
        await service.create_game(
            A, "tally", seats=2, options={"free_for_all": True, "target": 10**9}
        )
    ).game_id
    await service.join(game_id, B)
    await service.start(game_id, A)
    return game_id


def test_bench_accepted_action(benchmark, db_path):
    service = GameService(Store(db_path))
    loop = asyncio.new_event_loop()
    game_id = loop.run_until_complete(_game(service))
    ids = itertools.count(1)

    def act() -> None:
        assert loop.run_until_complete(service.act(game_id, A, add(1), next(ids))).changed

    benchmark(act)
    loop.close()


def test_bench_rebuild_of_a_thousand_actions(benchmark, db_path):
    service = GameService(Store(db_path))
    loop = asyncio.new_event_loop()
    game_id = loop.run_until_complete(_game(service))
    for _ in range(1000):
        loop.run_until_complete(service.act(game_id, A, add(1)))

    def rebuild() -> None:
        cold = GameService(service.store, cache_size=1)
        assert loop.run_until_complete(cold.status(game_id)).ok

    benchmark(rebuild)
    loop.close()
