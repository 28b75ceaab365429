"""Forward-only schema migrations of the game store, applied in order when a store opens.

Each migration runs in its own transaction together with its record in `_sqlite_migrations`,
so a database is always at a whole schema version. Append new migrations at the end; never edit
one that has shipped.
"""
from __future__ import annotations

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

MIGRATIONS = Migrations("railchat")


@MIGRATIONS()
def m001_initial_schema(db: Database) -> None:
    db.execute("""
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL,
            options TEXT NOT NULL DEFAULT '{}',
            seat_limit INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('open', 'active', 'finished')),
            creator_id INTEGER NOT NULL,
            guild_id INTEGER,
            channel_id INTEGER,
            thread_id INTEGER,
            seed INTEGER,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )""")
    db.execute("CREATE INDEX games_guild ON games (guild_id, status)")
    db.execute("CREATE UNIQUE INDEX games_thread ON games (thread_id)")
    db.execute("""
        CREATE TABLE seats (
            game_id INTEGER NOT NULL REFERENCES games (id),
            seat INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            player_id TEXT,
            PRIMARY KEY (game_id, seat),
            UNIQUE (game_id, user_id)
        )""")
    db.execute("""
        CREATE TABLE actions (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games (id),
            seq INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            payload TEXT NOT NULL,
            created_at TEXT NOT NULL,
            UNIQUE (game_id, seq)
        )""")
    # Undone actions leave the live log (so seq stays 1..n, the engine's order) but are kept.
    db.execute("""
        CREATE TABLE undone_actions (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games (id),
            seq INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            payload TEXT NOT NULL,
            created_at TEXT NOT NULL,
            undone_by INTEGER NOT NULL,
            undone_at TEXT NOT NULL
        )""")
    # One row per state-changing Discord interaction, written in the same transaction as the
    # change, so a resubmitted interaction is recognised and ignored.
    db.execute("""
        CREATE TABLE interactions (
            id INTEGER PRIMARY KEY,
            game_id INTEGER REFERENCES games (id),
            kind TEXT NOT NULL,
            created_at TEXT NOT NULL
        )""")
