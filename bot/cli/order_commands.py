"""The console's `/play auto`, as Discord's: a player's programmed moves (set, list, cancel).
Discord answers the player alone; at one keyboard the answer names whose they are (whoever
must act, or the player of an `as N:` line)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.cli.command_line import Command, ConsoleInputError, Param
from bot.core.results import Caller

WHAT = ("set", "list", "cancel")


async def _auto(console: Any, caller: Caller, args: dict) -> None:
    what = str(args.get("what") or "list").strip().casefold()
    if what not in WHAT:
        raise ConsoleInputError(f"what is set, list or cancel, not {what!r}")
    game_id = await console.game(args)
    program = str(args.get("program") or "").strip()
    if what == "list":
        result = await console.service.orders(game_id, caller)
    elif not program:
        raise ConsoleInputError(f"which programmed move to {what}? give program:...")
    elif what == "set":
        result = await console.service.set_order(game_id, caller, program, until=args.get("until"))
    else:
        result = await console.service.cancel_order(game_id, caller, program)
    if result.ok and result.text:
        result = replace(result, text=f"[{caller.name}] {result.text}")
    await console.show(result, caller)


def auto_command(game: Param) -> Command:
    return Command(
        "auto",
        (
            Param("what", str, word=True),
            Param("program", str),
            Param("until", str, word=True),
            game,
        ),
        "your programmed moves: set, list (default) or cancel one (all: every one)",
        _auto,
        "/play",
    )
