"""One database, several writers: the bot and `railchat local` (two processes), many asyncio
tasks, stale caches, a held write lock, and the same move sent twice; on SQLite and on
PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.core.moves import MOVES, resolve
from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.service.base import ALREADY_HANDLED, BUSY, STALE
from bot.core.store import StaleGame, Store, StoreBusy
from bot.core.store.migrations import LOCK, MIGRATIONS
from tests.random_play import play, setup_game
from tests.raw_sql import scalar

ANN, BOB = Caller(10, "Ann"), Caller(11, "Bob")
ROOT = Path(__file__).resolve().parents[1]


def add(entity: int, amount: int = 1) -> dict:
    return {"type": "add", "amount": amount, "entity": entity, "entity_type": "player"}


async def two_player_game(service: GameService, **options) -> int:
    created = await service.create_game(ANN, "tally", seats=2, options=options or None)
    await service.join(created.game_id, BOB)
    await service.start(created.game_id, ANN)
    return created.game_id


async def log_of(store: Store, game_id: int) -> list[int]:
    return [a.seq for a in await store.actions(game_id)]


async def test_a_process_with_a_stale_copy_reloads_instead_of_appending(make_store):
    """The bot (a) holds game 1 in its cache; the console (b) undoes a move; the bot's next
    move is judged on the reloaded game and the log has no gap."""
    bot, console = GameService(make_store()), GameService(make_store())
    gid = await two_player_game(bot, free_for_all=True)
    for n in range(4):
        assert (await bot.act(gid, [ANN, BOB][n % 2], add(n % 2 + 1, 2))).changed
    assert (await console.rewind(gid, ANN, 2)).ok  # takes back actions 3 and 4
    after = await bot.act(gid, ANN, add(1, 5))
    assert after.changed, after.error
    assert await log_of(bot.store, gid) == [1, 2, 3]
    fresh = GameService(make_store())
    assert (await fresh.status(gid)).text == (await bot.status(gid)).text
    assert "Total" in (await fresh.status(gid)).text


async def test_a_read_after_another_process_moved_shows_its_move(make_store):
    """Two bot processes on one database: the first has the game cached; the second moves;
    the first's next read is built from the stored version (its cached copy is dropped
    then), so it shows the move, and its own next move follows it."""
    first, second = GameService(make_store()), GameService(make_store())
    gid = await two_player_game(first, free_for_all=True)
    assert (await first.act(gid, ANN, add(1, 2))).changed
    cached_version = first._cache[gid][0][0]
    assert (await second.act(gid, BOB, add(2, 7))).changed
    shown = await first.status(gid)
    assert shown.text == (await second.status(gid)).text
    assert first._cache[gid][0][0] == cached_version + 1
    assert (await first.act(gid, ANN, add(1, 3))).changed
    assert [a.payload["amount"] for a in await first.store.actions(gid)] == [2, 7, 3]


async def test_a_write_racing_another_process_is_refused_whole(make_store, monkeypatch):
    """Between the bot reading the game and storing its move, the console takes a move back:
    the bot's append is refused (nothing stored), the user reads why, and the next command
    works on the reloaded game."""
    bot, console = GameService(make_store()), GameService(make_store())
    gid = await two_player_game(bot, free_for_all=True)
    for n in range(3):
        await bot.act(gid, ANN, add(1, n + 1))
    real = bot.store.seats

    async def meanwhile(game_id):  # runs inside the bot's move, after it read the game
        await console.store.rewind(game_id, 2, ANN.user_id)
        return await real(game_id)

    monkeypatch.setattr(bot.store, "seats", meanwhile)
    raced = await bot.act(gid, BOB, add(2, 9))
    monkeypatch.setattr(bot.store, "seats", real)
    assert raced.error == STALE.format(gid) and not raced.changed
    assert await log_of(bot.store, gid) == [1, 2]
    assert (await bot.act(gid, BOB, add(2, 9))).changed
    assert await log_of(bot.store, gid) == [1, 2, 3]
    with pytest.raises(StaleGame):
        await bot.store.append_action(gid, 4, BOB.user_id, add(2), version=1)
    assert await log_of(bot.store, gid) == [1, 2, 3]


@contextmanager
def lock_held(db: str, key: int) -> Iterator[None]:
    """Another process holds the write lock of game `key` (`migrations.LOCK`: of the schema;
    on SQLite, of the whole file) while the block runs."""
    holder = subprocess.Popen(
        [sys.executable, "-m", "tests.hold_game_lock", db, str(key)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        assert holder.stdout.readline().strip() == "locked"
        yield
    finally:
        holder.stdin.close()
        assert holder.wait(timeout=60) == 0


async def test_a_held_write_lock_is_waited_for_then_a_clear_refusal(make_store, store_url):
    quick = GameService(make_store(busy_timeout=0.2))
    gid = await two_player_game(quick)
    with lock_held(store_url, gid):
        refused = await quick.act(gid, ANN, add(1))
    assert refused.error == BUSY and await quick.store.action_count(gid) == 0
    # with the default timeout a writer waits for the other one to finish
    patient = GameService(make_store())
    with lock_held(store_url, gid):
        waiting = asyncio.create_task(patient.act(gid, ANN, add(1)))
        await asyncio.sleep(0.3)  # time to reach the lock (it waits however long this takes)
        assert not waiting.done()
    waited = await waiting
    assert waited.changed and await patient.store.action_count(gid) == 1


async def test_a_game_lock_holds_back_writes_to_that_game_alone(postgres_url):
    """On PostgreSQL another process's write of one game makes a write of that game wait, and
    lets the other games' writes through (SQLite has one write lock for the whole file)."""
    store = Store(postgres_url, busy_timeout=0.2)
    try:
        service = GameService(store)
        held, free = await two_player_game(service), await two_player_game(service)
        with lock_held(postgres_url, held):
            assert (await service.act(free, ANN, add(1))).changed
            assert (await service.act(held, ANN, add(1))).error == BUSY
        assert (await service.act(held, ANN, add(1))).changed
        assert [await store.action_count(g) for g in (held, free)] == [1, 1]
    finally:
        store.close()


