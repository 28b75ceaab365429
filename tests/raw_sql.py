"""Tests that damage or inspect a store's database behind its back (a row written by hand, an
older version's value) reach it directly, as another program would: a SQLite file by its path,
a PostgreSQL database by its URL (the SQL written with `?` placeholders either way)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from bot.core.db_url import is_postgres


def execute(path: str | Path, sql: str, params: list[Any] | tuple[Any, ...] = ()) -> None:
    """Run one statement and commit it."""
    if is_postgres(str(path)):
        import psycopg

        with psycopg.connect(str(path), autocommit=True) as conn:
            conn.execute(sql.replace("?", "%s"), list(params))
        return
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute(sql, params)


def scalar(path: str | Path, sql: str, params: list[Any] | tuple[Any, ...] = ()) -> Any:
    """The first column of the first row a query returns."""
    if is_postgres(str(path)):
        import psycopg

        with psycopg.connect(str(path), autocommit=True) as conn:
            row = conn.execute(sql.replace("?", "%s"), list(params)).fetchone()
            assert row is not None, sql
            return row[0]
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute(sql, params).fetchone()[0]
