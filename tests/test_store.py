"""The store on its own, on SQLite and on PostgreSQL: schema, round-trips, transactions,
interaction ids."""

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


async def test_migration_from_empty_database(make_store):
    store = make_store()
    assert await store.schema_version() == len(MIGRATIONS)
    assert await store.pending_migrations() == []
    assert await store.games() == []
    store.close()
    again = make_store()  # opening an up-to-date database applies nothing twice
    assert await again.schema_version() == len(MIGRATIONS)


async def test_a_sqlite_file_is_in_wal_mode(db_path):
    Store(db_path).close()
    with closing(sqlite3.connect(db_path)) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert {"games", "seats", "actions", "undone_actions", "interactions"} <= tables


async def test_round_trip(make_store):
    store = make_store()
    game = await _new_game(store, thread_id=99)
    assert await store.add_seat(game.id, 11, "Bob") == 2
    await store.start_game(game.id, seed=1234, player_ids=[1, 2])
    await store.append_action(game.id, 1, 10, {"type": "add", "amount": 3, "entity": 1})
    await store.append_action(game.id, 2, 11, {"type": "pass", "entity": 2}, finished=True)
    store.close()

    reopened = make_store()
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


async def test_string_player_ids_keep_their_type(make_store):
    store = make_store()
    game = await _new_game(store)
    await store.add_seat(game.id, 11, "Bob")
    await store.start_game(game.id, seed=0, player_ids=["15698", 13430])
    assert [s.player_id for s in await store.seats(game.id)] == ["15698", 13430]


async def test_leave_closes_the_gap_in_seat_numbers(make_store):
    store = make_store()
    game = await _new_game(store, seat_limit=4)
    await store.add_seat(game.id, 11, "Bob")
    await store.add_seat(game.id, 12, "Cy")
    await store.remove_seat(game.id, 11)
    assert [(s.seat, s.name) for s in await store.seats(game.id)] == [(1, "Ann"), (2, "Cy")]
    assert await store.add_seat(game.id, 13, "Di") == 3


async def test_duplicate_seq_leaves_no_row(make_store):
    store = make_store()
    game = await _new_game(store)
    await store.append_action(game.id, 1, 10, {"type": "pass"})
    with pytest.raises(StaleGame, match="conflicting write"):
        await store.append_action(game.id, 1, 10, {"type": "add"}, finished=True)
    assert [a.payload for a in await store.actions(game.id)] == [{"type": "pass"}]
    assert (await store.game(game.id)).status == ACTIVE  # the status update was rolled back too


async def test_duplicate_interaction_changes_nothing(make_store):
    store = make_store()
    game = await _new_game(store, interaction_id=500)
    assert await store.seen_interaction(500)
    with pytest.raises(DuplicateInteraction):
        await store.add_seat(game.id, 11, "Bob", interaction_id=500)
    with pytest.raises(DuplicateInteraction):
        await _new_game(store, interaction_id=500)
    assert [s.user_id for s in await store.seats(game.id)] == [10]
    assert [g.id for g in await store.games()] == [game.id]


async def test_undo_moves_the_last_action_aside(make_store):
    store = make_store()
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


async def test_games_filters(make_store):
    store = make_store()
    a = await _new_game(store)
    b = await _new_game(store, guild_id=9, creator_id=20, first_seat=(20, "Zed"))
    await store.start_game(b.id, seed=1, player_ids=[1])
    assert {g.id for g in await store.games(guild_id=7)} == {a.id}
    assert {g.id for g in await store.games(statuses=[OPEN])} == {a.id}
    assert {g.id for g in await store.games(statuses=[ACTIVE])} == {b.id}
    assert await store.games(statuses=[FINISHED]) == []


async def test_sentences_are_kept_with_actions_and_rewinds(make_store):
    store = make_store()
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


async def test_a_nul_character_is_stored(make_store):
    """PostgreSQL's text cannot hold NUL (a chat message of an imported file may have one): a
    sentence keeps U+FFFD in its place there, and a JSON payload keeps it exactly anywhere."""
    store = make_store()
    game = await _new_game(store)
    said = {"type": "message", "message": "a\0b"}
    await store.append_action(game.id, 1, 10, said, text="Ann said a\0b")
    [action] = await store.actions(game.id)
    assert action.payload == said
    postgres = store.backend.dialect == "postgresql"
    assert action.text == ("Ann said a\ufffdb" if postgres else "Ann said a\0b")


async def test_listings_and_what_waits_read_back(make_store):
    """The reads the service makes of a server's games and of what waits on players."""
    store = make_store()
    here = await _new_game(store)
    console = await _new_game(store, guild_id=None, creator_id=11, first_seat=(11, "Bob"))
    await store.add_seat(console.id, 10, "Ann")
    assert [(g.id, mine) for g, mine in await store.games_in_play(10, 7, 5)] == [(here.id, True)]
    assert [(g.id, mine) for g, mine in await store.games_in_play(12, None, 5)] == [
        (console.id, False)
    ]
    assert await store.open_game_counts(None, 11) == (1, 1)
    assert await store.open_game_counts(7, 11) == (1, 1)
    await store.save_preview("t1", here.id, 0, 10, {"type": "pass"}, keep=1)
    await store.save_preview("t2", here.id, 0, 10, {"type": "add"}, keep=1)  # t1 is dropped
    assert await store.preview("t1") is None
    assert (await store.preview("t2")).action == {"type": "add"}
    assert await store.drop_preview("t2") and not await store.drop_preview("t2")
    await store.set_bot_value("k", "a")
    await store.set_bot_value("k", "b")
    assert (await store.bot_value("k"), await store.bot_value("other")) == ("b", None)
    await store.set_turn_post(here.id, 2**62, {"moves": 1})
    assert await store.turn_post(here.id) == (2**62, {"moves": 1})
    request = await store.open_undo_request(here.id, 0, 0, 10)
    await store.vote(request.id, 11, False)
    await store.vote(request.id, 11, True)
    assert await store.votes(request.id) == {11: True}
