"""The real bot (RailchatBot with discord.py's own HTTP and gateway code) on the fake Discord of
`tests/fake_discord`: started with a running two-player game in THREAD_ID, driven as users
drive it, and read back as they would see it. Shared by the wire test modules."""

from __future__ import annotations

import asyncio
import inspect
import io
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import discord
import pytest
import yarl
from PIL import Image

from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from bot.discord_ui.app import RailchatBot
from engine.game import TurnInfo
from tests.fake_discord import CHANNEL_ID, GUILD_ID, THREAD_ID, FakeDiscord, Posted, user
from tests.titles_for_tests import Tally

ANN, BOB = user(11, "ann"), user(12, "bob")
LOG: list[Any] = []  # the running fake's requests, named when a wait times out


@dataclass
class Wire:
    fake: FakeDiscord
    bot: RailchatBot
    service: GameService
    game_id: int


async def until(condition: Callable[[], Any], what: str, seconds: float = 15.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    seen = [(r.method, r.path) for r in LOG[0]] if LOG else []
    raise AssertionError(f"timed out waiting for {what}; requests: {seen}")


def board_png(game: Any, view: str, *focus: object) -> bytes:
    """A stand-in for render/ that the tests can read back: a PNG whose red channel is the
    sum of the amounts added in the game's log (a pass leaves the picture as it was)."""
    added = sum(a.get("amount", 0) for a in game.actions if a.get("type") == "add")
    buffer = io.BytesIO()
    Image.new("RGB", (48, 32), (added % 256, 40, 80)).save(buffer, format="PNG")
    return buffer.getvalue()


def red_of(png: bytes) -> int:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (48, 32)
    return image.getpixel((0, 0))[0]  # type: ignore[index]


def tally_turn(game: Any) -> list[TurnInfo]:
    """A turn prompt for the test title, so that posts carry an embed."""
    return [
        TurnInfo(p, None, "Add 1 to 9, or pass", (f"Score {game.scores[p]}",))
        for p in game.active_players()
    ]


async def open_game(
    service: GameService,
    thread_id: int,
    title: str = "tally",
    options: dict[str, Any] | None = None,
) -> int:
    """A game of ann's (bob seated) started in `thread_id`."""
    ann, bob = Caller(11, "ann", guild_id=GUILD_ID), Caller(12, "bob", guild_id=GUILD_ID)
    created = await service.create_game(
        ann,
        title,
        seats=2,
        guild_id=GUILD_ID,
        channel_id=CHANNEL_ID,
        thread_id=thread_id,
        options=options,
    )
    assert created.game_id is not None, created.error
    await service.join(created.game_id, bob)
    await service.start(created.game_id, ann)
    return created.game_id


async def started_fake(monkeypatch: pytest.MonkeyPatch, window: float = 3.0) -> FakeDiscord:
    """A fake Discord running, and discord.py pointed at it (its REST base and gateway)."""
    fake = FakeDiscord(window=window)
    LOG[:] = [fake.requests]
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", f"{fake.base}/api/v10")
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket,
        "DEFAULT_GATEWAY",
        yarl.URL(f"ws://127.0.0.1:{fake.port}/ws"),
    )
    return fake


@asynccontextmanager
async def bots(db_path: Any, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Any]:
    """`start(...)` starts the bot on a new fake Discord with a started game of ann and bob
    in THREAD_ID (`free_for_all`: both may add at any time, so one turn post collects every
    move; `options`: the game's others; `window`: the seconds an interaction has to be
    answered); all stop at the end."""
    running: list[tuple[Wire, asyncio.Task[None]]] = []
    monkeypatch.setattr(Tally, "turn_info", tally_turn, raising=False)

    async def start(
        free_for_all: bool = False,
        renderer: Callable[..., bytes] = board_png,
        title: str = "tally",
        window: float = 3.0,
        options: dict[str, Any] | None = None,
    ) -> Wire:
        fake = await started_fake(monkeypatch, window)
        # a harness opens many games as one user: the caps on open games are raised
        service = GameService(Store(db_path), new_seed=lambda: 1, game_caps=(10_000, 10_000))
        options = {"free_for_all": True, **(options or {})} if free_for_all else options
        game_id = await open_game(service, THREAD_ID, title, options)
        bot = RailchatBot(service, renderer=renderer, post_delay=0.01)
        bot._connection.guild_ready_timeout = 0.05  # discord.py's wait for more servers
        wire = Wire(fake, bot, service, game_id)
        running.append((wire, asyncio.create_task(bot.start("not-a-real-token"))))
        await until(bot.is_ready, "the bot to be ready")
        return wire

    try:
        yield start
    finally:
        for wire, runner in running:
            await wire.bot.close()
            await asyncio.wait_for(runner, 10)
            await wire.fake.stop()
            wire.service.store.close()


def answered(fake: FakeDiscord, iid: int) -> list[Posted]:
    """The messages that answered interaction `iid` (at once, or deferred and followed up),
    as the user sees them: a deferred answer still "thinking" is not there yet."""
    return [m for m in fake.posts(f"tok{iid}") if not m.loading]


def thread_posts(fake: FakeDiscord, thread: int = THREAD_ID) -> list[str]:
    return [m.content for m in fake.posts(thread)]


async def settled(fake: FakeDiscord) -> None:
    """Give a doubled post or edit the time to arrive; nothing was refused as over Discord's
    limits, and every interaction was answered in its window."""
    await asyncio.sleep(0.3)
    assert not fake.refused(50035) and not fake.refused(40005)
    assert not fake.refused(10062)


async def move(fake: FakeDiscord, iid: int, who: dict[str, Any], amount: int | None) -> None:
    """`/game-admin act` adding `amount` (None: a pass) to the tally."""
    action = {"type": "add", "amount": amount} if amount else {"type": "pass"}
    await fake.command(iid, who, "game-admin", "act", action=json.dumps(action))


class SlowStore:
    """Every store call takes `delay` seconds more, without blocking the event loop, as a store
    on a busy disk or across a network would (the bot must acknowledge an interaction before
    it waits on one). Set `delay` to 0 to set a game up quickly."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, service: GameService, delay: float):
        self.delay = delay
        store = service.store
        for name, method in inspect.getmembers(type(store), inspect.iscoroutinefunction):
            if not name.startswith("_"):
                monkeypatch.setattr(store, name, self._slowed(getattr(store, name)))

    def _slowed(self, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def slowed(*args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(self.delay)
            return await method(*args, **kwargs)

        return slowed
