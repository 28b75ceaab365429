"""A game's thread deleted, or the server left: the game is paused rather than played on
where nobody sees it, and those who can mend it are told how (`/game-admin thread` opens the
game a new thread and lets it go on there)."""

from __future__ import annotations

import logging

import discord

from bot.discord_ui.context import BotContext
from bot.discord_ui.side_posts import mentions

log = logging.getLogger(__name__)


async def thread_deleted(bot: BotContext, thread_id: int, parent_id: int | None) -> None:
    """Pause the game of a deleted thread and say so in the channel it was opened from (a
    forum holds no message of its own: there `/game status` tells it)."""
    found = await bot.service.thread_deleted(thread_id)
    if found is None:
        return
    record, paused = found
    log.warning(
        "the thread %s of game %s was deleted%s", thread_id, record.id, "; game paused" * paused
    )
    await bot.lobbies.refresh(record.id)
    parent = bot.get_channel(parent_id) if parent_id is not None else None
    if not isinstance(parent, discord.TextChannel):
        return
    stopped = ", so the game is paused" if paused else ""
    try:
        await parent.send(
            f"The thread of game #{record.id} ({record.title}) was deleted{stopped}. A "
            f"member with Manage Threads can give it a new thread here with `/game-admin "
            f"thread game:{record.id}`; the game goes on there where it stopped.",
            allowed_mentions=mentions(()),
        )
    except discord.HTTPException as exc:
        log.warning(
            "could not tell channel %s that game %s lost its thread: %s", parent.id, record.id, exc
        )


async def server_left(bot: BotContext, guild_id: int) -> None:
    """The bot left or was removed from a server: its games in play are paused."""
    paused = await bot.service.server_left(guild_id)
    log.info("left server %s; paused its games %s", guild_id, paused)
