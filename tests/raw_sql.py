"""Tests that damage or inspect a store's SQLite file behind its back (a row written by hand, an
older version's value) reach the file directly, as another program would."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any


def execute(path: str | Path, sql: str, params: list[Any] | tuple[Any, ...] = ()) -> None:
    """Run one statement and commit it."""
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute(sql, params)


def scalar(path: str | Path, sql: str, params: list[Any] | tuple[Any, ...] = ()) -> Any:
    """The first column of the first row a query returns."""
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute(sql, params).fetchone()[0]
