"""Time map + market + sheet rendering for the final state of every 1830 fixture.

    python benchmarks/bench_render.py [--repeat 15]

Prints, per fixture, the median wall time of each image over `repeat` renders with warm caches
(the bot's steady state: the static board and market grid are already rasterised) and the
first render in this process (cold: title data parsed, background drawn). Target: well under
300 ms for all three images of one state.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from test_render_fixtures import fixture_paths, fixture_snapshot  # noqa: E402

from render import render_map, render_market, render_sheet  # noqa: E402

RENDERERS = {"map": render_map, "market": render_market, "sheet": render_sheet}


def _ms(fn, snapshot) -> tuple[float, int]:
    start = time.perf_counter()
    png = fn(snapshot)
    return (time.perf_counter() - start) * 1000, len(png)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    snapshots = [(p.stem, fixture_snapshot(p)) for p in fixture_paths("1830")]

    name, first = snapshots[0]
    cold = {kind: _ms(fn, first)[0] for kind, fn in RENDERERS.items()}
    print(
        f"cold (first render in the process, {name}): "
        + ", ".join(f"{k} {v:.0f} ms" for k, v in cold.items())
        + f", total {sum(cold.values()):.0f} ms"
    )

    print(f"warm medians over {args.repeat} renders:")
    print(f"{'fixture':24} {'map':>8} {'market':>8} {'sheet':>8} {'total':>8}   sizes (KiB)")
    totals = []
    for name, snap in snapshots:
        times: dict[str, list[float]] = {k: [] for k in RENDERERS}
        sizes = {}
        for _ in range(args.repeat):
            for kind, fn in RENDERERS.items():
                ms, size = _ms(fn, snap)
                times[kind].append(ms)
                sizes[kind] = size
        med = {k: statistics.median(v) for k, v in times.items()}
        total = sum(med.values())
        totals.append(total)
        print(
            f"{name:24} {med['map']:8.1f} {med['market']:8.1f} {med['sheet']:8.1f} {total:8.1f}   "
            + " ".join(f"{k} {sizes[k] // 1024}" for k in RENDERERS)
        )
    print(f"worst total: {max(totals):.1f} ms (target: well under 300 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
