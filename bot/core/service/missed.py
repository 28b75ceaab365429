"""What a seated player missed since their own last move (`/game view what:since`, and each
turn's direct message): the digest of `bot/core/digest.py`, from the live game walked back to
the player's last action in the log (a rewind under the game's lock; the game is put back)."""

from __future__ import annotations

import asyncio

from bot.core.digest import HISTORY, missed
from bot.core.results import Refused, Result
from bot.core.service.base import ServiceBase, seat_of
from bot.core.store import GameRecord
from engine.errors import GameError
from engine.game import PlayerId


class Missed(ServiceBase):
    async def since(self, game_id: int, user_id: int, *, guild_id: int | None = None) -> Result:
        """The caller's digest (they alone read it); a spectator is told where to look."""

        async def body(record: GameRecord) -> Result:
            self._require_started(record)
            seat = seat_of(await self._seats(record.id), user_id)
            if seat is None or seat.player_id is None:
                raise Refused(f"you are not seated in game #{record.id}: {HISTORY}")
            text = await self._missed(record, seat.player_id, user_id)
            if text is None:
                raise Refused(f"{record.title} tells no digest: {HISTORY}")
            return Result(
                text=f"Game #{record.id} · {text}", game_id=record.id, thread_id=record.thread_id
            )

        return await self._run(game_id, None, body, guild_id)

    async def missed_text(self, game_id: int, user_id: int) -> str | None:
        """The digest for a direct message (None: not seated, or the game cannot tell it)."""
        async with self._holding(game_id):
            record = await self.store.game(game_id)
            seat = seat_of(await self._seats(game_id), user_id) if record else None
            if record is None or seat is None or seat.player_id is None:
                return None
            try:
                return await self._missed(record, seat.player_id, user_id)
            except (Refused, GameError):
                return None

    async def _missed(self, record: GameRecord, player: PlayerId, user_id: int) -> str | None:
        """Since the user's last action in the log (the start if none); None for a title
        without a digest. The caller holds the game's lock."""
        actions = await self.store.actions(record.id)
        since = max((a.seq for a in actions if a.user_id == user_id), default=0)
        game = await self._live(record)
        found = await asyncio.to_thread(missed, game, player, since)
        return None if found is None else found.text()
