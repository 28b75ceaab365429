"""CPU time of the legal-move listing and the best-route search at every position of every
reference game: Discord's autocomplete cannot be deferred, so each must answer well within its
3 s (issue 24 asks for 500 ms CPU at the worst position).

Every reference game of 1830 and 1860 (recorded, random and generated; see
tests/reference_games.py) is replayed; before each action, for every player who must act the
listing `game.legal_actions(player)` is timed, and where a company is at its run step its
best-route search `game.best_routes(corp)` is timed. Times are CPU (`time.process_time`), so a
loaded machine counts only the work done. Per title it prints the 10 worst positions of each
kind and the distribution (median, p99, max).

The listing is timed first at each position, on the game as the replay leaves it; the route
search is timed on a copy made before the listing, so neither profits from the other's work.

`--record FILE` writes what each position answered (a digest of the listing; the best revenue
and a digest of its routes);
`--compare FILE` checks a run against such a record, so a speed change can be shown to change
no answer.

Run: python benchmarks/bench_positions.py [--title 1860] [--file s213] [--every N]
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.eighteen import io  # noqa: E402
from engine.errors import GameError  # noqa: E402
from engine.game import Game  # noqa: E402
from tests.reference_games import game_files  # noqa: E402

SETS = {
    "1830": ("1830", "random/1830", "generated/1830"),
    "1860": ("1860", "random/1860", "generated/1860"),
}
WORST = 10


@dataclass(frozen=True)
class Timing:
    kind: str  # "listing" or "routes"
    game: str
    index: int  # the action about to be taken, as its place in the file
    who: str  # the player listed for, or the company searched for
    ms: float
    answer: str  # what was answered, for --record/--compare


def cpu_ms(call: Any, *args: Any) -> tuple[float, Any]:
    start = time.process_time()
    out = call(*args)
    return (time.process_time() - start) * 1000, out


def timed(game: Game, call: Any, fresh: Any, confirm: float, repeats: int = 2) -> tuple[float, Any]:
    """CPU ms of `call(game)`; when above `confirm` ms (and `confirm` >= 0), the least of that
    and `repeats` more runs, each on a fresh replay `fresh()` of the same position: a busy
    machine only ever adds time, and the slow positions are the ones reported."""
    ms, out = cpu_ms(call, game)
    if 0 <= confirm < ms:
        ms = min([ms] + [cpu_ms(call, fresh())[0] for _ in range(repeats)])
    return ms, out


def running_company(game: Any) -> Any:
    """The company at its run step now, or None."""
    for entity in game.active_entities():
        if "run_routes" in game.round.actions_for(entity):
            return entity
    return None


def digest(answer: Any) -> str:
    text = json.dumps(answer, sort_keys=True, default=str)
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def positions(path: Path, every: int, start: int, confirm: float) -> Iterator[Timing]:
    """Replay the game file, timing the listing and route search before every `every`-th
    action from file index `start` on (see `timed` for `confirm`)."""
    data = io.read_file(path)
    game: Game = io.new_game(data)
    name = path.stem
    for n, (index, action) in enumerate(io.effective_actions(data["actions"])):
        if index >= start and n % every == 0 and not game.finished:

            def fresh(upto: int = index - 1) -> Game:
                return io.load(data, upto=upto).game

            corp = running_company(game)
            twin = copy.deepcopy(game) if corp is not None else None
            for player in game.active_players():
                ms, choices = timed(game, lambda g, p=player: g.legal_actions(p), fresh, confirm)
                yield Timing(
                    "listing",
                    name,
                    index,
                    str(player),
                    ms,
                    digest([(c.label, c.action) for c in choices]),
                )
            if twin is not None:
                ms, (total, routes) = timed(
                    twin, lambda g, c=corp.sym: g.best_routes(g.corporation(c)), fresh, confirm
                )
                answer = f"{total} {digest([total, routes])}"
                yield Timing("routes", name, index, corp.sym, ms, answer)
        try:
            game.process(io.imported(action), atomic=False, story=False)
        except GameError as exc:
            raise io.ReplayError(index, action, str(exc)) from exc


def report(title: str, timings: list[Timing]) -> None:
    for kind in ("listing", "routes"):
        these = [t for t in timings if t.kind == kind]
        if not these:
            continue
        ms = sorted(t.ms for t in these)
        p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        print(
            f"{title} {kind}: {len(ms)} timed, median {statistics.median(ms):.1f} ms, "
            f"p99 {p99:.1f} ms, max {ms[-1]:.1f} ms (CPU)"
        )
        for t in sorted(these, key=lambda t: -t.ms)[:WORST]:
            print(f"    {t.ms:8.1f} ms  {t.game} #{t.index}  {t.who}")


def compare(timings: list[Timing], recorded: dict[str, str]) -> int:
    """How many answers differ from the record (each printed)."""
    differ = 0
    for t in timings:
        key = f"{t.kind} {t.game} {t.index} {t.who}"
        if key in recorded and recorded[key] != t.answer:
            differ += 1
            print(f"DIFFERS {key}: {recorded[key]} -> {t.answer}")
    return differ


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--title", choices=sorted(SETS), help="one title only")
    parser.add_argument("--file", help="only game files whose name contains this")
    parser.add_argument("--every", type=int, default=1, help="time every Nth position only")
    parser.add_argument("--start", type=int, default=0, help="from this action index on")
    parser.add_argument(
        "--confirm",
        type=float,
        default=100.0,
        help="re-time positions slower than this many ms twice more and keep the least (-1: never)",
    )
    parser.add_argument("--record", type=Path, help="write each position's answers here")
    parser.add_argument("--compare", type=Path, help="check the answers against a record")
    args = parser.parse_args()
    recorded = json.loads(args.compare.read_text()) if args.compare else {}
    every: list[Timing] = []
    for title in [args.title] if args.title else sorted(SETS):
        timings: list[Timing] = []
        for game_set in SETS[title]:
            for path in game_files(game_set):
                if args.file and args.file not in path.name:
                    continue
                found = list(positions(path, max(args.every, 1), args.start, args.confirm))
                worst = max((t.ms for t in found), default=0.0)
                print(f"{game_set}/{path.name}: {len(found)} timed, worst {worst:.1f} ms")
                timings.extend(found)
        report(title, timings)
        every.extend(timings)
    if args.record:
        answers = {f"{t.kind} {t.game} {t.index} {t.who}": t.answer for t in every}
        args.record.write_text(json.dumps(answers, indent=0, sort_keys=True))
    if args.compare:
        differ = compare(every, recorded)
        print(f"{differ} answers differ from {args.compare}")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
