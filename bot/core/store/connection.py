"""How the store reaches its database without blocking the event loop.

Every store method is a short synchronous body run on a worker thread: a write in one
transaction begun IMMEDIATE on the writer connection (so it waits for another process's write
lock there, never on the loop, and is never refused half-way), a read in one read transaction
(one snapshot, however many statements) on a reader connection that WAL lets run beside a
write. One thread per connection keeps each connection on one thread at a time. SQL is written
once, with `?` placeholders and rows as dicts (`Conn`); PostgreSQL has its own `Backend` and
`Conn` (`postgres`).
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections.abc import Callable, Coroutine, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from sqlite_utils import Database

from bot.core.store.records import StaleGame, StoreBusy

P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S", bound="HasBackend")

BUSY_TIMEOUT = 15.0  # seconds a write waits for another connection's write to finish


class Conn:
    """One DB-API connection as the store's SQL uses it (SQLite's; `postgres.PgConn` is
    PostgreSQL's)."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw

    def _sql(self, sql: str) -> str:
        """The statement in the driver's placeholder style."""
        return sql

    def _values(self, params: Sequence[Any]) -> list[Any]:
        """The parameters as the driver stores them."""
        return list(params)

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        cursor = self.raw.execute(self._sql(sql), self._values(params))
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    def one(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any] | None:
        return next(iter(self.all(sql, params)), None)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; the number of rows it changed."""
        return int(self.raw.execute(self._sql(sql), self._values(params)).rowcount)

    def insert(self, sql: str, params: Sequence[Any]) -> int:
        """Run an INSERT ... RETURNING id; the new row's id."""
        row = self.one(sql, params)
        assert row is not None, sql
        return int(row["id"])

    def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each row of parameters (a bulk copy)."""
        self.raw.cursor().executemany(self._sql(sql), (self._values(r) for r in rows))

    def lock(self, key: int) -> None:
        """Serialise this write transaction with every other one that takes the same key, in
        any process, until it ends (a game's id; `migrations.LOCK` for the schema). SQLite
        has nothing to do: its BEGIN IMMEDIATE already serialises every write to the file."""

    def lock_in(self, space: int, key: int) -> None:
        """As `lock`, for a 32-bit `key` in one of the lock `space`s (`caps`), which never
        meet a game's key or another space's."""

    def renumber(self, table: str) -> None:
        """After rows were inserted with their own ids: the next auto-numbered id of `table`
        follows the largest stored one. SQLite numbers from the largest id by itself."""

    def columns(self, table: str) -> set[str]:
        """The names of the table's columns (none: there is no such table)."""
        return {r["name"] for r in self.all("SELECT name FROM pragma_table_info(?)", [table])}


class Backend(Protocol):
    """Runs store bodies against one database, off the event loop."""

    dialect: str

    async def read(self, body: Callable[[Conn], R]) -> R: ...

    async def write(self, body: Callable[[Conn], R]) -> R: ...

    def write_now(self, body: Callable[[Conn], R]) -> R:
        """A write from the calling thread (opening the store, before any loop uses it)."""
        ...

    def close(self) -> None: ...


class SqliteBackend:
    """A SQLite file in WAL mode: a writer and a reader connection, each on its own thread (one
    connection and one thread for `:memory:`, where a second connection would be another
    database)."""

    dialect = "sqlite"

    def __init__(self, path: str, *, busy_timeout: float, durable: bool) -> None:
        self.path = path
        memory = path == ":memory:"
        self._writer = Conn(_connect(path, busy_timeout, durable))
        self._reader = self._writer if memory else Conn(_connect(path, busy_timeout, durable))
        self._write_thread = ThreadPoolExecutor(1, thread_name_prefix="railchat-store-write")
        self._read_thread = (
            self._write_thread
            if memory
            else ThreadPoolExecutor(1, thread_name_prefix="railchat-store-read")
        )

    async def read(self, body: Callable[[Conn], R]) -> R:
        return await off_loop(self._read_thread, _transaction, "BEGIN", body, self._reader)

    async def write(self, body: Callable[[Conn], R]) -> R:
        return await off_loop(self._write_thread, self.write_now, body)

    def write_now(self, body: Callable[[Conn], R]) -> R:
        return _transaction("BEGIN IMMEDIATE", body, self._writer)

    def close(self) -> None:
        self._write_thread.shutdown(wait=True)
        self._read_thread.shutdown(wait=True)
        self._writer.raw.close()
        if self._reader is not self._writer:
            self._reader.raw.close()


class HasBackend(Protocol):
    backend: Backend


def _connect(path: str, busy_timeout: float, durable: bool) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are begun explicitly) that any one thread
    at a time may use."""
    raw = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None, check_same_thread=False)
    raw.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
    if path != ":memory:":
        Database(raw).enable_wal()
    if not durable:  # a throwaway database (the fuzzer's): no flush per commit
        raw.execute("PRAGMA synchronous = OFF")
    raw.execute("PRAGMA foreign_keys = ON")
    return raw


def _transaction(begin: str, body: Callable[[Conn], R], conn: Conn) -> R:
    """The body in one transaction, committed if it returns, rolled back if it raises."""
    _mapped_errors(lambda c: c.raw.execute(begin), conn)
    try:
        out = _mapped_errors(body, conn)
    except BaseException:
        conn.raw.execute("ROLLBACK")
        raise
    conn.raw.execute("COMMIT")
    return out


def _mapped_errors(body: Callable[[Conn], R], conn: Conn) -> R:
    """The body's result; SQLite's lock timeout and constraint failures as the store's errors."""
    try:
        return body(conn)
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise StoreBusy(str(exc)) from exc
        raise
    except sqlite3.IntegrityError as exc:  # another process wrote the same row first
        raise StaleGame(f"conflicting write: {exc}") from exc


async def off_loop(pool: ThreadPoolExecutor, fn: Callable[..., R], *args: Any) -> R:
    return await asyncio.get_running_loop().run_in_executor(pool, functools.partial(fn, *args))


def reading(
    body: Callable[Concatenate[S, Conn, P], R],
) -> Callable[Concatenate[S, P], Coroutine[Any, Any, R]]:
    """A store method that only reads, run on the reader connection's thread."""

    @functools.wraps(body)
    async def run(self: S, *args: P.args, **kwargs: P.kwargs) -> R:
        return await self.backend.read(lambda conn: body(self, conn, *args, **kwargs))

    return run


def writing(
    body: Callable[Concatenate[S, Conn, P], R],
) -> Callable[Concatenate[S, P], Coroutine[Any, Any, R]]:
    """A store method that changes the database: one write transaction on the writer's thread."""

    @functools.wraps(body)
    async def run(self: S, *args: P.args, **kwargs: P.kwargs) -> R:
        return await self.backend.write(lambda conn: body(self, conn, *args, **kwargs))

    return run
