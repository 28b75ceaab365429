"""Store tests run on both databases: `store_url` is a fresh SQLite file, or a fresh schema of
the PostgreSQL database named by RAILCHAT_TEST_POSTGRES (one database for the whole run, one
schema per test, dropped after it); `make_store` opens stores on it and closes them after the
test. Without that variable the PostgreSQL half is skipped, except under CI, which always sets
it (`.ci/run` starts a throwaway server)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

import pytest

from bot.core.store import Store

POSTGRES_ENV = "RAILCHAT_TEST_POSTGRES"
BACKENDS = ["sqlite", "postgresql"]


def postgres_server() -> str:
    """The test server's URL; skips the test when none is configured (fails it under CI)."""
    url = os.environ.get(POSTGRES_ENV, "").strip()
    if not url:
        why = f"no PostgreSQL server to test on: set {POSTGRES_ENV} to a postgresql:// URL"
        if os.environ.get("CI"):
            pytest.fail(f"{why} (CI must test both backends; .ci/run sets it)")
        pytest.skip(f"{why} (.ci/run starts one)")
    return url


def in_schema(url: str, schema: str) -> str:
    """The URL with `schema` first on the search path of its connections."""
    parts = urlsplit(url)
    options = urlencode({"options": f"-csearch_path={schema}"})
    return urlunsplit(parts._replace(query=f"{parts.query}&{options}".lstrip("&")))


def _admin(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql)


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """A new, empty database of each kind."""
    if request.param == "sqlite":
        yield str(tmp_path / "railchat.db")
        return
    yield from _fresh_schema(postgres_server())


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A new, empty PostgreSQL database (a test of what only PostgreSQL does)."""
    yield from _fresh_schema(postgres_server())


def _fresh_schema(server: str) -> Iterator[str]:
    schema = f"test_{uuid.uuid4().hex[:16]}"
    _admin(server, f"CREATE SCHEMA {schema}")
    try:
        yield in_schema(server, schema)
    finally:
        _admin(server, f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def make_store(store_url: str) -> Iterator[Callable[..., Store]]:
    """Opens stores on `store_url` (each call another connection, as another process would
    have); all are closed after the test."""
    opened: list[Store] = []

    def make(**kwargs: Any) -> Store:
        store = Store(store_url, **kwargs)
        opened.append(store)
        return store

    yield make
    for store in opened:
        store.close()
