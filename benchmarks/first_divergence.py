"""Replay 18xx.games fixtures and print, for each, the first action after which our public state
differs from its reference line: `python -m benchmarks.first_divergence FILE.json [...]`."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.reference_games import first_divergence

if __name__ == "__main__":
    for arg in sys.argv[1:]:
        n, what = first_divergence(Path(arg))
        print(f"{Path(arg).name}: {n} lines match" + (f"; {what}" if what else "; OK"))
