"""Games that use every kind of programmed move, exported, must replay on the 18xx.games engine
in strict mode (its own checks while loading) to the same result.

Seeded random games of 1830 and 1860 are played through the service by the fuzzer
(bot/core/fuzz), whose players now and then set or cancel programmed moves of their own, of
every kind the title offers (18xx.games' share pass and share purchases, railchat's auction
pass (plain, waiting for a bid on a company, or for a price), private pass and away, an away
one sometimes with an end date), and whose game is checked after every move. Games are played
until every kind has been set, has made a move and has stopped by itself in a finished game of
each title (or `--max-games` per title). Each finished game's export (railchat's programs'
passes as ordinary moves, their settings left out) is then replayed by
../shared/oracle/replay.rb, strict, and must reach the recorded result.

Not part of CI: it needs Ruby and the 18xx.games source (see ../shared/oracle/README.md).
Run: nice -n 19 python benchmarks/oracle_programmed.py [--max-games 12] [--rate 0.08]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.cli.fuzz import game_seeds  # noqa: E402
from bot.core.fuzz.player import fuzz_game  # noqa: E402

ORACLE = ROOT.parent / "shared" / "oracle" / "replay.rb"
# What every title's games must show, as bot.core.fuzz.player.program_counts names it.
NEEDED = {
    "1830": [
        "program_share_pass",
        "program_buy_shares",
        "program_disable",
        "railchat_program:auction_pass",
        "railchat_program:auction_pass+company",
        "railchat_program:auction_pass+company+limit",
        "railchat_program:private_pass",
        "railchat_program:away",
        "railchat_program_disable:auction_pass",
        "made:18xx.games",
        "made:auction_pass",
        "made:private_pass",
        "made:away",
        "stopped:program_disable",
        "stopped:railchat_program_disable:auction_pass",
    ],
    "1860": [
        "program_share_pass",
        "program_buy_shares",
        "program_disable",
        "railchat_program:auction_pass",
        "railchat_program:away",
        "made:18xx.games",
        "made:auction_pass",
        "made:away",
        "stopped:program_disable",
    ],
}
PLAYERS = {"1830": 4, "1860": 3}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-games", type=int, default=12, help="per title (default 12)")
    parser.add_argument("--rate", type=float, default=0.08, help="programs per move (0.08)")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--keep", help="a folder to keep the game files in (default: none)")
    parser.add_argument("--title", choices=sorted(NEEDED), help="one title only")
    args = parser.parse_args()
    if not ORACLE.exists():
        print(f"no oracle at {ORACLE}", file=sys.stderr)
        return 2
    failures = 0
    with tempfile.TemporaryDirectory(prefix="railchat-oracle-programs-") as tmp:
        folder = Path(args.keep or tmp)
        for title, needed in NEEDED.items():
            if args.title not in (None, title):
                continue
            failures += run_title(title, needed, args, folder / title)
    return 1 if failures else 0


def run_title(title: str, needed: list[str], args: argparse.Namespace, folder: Path) -> int:
    seen: dict[str, int] = {}
    files: list[Path] = []
    failures = 0
    started = time.monotonic()
    for seed in game_seeds(args.seed, args.max_games):
        report = asyncio.run(
            fuzz_game(
                title,
                PLAYERS[title],
                seed,
                save_dir=folder,
                out_dir=folder / "failures",
                program_rate=args.rate,
                illegal_rate=0.05,
            )
        )
        if report.failure:
            print(f"{title} seed {seed}: FAIL {report.failure} ({report.file})")
            failures += 1
            continue
        if not report.finished:
            print(f"{title} seed {seed}: unfinished after {report.actions} moves; left out")
            continue
        files.append(Path(report.file or ""))
        for kind, count in report.programs.items():
            seen[kind] = seen.get(kind, 0) + count
        print(f"{title} seed {seed}: {report.actions} moves, programs {report.programs}")
        if all(seen.get(k) for k in needed):
            break
    played = time.monotonic() - started
    missing = [k for k in needed if not seen.get(k)]
    started = time.monotonic()
    oracle = subprocess.run(
        ["ruby", str(ORACLE), *map(str, files)], capture_output=True, text=True, check=False
    )
    lines = [json.loads(line) for line in oracle.stdout.splitlines() if line.startswith("{")]
    matched = sum(1 for line in lines if line.get("match"))
    for line in lines:
        if not line.get("match"):
            print(f"  oracle refused {line['file']}: {line.get('error') or line}")
    print(
        f"{title}: {len(files)} finished games in {played:.0f} s; every kind used: "
        f"{'yes' if not missing else 'no, missing ' + ', '.join(missing)}; 18xx.games strict "
        f"replay: {matched}/{len(files)} match ({time.monotonic() - started:.0f} s)\n"
        f"  totals: {dict(sorted(seen.items()))}"
    )
    return int(bool(missing) or matched != len(files) or not files or failures > 0)


if __name__ == "__main__":
    sys.exit(main())
