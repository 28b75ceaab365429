"""`railchat export GAME_ID`: write a stored game as an 18xx.games-shaped JSON file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.core.config import load_settings
from bot.core.db_url import OPTION_HELP, is_postgres


def add_parser(subparsers: Any) -> None:
    export = subparsers.add_parser("export", help="write a stored game as an 18xx.games JSON file")
    export.add_argument("game_id", type=int, metavar="GAME_ID", help="the game's number")
    export.add_argument("--db", help=OPTION_HELP)
    export.add_argument("--out", help="file to write (default: standard output)")
    export.set_defaults(func=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    import asyncio

    from bot.core.service import GameService
    from bot.core.store import Store

    db_path = args.db or load_settings().db_path
    if not (is_postgres(db_path) or Path(db_path).is_file()):
        print(f"railchat: there is no database {db_path}", file=sys.stderr)
        return 1
    store = Store(db_path)
    try:
        result = asyncio.run(GameService(store).export(args.game_id))
    finally:
        store.close()
    if not result.ok:
        print(f"railchat: {result.error}", file=sys.stderr)
        return 1
    ((_, data),) = result.files
    if args.out:
        Path(args.out).write_bytes(data)
        print(f"{result.text} Written to {args.out}.", file=sys.stderr)
    else:
        sys.stdout.write(data.decode() + "\n")
    return 0
