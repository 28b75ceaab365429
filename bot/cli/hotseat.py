"""The console's session at one keyboard: who plays the next line, the numbered moves shown to
each player (a menu, or the lays drawn on one hex), and the files it writes.

Several players share the keyboard, so a move goes to whoever must act unless the line names
another player with `as N:`; a number picks from the moves last shown to that player. Images
go to a folder of their own per database, so two games numbered alike never overwrite each
other's pictures.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

from bot.cli.command_line import ConsoleInputError
from bot.core.db_url import is_postgres
from bot.core.moves import MAX_PICTURED, MENU_LIMIT, by_key, choice_key, grouped_moves
from bot.core.parsing import parse_request
from bot.core.results import Caller, Refused, Result
from bot.core.service import GameService
from bot.core.service.base import Renderer
from engine.game import Action, Game

PREVIEW = "preview"  # /play answer's request for the move previewed to the player


@dataclass(frozen=True)
class Menu:
    """Numbered moves shown to a player: the keys of their legal choices at a game version
    (or, for suggested moves, the moves themselves, for the engine to judge)."""

    game_id: int
    version: int
    keys: tuple[str, ...]
    moves: tuple[Action, ...] = ()


def images_dir_for(db_path: str) -> Path:
    """The images of one database beside it (`games.db` -> `games-images/`), so that game #1
    of two databases never share a picture; a PostgreSQL database's in the current folder,
    named after the database alone (never its host, user or password)."""
    if db_path in ("", ":memory:"):
        return Path("railchat-images")
    if is_postgres(db_path):
        name = urlsplit(db_path).path.rpartition("/")[2]
        return Path(f"railchat-{re.sub(r'[^A-Za-z0-9_.-]', '_', name) or 'postgres'}-images")
    path = Path(db_path)
    return path.with_name(f"{path.stem}-images")


def _no_picture(game: Game, lays: list[Any]) -> bytes:
    return b""


class Session:
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
        self.user_id = 1  # the player `as N:` last named
        self.game_id: int | None = None
        self.previews: dict[int, str] = {}  # player -> token of the move shown to confirm
        self.menus: dict[int, Menu] = {}  # player -> the numbered moves last shown to them
        self.asked: dict[int, list[int]] = {}  # request -> the players it waits for

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def caller(self, user_id: int | None = None) -> Caller:
        user = self.user_id if user_id is None else user_id
        return Caller(user, f"player {user}")

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

    async def mover(self, game_id: int | None) -> Caller:
        """Who makes a move typed without `as N:`: the player last named when they must act
        (or nobody must), else the first player who must."""
        if game_id is None:
            return self.caller()
        try:
            acting = (await self.service.prompt(game_id, choices=False)).notify
        except Refused:
            return self.caller()
        if not acting or self.user_id in acting:
            return self.caller()
        return self.caller(acting[0])

    async def answerer(self, request: str) -> Caller:
        """Who answers when the line names nobody: whoever a vote or deal was put to; for a
        preview, whoever must act, else the one player shown a move."""
        if request.strip().casefold() == PREVIEW:
            mover = await self.mover(self.game_id)
            shown = list(self.previews)
            if mover.user_id in self.previews or len(shown) != 1:
                return mover
            return self.caller(shown[0])
        try:
            kind, number = parse_request(request)
        except ValueError as exc:
            raise ConsoleInputError(str(exc)) from None
        asked = self.asked.get(number) if kind == "r" else None
        return self.caller(asked[0]) if asked else self.caller()

    async def pick(self, caller: Caller, number: int) -> None:
        """Make move `number` of the moves last shown to the caller, if the game has not
        moved on since."""
        menu = self.menus.get(caller.user_id)
        if menu is None:
            raise ConsoleInputError(
                f"a number picks a move from {caller.name}'s menu: type menu first"
            )
        if not 1 <= number <= len(menu.keys):
            raise ConsoleInputError(
                f"{caller.name}'s menu has moves 1 to {len(menu.keys)}; type menu to see it again"
            )
        if await self.service.store.version(menu.game_id) != menu.version:
            del self.menus[caller.user_id]
            raise ConsoleInputError(
                "the game has moved on since that menu; type menu for the moves open now"
            )
        key = menu.keys[number - 1]
        chosen = dict(menu.moves[number - 1]) if menu.moves else None
        result = await self.service.play(
            menu.game_id,
            caller,
            lambda game, choices: dict(chosen) if chosen else by_key(key, choices),
            version=menu.version,
        )
        if result.ok:
            del self.menus[caller.user_id]
        await self.show(result, caller)

    async def menu(self, caller: Caller, game_id: int) -> None:
        """The caller's legal moves, numbered, grouped as Discord's menu of moves groups them
        (with the moves of the turn post's buttons among them: the console has no buttons)."""
        version = await self.service.store.version(game_id)
        choices = await self.service.legal_actions(game_id, caller.user_id)
        if not choices or version is None:
            self.menus.pop(caller.user_id, None)
            self.say(f"{caller.name} has no move to make now.")
            return
        lines, keys = (
            [f"Moves for {caller.name} in game #{game_id} (type a number to make one):"],
            [],
        )
        for _, members in grouped_moves(choices, MENU_LIMIT):
            for choice in members:
                keys.append(choice_key(choice.action))
                lines.append(f"{len(keys)}. {choice.label}")
        more = len({c.label for c in choices}) - len(keys)
        if more > 0:
            lines.append(f"(and {more} more: /game view what:moves lists them all)")
        self.menus[caller.user_id] = Menu(game_id, version, tuple(keys))
        self.game_id = game_id
        self.say("\n".join(lines))

    async def hint_menu(self, caller: Caller, game_id: int) -> None:
        """The title's suggested moves for the caller, numbered as a menu: a number makes one."""
        try:
            version, found = await self.service.hint_choices(game_id, caller)
        except Refused as exc:
            self.say(f"Refused: {exc}")
            return
        if not found:
            self.menus.pop(caller.user_id, None)
            self.say("No hint: nothing to suggest for you now.")
            return
        lines = [f"Best moves for {caller.name} now (type a number to make one):"]
        lines += [f"{n}. {c.label}" for n, c in enumerate(found, 1)]
        moves = tuple(dict(c.action) for c in found)
        self.menus[caller.user_id] = Menu(
            game_id, version, tuple(choice_key(m) for m in moves), moves
        )
        self.game_id = game_id
        self.say("\n".join(lines))

    async def lays(self, caller: Caller, game_id: int, hex_id: str, tile: str | None) -> bool:
        """The caller's lays on one hex drawn and numbered (a number makes one), as Discord's
        lay picture offers them; False when there is one lay or too many to draw (the move
        is then made, or refused with what to give, as typed)."""
        from bot.core.rendering import draw_lays  # render/ loads on first drawing

        try:
            version, lays, png = await self.service.lay_picture(
                game_id,
                caller.user_id,
                hex_id.strip().upper(),
                tile,
                draw_lays if self.renderer is not None else _no_picture,
            )
        except Refused:  # the move's own refusal says what is possible instead
            return False
        if not 1 < len(lays) <= MAX_PICTURED:
            return False
        where = lays[0].action["hex"]
        drawn = ""
        if png:
            path = self._write(f"game-{game_id}-lays.png", png)
            drawn = f", drawn in {path}"
        self.say(f"{len(lays)} ways to lay on {where}{drawn}; type a number to make one:")
        for n, lay in enumerate(lays, start=1):
            self.say(f"{n}. Tile {lay.tile}: {lay.words}")
        keys = tuple(choice_key(lay.action) for lay in lays)
        self.menus[caller.user_id] = Menu(game_id, version, keys)
        self.game_id = game_id
        return True

    async def show(self, result: Result, caller: Caller | None = None) -> None:
        """What a command answered, the files it made, and who must act next; `caller` made
        the move (a preview is theirs to confirm)."""
        if not result.ok:
            self.say(f"Refused: {result.error}")
            return
        if result.game_id is not None:
            self.game_id = result.game_id  # later commands default to this game
        self.say(result.text)
        await self.tell_apart(result, caller or self.caller())
        for name, data in result.files:
            self.say(f"File: {self._write(f'game-{result.game_id}-{name}', data)}")
        if result.confirm is not None:
            self.previews[(caller or self.caller()).user_id] = result.confirm
            self.say("To make it: /play answer request:preview answer:yes (answer:no drops it)")
        if result.changed and result.views and self.renderer and result.game_id is not None:
            await self.write_images(result.game_id, result.views, self.renderer)
        names = ", ".join(f"player {u}" for u in result.notify)
        if result.vote is not None:
            self.asked[result.vote] = list(result.notify)
            self.say(
                f"To answer: {names} (/play answer request:{result.vote} answer:yes, or answer:no)"
            )
        elif result.notify and result.changed:
            self.say(f"To act: {names}")

    async def tell_apart(self, result: Result, caller: Caller) -> None:
        """What Discord tells one player alone (why a programmed move of theirs stopped or
        left them a turn): at one keyboard, printed with the name of the player it is for."""
        if result.aside:
            self.say(f"[{caller.name}] {result.aside}")
        for user_id in result.noted:
            notes = await self.service.waiting_notes(user_id, None)
            for note in notes:
                self.say(f"[{self.caller(user_id).name}] {note.text}")
            await self.service.notes_delivered(notes)

    def _write(self, name: str, data: bytes) -> Path:
        self.images_dir.mkdir(parents=True, exist_ok=True)
        path = self.images_dir / name
        path.write_bytes(data)
        return path

    async def write_images(self, game_id: int, views: tuple[str, ...], renderer: Renderer) -> None:
        """One PNG per changed view, overwritten as the game goes on; one line names them."""
        images = await self.service.draw(game_id, views, renderer)
        names = [
            self._write(f"game-{game_id}-{view}.png", png).name for view, png in images.items()
        ]
        if names:
            self.say(f"Images in {self.images_dir}: {', '.join(names)}")
