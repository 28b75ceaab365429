"""The worst inputs we can build, each sent through the service as a command would send it, with
the CPU it costs and the memory it takes at its peak. Target: no command over 1 s of CPU or
100 MB, whatever its input.

Run: python benchmarks/bench_hostile_input.py
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.core.moves import MOVES, resolve  # noqa: E402
from bot.core.parsing import parse_action, parse_game_file, parse_options  # noqa: E402
from bot.core.results import Caller, Refused  # noqa: E402
from bot.core.routes_input import routes_from_text  # noqa: E402
from bot.core.service import GameService  # noqa: E402
from bot.core.store import Store  # noqa: E402
from engine.eighteen import io  # noqa: E402
from tests.titles_for_tests import register  # noqa: E402

FIXTURES = ROOT.parent / "shared" / "fixtures"
ANN = Caller(11, "ann", guild_id=1)
PERIOD = "H16 H14 H12 H10 H12 H14 "


async def measure(name: str, attack: Callable[[], Awaitable[Any]]) -> tuple[str, float, float, str]:
    """(name, CPU ms, peak MB, what came back) of one attack: CPU without tracing first, then
    the peak memory in a second run under tracemalloc."""
    cpu = time.process_time()
    outcome = await _outcome(attack)
    cpu_ms = (time.process_time() - cpu) * 1000
    tracemalloc.start()
    await _outcome(attack)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return name, cpu_ms, peak / 2**20, outcome


async def _outcome(attack: Callable[[], Awaitable[Any]]) -> str:
    try:
        result = await attack()
    except (Refused, ValueError) as exc:
        return f"refused: {exc}"
    error = getattr(result, "error", None)
    return f"refused: {error}" if error else "accepted"


async def run_position(service: GameService) -> tuple[int, Caller]:
    """An 1830 game imported up to its first run of trains, as the player who must run."""
    data = io.read_file(FIXTURES / "1830" / "1830_game_end_bank.json")
    upto = next(i for i, a in enumerate(data["actions"]) if a["type"] == "run_routes")
    players = data["players"]
    users = [100 + n for n in range(len(players))]
    partial = {**data, "actions": data["actions"][:upto]}
    imported = await service.import_game(Caller(users[0], "p1", guild_id=1), partial, users,
                                         guild_id=1, offer=False)  # fmt: skip
    assert imported.ok, imported.error
    prompt = await service.prompt(imported.game_id, choices=False)
    user = prompt.notify[0]
    return imported.game_id, Caller(user, f"p{user}", guild_id=1)


async def main() -> int:
    register()  # the test title Tally, for the name attack
    folder = Path(tempfile.mkdtemp(prefix="railchat-hostile-"))
    service = GameService(Store(folder / "hostile.db"), new_seed=lambda: 1)
    game, runner = await run_position(service)
    longest = io.read_file(FIXTURES / "random" / "1860" / "1860_3p_r3_s207.json")
    chatter = {
        "title": "1830",
        "players": [{"id": n, "name": f"p{n}"} for n in (1, 2, 3)],
        "settings": {"seed": 1},
        "actions": [
            {"type": "message", "entity": 1, "entity_type": "player", "message": "x" * 200}
            for _ in range(20_000)
        ],
    }
    huge = json.dumps(chatter).encode()
    route_moves = MOVES["run"]

    def typed_route(text: str) -> Callable[[], Awaitable[Any]]:
        return lambda: service.play(
            game,
            runner,
            lambda g, choices: resolve(route_moves, {"routes": text}, choices, g, routes_from_text),
        )

    attacks: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
        ("typed route, period x40 then A1 (491 ch)", typed_route("2: " + PERIOD * 40 + "A1")),
        ("typed route, period x13 then A1 (79 hexes)", typed_route("2: " + PERIOD * 13 + "A1")),
        ("typed route, 999 characters", typed_route("2: " + (PERIOD * 50)[:990] + " A1")),
        (
            "typed route, 12 routes of 80 hexes",
            typed_route("; ".join("2: " + " ".join(["H16", "H14"] * 40) for _ in range(12))[:999]),
        ),
        (
            "options: String Railway area 10^7 cm",
            lambda: service.check_new_game(
                ANN,
                "string_railway",
                2,
                parse_options("area=0 0; 10000000 0; 10000000 10000000; 0 10000000"),
            ),
        ),
        (
            "options: 6,000 characters of them",
            lambda: service.check_new_game(
                ANN, "1830", 4, parse_options(",".join(f"o{n}=1" for n in range(900)))
            ),
        ),
        (
            "options: nan, inf, 1e300 measures",
            lambda: service.check_new_game(
                ANN,
                "string_railway",
                2,
                parse_options("station_size=NaN, river_length=1e-300, short=Infinity"),
            ),
        ),
        (
            "import: 20,000 chat lines (5.6 MB)",
            lambda: service.prepare_import(ANN, parse_game_file(huge), []),
        ),
        ("import: 100,000 nested brackets", lambda: _parsed("[" * 100_000)),
        ("import: the longest reference game", lambda: service.prepare_import(ANN, longest, [])),
        (
            "act: 4,000 characters of nested JSON",
            lambda: _parsed_action('{"type": "pass", "x": ' + "[" * 1980 + "]" * 1980 + "}"),
        ),
        (
            "move text: 6,000 characters",
            lambda: service.play(
                game, runner, lambda g, c: resolve(MOVES["bid"], {"company": "x" * 6000}, c, g)
            ),
        ),
        (
            "name: 10,000 characters with mentions",
            lambda: service.create_game(
                Caller(12, "<@1> @everyone " * 700, guild_id=1), "tally", seats=2
            ),
        ),
        ("history: the last 50 of 500 actions", lambda: service.history(game, 50, guild_id=1)),
        ("export: 500 actions", lambda: service.export(game, guild_id=1)),
        ("status", lambda: service.status(game, guild_id=1)),
    ]
    rows = [await measure(name, attack) for name, attack in attacks]
    width = max(len(r[0]) for r in rows)
    print(f"{'attack':<{width}}  {'CPU ms':>8}  {'peak MB':>8}  result")
    for name, cpu, peak, outcome in rows:
        print(f"{name:<{width}}  {cpu:8.1f}  {peak:8.2f}  {outcome[:70]}")
    worst_cpu, worst_mem = max(r[1] for r in rows), max(r[2] for r in rows)
    met = worst_cpu <= 1000 and worst_mem <= 100
    print(f"worst: {worst_cpu:.0f} ms CPU, {worst_mem:.1f} MB; target 1,000 ms and 100 MB: "
          f"{'met' if met else 'MISSED'}")  # fmt: skip
    service.store.close()
    return 0 if met else 1


async def _parsed(text: str) -> Any:
    return parse_game_file(text.encode())


async def _parsed_action(text: str) -> Any:
    return parse_action(text)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
