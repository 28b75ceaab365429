"""How any cog turns an interaction into a service call and a service `Result` into posts.

Kept apart from the cogs so that every command group (the `/game` group now, per-title play
commands later) finds games, identifies callers and posts to game threads the same way.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.results import Caller, Result

if TYPE_CHECKING:
    from bot.discord_app import RailchatBot

log = logging.getLogger(__name__)

MAX_MESSAGE = 2000
NO_GAME_HERE = ("this channel is not a game thread; use the command in the game's thread or "
                "give its number (see /game list)")


def caller_of(interaction: discord.Interaction) -> Caller:
    """Users with Manage Threads administer every game in the server."""
    permissions = interaction.permissions
    return Caller(interaction.user.id, interaction.user.display_name,
                  is_admin=bool(permissions and permissions.manage_threads))


def resolve_game(bot: RailchatBot, interaction: discord.Interaction, game: int | None) -> int | None:
    """The game a command means: the explicit number, else the thread it is used in."""
    if game is not None:
        return game
    if interaction.channel_id is None:
        return None
    return bot.service.game_for_thread(interaction.channel_id)


async def reply(interaction: discord.Interaction, text: str, *, ephemeral: bool = True) -> None:
    """Answer the interaction whether or not it was deferred."""
    text = _fit(text)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=ephemeral)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral)


def post_text(result: Result) -> str:
    """The thread post for a state change: what happened, then whose turn it is."""
    text = result.text
    if result.notify:
        text += "\nTo act: " + " ".join(f"<@{uid}>" for uid in result.notify)
    return _fit(text)


async def publish(bot: RailchatBot, interaction: discord.Interaction, result: Result) -> None:
    """Refusals go privately to the caller; changes are posted in the game's thread."""
    if not result.ok:
        await reply(interaction, f"Refused: {result.error}")
        return
    if result.duplicate:
        await reply(interaction, result.text)
        return
    mentions = discord.AllowedMentions(everyone=False, roles=False, users=True)
    text = post_text(result)
    if result.thread_id is None or interaction.channel_id == result.thread_id:
        if interaction.response.is_done():
            await interaction.followup.send(text, allowed_mentions=mentions)
        else:
            await interaction.response.send_message(text, allowed_mentions=mentions)
        return
    thread = await game_thread(bot, result.thread_id)
    if thread is None:
        await reply(interaction, f"{text}\n(The game's thread could not be found.)")
        return
    await thread.send(text, allowed_mentions=mentions)
    await reply(interaction, f"Done; posted in <#{result.thread_id}>.")


async def game_thread(bot: RailchatBot, thread_id: int) -> discord.Thread | None:
    """The game's thread from the cache, else from Discord; None when it is gone."""
    channel = bot.get_channel(thread_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(thread_id)
        except discord.HTTPException:
            log.warning("thread %s is gone", thread_id)
            return None
    return channel if isinstance(channel, discord.Thread) else None


async def add_to_thread(thread: discord.Thread, user: discord.abc.Snowflake) -> None:
    """Seated players follow the game's thread so its pings reach them."""
    try:
        await thread.add_user(user)
    except discord.HTTPException as exc:
        log.warning("could not add user %s to thread %s: %s", user.id, thread.id, exc)


def _fit(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE - 1] + "…"
