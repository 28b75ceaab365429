"""Moves shown before they are made (a previewed rail and its score, confirmed with a button)
and the title's hints. The service still knows no rule: the engine's `preview` and `hints` say
what a move would do and which moves are good."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from bot.computer.levels import advise
from bot.core.moves import choice_key
from bot.core.results import Caller, Result
from bot.core.service.base import MoveBuilder, move_digest, player_of
from bot.core.service.playing import Playing
from bot.core.store import GameRecord
from engine.game import Choice, Game

# Draws a view of a game from a given snapshot (a previewed move's).
SnapshotDrawer = Callable[[Game, str, Mapping[str, Any]], bytes]
PREVIEWS_KEPT = 16  # per game: a player rarely weighs more moves than this at once


class Previews(Playing):
    """Previewed moves awaiting Confirm live in the store (table `previews`), so that a
    restart between the preview and the button press loses nothing."""

    async def preview(
        self,
        game_id: int,
        caller: Caller,
        build: MoveBuilder,
        drawer: SnapshotDrawer | None = None,
        *,
        interaction_id: int | None = None,
    ) -> Result:
        """Show the caller what the move `build` picks would do (text, and an image when the
        title previews it), changing nothing; `Result.confirm` is the token that makes it with
        `confirm`. A move the title does not preview is made at once, as `play` would."""

        async def body(record: GameRecord) -> Result:
            seat = await self._playing_seat(record, caller)
            game = await self._live(record)
            self._require_turn(record, game, seat)
            choices = await self._legal(record, game, seat.player_id)
            action = await asyncio.to_thread(build, game, choices)
            shown = await asyncio.to_thread(game.preview, action)
            if shown is None:
                return await self._submit(
                    record, game, seat, caller, action, interaction_id, move_digest(action)
                )
            text, snapshot = shown
            token = secrets.token_hex(6)
            await self.store.save_preview(
                token, record.id, record.version, caller.user_id, action, keep=PREVIEWS_KEPT
            )
            files: tuple[tuple[str, bytes], ...] = ()
            if drawer is not None and game.views():
                png = await asyncio.to_thread(drawer, game, game.views()[0], snapshot)
                files = (("preview.png", png),)
            return Result(
                text=text + "\nConfirm to make this move, or cancel.",
                game_id=record.id,
                thread_id=record.thread_id,
                files=files,
                confirm=token,
            )

        return await self._run(game_id, None, body, caller.guild_id)

    async def confirm(
        self, token: str, caller: Caller, approve: bool, interaction_id: int | None = None
    ) -> Result:
        """Make (or drop) a previewed move; refused if the game moved on since the preview."""
        pending = await self.store.preview(token)
        if pending is None:
            return Result(
                error="this preview has expired (it was confirmed, cancelled or "
                "replaced by newer ones); preview the move again"
            )
        game_id, version, action = pending.game_id, pending.version, pending.action
        if caller.user_id != pending.user_id:
            return Result(
                error="only the player who asked for this preview can confirm it", game_id=game_id
            )
        if not await self.store.drop_preview(token):  # a second press raced this one
            return Result(error="this preview was just confirmed or cancelled", game_id=game_id)
        if not approve:
            return Result(text="Cancelled; nothing changed.", game_id=game_id)
        if await self.store.version(game_id) != version:
            return Result(
                error="the game has moved on since this preview; preview the move again",
                game_id=game_id,
            )
        return await self.play(
            game_id,
            caller,
            lambda game, choices: dict(action),
            version=version,
            interaction_id=interaction_id,
        )

    async def hints(self, game_id: int, caller: Caller) -> Result:
        """The title's suggested moves for the caller now (answered to the caller only)."""

        async def body(record: GameRecord) -> Result:
            found, legal = await self._hinted(record, caller)
            if not found:
                return Result(text="No hint: nothing to suggest for you now.", game_id=record.id)
            lines = [f"{n}. {c.label}" for n, c in enumerate(found, 1)]
            listed = {choice_key(c.action) for c in legal}
            return Result(
                text="Best moves now:\n" + "\n".join(lines),
                game_id=record.id,
                thread_id=record.thread_id,
                version=record.version,
                offered=tuple(
                    (n, c) for n, c in enumerate(found, 1) if choice_key(c.action) in listed
                ),
            )

        return await self._run(game_id, None, body, caller.guild_id)

    async def hint_choices(self, game_id: int, caller: Caller) -> tuple[int, list[Choice]]:
        """The same suggestions with the game version they are for, for a front end that
        numbers them (the console); refused (`Refused`) as `hints` is."""
        async with self._holding(game_id):
            record = await self._record(game_id, caller.guild_id)
            return record.version, (await self._hinted(record, caller))[0]

    async def _hinted(
        self, record: GameRecord, caller: Caller
    ) -> tuple[list[Choice], list[Choice]]:
        """The title's own hints, else what its best computer level would play and the
        runners-up it weighed, each labelled with its reason (the player's view only: the
        computer sees no more than a seated player); then the caller's legal moves. Refused
        off turn."""
        seat = await self._playing_seat(record, caller)
        game = await self._live(record)
        self._require_turn(record, game, seat)
        player = player_of(seat)
        legal = await self._legal(record, game, player)
        found = await asyncio.to_thread(game.hints, player)
        if not found:
            advice = await asyncio.to_thread(advise, game, player, legal)
            found = [Choice(reasoned(d.choice.label, d.why), d.choice.action) for d in advice]
        return found, legal


def reasoned(label: str, why: str) -> str:
    """A suggested move and its reason, the move named once (a reason may open with it)."""
    return f"{label} — {why.removeprefix(label).removeprefix(': ')}"
