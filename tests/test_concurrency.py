"""One database, several writers: the bot and `railchat local` (two processes), many asyncio
tasks, stale caches, a held write lock, and the same move sent twice."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.core.moves import MOVES, resolve
from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.service.base import ALREADY_HANDLED, BUSY, STALE
from bot.core.store import StaleGame, Store
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


async def test_a_process_with_a_stale_copy_reloads_instead_of_appending(db_path):
    """The bot (a) holds game 1 in its cache; the console (b) undoes a move; the bot's next
    move is judged on the reloaded game and the log has no gap."""
    bot, console = GameService(Store(db_path)), GameService(Store(db_path))
    gid = await two_player_game(bot, free_for_all=True)
    for n in range(4):
        assert (await bot.act(gid, [ANN, BOB][n % 2], add(n % 2 + 1, 2))).changed
    assert (await console.rewind(gid, ANN, 2)).ok  # takes back actions 3 and 4
    after = await bot.act(gid, ANN, add(1, 5))
    assert after.changed, after.error
    assert await log_of(bot.store, gid) == [1, 2, 3]
    fresh = GameService(Store(db_path))
    assert (await fresh.status(gid)).text == (await bot.status(gid)).text
    assert "Total" in (await fresh.status(gid)).text


async def test_a_write_racing_another_process_is_refused_whole(db_path, monkeypatch):
    """Between the bot reading the game and storing its move, the console takes a move back:
    the bot's append is refused (nothing stored), the user reads why, and the next command
    works on the reloaded game."""
    bot, console = GameService(Store(db_path)), GameService(Store(db_path))
    gid = await two_player_game(bot, free_for_all=True)
    for n in range(3):
        await bot.act(gid, ANN, add(1, n + 1))
    real = bot.store.open_requests

    async def meanwhile(game_id):  # runs inside the bot's move, after it read the game
        await console.store.rewind(game_id, 2, ANN.user_id)
        return await real(game_id)

    monkeypatch.setattr(bot.store, "open_requests", meanwhile)
    raced = await bot.act(gid, BOB, add(2, 9))
    monkeypatch.setattr(bot.store, "open_requests", real)
    assert raced.error == STALE.format(gid) and not raced.changed
    assert await log_of(bot.store, gid) == [1, 2]
    assert (await bot.act(gid, BOB, add(2, 9))).changed
    assert await log_of(bot.store, gid) == [1, 2, 3]
    with pytest.raises(StaleGame):
        await bot.store.append_action(gid, 4, BOB.user_id, add(2), version=1)
    assert await log_of(bot.store, gid) == [1, 2, 3]


def hold_write_lock(path: Path, seconds: float, ready: threading.Event) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("UPDATE games SET updated_at = updated_at")
    ready.set()
    threading.Event().wait(seconds)
    conn.execute("COMMIT")
    conn.close()


async def test_a_held_write_lock_is_waited_for_then_a_clear_refusal(db_path):
    quick = GameService(Store(db_path, busy_timeout=0.2))
    gid = await two_player_game(quick)
    ready = threading.Event()
    holder = threading.Thread(target=hold_write_lock, args=(db_path, 1.0, ready))
    holder.start()
    ready.wait()
    refused = await quick.act(gid, ANN, add(1))
    holder.join()
    assert refused.error == BUSY and await quick.store.action_count(gid) == 0
    # with the default timeout a writer waits for the other one to finish
    patient = GameService(Store(db_path))
    ready.clear()
    holder = threading.Thread(target=hold_write_lock, args=(db_path, 0.3, ready))
    holder.start()
    ready.wait()
    waited = await patient.act(gid, ANN, add(1))
    holder.join()
    assert waited.changed and await patient.store.action_count(gid) == 1


async def test_the_same_button_or_play_command_twice_applies_once(db_path):
    service = GameService(Store(db_path))
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


async def test_two_processes_and_many_tasks_play_one_game_without_gap_or_duplicate(db_path):
    gid = await setup_game(db_path)
    other = subprocess.Popen(
        [sys.executable, "-m", "tests.random_play", str(db_path), str(gid), "4", "6", "2"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert other.stdout is not None
    # both shares start together however long the other process takes to load on a busy machine
    assert (await asyncio.to_thread(other.stdout.readline)).strip() == "ready"
    here = await play(db_path, gid, seconds=4, tasks=6, seed=1)
    out, err = other.communicate(timeout=120)
    assert other.returncode == 0, err
    there = json.loads(out)
    assert here.bad == [] and there["bad"] == []
    store = Store(db_path)
    seqs = await log_of(store, gid)
    assert seqs == list(range(1, len(seqs) + 1))  # no gap, no seq twice
    undone = scalar(db_path, "SELECT count(*) FROM undone_actions WHERE game_id = ?", [gid])
    # every move a user was told was stored is in the log or was taken back, exactly once
    assert here.applied + there["applied"] == len(seqs) + undone
    assert here.applied > 20 and there["applied"] > 20
    unknown = [k for k in [*here.outcomes, *there["outcomes"]] if ": " in k]
    assert unknown == []
    status = await GameService(store).status(gid)
    assert status.ok and "Total" in status.text
