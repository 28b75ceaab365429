"""`railchat db copy SRC DST`: a store moved from SQLite to PostgreSQL and back keeps every row
and id, goes on numbering after them, refuses to copy over games unless told to, and names the
games that do not replay on the target."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from typing import Any

import pytest

from bot.cli import main
from bot.core.service import GameService
from bot.core.store import Store
from bot.core.store.transfer import TABLES, TRANSIENT, Rows, read_all
from tests.raw_sql import execute
from tests.test_service import ANN, BOB, CY, add, started

DIRECTIONS = [("sqlite", "postgresql"), ("postgresql", "sqlite")]


@pytest.fixture(params=DIRECTIONS, ids=["to-postgresql", "to-sqlite"])
def source_and_target(request, db_path, postgres_url) -> tuple[str, str]:
    urls = {"sqlite": str(db_path), "postgresql": postgres_url}
    return urls[request.param[0]], urls[request.param[1]]


async def fill(url: str) -> list[int]:
    """A store with a row in every table: an open game, a running one with an undone move,
    requests, votes, a preview, an invitation, a turn post, a lobby, a failed post, a clock, settings,
    a game's DM choice and a held DM, an abandoned one, and one played to its end (rated); the
    running and abandoned games' ids."""
    service = GameService(Store(url), new_seed=lambda: 4242)
    store = service.store
    try:
        waiting = await service.create_game(CY, "tally", seats=3)
        await store.set_game_clock(waiting.game_id, "bank:3d turn:8h")  # a clock not yet running
        gid = await started(service, ANN, BOB, CY)
        for n in range(4):
            assert (await service.act(gid, [ANN, BOB, CY][n % 3], add(n % 3 + 1, n + 1))).ok
        await store.rewind(gid, 3, ANN.user_id)
        version = await store.version(gid)
        assert version is not None
        request = await store.open_undo_request(gid, 1, version, ANN.user_id, interaction_id=77)
        await store.vote(request.id, BOB.user_id, True)
        await store.open_deal(gid, version, BOB.user_id, add(2), "Bob takes 1")
        await store.save_preview("tok", gid, version, ANN.user_id, add(1), keep=5)
        await store.invite(gid, 3, 99, ANN.user_id)
        await store.set_turn_post(gid, 123456789012345678, {"shown": [1, 2]})
        await store.set_lobby_post(gid, (600, 123456789012345679))
        await store.set_post_failure(gid, "permission", 50013, "Embed Links")
        await store.set_remind_hours(gid, 12.5)
        await store.set_mentioned(gid, [ANN.user_id])
        await store.save_settings(ANN.user_id, {"turn_dm": 1, "time_zone": "Europe/Paris"})
        await store.set_game_dm(BOB.user_id, gid, False)
        await store.hold_dm(CY.user_id, gid, "2030-01-01T08:00:00+00:00", None)
        await store.set_bot_value("commands", "digest")
        done = await started(service, ANN, BOB)
        assert (await service.act(done, ANN, add(1, 5))).ok
        # a move that leaves a note for one user alone (as a programmed move's stop does)
        await store.append_action(done, 2, BOB.user_id, add(2, 1), notes=[(ANN.user_id, "n")])
        await store.abandon(done)
        rated = await started(service, ANN, BOB, target=20)  # played to its end: rated
        for n in range(4):
            if (await store.game(rated)).status != "finished":
                assert (await service.act(rated, [ANN, BOB][n % 2], add(n % 2 + 1, 9))).ok
        return [gid, done]
    finally:
        store.close()


def rows_of(url: str) -> Rows:
    store = Store(url)
    try:
        found = asyncio.run(store.backend.read(read_all))
    finally:
        store.close()
    return {t: sorted(rows, key=lambda r: repr(sorted(r.items()))) for t, rows in found.items()}


def copy(source: str, target: str, capsys: Any, *extra: str) -> tuple[int, str]:
    status = main(["db", "copy", source, target, *extra])
    return status, capsys.readouterr().out


def test_every_table_is_copied(db_path):
    """A table added by a later migration is copied too (add it to transfer.TABLES)."""
    Store(db_path).close()
    with closing(sqlite3.connect(db_path)) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert names - {"schema_migrations", *TRANSIENT} == set(TABLES)


def test_a_store_moves_whole_and_goes_on(source_and_target, capsys):
    source, target = source_and_target
    running, finished = asyncio.run(fill(source))
    status, out = copy(source, target, capsys)
    assert status == 0, out
    assert "Every game replays." in out and "4 games" in out
    before, after = rows_of(source), rows_of(target)
    assert all(before[t] for t in TABLES)  # the test fills every table
    assert after == before

    async def go_on() -> None:
        service = GameService(Store(target), new_seed=lambda: 4242)
        try:
            status = (await service.status(running)).text
            assert "To act" in status
            newer = await started(service, ANN, BOB)  # numbered after the copied games
            assert newer > finished
            assert (await service.act(newer, ANN, add(1))).ok
        finally:
            service.store.close()

    asyncio.run(go_on())


def test_a_target_with_games_is_kept_unless_replaced(source_and_target, capsys):
    source, target = source_and_target
    asyncio.run(fill(source))
    asyncio.run(fill(target))
    execute(target, "UPDATE games SET title = 'kept' WHERE id = 1")
    kept = rows_of(target)
    status, out = copy(source, target, capsys)
    assert status == 1 and "already has 4 games" in out and "--replace" in out
    assert rows_of(target) == kept
    status, out = copy(source, target, capsys, "--replace")
    assert status == 0, out
    assert rows_of(target) == rows_of(source)


def test_a_game_that_does_not_replay_is_named(source_and_target, capsys):
    source, target = source_and_target
    running, _ = asyncio.run(fill(source))
    execute(
        source,
        "UPDATE actions SET payload = ? WHERE game_id = ? AND seq = 2",
        ['{"type": "no such move"}', running],
    )
    status, out = copy(source, target, capsys)
    assert status == 1
    assert f"game #{running} does not replay on the target" in out
    assert "1 games do not replay." in out


def test_a_missing_source_or_the_same_database_is_refused(tmp_path, capsys):
    assert main(["db", "copy", str(tmp_path / "none.db"), str(tmp_path / "new.db")]) == 1
    assert "there is no database" in capsys.readouterr().err
    assert not (tmp_path / "new.db").exists()
    Store(tmp_path / "a.db").close()
    assert main(["db", "copy", str(tmp_path / "a.db"), str(tmp_path / "." / "a.db")]) == 1
    assert "the same database" in capsys.readouterr().err
