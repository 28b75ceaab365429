"""The Discord bot: a discord.py `Bot` that loads the command cogs and syncs them."""
from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.config import Settings
from bot.service import GameService
from bot.store import Store

log = logging.getLogger(__name__)

EXTENSIONS = ("bot.cogs.game",)


class RailchatBot(commands.Bot):
    def __init__(self, service: GameService, *, sync_guild_id: int | None = None) -> None:
        # Slash commands only: no message-content intent, no prefix commands.
        super().__init__(command_prefix=commands.when_mentioned, help_command=None,
                         intents=discord.Intents.default())
        self.service = service
        self.sync_guild_id = sync_guild_id

    async def setup_hook(self) -> None:
        await self.load_cogs()
        await self.sync_commands()

    async def load_cogs(self) -> None:
        for extension in EXTENSIONS:
            await self.load_extension(extension)

    async def sync_commands(self) -> None:
        """To the development server when RAILCHAT_GUILD is set (instant), else globally."""
        if self.sync_guild_id is None:
            synced = await self.tree.sync()
            log.info("synced %d commands globally", len(synced))
            return
        guild = discord.Object(id=self.sync_guild_id)
        self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        log.info("synced %d commands to server %s", len(synced), self.sync_guild_id)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s)", self.user, self.user and self.user.id)


def run_bot(settings: Settings) -> None:
    """Connect to Discord and serve until interrupted."""
    assert settings.token, "run_bot needs DISCORD_TOKEN"
    store = Store(settings.db_path)
    try:
        bot = RailchatBot(GameService(store), sync_guild_id=settings.guild_id)
        bot.run(settings.token, log_handler=None)  # logging is configured by the CLI
    finally:
        store.close()
