"""The Discord bot: a discord.py `Bot` that loads the command cogs, registers the persistent
buttons, posts to game threads, sends the idle-turn reminders, makes the computer seats' moves
that commands left due, and closes cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import signal
import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord.ext import commands

from bot.core.config import Settings
from bot.core.service import GameService
from bot.core.service.base import Renderer
from bot.core.service.reminders import Sweep
from bot.core.shards import Shards
from bot.core.store import Store
from bot.discord_ui.admin_controls import ADMIN_ITEMS
from bot.discord_ui.buttons import DYNAMIC_ITEMS
from bot.discord_ui.direct import send_all
from bot.discord_ui.dm_gate import DmGate
from bot.discord_ui.lobby_posts import LobbyPoster
from bot.discord_ui.side_posts import post_reminder
from bot.discord_ui.suggestions import suggest_games_everywhere
from bot.discord_ui.thread_loss import server_left, thread_deleted
from bot.discord_ui.thread_posts import DEFAULT_DELAY, ThreadPoster
from bot.discord_ui.tree import RailchatTree

log = logging.getLogger(__name__)

EXTENSIONS = (
    "bot.discord_ui.cogs.game",
    "bot.discord_ui.cogs.play",
    "bot.discord_ui.cogs.admin",
    "bot.discord_ui.cogs.settings",
    "bot.discord_ui.cogs.stats",
)
REMINDER_CHECK_SECONDS = 15 * 60  # the longest sleep between two looks at due reminders
COMPUTER_CHECK_SECONDS = 60.0  # the longest sleep between two looks at computer moves due
CLOSE_SECONDS = 8.0  # a stop waits this long for the posts still to go out
SYNCED_KEY = "synced_commands"  # bot_state: the digest of the command tree last synced


def sweep_wait(due: datetime | None, now: datetime) -> float:
    """Seconds to sleep before the next sweep: until the next deadline or reminder due, at
    least a second (one due already is not looked at in a busy loop), at most the period."""
    wait = REMINDER_CHECK_SECONDS if due is None else (due - now).total_seconds()
    return min(max(wait, 1.0), REMINDER_CHECK_SECONDS)


class RailchatBot(commands.AutoShardedBot):
    """The bot on the Discord shards its service serves (`GameService.shards`; None: every
    shard Discord recommends, in this one process). An interaction arrives on the shard of
    its server, so the process that made a move posts it; sweeps take up only the games of
    the servers this process serves (see `bot.core.shards`)."""

    def __init__(
        self,
        service: GameService,
        *,
        sync_guild_id: int | None = None,
        renderer: Renderer | None = None,
        post_delay: float = DEFAULT_DELAY,
    ) -> None:
        # Slash commands and components; the bot knows its servers, channels and threads, and
        # is told that a message was posted (not what it says: no message content intent) so
        # that chat never buries a game's live prompt. No message is cached. No post, answer
        # or edit pings anyone unless it names them in its own `allowed_mentions`.
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True
        # railchat joins no voice channel: the missing voice libraries are no one's concern
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents,
            tree_cls=RailchatTree,
            max_messages=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **_sharding(service.shards),
        )
        self.service = service
        self.sync_guild_id = sync_guild_id
        self.renderer = renderer
        self.poster = ThreadPoster(self, renderer, delay=post_delay)
        self.lobbies = LobbyPoster(self)
        self.dms = DmGate()
        self._reminders: asyncio.Task[None] | None = None
        self._catch_up: asyncio.Task[int] | None = None
        self._computers: asyncio.Task[None] | None = None
        self.command_ids: dict[str, int] = {}  # top-level command name: Discord's id (help)
        self._working: set[asyncio.Task[object]] = set()  # commands and presses under way
        self.closing = False  # set as a stop begins: new interactions are turned away

    def working(self, task: asyncio.Task[object] | None) -> None:
        """A command or press is under way in `task`: a stop lets it finish (and queue its
        post) before posting what waits."""
        if task is not None:
            self._working.add(task)
            task.add_done_callback(self._working.discard)

    async def setup_hook(self) -> None:
        await self.load_cogs()
        await self.sync_commands()
        self._reminders = asyncio.create_task(self.remind_forever())
        self._catch_up = asyncio.create_task(self.post_missed())
        self._computers = asyncio.create_task(self.play_computers_forever())

    async def load_cogs(self) -> None:
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        suggest_games_everywhere(self.tree)
        self.add_dynamic_items(*DYNAMIC_ITEMS, *ADMIN_ITEMS)  # buttons work after a restart

    def command_digest(self) -> str:
        """What Discord is told of the commands (and where), as a digest: a start with the
        same digest as the last sync does not upload them again."""
        payload = [c.to_dict(self.tree) for c in self.tree.get_commands()]
        text = json.dumps([self.sync_guild_id, payload], sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Upload the commands when they changed since the last sync (stored in the database),
        to the development server when RAILCHAT_GUILD is set (instant), else globally; whether
        they were uploaded."""
        digest = self.command_digest()
        guild = discord.Object(id=self.sync_guild_id) if self.sync_guild_id else None
        if not force and await self.service.store.bot_value(SYNCED_KEY) == digest:
            log.info("commands unchanged since the last sync; not uploading them")
            try:  # their ids, for the help's clickable commands
                known = await self.tree.fetch_commands(guild=guild)
                self.command_ids = {c.name: c.id for c in known}
            except discord.HTTPException as exc:
                log.warning("could not read the commands' ids back: %s", exc)
            return False
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        self.command_ids = {c.name: c.id for c in synced}
        log.info(
            "synced %d commands %s", len(synced), f"to server {guild.id}" if guild else "globally"
        )
        await self.service.store.set_bot_value(SYNCED_KEY, digest)
        return True

    async def send_reminders(self, now: datetime) -> Sweep:
        """Post every reminder due at `now`, the moves of the turns whose clock ran out and the
        nudges before a deadline, and send the direct messages due (the service stores that
        they were sent); what was due, and when the next one falls due."""
        sweep = await self.service.sweep(now)
        clocks = await self.service.clock_sweep(now, timedelta(seconds=REMINDER_CHECK_SECONDS))
        for result in clocks.results:  # turns timed out, posted like any move
            self.poster.queue(result)
        times = [t for t in (sweep.next_due, clocks.next_due, clocks.next_nudge) if t is not None]
        sweep = replace(sweep, next_due=min(times, default=None))
        for reminder in (*sweep.reminders, *clocks.nudges):  # nudges: before a deadline
            try:
                await post_reminder(self, reminder)
            except discord.HTTPException as exc:
                log.warning("reminder for game %s not posted: %s", reminder.game_id, exc)
            await send_all(self, reminder.messages)
        await send_all(self, sweep.messages)
        return sweep

    async def post_missed(self) -> int:
        """Once connected: post the moves a previous run stored but did not post (it was
        killed between the two), so its servers' threads go on from the stored state."""
        await self.wait_until_ready()
        try:
            missed = await self.service.unposted()
        except Exception:
            log.exception("looking for moves not posted failed")
            return 0
        for result in missed:
            self.poster.queue(result)
        if missed:
            log.info("posting the moves of %d games that were stored but not posted", len(missed))
        return len(missed)

    async def remind_forever(self) -> None:
        """Sleep until the next reminder is due (as stored), post, repeat."""
        await self.wait_until_ready()
        while not self.is_closed():
            due = None
            try:
                due = (await self.send_reminders(datetime.now(UTC))).next_due
            except Exception:
                log.exception("sending reminders failed")
            await asyncio.sleep(sweep_wait(due, datetime.now(UTC)))

    async def play_due_computers(self, *, stored: bool = False) -> int:
        """Make the computer seats' moves that commands left due (`stored`: in every stored
        game, as after a restart), a bounded number per game and call, each game's batch
        posted like any move; how many games moved."""
        moved = 0
        for game_id in await self.service.due_computer_games(stored=stored):
            try:
                result = await self.service.play_computers(game_id)
            except Exception:  # one game's failure must not stop the others'
                log.exception("computer moves in game %s failed", game_id)
                continue
            if result is not None:
                self.poster.queue(result)
                moved += 1
        return moved

    async def play_computers_forever(self) -> None:
        """Wait until a game has computer moves due (the service says so), make them, repeat;
        first those of every stored game. Ends by itself once the bot is closing (the service
        then starts no computer move and wakes it)."""
        await self.wait_until_ready()
        stored = True
        while True:
            try:
                await self.play_due_computers(stored=stored)
                stored = False
            except Exception:
                log.exception("making computer moves failed")
            if self.closing:
                return
            try:
                await asyncio.wait_for(
                    self.service.computers_waiting.wait(), COMPUTER_CHECK_SECONDS
                )
            except TimeoutError:
                pass

    async def close(self) -> None:
        """Turn new interactions away, let the commands under way and the computer move being
        made finish (no other one starts), post what waits (without the gathering delay),
        then disconnect; all within CLOSE_SECONDS."""
        self.closing = True
        self.service.hold_computers()
        worker = self._computers
        for task in (self._reminders, self._catch_up):
            if task is not None:
                task.cancel()
        self.lobbies.stop()
        if worker is not None and not self.is_ready():
            worker.cancel()  # it never started: it waits for the connection
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CLOSE_SECONDS
        waiting = [*self._working, *([worker] if worker is not None else [])]
        if waiting:
            await asyncio.wait(waiting, timeout=CLOSE_SECONDS / 2)
        if worker is not None and not worker.done():
            log.warning(
                "closing in the middle of a computer move: it is stored whole or not at all"
            )
            worker.cancel()  # the service drops the game, to be rebuilt from its log
        try:
            await asyncio.wait_for(self.poster.drain(now=True), max(deadline - loop.time(), 0.1))
        except TimeoutError:
            log.warning("closing with posts still unsent after %.0f s", CLOSE_SECONDS)
        await super().close()

    async def on_message(self, message: discord.Message) -> None:
        """Chat in a game's thread (no prefix commands: the bot has slash commands only)."""
        if self.user is not None and message.author.id != self.user.id:
            await self.poster.heard(message.channel, self.user.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A game's thread deleted (by a moderator, or with its channel): its game pauses."""
        await thread_deleted(self, payload.thread_id, payload.parent_id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server (or it was deleted): its games pause."""
        await server_left(self, guild.id)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s)", self.user, self.user and self.user.id)


def _sharding(shards: Shards | None) -> dict[str, Any]:
    """discord.py's options for the shards served (none: all Discord advises)."""
    return {} if shards is None else {"shard_ids": list(shards.ids), "shard_count": shards.count}


def _bot(settings: Settings, store: Store, shards: Shards | None = None) -> RailchatBot:
    from bot.core.rendering import render_view

    service = GameService(
        store, remind_hours=settings.remind_hours, game_caps=settings.game_caps, shards=shards
    )
    return RailchatBot(service, sync_guild_id=settings.guild_id, renderer=render_view)


def run_bot(settings: Settings, shards: Shards | None = None) -> None:
    """Connect to Discord and serve until interrupted (Ctrl-C or SIGTERM: both close cleanly,
    posting what waits); `shards`: only those (see `bot.core.shards`)."""
    assert settings.token, "run_bot needs DISCORD_TOKEN"
    from bot.core.memory import freeze_loaded_code
    from bot.core.rendering import warm_up

    def prepare() -> None:
        warm_up()
        freeze_loaded_code()

    threading.Thread(target=prepare, name="render-warm-up", daemon=True).start()
    store = Store(settings.db_path)
    try:
        asyncio.run(_serve(_bot(settings, store, shards), settings.token))
    finally:
        store.close()


async def _serve(bot: RailchatBot, token: str) -> None:
    """Serve until a signal's close ends. The close's task is held here and awaited: the
    event loop keeps only a weak reference to a task, and a disconnected bot's `start`
    returns before that close is done."""
    loop = asyncio.get_running_loop()
    closing: set[asyncio.Task[None]] = set()
    for stop in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(stop, functools.partial(_stop, bot, stop, closing))
    async with bot:
        await bot.start(token)
    if closing:
        await asyncio.wait(closing)


def _stop(bot: RailchatBot, received: signal.Signals, closing: set[asyncio.Task[None]]) -> None:
    log.info("%s received: closing", received.name)
    closing.add(asyncio.get_running_loop().create_task(bot.close()))


def sync_now(settings: Settings) -> bool:
    """`railchat sync`: log in and upload the commands whether or not they changed."""
    assert settings.token, "railchat sync needs DISCORD_TOKEN"
    store = Store(settings.db_path)
    try:
        return asyncio.run(_sync(_bot(settings, store), settings.token))
    finally:
        store.close()


async def _sync(bot: RailchatBot, token: str) -> bool:
    async with bot:
        await bot.login(token)
        await bot.load_cogs()
        return await bot.sync_commands(force=True)
