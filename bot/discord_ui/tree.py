"""The command tree: the one place every slash command is answered before any work, and where
every error of a command is logged (with an id the user is told) instead of being lost."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.discord_ui.io import acknowledge, reply, report_error, turned_away

log = logging.getLogger(__name__)


class RailchatTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Commands are answered ("thinking...", only to the caller) before their callback
        reads the database, asks the engine or calls Discord; autocomplete cannot be
        deferred and answers by itself within its budget. While the bot closes, both are
        told it is restarting instead."""
        if await turned_away(interaction):
            return False
        if interaction.type is not discord.InteractionType.application_command:
            return True
        try:
            await acknowledge(interaction)
        except discord.HTTPException as exc:  # too late, or Discord refused: nothing to do
            log.warning("could not answer /%s: %s", _name(interaction), exc)
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """A refusal of what was typed is told as such; anything else is a bug, logged with
        its traceback under an id the user sees."""
        if isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
            await reply(interaction, f"Refused: {error}")
            return
        if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            await reply(
                interaction,
                "Refused: that command is not one of mine any more (Discord may still show an "
                "older list for a while); /game help lists them",
            )
            return
        original = getattr(error, "original", error)
        await report_error(interaction, original, f"/{_name(interaction)}")


def _name(interaction: discord.Interaction) -> str:
    command = interaction.command
    return command.qualified_name if command is not None else "?"
