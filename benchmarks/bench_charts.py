"""Time and memory of the end-of-game charts for the longest 1830 and 1860 reference games:
computing every series (`Game.chart_series`, one replay of the whole log) and drawing every
chart (render/charts.py), beside the plain replay the service makes to rebuild a game.

    python benchmarks/bench_charts.py [--repeat 3]

Prints, per game, its effective actions, the median CPU time (of this process: the machine may
be shared) of a replay, of the series and of each chart's drawing over `repeat` runs, the peak memory (tracemalloc) the series allocates on
top of the loaded game, and the PNG sizes. The service computes a series once per game
version, off the event loop.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.eighteen import io  # noqa: E402
from render.charts import render_chart  # noqa: E402
from tests.reference_games import game_files  # noqa: E402

SETS = ("1830", "1860", "random/1830", "random/1860", "programmed")


def longest(title: str) -> Path:
    """The reference game of a title with the most effective actions."""
    games = [p for s in SETS for p in game_files(s)]

    def length(path: Path) -> int:
        data = json.loads(path.read_text())
        return len(io.effective_actions(data["actions"])) if data["title"] == title else -1

    return max(games, key=length)


def median_cpu_ms(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        start = time.process_time()
        out = fn()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times), out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    render_chart(io.load(json.loads(longest("1830").read_text())).game.chart_series(), "worth")
    for title in ("1830", "1860"):
        path = longest(title)
        data = json.loads(path.read_text())
        replay_ms, loaded = median_cpu_ms(lambda: io.load(data), args.repeat)
        game = loaded.game
        series_ms, series = median_cpu_ms(game.chart_series, args.repeat)
        tracemalloc.start()
        game.chart_series()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        where = f"{path.parent.parent.name}/{path.parent.name}/{path.stem}"
        print(f"{title}: {where}, {len(game.actions)} actions")
        print(f"  replay (rebuild the game)  {replay_ms:7.0f} ms")
        print(f"  every series               {series_ms:7.0f} ms, peak {peak / 2**20:.1f} MiB")
        points = {c.key: len(c.points) for c in series.charts}
        for key in series.keys():
            draw_ms, png = median_cpu_ms(lambda: render_chart(series, key), args.repeat)
            print(
                f"  draw {key:8} ({points[key]:3} points, {len(series.chart(key).lines)} lines)"
                f" {draw_ms:5.0f} ms, {len(png) // 1024} KiB"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
