"""How any cog turns an interaction into a service call and a service `Result` into posts.

Kept apart from the cogs so that every command group (`/game`, `/play`, the buttons) finds
games, identifies callers and answers the same way; posting to game threads is
`thread_posts.ThreadPoster`.
"""

from __future__ import annotations

import asyncio
import io
import logging
import secrets
from collections.abc import Sequence
from typing import cast

import discord

from bot.core.results import Caller, Result
from bot.discord_ui.context import BotContext

log = logging.getLogger(__name__)

MAX_MESSAGE = 2000
MAX_UPLOAD = 10 * 1024 * 1024  # bytes one message may upload without server boosts
THREAD_ARCHIVED = 50083  # Discord's code: the operation is not allowed on an archived thread
RESTARTING = "railchat is restarting; try again in a minute"


async def turned_away(interaction: discord.Interaction) -> bool:
    """Whether the bot is closing, and so told the user instead of starting work the exit
    would cut off half-way (autocomplete: no suggestion). Checked with no pause before
    `acknowledge`, so that a stop waits for all the work it did not turn away."""
    if not cast(BotContext, interaction.client).closing:
        return False
    try:
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await interaction.response.send_message(RESTARTING, ephemeral=True)
    except discord.HTTPException as exc:  # too late, or Discord refused: nothing to do
        log.warning("could not tell a user the bot is restarting: %s", exc)
    return True


async def acknowledge(interaction: discord.Interaction) -> None:
    """The first answer to a command or a button, given before any database, engine or
    Discord work (Discord drops an interaction not answered within 3 s): "thinking...", only
    to the caller, which every later answer edits or follows. The bot is told the work is
    under way, so that a stop lets it finish."""
    bot = cast(BotContext, interaction.client)
    bot.working(asyncio.current_task())
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    await tell_waiting_notes(bot, interaction)


async def tell_waiting_notes(bot: BotContext, interaction: discord.Interaction) -> None:
    """What waits to be told to the user alone (a programmed move of theirs stopped, and
    why), told with their next command, only to them; best effort, the command goes on."""
    try:
        notes = await bot.service.waiting_notes(interaction.user.id, interaction.guild_id)
        if notes:
            await interaction.followup.send(fit("\n".join(n.text for n in notes)), ephemeral=True)
            await bot.service.notes_delivered(notes)
    except Exception:  # noqa: BLE001 - a note is kept for the next command
        log.warning("could not tell user %s their notes", interaction.user.id, exc_info=True)


async def report_error(interaction: discord.Interaction, error: BaseException, where: str) -> None:
    """Log an unexpected error with its traceback under a short id, and tell the caller that
    id, so that a user's report leads to the log line."""
    error_id = secrets.token_hex(4)
    log.error(
        "error %s in %s (server %s, channel %s, user %s)",
        error_id,
        where,
        interaction.guild_id,
        interaction.channel_id,
        interaction.user.id if interaction.user else None,
        exc_info=error,
    )
    try:
        await reply(
            interaction,
            f"Something went wrong on my side (error {error_id}; it is in the bot's log). "
            "Check /game status before trying again: a move is either stored whole or not at "
            "all.",
        )
    except discord.HTTPException as exc:  # the interaction expired or Discord refused
        log.warning("could not tell the user of error %s: %s", error_id, exc)


def caller_of(interaction: discord.Interaction) -> Caller:
    """The user and the server the interaction comes from. Members with Manage Threads or
    Manage Server in that server (their server-wide permissions, not a channel's) administer
    its games; the service shows no game of another server."""
    permissions = getattr(interaction.user, "guild_permissions", None)
    admin = permissions is not None and (permissions.manage_threads or permissions.manage_guild)
    return Caller(
        interaction.user.id,
        interaction.user.display_name,
        is_admin=admin,
        guild_id=interaction.guild_id,
    )


async def resolve_game(
    bot: BotContext, interaction: discord.Interaction, game: int | None
) -> Result:
    """The game a command means (`game_id`): the explicit number, else the game of the thread
    it is used in, else the one game of this server that is unambiguous for the user; else
    `error` says which games it could be."""
    if game is not None:  # a game of another server does not exist here
        return (
            Result(game_id=game)
            if await bot.service.visible(game, interaction.guild_id)
            else Result(error=f"there is no game #{game}")
        )
    if interaction.channel_id is not None:
        found = await bot.service.game_for_thread(
            interaction.channel_id, guild_id=interaction.guild_id
        )
        if found is not None:
            return Result(game_id=found)
    chosen = await bot.service.default_game(interaction.user.id, guild_id=interaction.guild_id)
    if chosen.ok:
        return chosen
    return Result(error=f"{chosen.error} (or use the command in the game's thread)")


