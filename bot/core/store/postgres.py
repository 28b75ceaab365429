"""The store on PostgreSQL (`RAILCHAT_DB=postgresql://...`), through psycopg 3.

The store's bodies are short synchronous DB-API code written once for both databases, so this
backend runs them as SQLite's does: on worker threads, each on a synchronous connection lent
by a `psycopg_pool` pool for that one transaction (psycopg's async API would need every body
written twice). Several threads each way: unlike SQLite's one writer per file, PostgreSQL lets
writes to different games run side by side.

A write is one READ COMMITTED transaction that, when it changes a game, first takes that
game's advisory lock (`PgConn.lock`, held until it ends), so writes to one game are serialised
across processes and every statement after the lock sees the last committed change, the
version check included: as SQLite's BEGIN IMMEDIATE, with one lock per game instead of one per
file. A read is one REPEATABLE READ, READ ONLY transaction: one snapshot, never refused.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import psycopg
from psycopg import errors
from psycopg_pool import ConnectionPool

from bot.core.store.connection import Conn, off_loop
from bot.core.store.records import StaleGame, StoreBusy

R = TypeVar("R")

READERS = 3  # threads (and pooled connections) for reads
WRITERS = 2  # and for writes: a write waiting for one game's lock leaves the other free


class PgConn(Conn):
    """A psycopg connection as the store's SQL uses it."""

    def _sql(self, sql: str) -> str:
        return _placeholders(sql)

    def _values(self, params: Sequence[Any]) -> list[Any]:
        """PostgreSQL's text cannot hold NUL, which SQLite's can: it is stored as U+FFFD (a
        JSON column keeps it exactly, escaped as \\u0000; a sentence or a name may have one
        from an imported file's chat message)."""
        return [p.replace("\0", "\ufffd") if isinstance(p, str) else p for p in params]

    def lock(self, key: int) -> None:
        self.raw.execute("SELECT pg_advisory_xact_lock(%s)", [key])

    def lock_in(self, space: int, key: int) -> None:
        # PostgreSQL keeps the two-key locks apart from the one-key (bigint) locks of games
        self.raw.execute(
            "SELECT pg_advisory_xact_lock(CAST(%s AS INTEGER), CAST(%s AS INTEGER))", [space, key]
        )

    def columns(self, table: str) -> set[str]:
        rows = self.all(
            "SELECT column_name AS name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = ?",
            [table],
        )
        return {r["name"] for r in rows}

    def renumber(self, table: str) -> None:
        self.raw.execute(
            f"SELECT setval(pg_get_serial_sequence(%s, 'id'), "
            f"coalesce((SELECT max(id) FROM {table}), 0) + 1, false)",
            [table],
        )


@functools.lru_cache(maxsize=1024)
def _placeholders(sql: str) -> str:
    """`?` as psycopg's `%s` (the store's SQL has no `?` inside a literal; a `%` is doubled)."""
    return sql.replace("%", "%%").replace("?", "%s")


class PostgresBackend:
    """A PostgreSQL database: a pool of connections for reads and one for writes, each with
    its own threads."""

    dialect = "postgresql"

    def __init__(self, url: str, *, busy_timeout: float, durable: bool) -> None:
        psycopg.connect(url, connect_timeout=10).close()  # a wrong URL says why, at once
        settings = {"lock_timeout": f"{int(busy_timeout * 1000)}ms"}
        if not durable:  # a throwaway database: no wait for the disk at each commit
            settings["synchronous_commit"] = "off"
        self._reads = _pool(url, READERS, "railchat-read", settings, read_only=True)
        self._writes = _pool(url, WRITERS, "railchat-write", settings, read_only=False)
        self._read_threads = ThreadPoolExecutor(READERS, thread_name_prefix="railchat-pg-read")
        self._write_threads = ThreadPoolExecutor(WRITERS, thread_name_prefix="railchat-pg-write")

    async def read(self, body: Callable[[Conn], R]) -> R:
        return await off_loop(self._read_threads, _transaction, self._reads, body)

    async def write(self, body: Callable[[Conn], R]) -> R:
        return await off_loop(self._write_threads, self.write_now, body)

    def write_now(self, body: Callable[[Conn], R]) -> R:
        return _transaction(self._writes, body)

    def close(self) -> None:
        self._write_threads.shutdown(wait=True)
        self._read_threads.shutdown(wait=True)
        self._writes.close()
        self._reads.close()


def _pool(
    url: str, size: int, name: str, settings: dict[str, str], *, read_only: bool
) -> ConnectionPool:
    """As many connections as threads use them (so a thread never waits for one), opened as
    they are first needed and closed after ten idle minutes."""

    def configure(conn: psycopg.Connection[Any]) -> None:
        conn.autocommit = True
        for setting, value in settings.items():
            conn.execute("SELECT set_config(%s, %s, false)", [setting, value])
        conn.autocommit = False
        if read_only:
            conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
            conn.read_only = True

    return ConnectionPool(
        url, min_size=1, max_size=size, name=name, configure=configure, open=True, num_workers=1
    )


def _transaction(pool: ConnectionPool, body: Callable[[Conn], R]) -> R:
    """The body in one transaction on a pooled connection, committed if it returns; the
    database's refusals as the store's errors (nothing of the body is then stored)."""
    try:
        with pool.connection() as raw, raw.transaction():
            return body(PgConn(raw))
    except (errors.LockNotAvailable, errors.QueryCanceled) as exc:  # lock_timeout passed
        raise StoreBusy(str(exc)) from exc
    except (psycopg.IntegrityError, errors.SerializationFailure, errors.DeadlockDetected) as exc:
        raise StaleGame(f"conflicting write: {exc}") from exc
