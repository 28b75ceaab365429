"""Time to replay long Tally logs (10k to 80k actions) as a stored game is rebuilt (no state
saved per action) and as moves are played live (each one's state saved for a refusal): linear
growth means the time per action stays flat as the log grows.

Run: python benchmarks/bench_long_log.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.game import PlayerInfo  # noqa: E402
from engine.titles import create_game  # noqa: E402
from tests.titles_for_tests import register  # noqa: E402


def main() -> int:
    register()
    for atomic in (False, True):
        print("live play (state saved per move)" if atomic else "rebuild from the log")
        for count in (10_000, 20_000, 40_000, 80_000):
            game = create_game(
                "tally",
                [PlayerInfo(1, "Ann"), PlayerInfo(2, "Bob")],
                {"free_for_all": True, "target": 10**9},
                1,
            )
            start = time.perf_counter()
            for n in range(count):
                game.process(
                    {
                        "type": "add",
                        "amount": n % 9 + 1,
                        "entity": n % 2 + 1,
                        "entity_type": "player",
                    },
                    atomic=atomic,
                )
            took = time.perf_counter() - start
            print(f"  {count:>6} actions: {took:.2f} s ({took / count * 1e6:.1f} µs per action)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
