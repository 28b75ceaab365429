"""A longer run of the two-process concurrency test: random play on one Tally game by several
processes (each with many asyncio tasks) sharing one SQLite file. Prints what was applied,
refused and de-duplicated, and checks the log: no gap, no duplicate, nothing a user should
never read.

Run: python benchmarks/bench_concurrency.py [--seconds 60] [--processes 2] [--tasks 8]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.core.store import Store  # noqa: E402
from tests.random_play import setup_game  # noqa: E402
from tests.titles_for_tests import register  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--tasks", type=int, default=8)
    args = parser.parse_args()
    register()
    db = Path(tempfile.mkdtemp()) / "railchat.db"
    gid = asyncio.run(setup_game(db))
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.random_play",
                str(db),
                str(gid),
                str(args.seconds),
                str(args.tasks),
                str(seed),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seed in range(args.processes)
    ]
    outcomes: Counter = Counter()
    applied, bad = 0, []
    for worker in workers:
        out, err = worker.communicate()
        if worker.returncode != 0:
            print(err)
            return 1
        share = json.loads(out)
        applied += share["applied"]
        outcomes.update(share["outcomes"])
        bad += share["bad"]
    store = Store(db)
    seqs = [a.seq for a in asyncio.run(store.actions(gid))]
    store.close()
    with closing(sqlite3.connect(db)) as conn:
        (undone,) = conn.execute(
            "SELECT count(*) FROM undone_actions WHERE game_id = ?", [gid]
        ).fetchone()
    print(f"{args.processes} processes x {args.tasks} tasks, {args.seconds:g} s")
    for key, count in sorted(outcomes.items()):
        print(f"  {key}: {count}")
    print(f"moves stored: {applied}; log now {len(seqs)} actions + {undone} taken back")
    gaps = seqs != list(range(1, len(seqs) + 1))
    print(
        f"gap or repeated seq: {gaps}; stored == log + taken back: "
        f"{applied == len(seqs) + undone}; answers a user should never read: {len(bad)}"
    )
    for line in bad[:10]:
        print("  ", line)
    return 0 if not gaps and applied == len(seqs) + undone and not bad else 1


if __name__ == "__main__":
    sys.exit(main())
