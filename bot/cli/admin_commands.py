"""The console's `/game-admin` commands, as Discord's: pause and resume, abandon, give a seat
to another player or to the computer, rewind, reminders and a move typed as JSON; and the
computer seat handler `/play away` and `/play back` share. At one keyboard every player is
there, so a seat is given without an offer to accept."""

from __future__ import annotations

from bot.cli.command_line import GAME, Command, ConsoleInputError, Handler, Param
from bot.cli.hotseat import Session
from bot.core.parsing import parse_action
from bot.core.results import Caller


def computer_handler(*, own: bool, on: bool = True) -> Handler:
    """`/play away` and `/play back` (the caller's seat), or the admin's `computer` (a seat,
    with a level or off)."""

    async def run(console: Session, caller: Caller, args: dict) -> None:
        level = args.get("level")
        await console.show(
            await console.service.computer_seat(
                await console.game(args),
                caller,
                None if own else args["seat"],
                on and level != "off",
                None if level == "off" else level,
            )
        )

    return run


async def _pause(console: Session, caller: Caller, args: dict, paused: bool) -> None:
    await console.show(await console.service.pause((await console.game(args)), caller, paused))


async def _abandon(console: Session, caller: Caller, args: dict) -> None:
    await console.show(await console.service.abandon((await console.game(args)), caller))


async def _replace(console: Session, caller: Caller, args: dict) -> None:
    user = args["user"]
    await console.show(
        await console.service.replace_seat(  # at one keyboard, every player is there to agree
            (await console.game(args)), caller, args["seat"], user, f"player {user}", offer=False
        )
    )


async def _rewind(console: Session, caller: Caller, args: dict) -> None:
    await console.show(
        await console.service.rewind((await console.game(args)), caller, args["action"])
    )


async def _remind(console: Session, caller: Caller, args: dict) -> None:
    await console.show(
        await console.service.set_reminders((await console.game(args)), caller, args["hours"])
    )


async def _extend(console: Session, caller: Caller, args: dict) -> None:
    await console.show(
        await console.service.extend_clock((await console.game(args)), caller, args["hours"])
    )


async def _thread(console: Session, caller: Caller, args: dict) -> None:
    """A game's thread is a Discord channel: a console sharing the bot's database can only
    say where to give it a new one."""
    game_id = await console.game(args)
    raise ConsoleInputError(
        f"game #{game_id}'s thread is in Discord: type /game-admin thread game:{game_id} in the "
        "Discord channel where it should go on (the console plays without threads)"
    )


async def _act(console: Session, caller: Caller, args: dict) -> None:
    try:
        action = parse_action(args["action"])
    except ValueError as exc:
        raise ConsoleInputError(str(exc)) from None
    await console.show(await console.service.act((await console.game(args)), caller, action))


ADMIN_COMMANDS: dict[str, Command] = {
    c.name: c
    for c in (
        Command(
            "pause", (GAME,), "pause the game", lambda c, u, a: _pause(c, u, a, True), "/game-admin"
        ),
        Command(
            "resume",
            (GAME,),
            "resume a paused game",
            lambda c, u, a: _pause(c, u, a, False),
            "/game-admin",
        ),
        Command("abandon", (GAME,), "end the game without a result", _abandon, "/game-admin"),
        Command(
            "replace",
            (Param("seat", int, True), Param("user", int, True), GAME),
            "give a seat to another player",
            _replace,
            "/game-admin",
        ),
        Command(
            "computer",
            (Param("seat", int, True), Param("level", str, True, word=True), GAME),
            "the computer plays a seat (level: standard or random), or stops (off)",
            computer_handler(own=False),
            "/game-admin",
        ),
        Command(
            "rewind",
            (Param("action", int, True), GAME),
            "take the game back to just after an action",
            _rewind,
            "/game-admin",
        ),
        Command(
            "remind",
            (Param("hours", float, True), GAME),
            "idle hours before a reminder (0: none)",
            _remind,
            "/game-admin",
        ),
        Command(
            "extend",
            (Param("hours", float, True), GAME),
            "give the turn under way more time (a game with a clock)",
            _extend,
            "/game-admin",
        ),
        Command(
            "thread",
            (GAME,),
            "give the game a new Discord thread (in Discord, after its thread was deleted)",
            _thread,
            "/game-admin",
        ),
        Command(
            "act",
            (Param("action", str, True), GAME),
            'a move as JSON, e.g. {"type": "pass"}',
            _act,
            "/game-admin",
        ),
    )
}
