"""Console play: the Discord commands (`/game ...`, `/play ...`, `/notify`) typed as text,
hot-seat, on the same service and store.

A line looks like `as 2: /play bid company:CS price:50`. Options are written `name:value`;
the first option may be given without its name (`/game status 3`, `/play buy PRR IPO`). A move
(`/play ...`, `menu`, a number) is made by whoever must act; `as N:` makes it player N's
instead, and stays in force for the commands that are not moves. `menu` lists the legal moves
numbered, as Discord's menu of moves offers them, `/play lay HEX` numbers the lays on that hex
(drawn as a picture), and a line holding only a number makes that move. Without a terminal the
console reads lines from standard input, so sessions can be scripted. Images are written as PNG
files after each change, in a folder per database.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bot.cli.hotseat import ConsoleInputError, Session, images_dir_for
from bot.core.help_text import help_text
from bot.core.moves import MOVES, Move, moves_text, resolve
from bot.core.parsing import (
    MAX_INTEGER,
    parse_action,
    parse_game_file,
    parse_options,
    parse_seat_users,
)
from bot.core.results import Caller
from bot.core.routes_input import best_routes_text, routes_from_text
from bot.core.service import GameService
from bot.core.service.base import Renderer

log = logging.getLogger(__name__)

AS_PREFIX = re.compile(r"^as\s+(\S+?)\s*:\s*(.*)$", re.IGNORECASE)
QUIT_WORDS = {"quit", "exit"}
SHORT_WORDS = {"help": "/game help", "menu": "/play menu"}  # `menu game:2` is /play menu game:2


@dataclass(frozen=True)
class Param:
    name: str
    kind: type  # int, float or str
    required: bool = False

    @property
    def usage(self) -> str:
        shown = f"{self.name}:<{'text' if self.kind is str else 'number'}>"
        return shown if self.required else f"[{shown}]"


Handler = Callable[["Console", Caller, dict], Awaitable[None]]


@dataclass(frozen=True)
class Command:
    name: str
    params: tuple[Param, ...]
    description: str
    run: Handler
    group: str = "/game"  # "" for a top-level command such as /notify

    @property
    def usage(self) -> str:
        head = f"{self.group} {self.name}" if self.group else f"/{self.name}"
        return " ".join([head, *(p.usage for p in self.params)])


class Console(Session):
    """The session reading typed lines: each names a command, or a number from a menu."""

    async def run(self, lines: Iterable[str], *, echo: bool = False) -> None:
        for line in lines:
            if echo and line.strip():
                self.say(f"> {line.rstrip()}")
            if not await self.handle(line):
                return

    async def handle(self, line: str) -> bool:
        """Carry out one line; False when the session should end."""
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        if line.lower() in QUIT_WORDS:
            return False
        try:
            await self._handle(line)
        except ConsoleInputError as exc:
            self.say(f"Refused: {exc}")
        except Exception:  # a bug must not end a hot-seat session; the service stored nothing
            log.exception("console command failed: %s", line)
            self.say(
                "Something went wrong on my side while handling that command; it has been "
                "logged. Check /game status before retrying."
            )
        return True

    async def _handle(self, line: str) -> None:
        named = False  # the line says who plays it; otherwise a move is the acting player's
        if match := AS_PREFIX.match(line):
            handle, line = match.groups()
            if not handle.isdigit() or len(handle) > 19 or not 0 < int(handle) < MAX_INTEGER:
                raise ConsoleInputError(
                    f"'as' takes a player number, e.g. as 2: /game status (not {handle!r})"
                )
            self.user_id, named = int(handle), True
            if not line:
                self.say(f"Now playing as player {self.user_id}.")
                return
        head, _, rest = line.partition(" ")
        if head.lower() in SHORT_WORDS:
            line = f"{SHORT_WORDS[head.lower()]} {rest}".strip()
        if line.isdigit():
            await self.pick(self.caller() if named else await self.mover(self.game_id), int(line))
            return
        command, rest = find_command(line)
        args = parse_arguments(rest, command)
        caller = self.caller()
        if command.group == "/play" and not named:
            caller = await self.mover(await self.game(args))
        await command.run(self, caller, args)


def find_command(line: str) -> tuple[Command, str]:
    """The command a line names and the text of its options."""
    words = line.split(maxsplit=2)
    head = words[0].lower() if words else ""
    if head in GROUPS and len(words) >= 2 and words[1].lower() in GROUPS[head]:
        return GROUPS[head][words[1].lower()], words[2] if len(words) == 3 else ""
    top = TOP_LEVEL.get(head.removeprefix("/")) if head.startswith("/") else None
    if top is not None:
        return top, line.split(maxsplit=1)[1] if len(words) > 1 else ""
    raise ConsoleInputError(f"unknown command {line!r}; type /game help for the commands")


def parse_arguments(text: str, command: Command) -> dict:
    """`name:value` pairs for the command's options; text before the first name fills the
    first option not given by name."""
    names = "|".join(re.escape(p.name) for p in command.params)
    marks = list(re.finditer(rf"(?:^|\s)({names}):", text)) if names else []
    raw: dict[str, str] = {}
    for mark, following in zip(marks, [*marks[1:], None]):
        name = mark.group(1)
        if name in raw:
            raise ConsoleInputError(f"{name} is given twice; usage: {command.usage}")
        raw[name] = text[mark.end() : following.start() if following else len(text)]
    lead = text[: marks[0].start()] if marks else text
    if lead.strip():
        free = [p for p in command.params if p.name not in raw]
        if not free:
            raise ConsoleInputError(f"cannot read {lead.strip()!r}; usage: {command.usage}")
        raw[free[0].name] = lead
    args: dict = {}
    for param in command.params:
        if param.name not in raw:
            if param.required:
                raise ConsoleInputError(f"{param.name} is missing; usage: {command.usage}")
            continue
        value = _unquote(raw[param.name].strip())
        if param.kind is int:
            if not re.fullmatch(r"-?\d+", value):
                raise ConsoleInputError(f"{param.name} must be a whole number, not {value[:30]!r}")
            if len(value.lstrip("-")) > 19 or not abs(int(value)) < MAX_INTEGER:
                raise ConsoleInputError(
                    f"{param.name} must be a whole number below {MAX_INTEGER:,}"
                )
            args[param.name] = int(value)
        elif param.kind is float:
            if not re.fullmatch(r"-?\d{1,15}(\.\d{1,15})?", value):
                raise ConsoleInputError(f"{param.name} must be a number, not {value[:30]!r}")
            args[param.name] = float(value)
        else:
            args[param.name] = value
    return args


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def console_help(topic: str | None = None) -> str:
    if topic:
        return help_text(topic)
    usages = [c.usage for group in GROUPS.values() for c in group.values()]
    usages += [c.usage for c in TOP_LEVEL.values()]
    return "\n".join(
        [
            help_text(),
            "",
            "In this console:",
            *usages,
            "A move (/play ..., menu, a number) is made by whoever must act; prefix a line "
            "with 'as N:' to act as player N instead (it stays for the other commands); "
            "/play lay HEX numbers the lays on that hex and draws them; 'quit' ends the "
            "session.",
        ]
    )


# -- the commands --------------------------------------------------------------------------------
GAME = Param("game", int)


async def _new(console: Console, caller: Caller, args: dict) -> None:
    try:
        options = parse_options(args.get("options"))
    except ValueError as exc:
        raise ConsoleInputError(str(exc)) from None
    await console.show(
        await console.service.create_game(
            caller, args["title"], seats=args.get("seats"), options=options
        )
    )


async def _join(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.join((await console.game(args)), caller))


async def _leave(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.leave((await console.game(args)), caller))


async def _start(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.start((await console.game(args)), caller))


async def _act(console: Console, caller: Caller, args: dict) -> None:
    try:
        action = parse_action(args["action"])
    except ValueError as exc:
        raise ConsoleInputError(str(exc)) from None
    await console.show(await console.service.act((await console.game(args)), caller, action))


async def _undo(console: Console, caller: Caller, args: dict) -> None:
    game_id = await console.game(args)
    result = await console.service.undo(game_id, caller)
    if result.confirm_undo is not None:  # an admin taking back another player's move
        if str(args.get("confirm", "")).casefold() in ("yes", "y", "true"):
            result = await console.service.undo(game_id, caller, confirmed=result.confirm_undo)
        else:
            console.say(result.text + " (type /game undo confirm:yes)")
            return
    await console.show(result)


async def _redo(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.redo((await console.game(args)), caller))


async def _vote(console: Console, caller: Caller, args: dict, approve: bool) -> None:
    await console.show(await console.service.vote(args["request"], caller, approve))


async def _status(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.status(await console.game(args)))


async def _moves(console: Console, caller: Caller, args: dict) -> None:
    game_id = await console.game(args)
    console.say(moves_text(await console.service.legal_actions(game_id, caller.user_id)))


async def _show(console: Console, caller: Caller, args: dict) -> None:
    view = str(args.get("view") or "map").strip().casefold()
    await console.show(
        await console.service.view((await console.game(args)), view, console.renderer)
    )


async def _info(console: Console, caller: Caller, args: dict) -> None:
    await console.show(
        await console.service.reference((await console.game(args)), args.get("topic"))
    )


async def _history(console: Console, caller: Caller, args: dict) -> None:
    await console.show(
        await console.service.history((await console.game(args)), args.get("last", 10))
    )


async def _routes(console: Console, caller: Caller, args: dict) -> None:
    company = args["company"]
    await console.show(
        await console.service.inspect(
            (await console.game(args)), lambda g: best_routes_text(g, company)
        )
    )


async def _list(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.list_games(include_finished=True))


async def _help(console: Console, caller: Caller, args: dict) -> None:
    console.say(console_help(args.get("title")))


async def _pause(console: Console, caller: Caller, args: dict, paused: bool) -> None:
    await console.show(await console.service.pause((await console.game(args)), caller, paused))


async def _abandon(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.abandon((await console.game(args)), caller))


async def _replace(console: Console, caller: Caller, args: dict) -> None:
    user = args["user"]
    await console.show(
        await console.service.replace_seat(  # at one keyboard, every player is there to agree
            (await console.game(args)), caller, args["seat"], user, f"player {user}", offer=False
        )
    )


async def _rewind(console: Console, caller: Caller, args: dict) -> None:
    await console.show(
        await console.service.rewind((await console.game(args)), caller, args["action"])
    )


async def _remind(console: Console, caller: Caller, args: dict) -> None:
    await console.show(
        await console.service.set_reminders((await console.game(args)), caller, args["hours"])
    )


async def _import(console: Console, caller: Caller, args: dict) -> None:
    try:
        users = parse_seat_users(args.get("players"))
        data = parse_game_file(await asyncio.to_thread(Path(args["file"]).read_bytes))
    except (OSError, ValueError) as exc:
        raise ConsoleInputError(f"cannot read {args['file']}: {exc}") from None
    # at one keyboard every player named is there to agree: seated at once
    result = await console.service.import_game(caller, data, users, offer=False)
    await console.show(result)
    if result.ok and result.game_id is not None:
        seats = await console.service.store.seats(result.game_id)
        empty = [s.seat for s in seats if s.user_id <= 0]
        if empty:
            numbers = " ".join(str(s.seat) for s in seats)
            console.say(
                f"Nobody plays seat{'s' if len(empty) > 1 else ''} "
                f"{', '.join(map(str, empty))} yet, so no move can be made there. At this keyboard: "
                f"/game replace seat:{empty[0]} user:{empty[0]} gives seat {empty[0]} to "
                f"player {empty[0]}; or import with every seat taken: /game import "
                f"file:{args['file']} players:{numbers}"
            )


async def _export(console: Console, caller: Caller, args: dict) -> None:
    """The file goes where `out` says, else into the current folder under the service's name
    for it (not among the images)."""
    result = await console.service.export(await console.game(args))
    if not result.ok:
        await console.show(result)
        return
    ((name, data),) = result.files
    path = Path(args.get("out") or name)
    try:
        await asyncio.to_thread(path.write_bytes, data)
    except OSError as exc:
        raise ConsoleInputError(f"cannot write {path}: {exc}") from None
    console.say(f"{result.text}\nFile: {path}")


async def _notify(console: Console, caller: Caller, args: dict) -> None:
    dm = args["dm"].strip().lower()
    if dm not in ("on", "off"):
        raise ConsoleInputError(f"dm is on or off, not {args['dm']!r}")
    await console.show(await console.service.set_notify(caller, dm == "on"))


def _play(move: Move) -> Handler:
    async def run(console: Console, caller: Caller, args: dict) -> None:
        game_id = await console.game(args)
        if move.name == "lay" and args.get("rotation") is None:  # lay by picture
            if await console.lays(caller, game_id, args["hex"], args.get("tile")):
                return
        build = lambda g, choices: resolve(move, args, choices, g, routes_from_text)  # noqa: E731
        if move.preview:
            drawer = None
            if console.renderer is not None:
                from bot.core.rendering import render_snapshot

                drawer = render_snapshot
            result = await console.service.preview(game_id, caller, build, drawer)
        else:
            result = await console.service.play(game_id, caller, build)
        await console.show(result, caller)

    return run


def _confirm(approve: bool) -> Handler:
    async def run(console: Console, caller: Caller, args: dict) -> None:
        token = console.previews.pop(caller.user_id, None)
        if token is None:
            raise ConsoleInputError(
                "there is no move shown to you to confirm; preview one first (e.g. /play rail)"
            )
        await console.show(await console.service.confirm(token, caller, approve), caller)

    return run


async def _menu(console: Console, caller: Caller, args: dict) -> None:
    await console.menu(caller, await console.game(args))


async def _hint(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.hints((await console.game(args)), caller), caller)


def _play_command(move: Move) -> Command:
    """A /play command's options; a number told in words (a rotation by the exits it names:
    `rotation:Newport`) is typed as text, as Discord's suggestions show it."""
    words = {f.name for f in move.fields if f.by_label}
    params = tuple(
        Param(o.name, int if o.number and o.name not in words else str, o.required)
        for o in move.options
    )
    return Command(move.name, (*params, GAME), move.description.lower(), _play(move), "/play")


