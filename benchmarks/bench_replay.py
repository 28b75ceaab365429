"""Wall time to replay each 1830 fixture in one process (start-up and file reading excluded).

Run: python benchmarks/bench_replay.py [--repeat N]
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

from engine.eighteen import io  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    folder = ROOT.parent / "shared" / "fixtures" / "1830"
    if not folder.is_dir():
        print("../shared/fixtures/1830 is absent: nothing to measure")
        return 0
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        io.load(data)                       # warm-up: imports, caches
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            loaded = io.load(data)
            times.append(time.perf_counter() - start)
        print(f"{path.name}: {loaded.processed} actions, median {statistics.median(times) * 1000:.0f} ms, "
              f"min {min(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms over {args.repeat} runs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
