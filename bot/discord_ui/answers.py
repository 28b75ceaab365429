"""Answers every command group gives the same way: a read-only answer to the caller alone (with
its files), and the thread a new game is played in (made only once the game can exist)."""

from __future__ import annotations

import logging
from typing import Literal

import discord

from bot.core.results import Result
from bot.discord_ui.context import BotContext
from bot.discord_ui.io import add_to_thread, reply, reply_files

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: games move slowly


async def answer(interaction: discord.Interaction, result: Result) -> None:
    """A read-only answer, only to the caller (with its files, if any)."""
    if not result.ok:
        await reply(interaction, f"Refused: {result.error}")
    elif result.files:
        await reply_files(interaction, result.text, result.files)
    else:
        await reply(interaction, result.text)


async def new_thread(interaction: discord.Interaction, name: str) -> discord.Thread | None:
    """A public thread for a new game in this text channel; None after telling the caller why
    there is none."""
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        await reply(
            interaction,
            "Refused: open games from a server text channel; the game gets its own thread there",
        )
        return None
    try:
        return await channel.create_thread(
            name=name[:100],
            type=discord.ChannelType.public_thread,
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )
    except discord.Forbidden:
        await reply(
            interaction,
            "Refused: I may not create public threads in this channel; ask an admin for the "
            "Create Public Threads permission",
        )
        return None


async def opened(
    bot: BotContext, interaction: discord.Interaction, thread: discord.Thread, result: Result
) -> None:
    """After creating or importing: keep the thread only if the game exists."""
    if not result.ok or result.duplicate:
        await discard(thread)
        await bot.poster.publish(interaction, result)
        return
    await add_to_thread(thread, interaction.user)
    bot.poster.queue(result)
    await reply(interaction, f"Game #{result.game_id} is open in {thread.mention}.")


async def discard(thread: discord.Thread) -> None:
    """Remove the thread of a game that was not created after all (needs Manage Threads)."""
    try:
        await thread.delete()
    except discord.HTTPException as exc:
        log.warning("could not delete unused thread %s: %s", thread.id, exc)
