"""Console play: the Discord commands (`/game ...`, `/play ...`, `/notify`) typed as text,
hot-seat, on the same service and store.

A line looks like `as 2: /play bid company:CS price:50`. `as N:` picks the local player (user
id N, shown as "player N") and stays in force for the following lines. Options are written
`name:value`; the first option may be given without its name (`/game status 3`,
`/play buy PRR IPO`). `menu` (or `/play menu`) lists the acting player's legal moves numbered,
as Discord's menu of moves offers them, and a line holding only a number makes that move.
Without a terminal the console reads lines from standard input, so
sessions can be scripted. Images are written as PNG files after each change.
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

from bot.core.help_text import help_text
from bot.core.moves import (
    MENU_LIMIT,
    MOVES,
    Move,
    by_key,
    choice_key,
    grouped_moves,
    moves_text,
    resolve,
)
from bot.core.parsing import (
    MAX_INTEGER,
    parse_action,
    parse_game_file,
    parse_options,
    parse_seat_users,
)
from bot.core.results import Caller, Result
from bot.core.routes_input import best_routes_text, routes_from_text
from bot.core.service import GameService
from bot.core.service.base import Renderer

log = logging.getLogger(__name__)

AS_PREFIX = re.compile(r"^as\s+(\S+?)\s*:\s*(.*)$", re.IGNORECASE)
QUIT_WORDS = {"quit", "exit"}


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


@dataclass(frozen=True)
class Menu:
    """Numbered moves shown to a player: the keys of their legal choices at a game version."""

    game_id: int
    version: int
    keys: tuple[str, ...]


class ConsoleInputError(ValueError):
    """A line the console cannot read; the message says how to write it."""


class Console:
    def __init__(
        self,
        service: GameService,
        out: TextIO = sys.stdout,
        *,
        images_dir: Path = Path("railchat-images"),
        renderer: Renderer | None = None,
    ) -> None:
        self.service = service
        self.out = out
        self.images_dir = images_dir
        self.renderer = renderer
        self.user_id = 1
        self.game_id: int | None = None
        self.previews: dict[int, str] = {}  # player -> token of the move shown to confirm
        self.menus: dict[int, Menu] = {}  # player -> the numbered moves last shown to them

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

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
        if match := AS_PREFIX.match(line):
            handle, line = match.groups()
            if not handle.isdigit() or len(handle) > 19 or not 0 < int(handle) < MAX_INTEGER:
                raise ConsoleInputError(
                    f"'as' takes a player number, e.g. as 2: /game status (not {handle!r})"
                )
            self.user_id = int(handle)
            if not line:
                self.say(f"Now playing as player {self.user_id}.")
                return
        if line.lower() in ("help", "menu"):
            line = "/game help" if line.lower() == "help" else "/play menu"
        caller = Caller(self.user_id, f"player {self.user_id}")
        if line.isdigit():
            await self.pick(caller, int(line))
            return
        command, rest = find_command(line)
        args = parse_arguments(rest, command)
        await command.run(self, caller, args)

    async def pick(self, caller: Caller, number: int) -> None:
        """Make move `number` of the menu last shown to the caller, if the game has not moved
        on since."""
        menu = self.menus.get(caller.user_id)
        if menu is None:
            raise ConsoleInputError("a number picks a move from your menu: type menu first")
        if not 1 <= number <= len(menu.keys):
            raise ConsoleInputError(
                f"your menu has moves 1 to {len(menu.keys)}; type menu to see it again"
            )
        if await self.service.store.version(menu.game_id) != menu.version:
            del self.menus[caller.user_id]
            raise ConsoleInputError(
                "the game has moved on since that menu; type menu for the moves open now"
            )
        key = menu.keys[number - 1]
        result = await self.service.play(
            menu.game_id, caller, lambda game, choices: by_key(key, choices), version=menu.version
        )
        if result.ok:
            del self.menus[caller.user_id]
        await self.show(result)

    async def game(self, args: dict) -> int:
        """The game named, else the one this session last showed, else the only open or
        running game in the database (or the only one the acting player is seated in)."""
        game_id = args.get("game", self.game_id)
        if game_id is not None:
            return game_id
        chosen = await self.service.default_game(self.user_id)
        if chosen.game_id is None:
            raise ConsoleInputError(f"{chosen.error} (see /game list)")
        return chosen.game_id

    async def show(self, result: Result) -> None:
        if not result.ok:
            self.say(f"Refused: {result.error}")
            return
        if result.game_id is not None:
            self.game_id = result.game_id  # later commands default to this game
        self.say(result.text)
        for name, data in result.files:
            self.write_file(f"game-{result.game_id}-{name}", data)
        if result.confirm is not None:
            self.previews[self.user_id] = result.confirm
            self.say("To make it: /play confirm (or /play cancel)")
        if result.changed and result.views and self.renderer and result.game_id is not None:
            await self.write_images(result.game_id, result.views, self.renderer)
        names = ", ".join(f"player {u}" for u in result.notify)
        if result.vote is not None:
            self.say(
                f"To answer: {names} (/game approve {result.vote} or /game reject {result.vote})"
            )
        elif result.notify and result.changed:
            self.say(f"To act: {names}")

    def write_file(self, name: str, data: bytes) -> None:
        self.images_dir.mkdir(parents=True, exist_ok=True)
        path = self.images_dir / name
        path.write_bytes(data)
        self.say(f"File: {path}")

    async def write_images(self, game_id: int, views: tuple[str, ...], renderer: Renderer) -> None:
        """One PNG per changed view, overwritten as the game goes on; the paths are printed."""
        images = await self.service.draw(game_id, views, renderer)
        self.images_dir.mkdir(parents=True, exist_ok=True)
        for view, png in images.items():
            path = self.images_dir / f"game-{game_id}-{view}.png"
            path.write_bytes(png)
            self.say(f"Image: {path}")


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
            "Prefix a line with 'as N:' to play as player N (stays until changed); "
            "/game moves lists your legal moves; 'quit' ends the session.",
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
    await console.show(await console.service.import_game(caller, data, users, offer=False))


async def _export(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.export(await console.game(args)))


async def _notify(console: Console, caller: Caller, args: dict) -> None:
    dm = args["dm"].strip().lower()
    if dm not in ("on", "off"):
        raise ConsoleInputError(f"dm is on or off, not {args['dm']!r}")
    await console.show(await console.service.set_notify(caller, dm == "on"))


def _play(move: Move) -> Handler:
    async def run(console: Console, caller: Caller, args: dict) -> None:
        build = lambda g, choices: resolve(move, args, choices, g, routes_from_text)  # noqa: E731
        if move.preview:
            drawer = None
            if console.renderer is not None:
                from bot.core.rendering import render_snapshot

                drawer = render_snapshot
            await console.show(
                await console.service.preview((await console.game(args)), caller, build, drawer)
            )
        else:
            await console.show(
                await console.service.play((await console.game(args)), caller, build)
            )

    return run


def _confirm(approve: bool) -> Handler:
    async def run(console: Console, caller: Caller, args: dict) -> None:
        token = console.previews.pop(caller.user_id, None)
        if token is None:
            raise ConsoleInputError(
                "there is no move shown to you to confirm; preview one first (e.g. /play rail)"
            )
        await console.show(await console.service.confirm(token, caller, approve))

    return run


async def _menu(console: Console, caller: Caller, args: dict) -> None:
    """The caller's legal moves, numbered, grouped as Discord's menu of moves groups them."""
    game_id = await console.game(args)
    version = await console.service.store.version(game_id)
    choices = await console.service.legal_actions(game_id, caller.user_id)
    if not choices or version is None:
        console.menus.pop(caller.user_id, None)
        console.say("You have no move to make now.")
        return
    lines, keys = [f"Your moves in game #{game_id} (type a number to make one):"], []
    groups = grouped_moves(choices, MENU_LIMIT)
    for name, members in groups:
        command = "/game act" if name == "act" else f"/play {name}"
        for choice in members:
            keys.append(choice_key(choice.action))
            lines.append(f"{len(keys)}. {choice.label}  [{command}]")
    more = len({c.label for c in choices}) - len(keys)
    if more > 0:
        lines.append(f"(and {more} more: /game moves lists them all)")
    console.menus[caller.user_id] = Menu(game_id, version, tuple(keys))
    console.game_id = game_id
    console.say("\n".join(lines))


async def _hint(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.hints((await console.game(args)), caller))


def _play_command(move: Move) -> Command:
    params = tuple(Param(o.name, int if o.number else str, o.required) for o in move.options)
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
        Command("export", (GAME,), "write the game as an 18xx.games JSON file", _export),
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
    images_dir: Path = Path("railchat-images"),
    stream: TextIO = sys.stdin,
    out: TextIO = sys.stdout,
) -> None:
    """A console session; with a renderer, each change writes its images to `images_dir`."""
    console = Console(service, out, images_dir=images_dir, renderer=renderer)
    console.say(
        f"railchat console on {db_path}. Type /game help for the commands, menu for "
        "your moves by number, 'as N: ...' to act as player N, quit to leave."
    )
    await console.run(stdin_lines(stream), echo=not stream.isatty())
