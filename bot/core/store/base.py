"""The store's shared machinery: opening a database, the transaction that records the
interaction asking for a change, the version check that refuses a change computed from an older
game, and row conversions."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.core.db_url import is_postgres
from bot.core.shards import Shards
from bot.core.store import migrations
from bot.core.store.connection import BUSY_TIMEOUT, Backend, Conn, SqliteBackend, reading
from bot.core.store.records import (
    ActionRecord,
    DuplicateInteraction,
    GameRecord,
    Request,
    StaleGame,
)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class StoreBase:
    def __init__(
        self,
        path: str | Path | None = None,
        *,
        busy_timeout: float = BUSY_TIMEOUT,
        durable: bool = True,
        backend: Backend | None = None,
    ) -> None:
        """The database at `path`, a SQLite file or a `postgresql://` URL (or another
        `backend`), migrated to the newest schema. `durable=False` skips the disk flush of
        each commit (a throwaway database, such as the fuzzer's: what it checks does not
        depend on surviving a power cut)."""
        if backend is None:
            assert path is not None, "a store needs a path or a backend"
            backend = open_backend(str(path), busy_timeout=busy_timeout, durable=durable)
        self.backend = backend
        self.path = str(path) if path is not None else backend.dialect
        try:
            migrations.migrate(backend.write_now, backend.dialect)
        except BaseException:
            backend.close()
            raise

    def close(self) -> None:
        self.backend.close()

    @reading
    def pending_migrations(self, conn: Conn) -> list[str]:
        return migrations.pending(conn)

    @reading
    def schema_version(self, conn: Conn) -> int:
        """How many forward migrations this database has applied."""
        row = conn.one("SELECT count(*) AS n FROM schema_migrations")
        return int(row["n"]) if row else 0

    # -- helpers for the bodies (each runs inside one read or write) ---------------------------
    @staticmethod
    def _change(
        conn: Conn,
        interaction_id: int | None,
        kind: str,
        game_id: int | None,
        version: int | None = None,
    ) -> None:
        """The lock, checks and record every change begins with: the game's write lock (see
        `Conn.lock`), so what follows sees its last committed change; with a `version`, only
        while the game is still at that version; the interaction id that asked for it, once."""
        if game_id is not None:
            conn.lock(game_id)
        if version is not None and game_id is not None:
            stored = StoreBase._version(conn, game_id)
            if stored != version:
                raise StaleGame(f"game {game_id} is at version {stored}, not {version}")
        if interaction_id is not None:
            added = conn.one(
                "INSERT INTO interactions (id, game_id, kind, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (id) DO NOTHING RETURNING id",
                [interaction_id, game_id, kind, now()],
            )
            if added is None:
                raise DuplicateInteraction(interaction_id)

    @staticmethod
    def _served(shards: Shards, column: str = "guild_id") -> tuple[str, list[int]]:
        """SQL keeping the rows of servers those shards serve (Discord's formula), and its
        parameters."""
        slots = ", ".join("CAST(? AS BIGINT)" for _ in shards.ids)
        sql = f"{column} IS NOT NULL AND ({column} >> 22) % CAST(? AS BIGINT) IN ({slots})"
        return sql, [shards.count, *shards.ids]

    @staticmethod
    def _version(conn: Conn, game_id: int) -> int | None:
        row = conn.one("SELECT version FROM games WHERE id = ?", [game_id])
        return row["version"] if row else None

    @staticmethod
    def _link_interaction(conn: Conn, interaction_id: int | None, game_id: int) -> None:
        """A new game's id, on the interaction row written before the game existed."""
        if interaction_id is not None:
            conn.execute(
                "UPDATE interactions SET game_id = ? WHERE id = ?", [game_id, interaction_id]
            )

    @staticmethod
    def _game(conn: Conn, game_id: int) -> GameRecord:
        row = conn.one("SELECT * FROM games WHERE id = ?", [game_id])
        assert row is not None, game_id
        return game_record(row)

    @staticmethod
    def _touch(conn: Conn, game_id: int) -> None:
        conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", [now(), game_id])

    @staticmethod
    def _lapse_requests(conn: Conn, game_id: int) -> None:
        conn.execute(
            "UPDATE requests SET status = 'void' WHERE game_id = ? AND status = 'open'", [game_id]
        )

    @staticmethod
    def _advance(
        conn: Conn, game_id: int, status: str, when: str, acting: Sequence[int] | None
    ) -> list[Request]:
        """The log changed: a new version, a new turn clock, no reminder sent for it yet, the
        seats that must act now (None: not known), and every open request (asked about the
        old position) lapses; those are returned."""
        lapsed = StoreBase._requests(conn, "game_id = ? AND status = 'open'", [game_id])
        StoreBase._lapse_requests(conn, game_id)
        conn.execute(
            "UPDATE games SET status = ?, updated_at = ?, version = version + 1, "
            "moved_version = NULL, turn_since = ?, reminded_at = NULL, acting = ? WHERE id = ?",
            [status, when, when, seats_json(acting), game_id],
        )
        return lapsed

    @staticmethod
    def _advance_quietly(conn: Conn, game_id: int, when: str) -> None:
        """The log changed by a move nobody else is told of (a standing order set): a new
        version, but the game has not moved (`GameRecord.moved_version`), so its turn clock
        runs on and the open requests stand."""
        conn.execute(
            "UPDATE games SET updated_at = ?, moved_version = COALESCE(moved_version, version), "
            "version = version + 1 WHERE id = ?",
            [when, game_id],
        )

    @staticmethod
    def _requests(conn: Conn, where: str, params: list[Any]) -> list[Request]:
        rows = conn.all(f"SELECT * FROM requests WHERE {where} ORDER BY id", params)
        return [
            Request(**{**r, "action": None if r["action"] is None else json.loads(r["action"])})
            for r in rows
        ]


def open_backend(target: str, *, busy_timeout: float, durable: bool) -> Backend:
    """The backend for a SQLite path or a PostgreSQL URL (its driver loads only then)."""
    if is_postgres(target):
        from bot.core.store.postgres import PostgresBackend

        return PostgresBackend(target, busy_timeout=busy_timeout, durable=durable)
    return SqliteBackend(target, busy_timeout=busy_timeout, durable=durable)


CHUNK = 500  # ids per IN list: far below SQLite's and PostgreSQL's parameter limits


def chunks(ids: Sequence[int]) -> Iterator[Sequence[int]]:
    """Ids in lists short enough for one IN (...) each."""
    for start in range(0, len(ids), CHUNK):
        yield ids[start : start + CHUNK]


def marks(ids: Sequence[int]) -> str:
    """The placeholders of an IN list."""
    return ", ".join("?" * len(ids))


def seats_json(seats: Sequence[int] | None) -> str | None:
    """Seat numbers as stored (None: not known)."""
    return None if seats is None else json.dumps(list(seats))


def action_record(row: dict[str, Any]) -> ActionRecord:
    return ActionRecord(
        row["game_id"],
        row["seq"],
        row["user_id"],
        json.loads(row["payload"]),
        row["created_at"],
        row["text"],
        row["computer"],
    )


def insert_action(
    conn: Conn,
    game_id: int,
    action: ActionRecord,
    digest: str | None,
) -> None:
    """Append one action row (at the game's current version; `digest`: see `repeated`)."""
    conn.execute(
        "INSERT INTO actions (game_id, seq, user_id, payload, created_at, text, version, digest, "
        "computer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            game_id,
            action.seq,
            action.user_id,
            json.dumps(action.payload, sort_keys=True),
            action.created_at,
            action.text,
            StoreBase._version(conn, game_id),
            digest,
            action.computer,
        ],
    )


def game_record(row: dict[str, Any]) -> GameRecord:
    return GameRecord(
        **{
            **row,
            "options": json.loads(row["options"]),
            "seed": None if row["seed"] is None else int(row["seed"]),
            "paused": bool(row["paused"]),
            "mentioned": tuple(json.loads(row["mentioned"] or "[]")),
            "acting": None if row["acting"] is None else tuple(json.loads(row["acting"])),
        }
    )
