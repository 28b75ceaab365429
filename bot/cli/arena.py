"""`railchat arena`: computer players against each other, whole games through the service,
to measure a level: each level's win rate, average rank and score, how the games ended, the
bankruptcies and the CPU time per move (median, p99, max). Seats rotate from game to game, so
that every level plays every seat position equally often. Same seed, same games."""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from typing import TYPE_CHECKING, Any

from bot.cli.fuzz import game_seeds
from bot.cli.jobs import bad_counts, refuse, run_jobs

if TYPE_CHECKING:  # the service and the computers load only when the arena runs
    from bot.cli.arena_game import GameReport


def add_parser(commands: Any) -> None:
    p = commands.add_parser(
        "arena",
        help="computer players play whole games through the service; prints how each level did",
    )
    p.add_argument("--title", required=True, help="game title (1830, 1860, string_railway)")
    p.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    p.add_argument(
        "--seats",
        help="one level per seat, comma-separated (default: standard against random seats, "
        "four in all or as many as the title seats)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the whole run (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="games played at once in worker processes")
    p.add_argument("--save", help="write every game's file into this folder")
    p.add_argument("--options", default="", help="comma-separated game options, on in every game")
    p.add_argument("--verbose", "-v", action="store_true", help="also print one line per game")
    p.add_argument(
        "--only",
        type=int,
        help="play only the game of this game seed (as a report names it), seated as it was",
    )
    p.add_argument(
        "--max-moves",
        type=int,
        default=20000,
        help="a game not over after this many moves counts as stuck (default 20000)",
    )
    p.set_defaults(func=cmd_arena)


def rotated(levels: list[str], game: int) -> list[str]:
    """Game i's seating: the list turned by i places, so each level sits everywhere."""
    shift = game % len(levels)
    return levels[shift:] + levels[:shift]


def cmd_arena(args: argparse.Namespace) -> int:
    from bot.cli.arena_game import run_game
    from bot.computer.levels import check_level
    from engine.errors import GameError
    from engine.titles import find_title

    try:
        cls = find_title(args.title)
        levels = (
            [s.strip() for s in args.seats.split(",") if s.strip()]
            if args.seats is not None
            else ["standard"] + ["random"] * (min(4, cls.max_players) - 1)
        )
        for level in set(levels):
            check_level(cls.title, level)
    except (GameError, ValueError) as exc:
        return refuse(str(exc))
    if not cls.min_players <= len(levels) <= cls.max_players:
        return refuse(
            f"{cls.title} seats {cls.min_players} to {cls.max_players}, not {len(levels)}"
        )
    problem = bad_counts(args.games, args.jobs)
    if problem:
        return refuse(problem)
    options = {o.strip(): True for o in args.options.split(",") if o.strip()}
    try:
        cls.check_options(options)
        cls.check_seats(options, len(levels))
    except GameError as exc:
        return refuse(str(exc))
    jobs = [
        (cls.title, rotated(levels, i), s, options, args.max_moves, args.save)
        for i, s in enumerate(game_seeds(args.seed, args.games))
        if args.only is None or s == args.only
    ]
    if not jobs:
        return refuse(f"no game of this run has game seed {args.only}")
    started = time.monotonic()
    reports = run_jobs(run_game, jobs, args.jobs)
    if args.verbose:
        for r in reports:
            print(game_line(r))
    print(summary(cls.title, levels, reports, time.monotonic() - started))
    return 1 if any(r.end.startswith("error") for r in reports) else 0


def summary(title: str, levels: list[str], reports: list[GameReport], seconds: float) -> str:
    lines = [
        f"{title}: {len(reports)} games, seats {','.join(levels)} (rotated each game), "
        f"{sum(r.moves for r in reports)} moves, {seconds:.0f} s"
    ]
    lines.append(
        f"{'level':<10}{'seats':>6}{'win %':>8}{'avg rank':>10}{'avg score':>11}"
        f"{'bankrupt':>10}{'moves':>8}{'CPU/move ms: median':>21}{'p99':>7}{'max':>8}{'fallbacks':>11}"
    )
    for level in dict.fromkeys(levels):
        seats = [s for r in reports for s in r.seats if s.level == level]
        cpu = sorted(t * 1000 for s in seats for t in s.move_cpu)
        lines.append(
            f"{level:<10}{len(seats):>6}"
            f"{100 * sum(s.win for s in seats) / len(seats):>8.1f}"
            f"{statistics.mean(s.rank for s in seats):>10.2f}"
            f"{statistics.mean(s.score for s in seats):>11.1f}"
            f"{sum(s.bankrupt for s in seats):>10}{len(cpu):>8}"
            f"{_at(cpu, 0.5):>21.1f}{_at(cpu, 0.99):>7.1f}{_at(cpu, 1.0):>8.1f}"
            f"{sum(s.fallbacks for s in seats):>11}"
        )
    for level in dict.fromkeys(levels):  # where the worst move was, to look into it
        spent, seed, move, kind = max(
            (s.slowest[0], r.seed, s.slowest[1], s.slowest[2])
            for r in reports
            for s in r.seats
            if s.level == level
        )
        lines.append(
            f"slowest {level} move: {spent * 1000:.0f} ms, move {move} ({kind}) of game seed {seed}"
        )
    ends = Counter(r.end for r in reports)
    lines.append("game ends: " + ", ".join(f"{end} {n}" for end, n in ends.most_common()))
    for r in reports:
        if r.end.startswith("error") or r.end in ("stuck", "unfinished"):
            lines.append(f"  game seed {r.seed}: {r.end}" + (f" ({r.file})" if r.file else ""))
    return "\n".join(lines)


def game_line(report: GameReport) -> str:
    seats = ", ".join(f"{s.seat}:{s.level} {s.score} (#{s.rank})" for s in report.seats)
    return f"game seed {report.seed}: {report.end}, {report.moves} moves; {seats}"


def _at(values: list[float], q: float) -> float:
    """The q-quantile of sorted values (nearest rank), 0 when there are none."""
    if not values:
        return 0.0
    return values[min(len(values) - 1, max(0, round(q * len(values)) - 1))]
