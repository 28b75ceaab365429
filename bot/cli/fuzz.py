"""`railchat fuzz`: play many seeded random games through the service layer and report every
broken invariant or wrongly handled move (bot/core/fuzz). Same seed, same games."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

from bot.cli.jobs import run_jobs


def add_parser(commands: Any) -> None:
    p = commands.add_parser(
        "fuzz",
        help="play seeded random games through the service and check invariants after every move",
    )
    p.add_argument("--title", required=True, help="game title (e.g. 1830)")
    p.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    p.add_argument("--seed", type=int, default=1, help="seed of the whole run (default 1)")
    p.add_argument("--players", type=int, default=4, help="seats per game (default 4)")
    p.add_argument(
        "--jobs", type=int, default=1, help="games played at once in worker processes (default 1)"
    )
    p.add_argument(
        "--max-actions",
        type=int,
        default=4000,
        help="stop a game that has not finished after this many moves (default 4000)",
    )
    p.add_argument(
        "--replay-every",
        type=int,
        default=250,
        help="also import the exported game through the service every N moves "
        "(0: only at the end); the export is replayed after every move",
    )
    p.add_argument(
        "--out",
        default="fuzz-failures",
        help="folder for the game files of failures (default ./fuzz-failures)",
    )
    p.add_argument(
        "--save",
        help="also write every game's file into this folder (to replay "
        "them on 18xx.games, see ../shared/oracle)",
    )
    p.add_argument(
        "--options",
        default="",
        help="comma-separated game options (e.g. two_player_map,re_enter_hexes): "
        "each is on in a seeded half of the games",
    )
    p.set_defaults(func=cmd_fuzz)


def game_seeds(seed: int, games: int) -> list[int]:
    """Each game's own seed, derived from the run's: game i is the same in any run."""
    rng = random.Random(seed)
    return [rng.randrange(2**31) for _ in range(games)]


def _one(
    title: str,
    players: int,
    seed: int,
    max_actions: int,
    replay_every: int,
    out: str,
    save: str | None,
    options: tuple[str, ...],
) -> Any:
    import asyncio

    from bot.core.fuzz.player import fuzz_game

    return asyncio.run(
        fuzz_game(
            title,
            players,
            seed,
            max_actions=max_actions,
            replay_every=replay_every,
            out_dir=Path(out),
            save_dir=Path(save) if save else None,
            options=options,
        )
    )


def cmd_fuzz(args: argparse.Namespace) -> int:
    from engine.errors import GameError
    from engine.titles import find_title

    try:
        cls = find_title(args.title)
    except GameError as exc:
        print(f"railchat: {exc}", file=sys.stderr)
        return 2
    title = cls.title
    options = tuple(o.strip() for o in args.options.split(",") if o.strip())
    unknown = [o for o in options if o not in cls.option_names]
    if unknown:
        print(
            f"railchat: {title} has no option {', '.join(unknown)} (it has: "
            f"{', '.join(cls.option_names) or 'none'})",
            file=sys.stderr,
        )
        return 2
    if args.games < 1 or args.jobs < 1:
        print("railchat: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    started = time.monotonic()
    jobs = [
        (title, args.players, s, args.max_actions, args.replay_every, args.out, args.save, options)
        for s in game_seeds(args.seed, args.games)
    ]
    reports = run_jobs(_one, jobs, args.jobs)
    seconds = time.monotonic() - started
    for r in reports:
        if r.failure:
            print(f"FAIL game seed {r.seed}: {r.failure}\n  game file: {r.file}")
        elif not r.finished:
            print(f"unfinished game seed {r.seed} after {r.actions} moves")
    failures = sum(1 for r in reports if r.failure)
    print(
        f"{title}: {len(reports)} games ({sum(r.finished for r in reports)} finished), "
        f"{sum(r.actions for r in reports)} moves, {sum(r.illegal for r in reports)} illegal "
        f"moves refused, {sum(r.deals for r in reports)} deals, "
        f"{sum(r.undos for r in reports)} undos, {sum(r.rewinds for r in reports)} rewinds, "
        f"{sum(r.replays for r in reports)} export/import checks, {failures} failures, "
        f"{seconds:.1f} s"
    )
    return 1 if failures else 0
