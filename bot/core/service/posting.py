"""Where a game is posted, and what players are told when it cannot be: a failed post in a
game's thread is stored (why, since when) until a post there succeeds, so `/game status` and
the command that made the move say what is wrong and who can mend it, instead of a silence. A
deleted thread or a server the bot left pauses the game; an admin opens it a new thread."""

from __future__ import annotations

from datetime import datetime

from bot.core.results import Caller, Refused, Result
from bot.core.service.base import ServiceBase
from bot.core.store import ACTIVE, FINISHED, GameRecord, PostFailure

# `PostFailure.detail` of a deleted thread whose game the bot paused (a new thread resumes it)
PAUSED_BY_BOT = "paused"
# the failure kinds: what went wrong, and who can mend it
REASONS = {
    "permission": "I lack {detail} there; an admin can grant it to me in the channel's settings",
    "access": "I may not see it (View Channel); an admin can grant it to me",
    "locked": "it is locked; a moderator can unlock it",
    "gone": "it was deleted; an admin can open a new one with /game-admin thread",
    "removed": "I am no longer in this server; an admin can invite me again, then resume the "
    "game with /game-admin resume",
}


def unposted_reason(kind: str, detail: str | None) -> str:
    """Why the game's thread did not get a post, and who can mend it."""
    text = REASONS.get(kind)
    if text is None:
        return "the post failed (why is in the bot's log)"
    return text.format(detail=detail or "a permission")


def unposted_line(failure: PostFailure) -> str:
    """The line `/game status` gives while posts to the game's thread fail."""
    since = datetime.fromisoformat(failure.failed_at).strftime("%Y-%m-%d %H:%M UTC")
    reason = unposted_reason(failure.kind, failure.detail)
    return f"Not posted in the game's thread since {since}: {reason}."


class Posting(ServiceBase):
    async def post_failure(self, game_id: int) -> PostFailure | None:
        return await self.store.post_failure(game_id)

    async def post_failed(
        self, game_id: int, kind: str, code: int | None, detail: str | None = None
    ) -> None:
        await self.store.set_post_failure(game_id, kind, code, detail)

    async def post_succeeded(self, game_id: int) -> None:
        await self.store.clear_post_failure(game_id)

    async def thread_deleted(self, thread_id: int) -> tuple[GameRecord, bool] | None:
        """The game's thread was deleted: a game in play is paused (its moves would reach
        nobody) and the failure stored; the game and whether it was paused now (None: the
        thread was not a game's)."""
        record = await self.store.game_by_thread(thread_id)
        if record is None:
            return None
        async with self._holding(record.id):
            record = await self._fresh(record)
            paused = record.status == ACTIVE and not record.paused
            if paused:
                await self.store.set_paused(record.id, True)
            detail = PAUSED_BY_BOT if paused else None
            await self.store.set_post_failure(record.id, "gone", 10003, detail)
        return record, paused

    async def server_left(self, guild_id: int) -> list[int]:
        """The bot left (or was removed from) a server: its games in play are paused and the
        reason stored; their ids."""
        paused = []
        for record in await self.store.games(guild_id=guild_id, statuses=[ACTIVE], limit=10**6):
            async with self._holding(record.id):
                record = await self._fresh(record)
                if record.status == ACTIVE and not record.paused:
                    await self.store.set_paused(record.id, True)
                    paused.append(record.id)
                await self.store.set_post_failure(record.id, "removed", 50001, None)
        return paused

    async def move_thread(
        self,
        game_id: int,
        caller: Caller,
        channel_id: int,
        thread_id: int,
        interaction_id: int | None = None,
    ) -> Result:
        """Play the game in a new thread from now on; a game paused because its thread was
        deleted goes on there."""

        async def body(record: GameRecord) -> Result:
            self._require_admin(record, caller, "give it a new thread")
            if record.status == FINISHED or record.abandoned:
                raise Refused(f"game #{record.id} is over")
            failure = await self.store.post_failure(record.id)
            resume = record.paused and failure is not None and failure.detail == PAUSED_BY_BOT
            await self.store.move_thread(record.id, channel_id, thread_id, interaction_id)
            if resume:
                await self.store.set_paused(record.id, False)
            moved = await self._fresh(record)
            text = f"{caller.name} moved game #{record.id} to this thread."
            if resume:
                text += " It goes on here."
            game = await self._live(moved) if moved.status == ACTIVE else None
            return await self._changed(moved, text, game)

        return await self._run(game_id, interaction_id, body, caller.guild_id)
