"""The Discord bot: a discord.py `Bot` that loads the command cogs, registers the persistent
buttons, posts to game threads and sends the idle-turn reminders."""

from __future__ import annotations

import asyncio
import logging
import threading
from datetime import UTC, datetime

import discord
from discord.ext import commands

from bot.core.config import Settings
from bot.core.service import GameService
from bot.core.service.base import Renderer
from bot.core.store import Store
from bot.discord_ui.buttons import DYNAMIC_ITEMS
from bot.discord_ui.thread_posts import DEFAULT_DELAY, ThreadPoster, post_now

log = logging.getLogger(__name__)

EXTENSIONS = ("bot.discord_ui.cogs.game", "bot.discord_ui.cogs.play")
REMINDER_CHECK_SECONDS = 15 * 60  # the longest sleep between two looks at due reminders


class RailchatBot(commands.Bot):
    def __init__(
        self,
        service: GameService,
        *,
        sync_guild_id: int | None = None,
        renderer: Renderer | None = None,
        post_delay: float = DEFAULT_DELAY,
    ) -> None:
        # Slash commands only: no message-content intent, no prefix commands.
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=discord.Intents.default(),
        )
        self.service = service
        self.sync_guild_id = sync_guild_id
        self.renderer = renderer
        self.poster = ThreadPoster(self, renderer, delay=post_delay)
        self._reminders: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        await self.load_cogs()
        await self.sync_commands()
        self._reminders = asyncio.create_task(self.remind_forever())

    async def load_cogs(self) -> None:
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*DYNAMIC_ITEMS)  # buttons work again after a restart

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

    async def send_reminders(self, now: datetime) -> int:
        """Post every due reminder; the service stores that it was sent."""
        due = await self.service.due_reminders(now)
        for result in due:
            try:
                await post_now(self, result)
            except discord.HTTPException as exc:
                log.warning("reminder for game %s not posted: %s", result.game_id, exc)
        return len(due)

    async def remind_forever(self) -> None:
        """Sleep until the next reminder is due (as stored in SQLite), post, repeat."""
        await self.wait_until_ready()
        while not self.is_closed():
            due = None
            try:
                await self.send_reminders(datetime.now(UTC))
                due = await self.service.next_reminder()
            except Exception:
                log.exception("sending reminders failed")
            wait = (
                REMINDER_CHECK_SECONDS if due is None else (due - datetime.now(UTC)).total_seconds()
            )
            await asyncio.sleep(min(max(wait, 1.0), REMINDER_CHECK_SECONDS))

    async def close(self) -> None:
        if self._reminders is not None:
            self._reminders.cancel()
        await self.poster.drain()
        await super().close()

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s)", self.user, self.user and self.user.id)


def run_bot(settings: Settings) -> None:
    """Connect to Discord and serve until interrupted."""
    assert settings.token, "run_bot needs DISCORD_TOKEN"
    from bot.core.memory import freeze_loaded_code
    from bot.core.rendering import render_view, warm_up

    def prepare() -> None:
        warm_up()
        freeze_loaded_code()

    threading.Thread(target=prepare, name="render-warm-up", daemon=True).start()
    store = Store(settings.db_path)
    try:
        service = GameService(store, remind_hours=settings.remind_hours)
        bot = RailchatBot(service, sync_guild_id=settings.guild_id, renderer=render_view)
        bot.run(settings.token, log_handler=None)  # logging is configured by the CLI
    finally:
        store.close()
