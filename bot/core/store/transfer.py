"""Every row of one store copied into another, ids kept: how a host moves between SQLite and
PostgreSQL (`railchat db copy`). Both stores are at the newest schema (opening one migrates
it), so the rows fit as they are. A database is only copied from or to if its tables are
exactly those railchat's migrations make: no name it holds is ever written into SQL (a
crafted column name would be run as SQL on the target)."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from bot.core.store import migrations
from bot.core.store.connection import Conn, SqliteBackend
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
    "ratings",
    "game_ratings",
    "game_clocks",
)
# Not copied: what running bot processes hold for a while (a copy is made with them stopped),
# and when users were last pinged about requests (a copy starts without cooldowns).
TRANSIENT = ("leases", "request_pings")

Rows = dict[str, list[dict[str, Any]]]


class TargetNotEmpty(StoreError):
    """The target store already has games (copying over them needs `replace`)."""


class ForeignSchema(StoreError):
    """The database's tables are not those railchat's migrations make (another program's, a
    newer railchat's, or crafted); nothing was read or written."""


@functools.cache
def schema() -> dict[str, frozenset[str]]:
    """The columns of each copied table as this railchat's migrations make them (on a scratch
    database in memory)."""
    scratch = SqliteBackend(":memory:", busy_timeout=1.0, durable=False)
    try:
        migrations.migrate(scratch.write_now, scratch.dialect)
        return scratch.write_now(lambda c: {t: frozenset(c.columns(t)) for t in TABLES})
    finally:
        scratch.close()


def check_schema(conn: Conn) -> None:
    """`ForeignSchema`, with every difference, unless the database records only railchat's
    migrations and its tables have exactly their columns."""
    known = {m.__name__ for m in migrations.MIGRATIONS}
    recorded = {r["name"] for r in conn.all("SELECT name FROM schema_migrations")}
    why = [
        f"it records migration {_shown(name)}, which this railchat does not know"
        for name in sorted(recorded - known)
    ]
    for table, expected in schema().items():
        found = conn.columns(table)
        if not found:
            why.append(f"it has no table {table}")
            continue
        why += [
            f"its table {table} has a column {_shown(name)} that railchat's migrations do not make"
            for name in sorted(found - expected)
        ]
        why += [f"its table {table} has no column {_shown(n)}" for n in sorted(expected - found)]
    if why:
        raise ForeignSchema("; ".join(why))


def read_all(conn: Conn) -> Rows:
    """Every row of every table, in one read (one snapshot of the source), once its schema
    is railchat's (`ForeignSchema`)."""
    check_schema(conn)
    return {
        table: conn.all(f"SELECT {_names(columns)} FROM {_quoted(table)}")
        for table, columns in schema().items()
    }


def counts(conn: Conn) -> dict[str, int]:
    """How many rows each table has."""
    return {table: _count(conn, table) for table in TABLES}


def write_all(conn: Conn, rows: Rows, *, replace: bool) -> None:
    """Replace the target's rows with `rows`, in one write. The target's own rows go first
    (a store that never had a game may have preferences or bot state); `TargetNotEmpty` if
    it has games and `replace` is false; `ForeignSchema` unless its schema is railchat's."""
    check_schema(conn)
    games = _count(conn, "games")
    if games and not replace:
        raise TargetNotEmpty(f"the target already has {games} games")
    for table in reversed(TABLES):
        conn.execute(f"DELETE FROM {table}")
    for table in TABLES:
        if not rows[table]:
            continue
        names = sorted(conn.columns(table))  # the target's own (checked: railchat's)
        conn.execute_many(
            f"INSERT INTO {_quoted(table)} ({_names(names)}) "
            f"VALUES ({', '.join('?' * len(names))})",
            ([row[name] for name in names] for row in rows[table]),
        )
        if "id" in names:
            conn.renumber(table)


def _count(conn: Conn, table: str) -> int:
    row = conn.one(f"SELECT count(*) AS n FROM {table}")
    return int(row["n"]) if row else 0


def _quoted(name: str) -> str:
    """An SQL identifier (the same in SQLite and PostgreSQL)."""
    return '"' + name.replace('"', '""') + '"'


def _names(columns: Iterable[str]) -> str:
    return ", ".join(_quoted(c) for c in sorted(columns))


def _shown(name: str, most: int = 80) -> str:
    """A name from a database, quoted and fit for a terminal (no control characters)."""
    plain = "".join(c if c.isprintable() else "?" for c in name)
    return f"'{plain[:most]}…'" if len(plain) > most else f"'{plain}'"
