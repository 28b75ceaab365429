"""Holes an attacker found in the store (issue 34): `railchat db copy` runs no SQL a source
database brings along, and the caps on games not yet over hold when many games are opened at
once, in one process or in several; on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.core.results import Caller
from bot.core.service import GameService
from engine.eighteen import io
from tests.raw_sql import execute
from tests.reference_games import game_path

GUILD = 7
ANN = Caller(10, "Ann", guild_id=GUILD)
USER_CAP = "you have opened 3 games that are not over yet (at most 3); finish or abandon one first"
SERVER_CAP = (
    "this server has 3 games that are not over yet (at most 3); an admin can abandon old "
    "ones with /game-admin abandon"
)


# -- caps on games not yet over ---------------------------------------------------------------
def outcome(results: list[Any]) -> tuple[int, set[str]]:
    """How many games were made, and the refusals the others got."""
    return sum(r.ok for r in results), {r.error for r in results if not r.ok}


async def test_concurrent_new_games_stop_at_the_users_cap(make_store):
    service = GameService(make_store(), game_caps=(50, 3))
    results = await asyncio.gather(
        *(service.create_game(ANN, "tally", seats=2, guild_id=GUILD) for _ in range(8))
    )
    assert outcome(results) == (3, {USER_CAP})
    assert await service.store.open_game_counts(GUILD, ANN.user_id) == (3, 3)


async def test_concurrent_new_games_stop_at_the_servers_cap(make_store):
    service = GameService(make_store(), game_caps=(3, 10))
    results = await asyncio.gather(
        *(
            service.create_game(
                Caller(100 + n, f"P{n}", guild_id=GUILD), "tally", seats=2, guild_id=GUILD
            )
            for n in range(8)
        )
    )
    assert outcome(results) == (3, {SERVER_CAP})
    assert (await service.store.open_game_counts(GUILD, 100))[0] == 3


async def test_two_processes_opening_games_together_stop_at_the_cap(make_store):
    """Two bot processes (a store each, so a connection each) take the same caps."""
    first, second = (GameService(make_store(), game_caps=(50, 3)) for _ in range(2))
    results = await asyncio.gather(
        *(
            service.create_game(ANN, "tally", seats=2, guild_id=GUILD)
            for _ in range(5)
            for service in (first, second)
        )
    )
    assert outcome(results) == (3, {USER_CAP})
    assert await first.store.open_game_counts(GUILD, ANN.user_id) == (3, 3)


async def test_concurrent_imports_stop_at_the_users_cap(make_store):
    data = io.read_file(game_path("1830", "26855"))
    data = {**data, "actions": data["actions"][:5]}
    first, second = (GameService(make_store(), game_caps=(50, 3)) for _ in range(2))
    results = await asyncio.gather(
        *(
            service.import_game(ANN, data, [ANN.user_id], guild_id=GUILD)
            for _ in range(4)
            for service in (first, second)
        )
    )
    assert outcome(results) == (3, {USER_CAP})
    assert await first.store.open_game_counts(GUILD, ANN.user_id) == (3, 3)


async def test_games_under_the_cap_still_open_in_different_servers(make_store):
    """The caps count per server and per user: another server's games do not count."""
    service = GameService(make_store(), game_caps=(2, 10))
    ann = {guild: Caller(ANN.user_id, "Ann", guild_id=guild) for guild in (1, 2)}
    for guild in (1, 1, 2, 2):
        assert (await service.create_game(ann[guild], "tally", seats=2, guild_id=guild)).ok
    refused = await service.create_game(ann[1], "tally", seats=2, guild_id=1)
    assert refused.error and refused.error.startswith("this server has 2 games")
    execute(service.store.path, "UPDATE games SET status = 'finished' WHERE id = 1")
    assert (await service.create_game(ann[1], "tally", seats=2, guild_id=1)).ok
