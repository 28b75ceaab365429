"""`railchat replay`, `railchat states`: replay 18xx.games game files through the engine."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def add_parser(subparsers: Any) -> None:
    replay = subparsers.add_parser(
        "replay", help="replay an 18xx.games game file and print the result"
    )
    replay.add_argument("file", help="18xx.games JSON export")
    replay.add_argument(
        "--upto", type=int, help="stop after this action index (0-based, in the file)"
    )
    replay.add_argument("--json", action="store_true", help="end with one JSON line of the result")
    replay.add_argument(
        "--live",
        action="store_true",
        help="play the file through the service as live play would: its auto_actions dropped, "
        "railchat making the programmed moves",
    )
    replay.add_argument(
        "--out", help="with --live: write the resulting game file (with railchat's auto_actions)"
    )
    replay.set_defaults(func=cmd_replay)
    states = subparsers.add_parser(
        "states", help="print the public state after every action (JSON lines)"
    )
    states.add_argument("file", help="18xx.games JSON export")
    states.set_defaults(func=cmd_states)


def _load(path: str) -> dict[str, Any]:
    from engine.eighteen import io
    from engine.errors import GameError

    try:
        return io.read_file(path)
    except (OSError, GameError) as exc:
        raise SystemExit(f"railchat: {exc}") from None


def cmd_replay(args: argparse.Namespace) -> int:
    from engine.eighteen import io
    from engine.errors import GameError

    data = _load(args.file)
    if args.live or args.out:
        return _replay_live(args, data)
    try:
        loaded = io.load(data, upto=args.upto)
    except io.ReplayError as exc:
        print(
            f"illegal action at index {exc.index} (id {exc.action.get('id')}, "
            f"{exc.action.get('type')}): {exc.reason}",
            file=sys.stderr,
        )
        return 1
    except GameError as exc:
        print(f"railchat: {exc}", file=sys.stderr)
        return 1
    game = loaded.game
    print(game.status_text())
    if args.json:
        print(
            json.dumps(
                {
                    "title": game.title,
                    "result": {str(k): v for k, v in game.result().items()},
                    "game_end_reason": getattr(game, "game_end_reason", None),
                    "actions": loaded.processed,
                }
            )
        )
    return 0


def _replay_live(args: argparse.Namespace, data: dict[str, Any]) -> int:
    import asyncio

    from bot.cli.replay_live import LiveRefused, replay_live

    if not args.live:
        raise SystemExit("railchat: --out writes the game --live plays; add --live")
    if args.upto is not None:
        raise SystemExit("railchat: --upto and --live do not go together")
    try:
        played = asyncio.run(replay_live(data))
    except LiveRefused as exc:
        print(exc, file=sys.stderr)
        return 1
    print(played.status)
    print(json.dumps(played.summary))
    if args.out:
        Path(args.out).write_text(json.dumps(played.exported))
    return 0


def state_line(idx: int, action: dict[str, Any] | None, game: Any) -> str:
    from engine.eighteen.states import public_state

    line = {
        "idx": idx,
        "id": action.get("id") if action else 0,
        "type": action.get("type") if action else None,
    }
    line.update(public_state(game))
    return json.dumps(line, separators=(",", ":"))


def cmd_states(args: argparse.Namespace) -> int:
    from engine.eighteen import io
    from engine.errors import GameError

    data = _load(args.file)
    game = io.new_game(data)
    print(state_line(-1, None, game))
    try:
        io.load(data, on_state=lambda idx, action, g: print(state_line(idx, action, g)))
    except GameError as exc:
        print(f"railchat: {exc}", file=sys.stderr)
        return 1
    return 0
