"""The SQLite store on its own: schema, round-trips, transactions, interaction ids."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from bot.core.store import ACTIVE, FINISHED, OPEN, DuplicateInteraction, StaleGame, Store
from bot.core.store.connection import Conn
from bot.core.store.migrations import MIGRATIONS, SQLITE


async def _new_game(store: Store, **kw):
    args = dict(
        title="tally",
        options={"target": 50},
        seat_limit=3,
        creator_id=10,
        guild_id=7,
        channel_id=8,
        first_seat=(10, "Ann"),
    )
    args.update(kw)
    return await store.create_game(**args)


async def test_migration_from_empty_file(db_path):
    assert not db_path.exists()
    store = Store(db_path)
    assert await store.schema_version() == len(MIGRATIONS)
    assert await store.pending_migrations() == []
    store.close()
    with closing(sqlite3.connect(db_path)) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert {"games", "seats", "actions", "undone_actions", "interactions"} <= tables
    again = Store(db_path)  # opening an up-to-date file applies nothing twice
    assert await again.schema_version() == len(MIGRATIONS)
    again.close()


async def test_round_trip(db_path):
    store = Store(db_path)
    game = await _new_game(store, thread_id=99)
    assert await store.add_seat(game.id, 11, "Bob") == 2
    await store.start_game(game.id, seed=1234, player_ids=[1, 2])
    await store.append_action(game.id, 1, 10, {"type": "add", "amount": 3, "entity": 1})
    await store.append_action(game.id, 2, 11, {"type": "pass", "entity": 2}, finished=True)
    store.close()

    reopened = Store(db_path)
    record = await reopened.game(game.id)
    assert record is not None
    assert (record.title, record.options, record.seat_limit, record.seed, record.status) == (
        "tally",
        {"target": 50},
        3,
        1234,
        FINISHED,
    )
    assert (record.guild_id, record.channel_id, record.thread_id) == (7, 8, 99)
    assert await reopened.game_by_thread(99) == record
    assert [(s.seat, s.user_id, s.name, s.player_id) for s in await reopened.seats(game.id)] == [
        (1, 10, "Ann", 1),
        (2, 11, "Bob", 2),
    ]
    assert [(a.seq, a.user_id, a.payload) for a in await reopened.actions(game.id)] == [
        (1, 10, {"type": "add", "amount": 3, "entity": 1}),
        (2, 11, {"type": "pass", "entity": 2}),
    ]


async def test_string_player_ids_keep_their_type(db_path):
    store = Store(db_path)
    game = await _new_game(store)
    await store.add_seat(game.id, 11, "Bob")
    await store.start_game(game.id, seed=0, player_ids=["15698", 13430])
    assert [s.player_id for s in await store.seats(game.id)] == ["15698", 13430]


async def test_leave_closes_the_gap_in_seat_numbers(db_path):
    store = Store(db_path)
    game = await _new_game(store, seat_limit=4)
    await store.add_seat(game.id, 11, "Bob")
    await store.add_seat(game.id, 12, "Cy")
    await store.remove_seat(game.id, 11)
    assert [(s.seat, s.name) for s in await store.seats(game.id)] == [(1, "Ann"), (2, "Cy")]
    assert await store.add_seat(game.id, 13, "Di") == 3


async def test_duplicate_seq_leaves_no_row(db_path):
    store = Store(db_path)
    game = await _new_game(store)
    await store.append_action(game.id, 1, 10, {"type": "pass"})
    with pytest.raises(StaleGame, match="UNIQUE constraint failed"):
        await store.append_action(game.id, 1, 10, {"type": "add"}, finished=True)
    assert [a.payload for a in await store.actions(game.id)] == [{"type": "pass"}]
    assert (await store.game(game.id)).status == ACTIVE  # the status update was rolled back too


async def test_duplicate_interaction_changes_nothing(db_path):
    store = Store(db_path)
    game = await _new_game(store, interaction_id=500)
    assert await store.seen_interaction(500)
    with pytest.raises(DuplicateInteraction):
        await store.add_seat(game.id, 11, "Bob", interaction_id=500)
    with pytest.raises(DuplicateInteraction):
        await _new_game(store, interaction_id=500)
    assert [s.user_id for s in await store.seats(game.id)] == [10]
    assert [g.id for g in await store.games()] == [game.id]


async def test_undo_moves_the_last_action_aside(db_path):
    store = Store(db_path)
    game = await _new_game(store)
    await store.append_action(game.id, 1, 10, {"type": "pass", "n": 1})
    await store.append_action(game.id, 2, 11, {"type": "pass", "n": 2}, finished=True)
    undone = await store.undo_last_action(game.id, undone_by=10)
    assert (undone.seq, undone.payload) == (2, {"type": "pass", "n": 2})
    assert [a.seq for a in await store.actions(game.id)] == [1]
    assert (await store.game(game.id)).status == ACTIVE
    aside = await store.last_undone(game.id)
    assert [(a.seq, a.user_id) for a in aside.actions] == [(2, 11)] and aside.undone_by == 10
    await store.append_action(game.id, 2, 10, {"type": "pass", "n": 3})  # seq 2 is free again
    assert [a.payload["n"] for a in await store.actions(game.id)] == [1, 3]


async def test_games_filters(db_path):
    store = Store(db_path)
    a = await _new_game(store)
    b = await _new_game(store, guild_id=9, creator_id=20, first_seat=(20, "Zed"))
    await store.start_game(b.id, seed=1, player_ids=[1])
    assert {g.id for g in await store.games(guild_id=7)} == {a.id}
    assert {g.id for g in await store.games(statuses=[OPEN])} == {a.id}
    assert {g.id for g in await store.games(statuses=[ACTIVE])} == {b.id}
    assert await store.games(statuses=[FINISHED]) == []


async def test_sentences_are_kept_with_actions_and_rewinds(db_path):
    store = Store(db_path)
    game = await _new_game(store)
    await store.add_seat(game.id, 11, "Bob")
    await store.start_game(game.id, seed=1, player_ids=[1, 2])
    await store.append_action(game.id, 1, 10, {"type": "add", "entity": 1}, text="Ann added 1.")
    await store.append_action(game.id, 2, 11, {"type": "add", "entity": 2}, text="Bob added 2.")
    version = (await store.game(game.id)).version
    undone = await store.rewind(game.id, 0, undone_by=10)
    assert [(a.seq, a.text) for a in undone] == [(1, "Ann added 1."), (2, "Bob added 2.")]
    assert await store.actions(game.id) == [] and (await store.game(game.id)).version == version + 1
    kept = (await store.last_undone(game.id)).actions
    assert [(a.seq, a.text) for a in kept] == [(1, "Ann added 1."), (2, "Bob added 2.")]
    with pytest.raises(LookupError):
        await store.rewind(game.id, 0, undone_by=10)


async def test_undo_votes_move_into_the_requests_table(db_path):
    """A database from before deals (schema 3, its migrations recorded by sqlite-utils as the
    store used to) keeps its undo requests and votes, and its record of what was applied."""
    from sqlite_utils import Database
    from sqlite_utils.migrations import Migrations

    older = Migrations("railchat")
    for migration in MIGRATIONS[:3]:
        older(name=migration.__name__)(lambda db, m=migration: m(Conn(db.conn), SQLITE))
    db = Database(db_path)
    older.apply(db)
    db.execute(
        "INSERT INTO games (id, title, seat_limit, status, creator_id, created_at, "
        "updated_at, version) VALUES (1, 'tally', 2, 'active', 10, 'then', 'then', 4)"
    )
    db.execute("INSERT INTO undo_requests VALUES (3, 1, 2, 4, 11, 'open', 'then')")
    db.execute("INSERT INTO undo_votes VALUES (3, 10, 1)")
    db.conn.commit()
    db.close()
    store = Store(db_path)
    assert await store.schema_version() == len(MIGRATIONS)
    with closing(sqlite3.connect(db_path)) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "undo_requests" not in tables and "_sqlite_migrations" not in tables
    request = await store.request(3)
    assert (
        request.kind,
        request.keep,
        request.version,
        request.requested_by,
        request.status,
        request.action,
    ) == ("undo", 2, 4, 11, "open", None)
    assert await store.votes(3) == {10: True}
    assert (await store.game(1)).mentioned == ()
