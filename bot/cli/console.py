"""Console play: the Discord commands (`/game ...`, `/game-admin ...`, `/play ...`, `/turns`,
`/settings ...`) typed as text, hot-seat, on the same service and store.

A line looks like `as 2: /play move bid CS 50`. Options are written `name:value`, or in order
without their names (`/game status 3`, `/play lay H14 57 2`; see `bot.cli.command_line`). A
move (`/play ...`, `menu`, a number) is made, and `/game view moves` listed, for whoever must
act, an answer by whoever is asked; `as N: ...` makes that line player N's instead, and `as N:`
alone makes player N type the commands that are not moves from then on.
`menu` numbers the legal moves (the turn post's menu and buttons in one list), `/play lay HEX`
numbers the lays on that hex (drawn as a picture), and a line holding only a number makes that
move. A previewed move is made with `/play answer request:preview answer:yes`, the console's
Confirm button. Without a terminal the console reads lines from standard input, so sessions can
be scripted. Images are written as PNG files after each change, in a folder per database.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO

from bot.cli.admin_commands import ADMIN_COMMANDS, computer_handler
from bot.cli.command_line import (
    GAME,
    Command,
    ConsoleInputError,
    Handler,
    Param,
    find_command,
    parse_arguments,
)
from bot.cli.hotseat import PREVIEW, Session, images_dir_for
from bot.cli.order_commands import auto_command
from bot.cli.settings_commands import SETTINGS_COMMANDS, STATS, TURNS
from bot.core.any_move import resolve_any
from bot.core.clocks import clock_chosen
from bot.core.help_text import help_text
from bot.core.moves import MOVES, Move, moves_text, resolve
from bot.core.parsing import (
    MAX_INTEGER,
    parse_game_file,
    parse_options,
    parse_request,
    parse_seat_users,
)
from bot.core.results import Caller
from bot.core.routes_input import best_routes_text, route_companies, routes_from_text
from bot.core.service import GameService
from bot.core.service.base import HISTORY_LIMIT, Renderer

log = logging.getLogger(__name__)

AS_PREFIX = re.compile(r"^as\s+(\S+?)\s*:\s*(.*)$", re.IGNORECASE)
QUIT_WORDS = {"quit", "exit"}
SHORT_WORDS = {"help": "/game help", "menu": "/play menu"}  # `menu game:2` is /play menu game:2


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
            await self.clocks_run_out()  # a deadline passed while the line was typed comes first
            await self._handle(line)
            await self.computers_move()
            await self.clocks_run_out()
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
        """`as N:` alone switches who types from now on; `as N: command` is N's for that line
        only (a later bare move must not be made, nor an undo asked, in N's name)."""
        match = AS_PREFIX.match(line)
        if match is None:
            await self._line(line, named=False)
            return
        handle, line = match.groups()
        if not handle.isdigit() or len(handle) > 19 or not 0 < int(handle) < MAX_INTEGER:
            raise ConsoleInputError(
                f"'as' takes a player number, e.g. as 2: /game status (not {handle!r})"
            )
        if not line:
            self.user_id = int(handle)
            self.say(f"Now playing as player {self.user_id}.")
            return
        typist, self.user_id = self.user_id, int(handle)
        try:
            await self._line(line, named=True)
        finally:
            self.user_id = typist

    async def _line(self, line: str, *, named: bool) -> None:
        """One command; `named`: the line says who plays it, otherwise a move is made by whoever
        must act."""
        head, _, rest = line.partition(" ")
        if head.lower() in SHORT_WORDS:
            line = f"{SHORT_WORDS[head.lower()]} {rest}".strip()
        if line.isdigit():
            await self.pick(self.caller() if named else await self.mover(self.game_id), int(line))
            return
        command, rest = find_command(line, GROUPS, TOP_LEVEL)
        args = parse_arguments(rest, command)
        caller = self.caller()
        if command.name == "answer" and command.group == "/play" and not named:
            caller = await self.answerer(str(args["request"]))
        elif (command.group == "/play" or command.by_mover) and not named:
            caller = await self.mover(await self.game(args))
        await command.run(self, caller, args)

    async def computers_move(self, *, stored: bool = False) -> None:
        """Make the computer seats' moves a command left due, until none is (the console has
        no worker beside it; each call still makes a bounded number); `stored`: also those
        of every stored game, as after a restart."""
        while due := await self.service.due_computer_games(stored=stored):
            stored = False
            for game_id in due:
                result = await self.service.play_computers(game_id)
                if result is not None:
                    await self.show(result)

    async def clocks_run_out(self) -> None:
        """Finish the turns whose clock ran out on the wall clock (the console sweeps before
        and after each line; its clocks run while it is closed, as a host's bot would have)."""
        for result in (await self.service.clock_sweep(self.service.clock())).results:
            await self.show(result)


def console_help(topic: str | None = None) -> str:
    if topic:
        return help_text(topic)
    usages = [c.usage for group in GROUPS.values() for c in group.values()]
    usages += [c.usage for c in TOP_LEVEL.values()]
    return "\n".join(
        [
            help_text(),
            "",
            "In this console (options by name, or in this order without their names):",
            *usages,
            "A move (/play ..., menu, a number) is made by whoever must act (/game view moves "
            "lists their moves), an answer by whoever is asked; prefix a line with 'as N:' to act as "
            "player N for that line ('as N:' alone: player N types the other commands from then "
            "on). menu numbers the moves (a number makes one); /play lay HEX numbers "
            "the lays on that hex and draws them; a previewed move is made with /play answer "
            "request:preview answer:yes; 'quit' ends the session.",
        ]
    )


# -- /game -----------------------------------------------------------------------------------------


async def _new(console: Console, caller: Caller, args: dict) -> None:
    try:
        options = parse_options(args.get("options"))
        clock = clock_chosen(args.get("clock"), args.get("deadline"), args.get("vacation"))
    except ValueError as exc:
        raise ConsoleInputError(str(exc)) from None
    await console.show(
        await console.service.create_game(
            caller,
            args["title"],
            seats=args.get("seats"),
            options=options,
            computers=args.get("computers", 0),
            level=args.get("level"),
            clock=clock,
        )
    )


async def _join(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.join((await console.game(args)), caller))


async def _leave(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.leave((await console.game(args)), caller))


async def _start(console: Console, caller: Caller, args: dict) -> None:
    game_id = await console.game(args)
    confirmed = bool(args.get("confirm"))
    await console.show(await console.service.start(game_id, caller, confirmed=confirmed))


async def _list(console: Console, caller: Caller, args: dict) -> None:
    await console.show(
        await console.service.list_games(include_finished=bool(args.get("finished")))
    )


async def _status(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.status(await console.game(args)))


async def _view(console: Console, caller: Caller, args: dict) -> None:
    """One of /game view's choices, as Discord answers it (an image is written to a file)."""
    game_id, service = await console.game(args), console.service
    what = str(args.get("what") or "map").strip().casefold()
    detail = str(args.get("detail") or "").strip()
    if what == "history":
        if detail and not detail.isdigit():
            raise ConsoleInputError(f"detail for history is how many actions, not {detail!r}")
        await console.show(await service.history(game_id, min(int(detail or 10), HISTORY_LIMIT)))
    elif what == "since":  # what the player to act missed since their last move
        await console.show(await service.since(game_id, caller.user_id))
    elif what == "routes":
        if not detail:  # the companies Discord suggests for detail
            running = [sym for sym, _ in await service.peek(game_id, route_companies) or []]
            if not running:
                raise ConsoleInputError(
                    "no company has run a train yet: routes are shown once one has"
                )
            raise ConsoleInputError(
                f"name the company in detail: {', '.join(running)} "
                f"(e.g. /game view routes {running[0]})"
            )
        await console.show(await service.inspect(game_id, lambda g: best_routes_text(g, detail)))
    elif what == "info":
        await console.show(await service.reference(game_id, detail or None))
    elif what == "moves":
        console.say(moves_text(await service.legal_actions(game_id, caller.user_id)))
    elif what == "chart":
        drawer = None
        if console.renderer is not None:
            from bot.core.rendering import draw_chart  # render/ loads on first drawing

            drawer = draw_chart
        await console.show(await service.chart(game_id, detail, drawer))
    elif what in VIEWS:
        await console.show(await service.view(game_id, what, console.renderer))
    else:
        raise ConsoleInputError(f"what is one of {', '.join(VIEWS)}; not {what[:30]!r}")


VIEWS = ("map", "market", "sheet", "chart", "history", "since", "routes", "info", "moves")


async def _undo(console: Console, caller: Caller, args: dict) -> None:
    game_id = await console.game(args)
    result = await console.service.undo(game_id, caller)
    if result.confirm_undo is not None:  # an admin taking back another player's move
        if args.get("confirm"):
            result = await console.service.undo(game_id, caller, confirmed=result.confirm_undo)
        else:
            console.say(result.text + " (type /game undo confirm:yes)")
            return
    await console.show(result)


async def _redo(console: Console, caller: Caller, args: dict) -> None:
    await console.show(await console.service.redo((await console.game(args)), caller))


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
                f"/game-admin replace seat:{empty[0]} user:{empty[0]} gives seat {empty[0]} to "
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


async def _help(console: Console, caller: Caller, args: dict) -> None:
    try:
        console.say(console_help(args.get("title")))
    except ValueError as exc:
        raise ConsoleInputError(str(exc)) from None


# -- /play --------------------------------------------------------------------------------------
async def _move(console: Console, caller: Caller, args: dict) -> None:
    text = args["move"]
    result = await console.service.play(
        await console.game(args),
        caller,
        lambda g, choices: resolve_any(text, choices, g, routes_from_text),
    )
    await console.show(result, caller)


def _one(move: Move) -> Handler:
    """A /play command of one kind of move (pass, lay, run, rail); a lay without a rotation
    is picked by picture, a rail is shown first (made by `/play answer request:preview`)."""

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


async def _answer(console: Console, caller: Caller, args: dict) -> None:
    answer = str(args["answer"]).strip().casefold()
    if answer not in ("yes", "no"):
        raise ConsoleInputError(f"answer is yes or no, not {args['answer']!r}")
    approve, request = answer == "yes", str(args["request"]).strip()
    if request.casefold() == PREVIEW:  # the console's Confirm and Cancel buttons
        token = console.previews.pop(caller.user_id, None)
        if token is None:
            raise ConsoleInputError(
                f"no move is shown to {caller.name} to confirm; preview one first "
                "(e.g. /play rail short B1 S1)"
            )
        await console.show(await console.service.confirm(token, caller, approve), caller)
        return
    try:
        kind, number = parse_request(request)
    except ValueError as exc:
        raise ConsoleInputError(str(exc)) from None
    if kind == "i":
        result = await console.service.answer_invitation(number, caller, approve)
    else:
        result = await console.service.vote(number, caller, approve)
    if result.ok and number in console.asked and caller.user_id in console.asked[number]:
        console.asked[number].remove(caller.user_id)
    await console.show(result)


async def _hint(console: Console, caller: Caller, args: dict) -> None:
    await console.hint_menu(caller, await console.game(args))


async def _menu(console: Console, caller: Caller, args: dict) -> None:
    await console.menu(caller, await console.game(args))


def _lay_params() -> tuple[Param, ...]:
    """The lay's hex, tile and rotation, one word each; a rotation may be told by the exits
    it names (`rotation:Newport`), as Discord's suggestions show it, so it is read as text."""
    return tuple(Param(f.name, str, f.required, word=True) for f in MOVES["lay"].fields)


GAME_COMMANDS: dict[str, Command] = {
    c.name: c
    for c in (
        Command(
            "new",
            (
                Param("title", str, True, word=True),
                Param("seats", int),
                Param("options", str),
                Param("computers", int),
                Param("level", str, word=True),
                Param("clock", str),
                Param("deadline", str, word=True),
                Param("vacation", int),
            ),
            "open a new game; you take seat 1, the computer the next `computers`; `clock`: "
            "none, 24h or bank:3d turn:8h (deadline: computer, pass or ask; vacation: days)",
            _new,
        ),
        Command("join", (GAME,), "take a seat in a game that has not started", _join),
        Command("leave", (GAME,), "give up your seat before the game starts", _leave),
        Command(
            "start",
            (Param("confirm", bool), GAME),
            "start the game (its creator); confirm:yes starts it with seats still empty",
            _start,
        ),
        Command("list", (Param("finished", bool),), "the games in this database", _list),
        Command("status", (GAME,), "where the game stands", _status),
        Command(
            "view",
            (Param("what", str, word=True), Param("detail", str), GAME),
            "map (default), market, sheet, chart (images), history, since (what the player to "
            "act missed since their last move), routes, info or moves",
            _view,
            by_mover=True,  # moves: those of whoever must act
        ),
        Command(
            "undo",
            (Param("confirm", bool), GAME),
            "take back your last move (others approve if they moved since)",
            _undo,
        ),
        Command(
            "redo",
            (GAME,),
            "put back the last undo; again for the undo before it, while nobody has moved",
            _redo,
        ),
        Command(
            "import",
            (Param("file", str, True, word=True), Param("players", str)),
            "open a game from an 18xx.games JSON file",
            _import,
        ),
        Command(
            "export",
            (Param("out", str, word=True), GAME),
            "write the game as an 18xx.games JSON file (out: its path)",
            _export,
        ),
        Command("help", (Param("title", str, word=True),), "the commands, or a title's", _help),
    )
}
PLAY_COMMANDS: dict[str, Command] = {
    c.name: c
    for c in (
        Command(
            "move",
            (Param("move", str, True), GAME),
            "any move, typed as its suggestion reads or as words (bid CS 50)",
            _move,
            "/play",
        ),
        Command("pass", (GAME,), MOVES["pass"].description.lower(), _one(MOVES["pass"]), "/play"),
        Command(
            "lay",
            (*_lay_params(), GAME),
            "lay a tile; no rotation: by picture",
            _one(MOVES["lay"]),
            "/play",
        ),
        Command(
            "run",
            (Param("routes", str), GAME),
            "run your trains: the best routes, or yours as hexes",
            _one(MOVES["run"]),
            "/play",
        ),
        Command(
            "rail",
            (Param("path", str, True), GAME),
            "String Railway: see a rail and its score, then answer preview",
            _one(MOVES["rail"]),
            "/play",
        ),
        Command(
            "answer",
            (Param("request", str, True, word=True), Param("answer", str, True, word=True)),
            "yes or no to a deal, an undo vote, a seat offered, or preview (a move shown)",
            _answer,
            "/play",
        ),
        auto_command(GAME),
        Command("hint", (GAME,), "the best moves for you now", _hint, "/play"),
        Command(
            "away",
            (Param("level", str, word=True), GAME),
            "the computer plays your seat until you are back",
            computer_handler(own=True),
            "/play",
        ),
        Command(
            "back",
            (GAME,),
            "play your seat again after /play away",
            computer_handler(own=True, on=False),
            "/play",
        ),
        Command(
            "menu",
            (GAME,),
            "the moves numbered (then type a number to make one); also: menu",
            _menu,
            "/play",
        ),
    )
}
# typed stand-ins for what Discord shows rather than commands: the turn post's menu of moves
BUTTON_STANDINS = ("/play menu",)
# options of the console alone: where a file goes on this machine (Discord attaches the file)
CONSOLE_OPTIONS = {"/game export": ("out",)}
GROUPS: dict[str, dict[str, Command]] = {
    "/game": GAME_COMMANDS,
    "/game-admin": ADMIN_COMMANDS,
    "/play": PLAY_COMMANDS,
    "/settings": SETTINGS_COMMANDS,
}
TOP_LEVEL: dict[str, Command] = {"turns": TURNS, "stats": STATS}


def stdin_lines(stream: TextIO = sys.stdin) -> Iterator[str]:
    """Prompted lines at a terminal, plain lines from a pipe or file."""
    if stream.isatty():
        while True:
            try:
                yield input("railchat> ")
            except EOFError:  # Ctrl-D: end the prompt's line before the goodbye
                print()
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
    try:
        await console.computers_move(stored=True)  # seats the computer plays go on by themselves
        await console.clocks_run_out()  # deadlines passed while it was closed
        await console.run(stdin_lines(stream), echo=not stream.isatty())
    except KeyboardInterrupt:  # Ctrl-C leaves as quit and Ctrl-D do: every move is stored
        console.say("")
    console.say(f"Saved in {db_path}: `railchat local` takes up where you left off.")
