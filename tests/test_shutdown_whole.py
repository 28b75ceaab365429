"""A stop (SIGTERM) leaves nothing half-done: interactions arriving while the bot closes are told
it is restarting instead of being started and cut off; a computer move under way is finished
before the exit, or, cancelled at the worst moment, leaves no live game ahead of its stored
log; the close started by the signal is kept until it ends."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import threading
import weakref
from typing import Any
from unittest.mock import AsyncMock

import discord
import pytest

from bot.core.results import Caller
from bot.core.service import GameService
from bot.discord_ui.app import _serve
from bot.discord_ui.io import RESTARTING
from tests.discord_world import GUILD, World, make_world
from tests.fake_discord import EPHEMERAL, THREAD_ID
from tests.titles_for_tests import Tally
from tests.wire_bot import ANN, BOB, bots, move, thread_posts, until

ANN_CALLER = Caller(1, "Ann")


@pytest.fixture
async def connect(db_path, monkeypatch):
    async with bots(db_path, monkeypatch) as start:
        yield start


async def replayed(service: GameService, game_id: int, guild_id: int | None = None) -> Any:
    """The game as the service holds it, and as a new process would rebuild it from the log:
    its actions and its status."""

    def seen(game: Any) -> Any:
        return list(game.actions), game.status_text()

    fresh = GameService(service.store)
    return (
        await service.peek(game_id, seen, guild_id=guild_id),
        await fresh.peek(game_id, seen, guild_id=guild_id),
    )


async def test_interactions_arriving_while_the_bot_closes_are_told_it_is_restarting(connect):
    wire = await connect()
    fake, bot = wire.fake, wire.bot
    await move(fake, 7900, ANN, 3)
    await until(lambda: thread_posts(fake), "the post of ann's move")
    [post] = fake.posts(THREAD_ID)
    [pass_id] = [
        item["custom_id"]
        for row in post.components
        for item in row["components"]
        if item.get("label") == "pass"
    ]
    # the close is held in its last step before disconnecting (posting what waits)
    draining, release = asyncio.Event(), asyncio.Event()
    drain = bot.poster.drain

    async def held_drain(**kwargs: Any) -> None:
        draining.set()
        await release.wait()
        await drain(**kwargs)

    bot.poster.drain = held_drain  # type: ignore[method-assign]
    closing = asyncio.create_task(bot.close())
    await asyncio.wait_for(draining.wait(), 10)
    before = await wire.service.store.action_count(wire.game_id)
    await fake.command(7901, BOB, "game", "status")
    await fake.press(7902, BOB, post.id, pass_id)
    await fake.autocomplete(7903, BOB, "play", "move", "move", move="")
    for iid in (7901, 7902, 7903):
        await until(lambda: fake.interaction(iid).answer, f"the answer to {iid}")
    for iid in (7901, 7902):  # answered at once (4), not deferred and left half-way
        assert fake.interaction(iid).answer == 4
        [told] = fake.posts(f"tok{iid}")
        assert told.content == RESTARTING and told.flags & EPHEMERAL
    assert fake.interaction(7903).answer == 8 and fake.interaction(7903).choices == []
    assert await wire.service.store.action_count(wire.game_id) == before  # bob's pass not made
    release.set()
    await asyncio.wait_for(closing, 10)


async def _away_against_computers(world: World) -> int:
    """A game of Ann against two computer seats, Ann away: computer moves are left due."""
    await world.run(
        "new", world.interaction(1), title="tally", seats=3, computers=2, level="random"
    )
    thread = list(world.threads.values())[-1]
    await world.run("start", world.interaction(1, where=thread.id), game=None)
    await world.play("away", world.interaction(1, where=thread.id), level=None, game=None)
    [game_id] = await world.bot.service.due_computer_games()
    return game_id


async def test_a_stop_lets_the_computer_move_being_stored_finish_and_starts_no_other(
    db_path, monkeypatch
):
    world = await make_world(db_path)
    bot, store = world.bot, world.bot.service.store
    game_id = await asyncio.create_task(_away_against_computers(world))  # commands ended
    before = await store.action_count(game_id)
    writing, release = asyncio.Event(), asyncio.Event()
    append = store.append_action

    async def slow_write(*args: Any, **kwargs: Any) -> Any:
        writing.set()
        await release.wait()
        return await append(*args, **kwargs)

    monkeypatch.setattr(store, "append_action", slow_write)
    monkeypatch.setattr(bot, "wait_until_ready", AsyncMock())
    monkeypatch.setattr(bot, "is_ready", lambda: True)
    monkeypatch.setattr(discord.AutoShardedClient, "close", AsyncMock())  # offline: no gateway
    worker = bot._computers = asyncio.create_task(bot.play_computers_forever())
    await asyncio.wait_for(writing.wait(), 10)  # a computer move is being stored
    closing = asyncio.create_task(bot.close())
    await asyncio.sleep(0)  # the stop has begun
    release.set()
    await asyncio.wait_for(closing, 10)
    assert await store.action_count(game_id) == before + 1  # that move, and no other
    assert worker.done() and not worker.cancelled()  # it ended by itself
    mine, rebuilt = await replayed(bot.service, game_id, GUILD)
    assert mine == rebuilt and len(mine[0]) == before + 1


async def test_a_computer_move_cancelled_inside_the_engine_leaves_no_game_ahead_of_its_log(
    make_store, monkeypatch
):
    service = GameService(make_store(), new_seed=lambda: 7)
    made = await service.create_game(ANN_CALLER, "tally", seats=3, computers=2, level="random")
    assert made.game_id is not None
    game_id = made.game_id
    assert (await service.start(game_id, ANN_CALLER)).ok
    assert (await service.computer_seat(game_id, ANN_CALLER, None, True)).ok  # more due
    before = await service.store.action_count(game_id)
    inside, release, done = threading.Event(), threading.Event(), threading.Event()
    process = Tally.process

    def held_process(self: Any, *args: Any, **kwargs: Any) -> Any:
        inside.set()
        release.wait(10)
        try:
            return process(self, *args, **kwargs)
        finally:
            done.set()

    monkeypatch.setattr(Tally, "process", held_process)
    moving = asyncio.create_task(service.play_computers(game_id))
    assert await asyncio.to_thread(inside.wait, 10)
    moving.cancel()  # as a stop past its time cancels the worker
    with pytest.raises(asyncio.CancelledError):
        await moving
    release.set()  # the engine's thread goes on and applies the move to the game it has
    assert await asyncio.to_thread(done.wait, 10)
    monkeypatch.setattr(Tally, "process", process)
    assert await service.store.action_count(game_id) == before
    mine, rebuilt = await replayed(service, game_id)
    assert mine == rebuilt and len(mine[0]) == before


class HeldClose:
    """A bot whose close waits on a future nothing else holds (as discord.py's own waits do):
    only a reference to the close's task keeps it from being collected half-way."""

    def __init__(self) -> None:
        self.started, self.disconnected = asyncio.Event(), asyncio.Event()
        self.waiting: weakref.ref[asyncio.Future[None]] | None = None
        self.closed = False

    async def __aenter__(self) -> HeldClose:
        return self

    async def __aexit__(self, *exc: object) -> None:
        pass

    async def start(self, token: str) -> None:
        self.started.set()
        await self.disconnected.wait()

    async def close(self) -> None:
        self.disconnected.set()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting = weakref.ref(future)
        await future
        self.closed = True


async def test_the_close_started_by_sigterm_is_kept_until_it_ends():
    loop = asyncio.get_running_loop()
    bot = HeldClose()
    serving = asyncio.create_task(_serve(bot, "not-a-real-token"))  # type: ignore[arg-type]
    try:
        await asyncio.wait_for(bot.started.wait(), 10)  # the signal handlers are in place
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.wait_for(bot.disconnected.wait(), 10)
        await asyncio.sleep(0)  # the close waits on its future
        gc.collect()
        future = bot.waiting() if bot.waiting is not None else None
        assert future is not None, "the close's task was collected half-way"
        future.set_result(None)
        await asyncio.wait_for(serving, 10)
        assert bot.closed
    finally:
        for stop in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(stop)
