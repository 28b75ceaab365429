"""`railchat render FILE [--upto N] --out DIR`: the map, market and sheet of a game file's position."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add_parser(subparsers: Any) -> None:
    cmd = subparsers.add_parser(
        "render",
        help="draw every image of a game file's position (18xx: map, market, sheet; String Railway: map)",
    )
    cmd.add_argument("file", help="18xx.games JSON export (or railchat export)")
    cmd.add_argument(
        "--upto", type=int, help="the position after this action index (0-based, in the file)"
    )
    cmd.add_argument("--out", required=True, help="folder to write the images to")
    cmd.set_defaults(func=cmd_render)


def cmd_render(args: argparse.Namespace) -> int:
    from engine.eighteen import io
    from engine.errors import GameError

    try:
        data = io.read_file(args.file)
        game = io.load(data, upto=args.upto).game
    except (OSError, GameError) as exc:
        print(f"railchat: {exc}", file=sys.stderr)
        return 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    options = tuple(sorted(k for k, v in game.options.items() if v))
    from render import drawer_for  # cairosvg and the fonts load only when drawing

    take_snapshot = getattr(game, "snapshot", None)  # not every title can be drawn
    if take_snapshot is None:
        print(f"railchat: {game.title} games cannot be drawn", file=sys.stderr)
        return 1
    snapshot = take_snapshot()
    for view in game.views():
        path = out / f"{view}.png"
        path.write_bytes(drawer_for(game.title, view)(snapshot, options))  # type: ignore[misc]
        print(path)
    return 0
