"""Console play: the `/game` commands typed as text, hot-seat, on the same service and store.

A line looks like `as 2: /game join game:1`. `as N:` picks the local player (user id N, shown
as "player N") and stays in force for the following lines. Options are written `name:value`;
the first option may be given without its name (`/game status 3`, `/game act {"type": ...}`).
Without a terminal the console reads lines from standard input, so sessions can be scripted.
"""
from __future__ import annotations

import logging
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Awaitable, Callable, Iterable, Iterator, TextIO

from bot.parsing import parse_action, parse_options
from bot.results import Caller, Result
from bot.service import GameService, Renderer

log = logging.getLogger(__name__)

AS_PREFIX = re.compile(r"^as\s+(\S+?)\s*:\s*(.*)$", re.IGNORECASE)
QUIT_WORDS = {"quit", "exit"}


@dataclass(frozen=True)
class Param:
    name: str
    kind: type  # int or str
    required: bool = False

    @property
    def usage(self) -> str:
        shown = f"{self.name}:<{'number' if self.kind is int else 'text'}>"
        return shown if self.required else f"[{shown}]"


Handler = Callable[["Console", Caller, dict], Awaitable[None]]


@dataclass(frozen=True)
class Command:
    name: str
    params: tuple[Param, ...]
    description: str
    run: Handler

    @property
    def usage(self) -> str:
        return " ".join([f"/game {self.name}", *(p.usage for p in self.params)])


class ConsoleInputError(ValueError):
    """A line the console cannot read; the message says how to write it."""


class Console:
    def __init__(self, service: GameService, out: TextIO = sys.stdout, *,
                 images_dir: Path = Path("railchat-images"),
                 renderer: Renderer | None = None) -> None:
        self.service = service
        self.out = out
        self.images_dir = images_dir
        self.renderer = renderer
        self.user_id = 1
        self.game_id: int | None = None

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
            self.say("Something went wrong on my side while handling that command; it has been "
                     "logged. Check /game status before retrying.")
        return True

    async def _handle(self, line: str) -> None:
        if match := AS_PREFIX.match(line):
            handle, line = match.groups()
            if not handle.isdigit() or int(handle) < 1:
                raise ConsoleInputError(f"'as' takes a player number, e.g. as 2: /game status "
                                        f"(not {handle!r})")
            self.user_id = int(handle)
            if not line:
                self.say(f"Now playing as player {self.user_id}.")
                return
        words = line.split(maxsplit=2)
        if line.lower() == "help" or words[:2] == ["/game", "help"]:
            self.say(help_text(self.service))
            return
        command = COMMANDS.get(words[1]) if len(words) >= 2 and words[0] == "/game" else None
        if command is None:
            raise ConsoleInputError(f"unknown command {line!r}; type /game help for the commands")
        args = parse_arguments(words[2] if len(words) == 3 else "", command)
        caller = Caller(self.user_id, f"player {self.user_id}")
        await command.run(self, caller, args)

    def game(self, args: dict) -> int:
        game_id = args.get("game", self.game_id)
        if game_id is None:
            raise ConsoleInputError("which game? give game:<number> (see /game list)")
        return game_id

    async def show(self, result: Result) -> None:
        if not result.ok:
            self.say(f"Refused: {result.error}")
            return
        if result.game_id is not None:
            self.game_id = result.game_id  # later commands default to this game
        self.say(result.text)
        if result.changed and result.views and self.renderer and result.game_id is not None:
            await self.write_images(result.game_id, result.views, self.renderer)
        if result.notify and result.changed:
            self.say("To act: " + ", ".join(f"player {u}" for u in result.notify))

    async def write_images(self, game_id: int, views: tuple[str, ...],
                           renderer: Renderer) -> None:
        """One PNG per changed view, overwritten as the game goes on; the paths are printed."""
        images = await self.service.draw(game_id, views, renderer)
        self.images_dir.mkdir(parents=True, exist_ok=True)
        for view, png in images.items():
            path = self.images_dir / f"game-{game_id}-{view}.png"
            path.write_bytes(png)
            self.say(f"Image: {path}")


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
        raw[name] = text[mark.end():following.start() if following else len(text)]
    lead = text[:marks[0].start()] if marks else text
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
                raise ConsoleInputError(f"{param.name} must be a whole number, not {value!r}")
            args[param.name] = int(value)
        else:
            args[param.name] = value
    return args


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def help_text(service: GameService) -> str:
    lines = [f"{c.usage} — {c.description}" for c in COMMANDS.values()]
    titles = ", ".join(service.titles()) or "none installed"
    return "\n".join([*lines, "/game help — this list",
                      f"Titles: {titles}.",
                      "Prefix a line with 'as N:' to play as player N (stays until changed); "
                      "'quit' ends the session."])


# -- the commands --------------------------------------------------------------------------------
GAME = Param("game", int)


async def _new(console: Console, caller: Caller, args: dict) -> None:
    try:
        options = parse_options(args.get("options"))
    except ValueError as exc:
        raise ConsoleInputError(str(exc)) from None
    await console.show(await console.service.create_game(
        caller, args["title"], seats=args.get("seats"), options=options))


async def _join(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.join(console.game(args), caller))


async def _leave(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.leave(console.game(args), caller))


async def _start(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.start(console.game(args), caller))


async def _act(console: Console, caller: Caller, args: dict) -> None:
    try:
        action = parse_action(args["action"])
    except ValueError as exc:
        raise ConsoleInputError(str(exc)) from None
    await console.show(await console.service.act(console.game(args), caller, action))


async def _undo(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.undo(console.game(args), caller))


async def _status(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.status(console.game(args)))


async def _list(console: Console, caller: Caller, args: dict) -> None:
    await console.show(console.service.list_games(include_finished=True))


COMMANDS: dict[str, Command] = {c.name: c for c in (
    Command("new", (Param("title", str, True), Param("seats", int), Param("options", str)),
            "open a new game; you take seat 1", _new),
    Command("join", (GAME,), "take a seat in a game that has not started", _join),
    Command("leave", (GAME,), "give up your seat before the game starts", _leave),
    Command("start", (GAME,), "start the game (its creator)", _start),
    Command("act", (Param("action", str, True), GAME), 'make a move, e.g. {"type": "pass"}', _act),
    Command("undo", (GAME,), "take back the last action (its author or the creator)", _undo),
    Command("status", (GAME,), "show where the game stands", _status),
    Command("list", (), "list the games in this database", _list),
)}


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


async def play(service: GameService, db_path: str, *, renderer: Renderer | None = None,
               images_dir: Path = Path("railchat-images"), stream: TextIO = sys.stdin,
               out: TextIO = sys.stdout) -> None:
    """A console session; with a renderer, each change writes its images to `images_dir`."""
    console = Console(service, out, images_dir=images_dir, renderer=renderer)
    console.say(f"railchat console on {db_path}. Type /game help for the commands, "
                "'as N: ...' to act as player N, quit to leave.")
    await console.run(stdin_lines(stream), echo=not stream.isatty())
