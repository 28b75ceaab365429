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


@MIGRATIONS()
def m002_play_in_threads(db: Database) -> None:
    """Turn versions (stale buttons), pause/abandon, reminders, DM opt-in and undo votes."""
    # `version` grows with every change of the action log (act, undo, rewind), so a button
    # made for one turn is recognised as stale even when the log is as long again.
    db.execute("ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE games ADD COLUMN paused INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE games ADD COLUMN abandoned_at TEXT")
    # Hours without a move before the thread is reminded; NULL means the bot's default.
    db.execute("ALTER TABLE games ADD COLUMN remind_hours REAL")
    db.execute("ALTER TABLE games ADD COLUMN turn_since TEXT")
    db.execute("ALTER TABLE games ADD COLUMN reminded_at TEXT")
    db.execute("""
        CREATE TABLE notify_prefs (
            user_id INTEGER PRIMARY KEY,
            dm INTEGER NOT NULL
        )""")
    # A request to take the log back to `keep` actions, made at game `version`; it applies
    # once every affected player approved, and is void once the game changed.
    db.execute("""
        CREATE TABLE undo_requests (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games (id),
            keep INTEGER NOT NULL,
            version INTEGER NOT NULL,
            requested_by INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('open', 'done', 'rejected', 'void')),
            created_at TEXT NOT NULL
        )""")
    db.execute("""
        CREATE TABLE undo_votes (
            request_id INTEGER NOT NULL REFERENCES undo_requests (id),
            user_id INTEGER NOT NULL,
            approve INTEGER NOT NULL,
            PRIMARY KEY (request_id, user_id)
        )""")


@MIGRATIONS()
def m003_action_sentences(db: Database) -> None:
    """The sentence the engine wrote for each action when it was accepted: a title may tell
    what an action set off from the position right after it, which later positions cannot."""
    db.execute("ALTER TABLE actions ADD COLUMN text TEXT")
    db.execute("ALTER TABLE undone_actions ADD COLUMN text TEXT")


@MIGRATIONS()
def m004_requests(db: Database) -> None:
    """Undo votes and deal proposals share one table of requests awaiting other players'
    answers: a deal (a move that takes another player's private or train at a negotiated
    price) waits for that player's agreement, stored so that it survives a restart."""
    db.execute("""
        CREATE TABLE requests (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games (id),
            kind TEXT NOT NULL CHECK (kind IN ('undo', 'deal')),
            version INTEGER NOT NULL,
            requested_by INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('open', 'done', 'rejected', 'void')),
            created_at TEXT NOT NULL,
            keep INTEGER,
            action TEXT,
            text TEXT
        )""")
    db.execute("CREATE INDEX requests_open ON requests (game_id, status)")
    db.execute("""
        CREATE TABLE request_votes (
            request_id INTEGER NOT NULL REFERENCES requests (id),
            user_id INTEGER NOT NULL,
            approve INTEGER NOT NULL,
            PRIMARY KEY (request_id, user_id)
        )""")
    db.execute(
        "INSERT INTO requests (id, game_id, kind, version, requested_by, status, "
        "created_at, keep) SELECT id, game_id, 'undo', version, requested_by, status, "
        "created_at, keep FROM undo_requests"
    )
    db.execute("INSERT INTO request_votes SELECT request_id, user_id, approve FROM undo_votes")
    db.execute("DROP TABLE undo_votes")
    db.execute("DROP TABLE undo_requests")


@MIGRATIONS()
def m005_mentions(db: Database) -> None:
    """Who was last @mentioned as having to act (a JSON list of user ids), so a restart does
    not mention them again for the same turn."""
    db.execute("ALTER TABLE games ADD COLUMN mentioned TEXT")


@MIGRATIONS()
def m006_action_versions(db: Database) -> None:
    """Each action's game version when it was applied and a digest of the move as sent, so the
    same move sent twice against one version is recognised and applied once."""
    db.execute("ALTER TABLE actions ADD COLUMN version INTEGER")
    db.execute("ALTER TABLE actions ADD COLUMN digest TEXT")
    db.execute("CREATE INDEX actions_digest ON actions (game_id, user_id, digest)")


@MIGRATIONS()
def m007_turn_posts(db: Database) -> None:
    """The thread post of each game's turn under way (its message id and what the poster
    knows of it: moves shown, places, runs, digests of the images attached and last drawn),
    so that a restarted bot keeps editing the same post instead of starting a new one."""
    db.execute("""
        CREATE TABLE turn_posts (
            game_id INTEGER PRIMARY KEY REFERENCES games (id),
            message_id INTEGER NOT NULL,
            state TEXT NOT NULL
        )""")


@MIGRATIONS()
def m008_redo(db: Database) -> None:
    """Each undone action keeps the game version its undo left the game at: while the game
    is still at that version (nobody acted, undid or redid since), a redo puts it back."""
    db.execute("ALTER TABLE undone_actions ADD COLUMN redo_version INTEGER")


@MIGRATIONS()
def m009_previews(db: Database) -> None:
    """Moves shown to a player and awaiting their Confirm (a previewed String Railway rail):
    what Confirm makes, stored so that a bot restart between the preview and the button press
    loses nothing. `version` is the game's version when it was shown."""
    db.execute("""
        CREATE TABLE previews (
            token TEXT PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games (id),
            version INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            action TEXT NOT NULL,
            created_at TEXT NOT NULL
        )""")
