"""Every row of one store copied into another, ids kept: how a host moves between SQLite and
PostgreSQL (`railchat db copy`). Both stores are at the newest schema (opening one migrates
it), so the rows fit as they are."""

from __future__ import annotations

from typing import Any

from bot.core.store.connection import Conn
from bot.core.store.records import StoreError

# Every table a migration made, parents before the tables that refer to them (schema_migrations
# is not copied: the target has its own record of the same migrations).
TABLES = (
    "games",
    "seats",
    "actions",
    "undone_actions",
    "interactions",
    "requests",
    "request_votes",
    "previews",
    "invitations",
    "notes",
    "turn_posts",
    "lobby_posts",
    "post_failures",
    "user_settings",
    "game_dms",
    "pending_dms",
    "bot_state",
)
# Not copied: what running bot processes hold for a while (a copy is made with them stopped),
# and when users were last pinged about requests (a copy starts without cooldowns).
TRANSIENT = ("leases", "request_pings")

Rows = dict[str, list[dict[str, Any]]]


class TargetNotEmpty(StoreError):
    """The target store already has games (copying over them needs `replace`)."""


def read_all(conn: Conn) -> Rows:
    """Every row of every table, in one read (one snapshot of the source)."""
    return {table: conn.all(f"SELECT * FROM {table}") for table in TABLES}


def counts(conn: Conn) -> dict[str, int]:
    """How many rows each table has."""
    return {table: _count(conn, table) for table in TABLES}


def write_all(conn: Conn, rows: Rows, *, replace: bool) -> None:
    """Replace the target's rows with `rows`, in one write. The target's own rows go first
    (a store that never had a game may have preferences or bot state); `TargetNotEmpty` if
    it has games and `replace` is false."""
    games = _count(conn, "games")
    if games and not replace:
        raise TargetNotEmpty(f"the target already has {games} games")
    for table in reversed(TABLES):
        conn.execute(f"DELETE FROM {table}")
    for table in TABLES:
        if not rows[table]:
            continue
        names = list(rows[table][0])
        conn.execute_many(
            f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
            ([row[name] for name in names] for row in rows[table]),
        )
        if "id" in names:
            conn.renumber(table)


def _count(conn: Conn, table: str) -> int:
    row = conn.one(f"SELECT count(*) AS n FROM {table}")
    return int(row["n"]) if row else 0