async def test_opening_a_store_waits_for_the_schema_lock(store_url):
    Store(store_url).close()
    with lock_held(store_url, LOCK), pytest.raises(StoreBusy):
        Store(store_url, busy_timeout=0.2)


def test_two_processes_opening_a_new_database_migrate_it_once(store_url):
    opener = (
        "import sys; from bot.core.store import Store; print('ready', flush=True); "
        "sys.stdin.readline(); Store(sys.argv[1]).close()"
    )
    both = [
        subprocess.Popen(
            [sys.executable, "-c", opener, store_url],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for p in both:  # both loaded, then both told to open the database at once
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    for p in both:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    for p in both:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    applied = scalar(store_url, "SELECT count(*) FROM schema_migrations")
    assert applied == len(MIGRATIONS)


async def test_the_same_button_or_play_command_twice_applies_once(make_store):
    service = GameService(make_store())
    gid = await two_player_game(service, free_for_all=True)  # a second pass would be legal
    version = (await service.store.game(gid)).version

    def pass_move(game, choices):
        return resolve(MOVES["pass"], {}, choices, game, None)

    first, second = await asyncio.gather(
        service.play(gid, ANN, pass_move, version=version),
        service.play(gid, ANN, pass_move, version=version),
    )
    assert first.changed and second.duplicate and second.text == ALREADY_HANDLED
    assert await service.store.action_count(gid) == 1
    # a typed /play sent twice before the first was applied
    typed = await asyncio.gather(
        service.play(gid, BOB, pass_move), service.play(gid, BOB, pass_move)
    )
    assert [r.changed for r in typed] == [True, False] and typed[1].duplicate
    assert await service.store.action_count(gid) == 2
    # the same move later, against the version it now sees, is a new move
    assert (await service.play(gid, ANN, pass_move)).changed


async def test_two_processes_and_many_tasks_play_one_game_without_gap_or_duplicate(
    make_store, store_url
):
    gid = await setup_game(store_url)
    other = subprocess.Popen(
        [sys.executable, "-m", "tests.random_play", store_url, str(gid), "4", "6", "2"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert other.stdout is not None
    # both shares start together however long the other process takes to load on a busy machine
    assert (await asyncio.to_thread(other.stdout.readline)).strip() == "ready"
    here = await play(store_url, gid, seconds=4, tasks=6, seed=1)
    out, err = other.communicate(timeout=120)
    assert other.returncode == 0, err
    there = json.loads(out)
    assert here.bad == [] and there["bad"] == []
    store = make_store()
    seqs = await log_of(store, gid)
    assert seqs == list(range(1, len(seqs) + 1))  # no gap, no seq twice
    undone = scalar(store_url, "SELECT count(*) FROM undone_actions WHERE game_id = ?", [gid])
    # every move a user was told was stored is in the log or was taken back, exactly once
    assert here.applied + there["applied"] == len(seqs) + undone
    assert here.applied > 20 and there["applied"] > 20
    unknown = [k for k in [*here.outcomes, *there["outcomes"]] if ": " in k]
    assert unknown == []
    status = await GameService(store).status(gid)
    assert status.ok and "Total" in status.text
