"""The answer every command group gives the same way: a read-only answer to the caller alone
(with its files)."""

from __future__ import annotations

import discord

from bot.core.results import Result
from bot.discord_ui.io import reply, reply_files


async def answer(interaction: discord.Interaction, result: Result) -> None:
    """A read-only answer, only to the caller (with its files, if any)."""
    if not result.ok:
        await reply(interaction, f"Refused: {result.error}")
    elif result.files:
        await reply_files(interaction, result.text, result.files)
    else:
        await reply(interaction, result.text)
