"""The SQLite store on its own: schema, round-trips, transactions, interaction ids."""

from __future__ import annotations

import sqlite3

import pytest

from bot.core.migrations import MIGRATIONS
from bot.core.store import ACTIVE, FINISHED, OPEN, DuplicateInteraction, Store


def _new_game(store: Store, **kw):
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
    return store.create_game(**args)


def test_migration_from_empty_file(db_path):
    assert not db_path.exists()
    store = Store(db_path)
    assert store.schema_version >= 1
    assert MIGRATIONS.pending(store.db) == []
    assert {"games", "seats", "actions", "undone_actions", "interactions"} <= set(
        store.db.table_names()
    )
    assert store.db.journal_mode == "wal"
    store_version = store.schema_version
    store.close()
    again = Store(db_path)  # opening an up-to-date file applies nothing twice
    assert again.schema_version == store_version
    assert again.db["_sqlite_migrations"].count == store_version


def test_round_trip(db_path):
    store = Store(db_path)
    game = _new_game(store, thread_id=99)
    assert store.add_seat(game.id, 11, "Bob") == 2
    store.start_game(game.id, seed=1234, player_ids=[1, 2])
    store.append_action(game.id, 1, 10, {"type": "add", "amount": 3, "entity": 1})
    store.append_action(game.id, 2, 11, {"type": "pass", "entity": 2}, finished=True)
    store.close()

    reopened = Store(db_path)
    record = reopened.game(game.id)
    assert record is not None
    assert (record.title, record.options, record.seat_limit, record.seed, record.status) == (
        "tally",
        {"target": 50},
        3,
        1234,
        FINISHED,
    )
    assert (record.guild_id, record.channel_id, record.thread_id) == (7, 8, 99)
    assert reopened.game_by_thread(99) == record
    assert [(s.seat, s.user_id, s.name, s.player_id) for s in reopened.seats(game.id)] == [
        (1, 10, "Ann", 1),
        (2, 11, "Bob", 2),
    ]
    assert [(a.seq, a.user_id, a.payload) for a in reopened.actions(game.id)] == [
        (1, 10, {"type": "add", "amount": 3, "entity": 1}),
        (2, 11, {"type": "pass", "entity": 2}),
    ]


def test_string_player_ids_keep_their_type(db_path):
    store = Store(db_path)
    game = _new_game(store)
    store.add_seat(game.id, 11, "Bob")
    store.start_game(game.id, seed=0, player_ids=["15698", 13430])
    assert [s.player_id for s in store.seats(game.id)] == ["15698", 13430]


def test_leave_closes_the_gap_in_seat_numbers(db_path):
    store = Store(db_path)
    game = _new_game(store, seat_limit=4)
    store.add_seat(game.id, 11, "Bob")
    store.add_seat(game.id, 12, "Cy")
    store.remove_seat(game.id, 11)
    assert [(s.seat, s.name) for s in store.seats(game.id)] == [(1, "Ann"), (2, "Cy")]
    assert store.add_seat(game.id, 13, "Di") == 3


def test_duplicate_seq_leaves_no_row(db_path):
    store = Store(db_path)
    game = _new_game(store)
    store.append_action(game.id, 1, 10, {"type": "pass"})
    with pytest.raises(sqlite3.IntegrityError):
        store.append_action(game.id, 1, 10, {"type": "add"}, finished=True)
    assert [a.payload for a in store.actions(game.id)] == [{"type": "pass"}]
    assert store.game(game.id).status == ACTIVE  # the status update was rolled back too


def test_duplicate_interaction_changes_nothing(db_path):
    store = Store(db_path)
    game = _new_game(store, interaction_id=500)
    assert store.seen_interaction(500)
    with pytest.raises(DuplicateInteraction):
        store.add_seat(game.id, 11, "Bob", interaction_id=500)
    with pytest.raises(DuplicateInteraction):
        _new_game(store, interaction_id=500)
    assert [s.user_id for s in store.seats(game.id)] == [10]
    assert [g.id for g in store.games()] == [game.id]


def test_undo_moves_the_last_action_aside(db_path):
    store = Store(db_path)
    game = _new_game(store)
    store.append_action(game.id, 1, 10, {"type": "pass", "n": 1})
    store.append_action(game.id, 2, 11, {"type": "pass", "n": 2}, finished=True)
    undone = store.undo_last_action(game.id, undone_by=10)
    assert (undone.seq, undone.payload) == (2, {"type": "pass", "n": 2})
    assert [a.seq for a in store.actions(game.id)] == [1]
    assert store.game(game.id).status == ACTIVE
    row = next(store.db["undone_actions"].rows)
    assert (row["seq"], row["user_id"], row["undone_by"]) == (2, 11, 10)
    store.append_action(game.id, 2, 10, {"type": "pass", "n": 3})  # seq 2 is free again
    assert [a.payload["n"] for a in store.actions(game.id)] == [1, 3]


def test_games_filters(db_path):
    store = Store(db_path)
    a = _new_game(store)
    b = _new_game(store, guild_id=9, creator_id=20, first_seat=(20, "Zed"))
    store.start_game(b.id, seed=1, player_ids=[1])
    assert {g.id for g in store.games(guild_id=7)} == {a.id}
    assert {g.id for g in store.games(statuses=[OPEN])} == {a.id}
    assert {g.id for g in store.games(statuses=[ACTIVE])} == {b.id}
    assert store.games(statuses=[FINISHED]) == []


def test_sentences_are_kept_with_actions_and_rewinds(db_path):
    store = Store(db_path)
    game = _new_game(store)
    store.add_seat(game.id, 11, "Bob")
    store.start_game(game.id, seed=1, player_ids=[1, 2])
    store.append_action(game.id, 1, 10, {"type": "add", "entity": 1}, text="Ann added 1.")
    store.append_action(game.id, 2, 11, {"type": "add", "entity": 2}, text="Bob added 2.")
    version = store.game(game.id).version
    undone = store.rewind(game.id, 0, undone_by=10)
    assert [(a.seq, a.text) for a in undone] == [(1, "Ann added 1."), (2, "Bob added 2.")]
    assert store.actions(game.id) == [] and store.game(game.id).version == version + 1
    kept = store.db.execute("SELECT seq, text FROM undone_actions ORDER BY seq").fetchall()
    assert kept == [(1, "Ann added 1."), (2, "Bob added 2.")]
    with pytest.raises(LookupError):
        store.rewind(game.id, 0, undone_by=10)


def test_undo_votes_move_into_the_requests_table(db_path):
    """A database from before deals (schema 3) keeps its undo requests and votes."""
    from sqlite_utils import Database
    from sqlite_utils.migrations import Migrations

    older = Migrations("railchat")
    for migration in MIGRATIONS._migrations[:3]:
        older(name=migration.name)(migration.fn)
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
    assert "undo_requests" not in store.db.table_names()
    request = store.request(3)
    assert (
        request.kind,
        request.keep,
        request.version,
        request.requested_by,
        request.status,
        request.action,
    ) == ("undo", 2, 4, 11, "open", None)
    assert store.votes(3) == {10: True}
    assert store.game(1).mentioned == ()
