"""Posting each game's changes to its Discord thread.

Every accepted change is queued; a short moment later one post says what happened (one line
per change, so rapid moves become a single message and Discord's rate limits are respected),
who must act next (@mentioned only when that changed since the last mention, which is stored,
so a restart does not mention them again; plus a direct message to those who opted in), who
must answer a new request (@mentioned), the current map and market (the sheet when it
changed), and the turn's and the request's buttons.
"""
from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from bot.discord_ui.buttons import prompt_view
from bot.discord_ui.io import MAX_MESSAGE, fit, game_thread, reply
from bot.core.moves import quick_moves
from bot.core.results import Prompt, Result
from bot.core.service.base import Renderer

if TYPE_CHECKING:
    from bot.discord_ui.app import RailchatBot

log = logging.getLogger(__name__)

MAX_UPLOAD = 10 * 1024 * 1024  # bytes per message without server boosts
ALWAYS_SHOWN = ("map", "market")  # other views are posted only when their image changed
DEFAULT_DELAY = 2.0  # seconds a change waits for the next one before the post goes out


@dataclass
class Batch:
    thread_id: int | None
    lines: list[str] = field(default_factory=list)
    views: list[str] = field(default_factory=list)
    vote: int | None = None
    vote_kind: str = "undo"
    vote_ping: tuple[int, ...] = ()


class ThreadPoster:
    def __init__(self, bot: RailchatBot, renderer: Renderer | None, *,
                 delay: float = DEFAULT_DELAY) -> None:
        self.bot = bot
        self.renderer = renderer
        self.delay = delay
        self._pending: dict[int, Batch] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._locks: dict[int, asyncio.Lock] = {}
        self._drawn: dict[tuple[int, str], str] = {}  # digest of the last image posted

    async def publish(self, interaction: discord.Interaction, result: Result) -> None:
        """Refusals and duplicates answer only the caller; changes are acknowledged to the
        caller and queued for the game's thread."""
        if not result.ok:
            await reply(interaction, f"Refused: {result.error}")
        elif result.duplicate or not result.changed or result.game_id is None:
            await reply(interaction, result.text)
        else:
            self.queue(result)
            where = "" if interaction.channel_id == result.thread_id or result.thread_id is None \
                else f" (posted in <#{result.thread_id}>)"
            await reply(interaction, f"Done{where}: {result.text.splitlines()[0]}")

    def queue(self, result: Result) -> None:
        assert result.game_id is not None
        batch = self._pending.get(result.game_id)
        if batch is None:
            batch = self._pending[result.game_id] = Batch(result.thread_id)
            task = asyncio.create_task(self._post_later(result.game_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        batch.lines.append(result.text)
        batch.views += [v for v in result.views if v not in batch.views]
        if result.vote is not None:
            batch.vote, batch.vote_kind, batch.vote_ping = (result.vote, result.vote_kind,
                                                            result.notify)

    async def drain(self) -> None:
        """Wait until everything queued is posted (tests; shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks))

    async def _post_later(self, game_id: int) -> None:
        await asyncio.sleep(self.delay)
        try:
            await self.post(game_id)
        except Exception:  # a failed post must not stop later ones; the log is in SQLite
            log.exception("posting to the thread of game %s failed", game_id)

    async def post(self, game_id: int) -> None:
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            batch = self._pending.pop(game_id, None)
            if batch is None or batch.thread_id is None:
                return
            thread = await game_thread(self.bot, batch.thread_id)
            if thread is None:
                return
            prompt = await self.bot.service.prompt(game_id)
            files, notes = await self._images(game_id, batch.views)
            text, ping = self._text(batch, prompt, notes)
            view = prompt_view(game_id, prompt.version, quick_moves(prompt.choices), batch.vote,
                               batch.vote_kind)
            kwargs = {"files": files, "allowed_mentions": discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in ping])}
            if view is not None:
                kwargs["view"] = view
            await thread.send(text, **kwargs)
            if prompt.notify and prompt.notify != prompt.mentioned:
                self.bot.service.mark_mentioned(game_id, prompt.notify)
            await self._direct_messages(game_id, thread, ping, batch.vote_ping)

    def _text(self, batch: Batch, prompt: Prompt, notes: list[str]) -> tuple[str, list[int]]:
        """The post's text and the users it pings: who must answer a new request, and whoever
        must act when that changed since they were last mentioned."""
        ping = list(batch.vote_ping)
        tail = []
        if batch.vote_ping:
            tail.append("To answer: " + " ".join(f"<@{u}>" for u in batch.vote_ping))
        if prompt.notify:
            if prompt.notify != prompt.mentioned:
                ping += [u for u in prompt.notify if u not in ping]
                tail.append("To act: " + " ".join(f"<@{u}>" for u in prompt.notify))
            else:
                tail.append("To act: " + ", ".join(prompt.names))
        elif prompt.names:
            tail.append("To act: " + ", ".join(prompt.names))
        body = "\n".join([*batch.lines, *notes])
        end = "\n".join(tail)
        room = MAX_MESSAGE - len(end) - 1
        return (fit(body, room) + ("\n" + end if end else "")), ping

    async def _images(self, game_id: int, views: list[str]) -> tuple[list[discord.File], list[str]]:
        if not views or self.renderer is None:
            return [], []
        try:
            images = await self.bot.service.draw(game_id, views, self.renderer)
        except Exception:
            log.exception("drawing game %s failed", game_id)
            return [], ["(The images could not be drawn this time; /game map shows them.)"]
        files, notes, total = [], [], 0
        for view, png in images.items():
            digest = hashlib.sha1(png).hexdigest()
            if view not in ALWAYS_SHOWN and self._drawn.get((game_id, view)) == digest:
                continue
            if total + len(png) > MAX_UPLOAD:
                notes.append(f"(The {view} image is too large to attach; use /game {view}.)")
                continue
            total += len(png)
            self._drawn[(game_id, view)] = digest
            files.append(discord.File(io.BytesIO(png), filename=f"{view}.png"))
        return files, notes

    async def _direct_messages(self, game_id: int, thread: discord.Thread, users: list[int],
                               asked: tuple[int, ...]) -> None:
        """To those who opted in: a move to make, or (`asked`) a request to answer."""
        for user_id in users:
            if not self.bot.service.wants_dm(user_id):
                continue
            what = "A request awaits your answer" if user_id in asked else "Your move"
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                await user.send(f"{what} in game #{game_id}: {thread.jump_url}")
            except discord.HTTPException as exc:  # DMs closed, or the user left
                log.info("could not DM user %s: %s", user_id, exc)


async def post_now(bot: RailchatBot, result: Result) -> None:
    """A post outside the coalescing (reminders): text and pings only."""
    if result.thread_id is None:
        return
    thread = await game_thread(bot, result.thread_id)
    if thread is None:
        return
    mentions = " ".join(f"<@{u}>" for u in result.notify)
    await thread.send(fit(result.text + (f"\n{mentions}" if mentions else "")),
                      allowed_mentions=discord.AllowedMentions(everyone=False, roles=False,
                                                               users=True))