REQUEST = Param("request", int, True)
GAME_COMMANDS: dict[str, Command] = {
    c.name: c
    for c in (
        Command(
            "new",
            (Param("title", str, True), Param("seats", int), Param("options", str)),
            "open a new game; you take seat 1",
            _new,
        ),
        Command("join", (GAME,), "take a seat in a game that has not started", _join),
        Command("leave", (GAME,), "give up your seat before the game starts", _leave),
        Command("start", (GAME,), "start the game (its creator)", _start),
        Command(
            "act", (Param("action", str, True), GAME), 'make a move, e.g. {"type": "pass"}', _act
        ),
        Command(
            "undo",
            (Param("confirm", str), GAME),
            "take back your last move (others approve if they moved since)",
            _undo,
        ),
        Command(
            "redo",
            (GAME,),
            "put back the last undo; again for the undo before it, while nobody has moved",
            _redo,
        ),
        Command("moves", (GAME,), "list every move you can make now", _moves),
        Command("status", (GAME,), "show where the game stands", _status),
        Command(
            "show",
            (Param("view", str), GAME),
            "write a current image: map (default), market, sheet",
            _show,
        ),
        Command(
            "info",
            (Param("topic", str), GAME),
            "reference: privates, phases, certificates, market colours",
            _info,
        ),
        Command("history", (Param("last", int), GAME), "the last actions, numbered", _history),
        Command(
            "routes", (Param("company", str, True), GAME), "a company's best routes now", _routes
        ),
        Command("list", (), "list the games in this database", _list),
        Command("help", (Param("title", str),), "the commands, or a title's moves", _help),
        Command("pause", (GAME,), "admin: pause the game", lambda c, u, a: _pause(c, u, a, True)),
        Command(
            "resume", (GAME,), "admin: resume a paused game", lambda c, u, a: _pause(c, u, a, False)
        ),
        Command("abandon", (GAME,), "admin: end the game without a result", _abandon),
        Command(
            "replace",
            (Param("seat", int, True), Param("user", int, True), GAME),
            "admin: give a seat to another player",
            _replace,
        ),
        Command(
            "rewind",
            (Param("action", int, True), GAME),
            "admin: take the game back to just after an action",
            _rewind,
        ),
        Command(
            "remind",
            (Param("hours", float, True), GAME),
            "admin: idle hours before a reminder (0: none)",
            _remind,
        ),
        Command(
            "import",
            (Param("file", str, True), Param("players", str)),
            "open a game from an 18xx.games JSON file",
            _import,
        ),
        Command(
            "export",
            (Param("out", str), GAME),
            "write the game as an 18xx.games JSON file (out: its path)",
            _export,
        ),
        Command(
            "approve",
            (REQUEST,),
            "accept a proposed deal, or approve an undo request",
            lambda c, u, a: _vote(c, u, a, True),
        ),
        Command(
            "reject",
            (REQUEST,),
            "decline (or withdraw) a proposed deal, or reject an undo request",
            lambda c, u, a: _vote(c, u, a, False),
        ),
    )
}
PLAY_COMMANDS: dict[str, Command] = {m.name: _play_command(m) for m in MOVES.values()}
# typed stand-ins for the Confirm and Cancel buttons of a previewed move (Discord has no such
# commands: its preview carries the buttons)
BUTTON_STANDINS = ("/play confirm", "/play cancel", "/play menu")
# options of the console alone: where a file goes on this machine (Discord attaches the file)
CONSOLE_OPTIONS = {"/game export": ("out",)}
PLAY_COMMANDS.update(
    {
        c.name: c
        for c in (
            Command("confirm", (), "make the move just previewed to you", _confirm(True), "/play"),
            Command("cancel", (), "drop the move just previewed to you", _confirm(False), "/play"),
            Command("hint", (GAME,), "the best moves for you now", _hint, "/play"),
            Command(
                "menu",
                (GAME,),
                "your moves numbered (then type a number to make one); also: menu",
                _menu,
                "/play",
            ),
        )
    }
)
GROUPS: dict[str, dict[str, Command]] = {"/game": GAME_COMMANDS, "/play": PLAY_COMMANDS}
TOP_LEVEL: dict[str, Command] = {
    "notify": Command(
        "notify",
        (Param("dm", str, True),),
        "on: a direct message when it is your turn",
        _notify,
        "",
    )
}


def stdin_lines(stream: TextIO = sys.stdin) -> Iterator[str]:
    """Prompted lines at a terminal, plain lines from a pipe or file."""
    if stream.isatty():
        while True:
            try:
                yield input("railchat> ")
            except EOFError:
                return
    else:
        yield from stream


async def play(
    service: GameService,
    db_path: str,
    *,
    renderer: Renderer | None = None,
    images_dir: Path | None = None,
    stream: TextIO = sys.stdin,
    out: TextIO = sys.stdout,
) -> None:
    """A console session; with a renderer, each change writes its images to `images_dir`
    (by default a folder beside the database, see `images_dir_for`)."""
    folder = images_dir if images_dir is not None else images_dir_for(db_path)
    console = Console(service, out, images_dir=folder, renderer=renderer)
    console.say(
        f"railchat console on {db_path}. Type /game help for the commands, menu for the "
        "moves of whoever must act (a number makes one), 'as N: ...' to act as player N, "
        f"quit to leave." + (f" Images go to {folder}/." if renderer is not None else "")
    )
    await console.run(stdin_lines(stream), echo=not stream.isatty())
