"""Time map + market + sheet rendering for the final state of every 1830 fixture, and the
images of every turn post of a recorded 1830 game.

    python benchmarks/bench_render.py [--repeat 15] [--posts 3] [--code DIR]

Prints, per fixture, the median wall time of each image over `repeat` renders with warm caches
(the bot's steady state: the static board and market grid are already rasterised) and the
first render in this process (cold: title data parsed, background drawn). Target: well under
300 ms for all three images of one state.

`--posts N` (N passes) instead times, in CPU, the images the thread poster draws after each
move of `1830_game_end_bank` (the close-up of what changed, when something did, and the compact
market), as the bot draws them one state after the next, and the full map at every 25th
state: medians per post, per post with a close-up, and of the map (targets 25 ms and 60 ms),
and the PNG bytes. `--code DIR` draws with the render/ of another checkout (main's, say), so
that a shell loop can take turns between before and after on a busy machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_code = sys.argv[sys.argv.index("--code") + 1] if "--code" in sys.argv[:-1] else str(ROOT)
sys.path[:0] = [_code, str(ROOT / "tests")]

from render_posts import post_images, recorded_posts  # noqa: E402
from test_render_fixtures import fixture_paths, fixture_snapshot  # noqa: E402

import render  # noqa: E402
from render import render_map, render_market, render_sheet  # noqa: E402

RENDERERS = {"map": render_map, "market": render_market, "sheet": render_sheet}


def _ms(fn, snapshot) -> tuple[float, int]:
    start = time.perf_counter()
    png = fn(snapshot)
    return (time.perf_counter() - start) * 1000, len(png)


def _cpu_ms(fn, *args) -> tuple[float, object]:
    start = time.process_time()
    out = fn(*args)
    return (time.process_time() - start) * 1000, out


def posts(passes: int) -> None:
    """CPU of a whole game's turn-post images, state after state, `passes` times."""
    game = recorded_posts()
    for n in range(1, passes + 1):
        per_post, with_close_up, maps = [], [], []
        sizes: dict[str, list[int]] = {"focus": [], "market_compact": []}
        for i, post in enumerate(game):
            ms, images = _cpu_ms(post_images, post)
            per_post.append(ms)
            if "focus" in images:
                with_close_up.append(ms)
            for view, png in images.items():
                sizes[view].append(len(png))
            if i % 25 == 0:
                maps.append(_cpu_ms(render_map, post.snapshot, post.options)[0])
        kib = ", ".join(
            f"{view} median {statistics.median(s) / 1024:.1f} KiB (all {sum(s) / 2**20:.2f} MiB)"
            for view, s in sizes.items()
        )
        print(
            f"pass {n}: {len(game)} posts, CPU median {statistics.median(per_post):.1f} ms "
            f"(p90 {statistics.quantiles(per_post, n=10)[-1]:.1f}); "
            f"{len(with_close_up)} with a close-up {statistics.median(with_close_up):.1f} ms; "
            f"map every 25th state {statistics.median(maps):.1f} ms; {kib}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--posts", type=int, default=0, metavar="N")
    parser.add_argument("--code", default=str(ROOT), metavar="DIR")
    args = parser.parse_args()
    print(f"drawing with {Path(render.__file__).parent}")
    if args.posts:
        posts(args.posts)
        return 0
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
