"""Time of the exact best-routes search.

1. At every run_routes of the 1830 and 1860 fixtures (real and random games), the search as the
   game runs it (replayed through the engine; the track graph is rebuilt whenever the board
   changed, and that time is included).
2. On grown late-game networks (60+ tiles, several stations per company): two diesels, 6 + D,
   and four short trains, for every company, on a fresh copy of the board (graph not yet built).

Run: python benchmarks/bench_router.py [--repeat N] [--seeds N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.cli.routes import route_checks  # noqa: E402
from engine.eighteen.board import Board  # noqa: E402
from tests.test_router import CORPS, grow_network, title  # noqa: E402

TRAIN_SETS = {
    "D+D": [("D-0", None), ("D-1", None)],
    "6+D": [("6-0", 6), ("D-0", None)],
    "4+4+3+3": [("4-0", 4), ("4-1", 4), ("3-0", 3), ("3-1", 3)],
}


def describe(times: list[float]) -> str:
    return f"median {statistics.median(times):.2f} ms, max {max(times):.2f} ms over {len(times)} searches"


def fixtures(repeat: int, game_set: str) -> list[float]:
    folder = ROOT.parent / "shared" / "fixtures" / game_set
    if not folder.is_dir():
        print(f"../shared/fixtures/{game_set} is absent: no fixture positions to measure")
        return []
    every: list[float] = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        runs = [[c.ms for c in route_checks(data)] for _ in range(repeat)]
        per_position = [statistics.median(t) for t in zip(*runs)]
        print(f"{path.name}: {describe(per_position)}")
        every.extend(per_position)
    print(f"all {game_set} fixture positions: {describe(every)}")
    return every


def replica(board: Board) -> Board:
    """The same tiles and tokens on a new board, so nothing is cached yet."""
    copy = Board(title())
    for hex_id, (name, rotation) in board.laid_tiles().items():
        copy.lay("X", hex_id, name, rotation)
    for hex_id, tokens in board.tokens().items():
        for city, slot, corp in tokens:
            copy.place_token(corp, hex_id, city, slot)
    return copy


def grown(seeds: int) -> None:
    by_set: dict[str, list[float]] = {name: [] for name in TRAIN_SETS}
    for seed in range(seeds):
        grown_board = grow_network(seed)
        for corp in CORPS:
            for name, trains in TRAIN_SETS.items():
                board = replica(grown_board)
                start = time.perf_counter()
                board.best_routes(corp, trains, phase_color="brown")
                by_set[name].append((time.perf_counter() - start) * 1000)
    for name, times in by_set.items():
        print(f"grown networks, {name}: {describe(times)}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--repeat", type=int, default=3, help="replays of each fixture (median per position)"
    )
    parser.add_argument("--seeds", type=int, default=10, help="grown networks to measure")
    args = parser.parse_args()
    for game_set in ("1830", "1860", "random/1860"):
        fixtures(args.repeat, game_set)
    grown(args.seeds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
