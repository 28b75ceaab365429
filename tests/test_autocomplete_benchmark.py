"""Benchmarks of autocomplete (skipped unless run with --benchmark-enable): the engine's legal
choices at the slowest position of the recorded 1830 games (computed once per game version)
and the cached answer every further keystroke gets. Discord waits 3 s for suggestions."""

from __future__ import annotations

import asyncio

from bot.core.moves import MOVES, suggest
from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from engine.eighteen import io
from tests.reference_games import game_path, require_games

SLOW = ("26855", 487)  # a stock round late in the game: 21 choices, the slowest found


def _position():
    require_games("1830")
    name, upto = SLOW
    data = io.read_file(game_path("1830", name))
    return data, io.load(data, upto=upto - 1).game


def test_bench_legal_choices_uncached(benchmark):
    _, game = _position()
    player = game.active_players()[0]
    choices = benchmark(game.legal_actions, player)
    assert len(choices) == 21


def test_bench_suggestions_from_the_cache(benchmark, db_path):
    data, _ = _position()
    partial = {**data, "actions": data["actions"][: SLOW[1]]}
    service = GameService(Store(db_path))
    loop = asyncio.new_event_loop()
    users = list(range(1, len(data["players"]) + 1))
    gid = loop.run_until_complete(
        service.import_game(Caller(1, "Mod"), partial, users, offer=False)
    ).game_id
    user = loop.run_until_complete(service.prompt(gid, choices=False)).notify[0]

    def keystroke() -> list:
        choices = loop.run_until_complete(service.legal_actions(gid, user))
        return suggest(MOVES["buy"], "share", {}, choices, "PRR")

    assert keystroke()  # the first call fills the cache
    assert benchmark(keystroke)
    loop.close()


def test_bench_game_suggestions_on_a_busy_server(benchmark, db_path):
    """The `game:` option on a server of 200 open 1830 games, 50 of them the user's: read from
    the store alone, whatever the server holds (a page of 50 games and their seats)."""
    service = GameService(Store(db_path), game_caps=(10_000, 10_000))
    loop = asyncio.new_event_loop()
    me = Caller(1, "me", guild_id=5)

    async def fill() -> None:
        for n in range(200):
            made = await service.create_game(
                Caller(100 + n, f"p{n}", guild_id=5), "1830", guild_id=5
            )
            if n % 4 == 0:
                await service.join(made.game_id, me)

    loop.run_until_complete(fill())
    found = benchmark(lambda: loop.run_until_complete(service.game_choices(1, "", guild_id=5)))
    assert len(found) == 25 and all(label.endswith("open, 2 of 6 seats") for _, label in found)
    loop.close()
