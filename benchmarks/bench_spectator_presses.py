"""A player's move behind a crowd pressing the Map button.

Replays a recorded 1830 game through the real service (real images from render/) up to
`--start` moves; then, for each of `--trials` further moves, `--presses` spectators press the
public Map button (`service.view`) and the player to act makes the move while the presses are
under way. Prints the median and worst latency of the move alone and behind the presses, and
how many maps were drawn (one per version is the least: the presses of one version share it).

    python benchmarks/bench_spectator_presses.py [--start 300] [--trials 5] [--presses 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.core.rendering import render_view, warm_up  # noqa: E402
from bot.core.results import Caller  # noqa: E402
from bot.core.service import GameService  # noqa: E402
from bot.core.store import Store  # noqa: E402
from engine.eighteen import io as game_files  # noqa: E402
from tests.reference_games import game_path  # noqa: E402

SPECTATOR = Caller(99, "spectator")


def recorded_moves(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The game's moves as its players made them (programmed ones included, as their own)."""
    moves = []
    for _, action in game_files.effective_actions(data["actions"]):
        done = [] if action["type"].startswith("program_") else [action]
        done += action.get("auto_actions") or []
        moves += [
            {k: v for k, v in a.items() if k not in ("id", "user", "created_at", "auto_actions")}
            for a in done
            if not a["type"].startswith("program_")
        ]
    return moves


async def run(start: int, trials: int, presses: int) -> None:
    data = json.loads(game_path("1830", "1830_game_end_bank").read_text())
    drawn = [0]

    def counted(game: Any, view: str, *focus: Any) -> bytes:
        drawn[0] += 1
        return render_view(game, view, *focus)

    with tempfile.TemporaryDirectory() as tmp:
        service = GameService(Store(Path(tmp) / "bench.db"))
        users = list(range(1, len(data["players"]) + 1))
        opened = await service.import_game(
            Caller(1, "user1"), {**data, "actions": []}, users, offer=False
        )
        assert opened.ok and opened.game_id is not None, opened.error
        game_id = opened.game_id
        user_of = {p["id"]: users[i] for i, p in enumerate(data["players"])}
        moves = recorded_moves(data)[: start + 2 * trials]

        async def mover(move: dict[str, Any]) -> int:
            if move.get("entity_type") == "player":
                return user_of[move["entity"]]
            return (await service.prompt(game_id, choices=False)).notify[0]

        async def play(move: dict[str, Any], user: int | None = None) -> float:
            user = user or await mover(move)
            began = time.perf_counter()
            result = await service.act(game_id, Caller(user, f"user{user}"), move)
            assert result.ok, result.error
            return (time.perf_counter() - began) * 1000

        for move in moves[:start]:
            await play(move)
        await asyncio.to_thread(warm_up)
        await service.view(game_id, "map", counted)  # the first drawing loads the board
        alone, behind = [], []
        rest = iter(moves[start:])
        for _ in range(trials):
            alone.append(await play(next(rest)))
            move = next(rest)
            user = await mover(move)  # asked before the presses, so only the move waits
            crowd = [
                asyncio.create_task(service.view(game_id, "map", counted)) for _ in range(presses)
            ]
            await asyncio.sleep(0)  # the presses reach the service first
            behind.append(await play(move, user))
            for shown in await asyncio.gather(*crowd):
                assert shown.ok, shown.error
        service.store.close()
    print(f"1830, {start} moves in; {trials} trials of {presses} presses of Map")
    for name, times in (("move alone", alone), (f"move behind {presses} presses", behind)):
        print(f"  {name}: median {statistics.median(times):.0f} ms, worst {max(times):.0f} ms")
    print(f"  maps drawn: {drawn[0] - 1} for {trials * presses} presses")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=300)
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--presses", type=int, default=10)
    args = parser.parse_args()
    asyncio.run(run(args.start, args.trials, args.presses))


if __name__ == "__main__":
    main()
