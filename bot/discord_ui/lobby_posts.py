"""Each game's public lobby message, and the thread it opens.

`/game new` (and `/game import`) post the lobby where everyone sees it: in a text channel, a
message in the channel from which the game's thread is started (Discord makes the message the
thread's first post; the thread has the message's id); in a forum channel, the first message
of a new forum post, which is the game's thread. The lobby names the title, options and seats,
with Join / Leave / Start buttons while the game is open; once it starts it links to the
thread and says whose turn it is and which round, and at the end the result. Every change of
the game edits it in place (its message is stored), only when what it shows changed; an edit
Discord refuses (the message deleted, the thread archived, no longer allowed) posts the lobby
anew where it was, and a channel that is gone ends the lobby. A lobby over an hour old whose
edits ran out (30046: "try again later") is edited again later, never posted anew: a lobby
posted again and again would flood its channel.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Literal

import discord

from bot.core.lobby import lobby_text
from bot.core.results import Result
from bot.discord_ui.buttons import lobby_view
from bot.discord_ui.context import BotContext
from bot.discord_ui.io import add_to_thread, fit, reply
from bot.discord_ui.markup import lobby_as_written
from bot.discord_ui.post_failures import UNKNOWN_CHANNEL, missing_to_open, names
from bot.discord_ui.side_posts import edit_refused, mentions

log = logging.getLogger(__name__)

OLD_MESSAGE_EDITS = 30046  # "Maximum number of edits to messages older than 1 hour reached"
RETRY_SECONDS = 600.0  # how long a lobby refused with 30046 waits before its next edit
TAG_REQUIRED = 40067  # a post in a forum that requires tags on posts
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: games move slowly


@dataclass
class Table:
    """Where a new game is played: its thread, and its lobby message."""

    thread: discord.Thread
    lobby: discord.Message | discord.PartialMessage


async def open_table(interaction: discord.Interaction, name: str, opening: str) -> Table | None:
    """The lobby message (saying `opening` until the game exists) and the game's thread, in a
    text channel or as a post of a forum channel (`/game new` used in any post of the forum);
    None after telling the caller why there is none."""
    channel: Any = interaction.channel
    if isinstance(channel, discord.Thread) and isinstance(channel.parent, discord.ForumChannel):
        channel = channel.parent  # commands are typed in a forum's posts, not in the forum
    name = name[:100]
    if isinstance(channel, (discord.ForumChannel, discord.TextChannel)):
        missing = missing_to_open(interaction, isinstance(channel, discord.ForumChannel))
        if missing:  # refused before anything is made, with what to grant
            them = "it" if len(missing) == 1 else "them"
            await reply(
                interaction,
                f"Refused: I lack {names(missing)} in this channel, which a game needs; an "
                f"admin can grant {them} to me in the channel's settings",
            )
            return None
    try:
        if isinstance(channel, discord.ForumChannel):
            made = await channel.create_thread(
                name=name,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                content=opening,
                allowed_mentions=mentions(()),
            )
            return Table(made.thread, made.message)
        if isinstance(channel, discord.TextChannel):
            lobby = await channel.send(opening, allowed_mentions=mentions(()))
            try:
                thread = await channel.create_thread(
                    name=name, message=lobby, auto_archive_duration=THREAD_ARCHIVE_MINUTES
                )
            except discord.HTTPException:
                await _delete(lobby)
                raise
            return Table(thread, lobby)
    except discord.Forbidden:
        await reply(
            interaction,
            "Refused: I may not open a game here; an admin can allow me Send Messages and "
            "Create Public Threads in this channel (in a forum: Send Messages)",
        )
        return None
    except discord.HTTPException as exc:
        if exc.code != TAG_REQUIRED:
            raise
        await reply(
            interaction,
            "Refused: this forum requires a tag on every post and I set none; an admin can "
            'turn off its "Require tags to post" setting',
        )
        return None
    await reply(
        interaction,
        "Refused: open games from a server text channel or a forum channel (or a post of "
        "one); the game gets its own thread there",
    )
    return None


async def drop_table(table: Table) -> None:
    """Remove the lobby and thread of a game that was not created after all (the thread needs
    Manage Threads; a forum post goes with its thread)."""
    if table.lobby.channel.id != table.thread.id:
        await _delete(table.lobby)
    try:
        await table.thread.delete()
    except discord.HTTPException as exc:
        log.warning("could not delete unused thread %s: %s", table.thread.id, exc)


async def opened(
    bot: BotContext, interaction: discord.Interaction, table: Table, result: Result
) -> None:
    """After creating or importing: keep the thread and lobby only if the game exists."""
    if not result.ok or result.duplicate or result.game_id is None:
        await drop_table(table)
        await bot.poster.publish(interaction, result)
        return
    await add_to_thread(table.thread, interaction.user)
    bot.poster.queue(result)
    await bot.lobbies.place(result.game_id, table)
    await reply(interaction, f"Game #{result.game_id} is open in {table.thread.mention}.")


class LobbyPoster:
    """Keeps each game's lobby message up to date (one edit at a time per game, none when
    nothing it shows changed)."""

    def __init__(self, bot: BotContext) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._shown: dict[int, str] = {}  # game id: the text its lobby shows
        self.retry_seconds = RETRY_SECONDS
        self._retries: dict[int, asyncio.Task[None]] = {}  # game id: its edit tried later

    async def place(self, game_id: int, table: Table) -> None:
        """A new game's lobby: remembered, then filled in."""
        await self.bot.service.remember_lobby_post(
            game_id, (table.lobby.channel.id, table.lobby.id)
        )
        await self.refresh(game_id)

    async def refresh(self, game_id: int) -> None:
        """Edit the game's lobby to what it shows now (a game without one is left alone)."""
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            where = await self.bot.service.lobby_post(game_id)
            lobby = await self.bot.service.lobby(game_id) if where is not None else None
            if where is None or lobby is None:
                return
            link = f"Played in <#{lobby.thread_id}>" if lobby.thread_id else ""
            text = fit(lobby_text(lobby_as_written(lobby), link))
            if self._shown.get(game_id) == text:
                return
            view = lobby_view(game_id) if lobby.open else None
            channel_id, message_id = where
            channel = await self._channel(channel_id)
            if channel is None:
                await self._forget(game_id, f"its channel {channel_id} is gone")
                return
            try:
                await channel.get_partial_message(message_id).edit(content=text, view=view)
            except discord.HTTPException as exc:
                if exc.code == UNKNOWN_CHANNEL:
                    await self._forget(game_id, f"its channel {channel_id} is gone")
                    return
                if exc.code == OLD_MESSAGE_EDITS:
                    self._retry_later(game_id)
                    return
                if not edit_refused(exc):
                    raise
                log.info(
                    "the lobby of game %s cannot be edited (%s); posting it again", game_id, exc
                )
                await self._again(game_id, channel, text, view)
                return
            self._shown[game_id] = text

    def _retry_later(self, game_id: int) -> None:
        """Edit the lobby again after `retry_seconds` (once, however many changes wait)."""
        if game_id in self._retries:
            return
        log.info(
            "the lobby of game %s may not be edited for now (30046); trying again in %.0f s",
            game_id,
            self.retry_seconds,
        )
        self._retries[game_id] = asyncio.create_task(self._retry(game_id))

    async def _retry(self, game_id: int) -> None:
        await asyncio.sleep(self.retry_seconds)
        del self._retries[game_id]
        try:
            await self.refresh(game_id)
        except Exception:  # the next change tries again
            log.exception("updating the lobby of game %s failed", game_id)

    def stop(self) -> None:
        """The bot is closing: the edits waiting to be tried again are dropped (the next run
        edits the lobby at the game's next change)."""
        for task in self._retries.values():
            task.cancel()
        self._retries.clear()

    async def _again(
        self, game_id: int, channel: Any, text: str, view: discord.ui.View | None
    ) -> None:
        """The lobby posted anew where it was (which reopens an archived forum post)."""
        try:
            kwargs: dict[str, Any] = {"allowed_mentions": mentions(())}
            if view is not None:
                kwargs["view"] = view
            message = await channel.send(text, **kwargs)
        except discord.HTTPException as exc:
            if exc.code == UNKNOWN_CHANNEL:
                await self._forget(game_id, f"its channel {channel.id} is gone")
                return
            log.warning("the lobby of game %s could not be posted again: %s", game_id, exc)
            return
        await self.bot.service.remember_lobby_post(game_id, (channel.id, message.id))
        self._shown[game_id] = text

    async def _channel(self, channel_id: int) -> Any:
        channel = self.bot.get_channel(channel_id)
        if channel is not None:
            return channel
        try:
            return await self.bot.fetch_channel(channel_id)
        except discord.NotFound:
            return None

    async def _forget(self, game_id: int, why: str) -> None:
        log.info("game %s has no lobby any more: %s", game_id, why)
        self._shown.pop(game_id, None)
        await self.bot.service.remember_lobby_post(game_id, None)


async def _delete(message: Any) -> None:
    try:
        await message.delete()
    except discord.HTTPException as exc:
        log.info("could not delete a lobby message: %s", exc)
