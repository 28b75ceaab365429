"""`railchat routes FILE`: the best revenue at every run_routes of an 18xx.games game file.

The game is replayed through the engine; just before each recorded run_routes, the board's
exact route finder is asked for the company's best routes, and the answer is compared with what
the players ran. One JSON line per run_routes, then a summary line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RouteCheck:
    action_id: Any
    corporation: str
    recorded: int
    best: int
    ms: float
    routes: list[dict[str, Any]]

    def line(self, show: bool) -> dict[str, Any]:
        out = {
            "action_id": self.action_id,
            "corporation": self.corporation,
            "recorded": self.recorded,
            "best": self.best,
            "ms": round(self.ms, 2),
        }
        if show:
            out["routes"] = [
                {"train": r["train"], "stops": r["revenue_str"], "revenue": r["revenue"]}
                for r in self.routes
            ]
        return out


def route_checks(data: dict[str, Any]) -> Iterator[RouteCheck]:
    """Replay `data`; before each run_routes, time the best-routes search for that company."""
    from engine.eighteen import io
    from engine.eighteen.game import EighteenGame
    from engine.errors import GameError

    game = io.new_game(data)
    if not isinstance(game, EighteenGame):
        raise GameError(f"{game.title} has no train routes")
    for index, action in io.effective_actions(data["actions"]):
        check = None
        if action.get("type") == "run_routes":
            corp = game.corporation(action["entity"])
            start = time.perf_counter()
            best, routes = game.best_routes(corp)
            elapsed = (time.perf_counter() - start) * 1000
            check = (corp.sym, best, elapsed, routes)
        try:
            game.process(io.imported(action))
        except GameError as exc:
            raise io.ReplayError(index, action, str(exc)) from exc
        if check is not None:
            # what the players ran, as the file records it (or, when it does not, as the engine values it)
            listed = [r.get("revenue") for r in action.get("routes", [])]
            recorded = (
                sum(listed) if listed and None not in listed else sum(game.last_route_revenues)
            )
            yield RouteCheck(action.get("id"), check[0], recorded, check[1], check[2], check[3])


def summary(checks: list[RouteCheck]) -> dict[str, Any]:
    times = [c.ms for c in checks]
    return {
        "summary": True,
        "count": len(checks),
        "best_above_recorded": sum(c.best > c.recorded for c in checks),
        "best_below_recorded": sum(c.best < c.recorded for c in checks),
        "median_ms": round(statistics.median(times), 2) if times else 0.0,
        "max_ms": round(max(times), 2) if times else 0.0,
    }


def add_parser(subparsers: Any) -> None:
    routes = subparsers.add_parser(
        "routes", help="best route revenue at every run_routes of a game file"
    )
    routes.add_argument("file", help="18xx.games JSON export")
    routes.add_argument(
        "--json", action="store_true", help="JSON lines only (default: a readable table)"
    )
    routes.add_argument("--show", action="store_true", help="also list the best routes found")
    routes.set_defaults(func=cmd_routes)


def cmd_routes(args: argparse.Namespace) -> int:
    from engine.eighteen import io
    from engine.errors import GameError

    try:
        data = io.read_file(args.file)
        currency = getattr(io.new_game(data), "CURRENCY", "$")
        checks = []
        for check in route_checks(data):
            checks.append(check)
            _emit(check.line(args.show), args.json, currency)
    except OSError as exc:
        print(f"railchat: cannot read {args.file}: {exc}", file=sys.stderr)
        return 1
    except GameError as exc:
        print(f"railchat: {exc}", file=sys.stderr)
        return 1
    _emit(summary(checks), args.json)
    return 0


def _emit(line: dict[str, Any], as_json: bool, currency: str = "$") -> None:
    if as_json:
        print(json.dumps(line))
    elif line.get("summary"):
        print(
            f"{line['count']} run_routes; best above recorded {line['best_above_recorded']}, below "
            f"{line['best_below_recorded']}; search median {line['median_ms']} ms, max {line['max_ms']} ms"
        )
    else:
        mark = "  <- better routes existed" if line["best"] > line["recorded"] else ""
        print(
            f"#{line['action_id']:<5} {line['corporation']:<5} recorded {line['recorded']:>4}  "
            f"best {line['best']:>4}  {line['ms']:>7.2f} ms{mark}"
        )
        for r in line.get("routes", []):
            print(f"        {r['train']:<6} {r['stops']}  {currency}{r['revenue']}")
