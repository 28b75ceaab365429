"""`/stats [player] [title]`: a player's standing in this server (the caller's, by default),
told to the caller alone. Only in a server: standings are per server."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.context import BotContext
from bot.discord_ui.io import caller_of, reply
from bot.discord_ui.suggestions import title_choices, within_budget

DM_REFUSAL = (
    "Refused: /stats works in a server: standings are kept per server, and a direct message "
    "has none. Ask in the server where you play."
)


class StatsCog(commands.Cog):
    def __init__(self, bot: BotContext) -> None:
        self.bot = bot

    @app_commands.command(
        name="stats", description="Rating, wins and pace in this server, per title"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        player="Whose standing (default: yours)", title="One title, e.g. 1830 (default: all)"
    )
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        title: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        if interaction.guild_id is None:  # guild_only hides it there; a stale client may not
            await reply(interaction, DM_REFUSAL)
            return
        result = await self.bot.service.stats(
            caller_of(interaction), None if player is None else player.id, title
        )
        await reply(interaction, result.text if result.ok else f"Refused: {result.error}")

    @stats.autocomplete("title")
    @within_budget
    async def _titles(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return title_choices(self.bot.service.titles(), current)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StatsCog(cast(BotContext, bot)))
