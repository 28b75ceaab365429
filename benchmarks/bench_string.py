"""Time String Railway's hot paths on late positions.

    python benchmarks/bench_string.py [--repeat 20] [--seed 5]

1. Checking and scoring one rail (`game.plan`, what a preview and `lay_rail` do): a three-stop
   long rail in the last turn of the scripted expert game of the tests. Target <= 20 ms.
2. The hint (`best_rails`) in every rail step of a 4-player game the hint plays against itself
   (stations on random free grid points); the last turns are the late positions. Target <= 2 s.
   Also a crowded position: 20 stations within 50 cm of the first player's base, long rail.
3. The board image of the final position (warm: the area, river and mountain layer is drawn
   once per game). Target <= 300 ms. Also a new process's first image (imports, Pillow's file
   drivers, fonts and that layer), without and after `warm_up` (which the bot runs at start).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from engine.eighteen import io  # noqa: E402
from engine.game import PlayerInfo  # noqa: E402
from engine.strings.choices import station_spots  # noqa: E402
from engine.strings.game import StringRailway  # noqa: E402
from engine.strings.hint import best_rails  # noqa: E402
from render.strings import render_string_board  # noqa: E402
from tests.test_string_game_two import ACTIONS, GAME  # noqa: E402


def ms(fn) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def self_play(seed: int) -> tuple[StringRailway, list[tuple[int, int, int, float]]]:
    """A whole game: random legal station spots, the hint's best rail (or a forfeit).
    Returns the game and (turn, stations, rails, hint ms) per rail step."""
    rng = random.Random(seed)
    game = StringRailway([PlayerInfo(i, f"P{i}") for i in range(4)], {}, seed)
    timings = []
    while not game.finished:
        player = game.current.player
        if game.pending:
            game.process(rng.choice(station_spots(game, player)).action)
            continue
        found: list = []
        took = ms(lambda: found.extend(best_rails(game)))
        timings.append((game.turn, len(game.board.stations), len(game.board.rails), took))
        if found:
            plan = found[0]
            game.process(
                {"type": "lay_rail", "entity": player, "rail": plan.kind, "path": plan.stops}
            )
        else:
            kind = "short" if game.current.rails["short"] else "long"
            game.process({"type": "forfeit_rail", "entity": player, "rail": kind})
    return game, timings


def dense() -> StringRailway:
    """Four rounds of stations crowded into the bottom-left quarter, every rail forfeited, so
    that the first player's long rail (60) has the most paths to try."""
    rng = random.Random(2)
    game = StringRailway(
        [PlayerInfo(i, f"P{i}") for i in range(4)],
        {"station_order": "central " * 40, "river": "-5 80 10 80", "mountain": "70 70 80 70 80 80"},
        1,
    )
    while game.turn < 16 or game.pending:
        player = game.current.player
        if game.pending:
            spots = [
                c
                for c in station_spots(game, player)
                if c.action["x"] <= 50 and c.action["y"] <= 50
            ] or station_spots(game, player)
            game.process(rng.choice(spots).action)
        else:
            game.process({"type": "forfeit_rail", "entity": player, "rail": "short"})
    return game


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()

    late = io.load(GAME, upto=len(ACTIONS) - 2).game  # y2 about to lay its last rail
    rail = ["S10", [30, 72], "S17"]
    check = [ms(lambda: late.plan("y2", "short", rail)) for _ in range(args.repeat)]
    print(
        f"check+score one rail ({len(late.board.stations)} stations, "
        f"{len(late.board.rails)} rails): median {statistics.median(check):.2f} ms, "
        f"max {max(check):.2f} ms (target <= 20)"
    )

    game, timings = self_play(args.seed)
    hints = [t[3] for t in timings]
    turn, stations, rails, worst = max(timings, key=lambda t: t[3])
    last = timings[-4:]
    print(
        f"hint over a self-played game ({len(timings)} rail steps): median "
        f"{statistics.median(hints):.0f} ms, max {worst:.0f} ms (turn {turn + 1}, {stations} "
        f"stations, {rails} rails); last round: "
        + ", ".join(f"{t[3]:.0f}" for t in last)
        + " ms (target <= 2000)"
    )
    print("  final VP: " + ", ".join(f"{c.name} {c.vp}" for c in game.companies))
    crowded = dense()
    took = [ms(lambda: best_rails(crowded)) for _ in range(3)]
    print(
        f"hint, long rail among {len(crowded.board.stations)} crowded stations: median "
        f"{statistics.median(took):.0f} ms (target <= 2000)"
    )

    snap = io.load(GAME).game.snapshot()
    cold = ms(lambda: render_string_board(snap))
    warm = [ms(lambda: render_string_board(snap)) for _ in range(max(3, args.repeat // 4))]
    print(
        f"board image: first {cold:.0f} ms, then median {statistics.median(warm):.0f} ms, "
        f"max {max(warm):.0f} ms (target <= 300)"
    )
    for warm in (False, True):
        runs = [first_image_in_a_new_process(warm) for _ in range(3)]
        took = statistics.median(r[1] for r in runs)
        what = (
            f"after warm_up ({statistics.median(r[0] for r in runs):.0f} ms at start)"
            if warm
            else "cold (import included)"
        )
        print(f"a new process's first board image, {what}: median {took:.0f} ms")
    return 0


FIRST_IMAGE = """
import sys, time
sys.path[:0] = [{root!r}]
from engine.eighteen import io
from tests.test_string_game_two import GAME
snap = io.load(GAME).game.snapshot()
start = time.perf_counter()
if {warm}:
    from render.strings import warm_up
    warm_up()
ready = time.perf_counter()
from render.strings import render_string_board
render_string_board(snap)
print((ready - start) * 1000, (time.perf_counter() - ready) * 1000)
"""


def first_image_in_a_new_process(warm: bool) -> tuple[float, float]:
    """(warm-up ms, first image ms) in a fresh interpreter."""
    import subprocess

    out = subprocess.run(
        [sys.executable, "-c", FIRST_IMAGE.format(root=str(ROOT), warm=warm)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return float(out[0]), float(out[1])


if __name__ == "__main__":
    sys.exit(main())
