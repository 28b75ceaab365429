"""The console's commands about a player across all their games, as Discord's: `/turns` (every
game they are seated in, their turns first), `/stats` (a player's standing per title) and the
`/settings` group (direct messages, time zone, quiet hours, an absence). At one keyboard they
are the player `as N:` last named."""

from __future__ import annotations

from typing import Any

from bot.cli.command_line import Command, ConsoleInputError, Param
from bot.core.results import Caller
from bot.core.turn_list import TurnList

ON_OFF = ("on", "off")


def _on_off(args: dict, allowed: tuple[str, ...] = ON_OFF) -> str:
    dm = str(args["dm"]).strip().casefold()
    if dm not in allowed:
        raise ConsoleInputError(f"dm is {', '.join(allowed[:-1])} or {allowed[-1]}, not {dm!r}")
    return dm


async def _turns(console: Any, caller: Caller, args: dict) -> None:
    found = await console.service.my_turns(caller.user_id, page=args.get("page") or 1)
    if isinstance(found, TurnList):
        console.say(found.text(lambda entry: None, markdown=False))  # no links at a keyboard
    else:
        await console.show(found)


async def _stats(console: Any, caller: Caller, args: dict) -> None:
    await console.show(await console.service.stats(caller, args.get("player"), args.get("title")))


async def _show(console: Any, caller: Caller, args: dict) -> None:
    await console.show(await console.service.show_settings(caller))


async def _turn_dm(console: Any, caller: Caller, args: dict) -> None:
    dm = _on_off(args, (*ON_OFF, "default"))
    await console.show(await console.service.set_turn_dm(caller, dm, args.get("game")))


async def _reminder_dm(console: Any, caller: Caller, args: dict) -> None:
    dm = _on_off(args)
    await console.show(await console.service.set_reminder_dm(caller, dm == "on"))


async def _timezone(console: Any, caller: Caller, args: dict) -> None:
    await console.show(await console.service.set_time_zone(caller, args["zone"]))


async def _quiet_hours(console: Any, caller: Caller, args: dict) -> None:
    await console.show(await console.service.set_quiet_hours(caller, args["hours"]))


async def _away(console: Any, caller: Caller, args: dict) -> None:
    await console.show(await console.service.set_away(caller, args["until"]))


GROUP = "/settings"
SETTINGS_COMMANDS: dict[str, Command] = {
    c.name: c
    for c in (
        Command("show", (), "your settings", _show, GROUP),
        Command(
            "turn-dm",
            (Param("dm", str, True, word=True), Param("game", int)),
            "on, off (or default, with game): a direct message on your turn",
            _turn_dm,
            GROUP,
        ),
        Command(
            "reminder-dm",
            (Param("dm", str, True, word=True),),
            "on or off: reminders after the first by direct message",
            _reminder_dm,
            GROUP,
        ),
        Command(
            "timezone",
            (Param("zone", str, True, word=True),),
            "your time zone, e.g. Europe/Paris",
            _timezone,
            GROUP,
        ),
        Command(
            "quiet-hours",
            (Param("hours", str, True),),
            "from-to in your time zone (23-8), or off",
            _quiet_hours,
            GROUP,
        ),
        Command(
            "away",
            (Param("until", str, True),),
            "the day you are back (2025-12-03, 3 Dec), or off",
            _away,
            GROUP,
        ),
    )
}
TURNS = Command("turns", (Param("page", int),), "your games, your turns first", _turns, "")
STATS = Command(
    "stats",
    (Param("player", int), Param("title", str, word=True)),
    "a player's (default: your) rating, wins and pace per title",
    _stats,
    "",
)