async def game_or_refuse(
    bot: BotContext, interaction: discord.Interaction, game: int | None
) -> int | None:
    """The game a command means, or None after telling the user why there is none."""
    chosen = await resolve_game(bot, interaction, game)
    if not chosen.ok:
        await reply(interaction, f"Refused: {chosen.error}")
    return chosen.game_id


async def reply(interaction: discord.Interaction, text: str, *, ephemeral: bool = True) -> None:
    """Answer the interaction whether or not it was deferred."""
    text = fit(text)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=ephemeral)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral)


async def reply_files(
    interaction: discord.Interaction,
    text: str,
    files: tuple[tuple[str, bytes], ...],
    view: discord.ui.View | None = None,
) -> None:
    """Answer only the caller with attachments (images, exported games) and buttons; a file
    that would take the message over Discord's upload limit is named instead of sent (Discord
    would refuse the whole answer)."""
    attachments, total = [], 0
    for name, data in files:
        if total + len(data) > MAX_UPLOAD:
            text += (
                f"\n({name} is {len(data) / 2**20:.1f} MiB, more than Discord lets me "
                f"upload in one message ({MAX_UPLOAD // 2**20} MiB); it is left out.)"
            )
            continue
        total += len(data)
        attachments.append(discord.File(io.BytesIO(data), filename=name))
    extra: dict = {"view": view} if view is not None else {}
    if interaction.response.is_done():
        await interaction.followup.send(fit(text), files=attachments, ephemeral=True, **extra)
    else:
        await interaction.response.send_message(
            fit(text), files=attachments, ephemeral=True, **extra
        )


async def game_thread(bot: BotContext, thread_id: int) -> discord.Thread | None:
    """The game's thread from the cache, else from Discord; None when it is gone."""
    try:
        return await fetch_thread(bot, thread_id)
    except discord.HTTPException as exc:
        log.warning("thread %s cannot be reached: %s", thread_id, exc)
        return None


async def fetch_thread(bot: BotContext, thread_id: int) -> discord.Thread | None:
    """The game's thread from the cache, else from Discord (which may refuse: gone, no
    access); None when the id is not a thread's."""
    channel = bot.get_channel(thread_id)
    if channel is None:
        channel = await bot.fetch_channel(thread_id)
    return channel if isinstance(channel, discord.Thread) else None


async def follow_thread(
    bot: BotContext, thread_id: int | None, user: discord.abc.Snowflake
) -> None:
    """Add a user who took a seat to the game's thread, so its pings reach them."""
    thread = await game_thread(bot, thread_id) if thread_id is not None else None
    if thread is not None:
        await add_to_thread(thread, user)


async def add_to_thread(thread: discord.Thread, user: discord.abc.Snowflake) -> None:
    """Seated players follow the game's thread so its pings reach them. An archived thread
    takes no members: it is opened again first (as a message to it would), unless a moderator
    locked it."""
    try:
        try:
            await thread.add_user(user)
        except discord.HTTPException as exc:
            if exc.code != THREAD_ARCHIVED or thread.locked:
                raise
            await thread.edit(archived=False)
            await thread.add_user(user)
    except discord.HTTPException as exc:
        log.warning("could not add user %s to thread %s: %s", user.id, thread.id, exc)


def fit_latest(text: str, size: int = MAX_MESSAGE) -> str:
    """Shorten a heading plus lines, oldest first, by dropping the oldest lines after the
    heading (a long /game view history keeps its newest actions)."""
    head, *lines = text.split("\n")
    while lines and len("\n".join([head, "…", *lines])) > size:
        lines.pop(0)
    return text if len(text) <= size else fit("\n".join([head, "…", *lines]), size)


def split_message(text: str, size: int = MAX_MESSAGE) -> list[str]:
    """Messages of at most `size` characters, cut between paragraphs (blank lines) where
    possible."""
    parts: list[str] = []
    for paragraph in text.split("\n\n"):
        if parts and len(parts[-1]) + 2 + len(paragraph) <= size:
            parts[-1] += "\n\n" + paragraph
        else:
            parts.append(fit(paragraph, size))
    return parts


def packed(lines: Sequence[str], size: int = MAX_MESSAGE) -> list[str]:
    """The lines joined into texts of at most `size` characters, cut only at line ends (a
    line longer than `size` alone is shortened): a field or message never ends inside one."""
    out: list[str] = []
    current = ""
    for line in lines:
        line = fit(line, size)
        if current and len(current) + 1 + len(line) > size:
            out.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out


def fit(text: str, size: int = MAX_MESSAGE) -> str:
    """Shorten to Discord's message limit."""
    return text if len(text) <= size else text[: size - 1] + "…"
