"""Replaying a recorded game: railchat's whole process against the 18xx.games engine.

For each game file, the CPU time (user + system) of a whole `python -m bot.cli replay FILE
--json` process (start-up, imports, reading the file, the replay, the answer) is set against the
CPU time the 18xx.games Ruby engine spends on the same file inside its process (`cpu_seconds` of
../shared/oracle/replay.rb: reading and parsing the file, loading the game with every action,
the result; not Ruby's start nor loading the engine's code). Each side is run `--repeat` times
and its fastest run counts (the Ruby runs in one process, so its later runs are warm). Both
sides must reach the file's recorded result. The target is a ratio of at most 0.3.
The project's bytecode is compiled first, as an installed package has it (without it, a process
compiles every module it imports when PYTHONDONTWRITEBYTECODE is set, as it is here and in the
Dockerfile).

Run: nice -n 19 python benchmarks/bench_replay_vs_oracle.py [FILE ...] [--repeat 3]
(default files: ../shared/fixtures/1830/*.json; the oracle needs Ruby and the 18xx.games source
at ORACLE_SRC, default /tmp/18xx-src: see ../shared/oracle/README.md)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
ORACLE = SHARED / "oracle" / "replay.rb"
TARGET = 0.3


def child_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def empty_cpu() -> float:
    """CPU seconds of a Python process that does nothing: the floor under every replay."""
    before = child_cpu()
    subprocess.run([sys.executable, "-c", "pass"], cwd=ROOT, check=True)
    return child_cpu() - before


def railchat_cpu(path: Path, expected: dict[str, int]) -> float:
    """CPU seconds of one whole `railchat replay --json` process, checked against `expected`."""
    before = child_cpu()
    run = subprocess.run(
        [sys.executable, "-m", "bot.cli", "replay", str(path), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    spent = child_cpu() - before
    if run.returncode != 0:
        raise SystemExit(f"railchat replay failed on {path}: {run.stderr.strip()}")
    result = json.loads(run.stdout.strip().splitlines()[-1])["result"]
    if result != expected:
        raise SystemExit(f"railchat replay of {path} gave {result}, not {expected}")
    return spent


def oracle_cpu(path: Path, repeat: int) -> float:
    """The fastest of `repeat` in-process CPU times of the 18xx.games engine on this file."""
    run = subprocess.run(
        ["ruby", str(ORACLE), *[str(path)] * repeat], capture_output=True, text=True
    )
    lines = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    if run.returncode != 0 or len(lines) != repeat or not all(r["match"] for r in lines):
        raise SystemExit(f"the oracle did not replay {path}: {run.stdout}{run.stderr}")
    return min(float(r["cpu_seconds"]) for r in lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="game files (default: 1830's)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per side; the fastest counts")
    args = parser.parse_args()
    files = args.files or sorted((SHARED / "fixtures" / "1830").glob("*.json"))
    if not files:
        print(f"no game files given and none in {SHARED / 'fixtures' / '1830'}", file=sys.stderr)
        return 2
    if shutil.which("ruby") is None or not ORACLE.is_file():
        print(f"the oracle needs ruby and {ORACLE}", file=sys.stderr)
        return 2
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "engine", "bot", "render"], cwd=ROOT, check=True
    )
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, fastest of {args.repeat}")
    print(f"{'file':28} {'actions':>7} {'railchat s':>10} {'18xx.games s':>12} {'ratio':>6}")
    ours_total = theirs_total = 0.0
    for path in files:
        data = json.loads(path.read_text())
        expected = {str(k): v for k, v in data["result"].items()}
        ours = min(railchat_cpu(path, expected) for _ in range(args.repeat))
        theirs = oracle_cpu(path, args.repeat)
        ours_total += ours
        theirs_total += theirs
        print(
            f"{path.name:28} {len(data['actions']):7} {ours:10.3f} {theirs:12.3f} "
            f"{ours / theirs:6.2f}"
        )
    overall = ours_total / theirs_total
    print(
        f"{'overall':28} {'':7} {ours_total:10.3f} {theirs_total:12.3f} {overall:6.2f}"
        f"  (target <= {TARGET})"
    )
    empty = min(empty_cpu() for _ in range(args.repeat))
    print(f"of each railchat process, {empty:.3f} s is Python starting and stopping (`-c pass`)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
