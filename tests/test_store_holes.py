"""Holes an attacker found in the store (issue 34): `railchat db copy` runs no SQL a source
database brings along, and the caps on games not yet over hold when many games are opened at
once, in one process or in several; on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from bot.cli import main
from bot.core.results import Caller
from bot.core.service import GameService
from bot.core.store import Store
from bot.core.store.migrations import MIGRATIONS
from engine.eighteen import io
from tests.raw_sql import execute, scalar
from tests.reference_games import game_path

GUILD = 7
ANN = Caller(10, "Ann", guild_id=GUILD)
# A column name that, pasted into an INSERT, turns it into one that stores another row:
# INSERT INTO bot_state (key, value) SELECT 'injected', ... WHERE ? IS NOT ? --) VALUES (?, ?)
INJECTED = "value) SELECT 'injected', 'by the source' WHERE ? IS NOT ? --"
USER_CAP = "you have opened 3 games that are not over yet (at most 3); finish or abandon one first"
SERVER_CAP = (
    "this server has 3 games that are not over yet (at most 3); an admin can abandon old "
    "ones with /game-admin abandon"
)


# -- railchat db copy -------------------------------------------------------------------------
def crafted(path: Path, *statements: str) -> str:
    """A railchat database changed behind the store's back by `statements`."""
    Store(path).close()
    with closing(sqlite3.connect(path)) as conn, conn:
        for sql in statements:
            conn.execute(sql)
    return str(path)


def copy(source: str, target: str, capsys: Any) -> tuple[int, str]:
    status = main(["db", "copy", source, target])
    return status, capsys.readouterr().out


def a_target(url: str) -> str:
    """A railchat database holding one row of its own."""
    Store(url).close()
    execute(url, "INSERT INTO bot_state VALUES ('kept', 'yes')")
    return url


def kept_alone(url: str) -> bool:
    """Whether the target still holds its own row and nothing else."""
    return scalar(url, "SELECT count(*) FROM bot_state") == 1 and (
        scalar(url, "SELECT value FROM bot_state WHERE key = 'kept'") == "yes"
    )


def test_a_column_name_from_the_source_is_never_run_as_sql(tmp_path, store_url, capsys):
    source = crafted(
        tmp_path / "crafted.db",
        f'ALTER TABLE bot_state RENAME COLUMN value TO "{INJECTED}"',
        "INSERT INTO bot_state VALUES ('commands', 'digest')",
    )
    status, out = copy(source, a_target(store_url), capsys)
    assert status == 1
    assert (
        f"railchat: {source} is not a railchat database: its table bot_state has a column "
        "'value) SELECT 'injected', 'by the source' WHERE ? IS NOT ? --' that railchat's "
    ) in out
    assert "has no column 'value'; nothing was copied" in out
    assert kept_alone(store_url)  # neither the source's row nor the one its column injects


def test_a_source_with_migrations_railchat_does_not_know_is_refused(tmp_path, store_url, capsys):
    source = crafted(
        tmp_path / "newer.db",
        "INSERT INTO schema_migrations VALUES ('m999_from_elsewhere', '2030-01-01')",
        "INSERT INTO bot_state VALUES ('commands', 'digest')",
    )
    status, out = copy(source, a_target(store_url), capsys)
    assert status == 1
    assert "records migration 'm999_from_elsewhere', which this railchat does not know" in out
    assert kept_alone(store_url)


def test_a_source_missing_a_table_is_refused_before_the_target_is_made(tmp_path, capsys):
    source = crafted(tmp_path / "thin.db", "DROP TABLE bot_state")
    target = tmp_path / "new.db"
    status, out = copy(source, str(target), capsys)
    assert status == 1 and "has no table bot_state" in out
    assert not target.exists()


def test_a_source_that_does_not_open_as_a_railchat_database_is_refused(tmp_path, capsys):
    """Not SQLite at all, or a table of railchat's made by another program (a migration
    fails on it): a sentence, not a traceback, and no target."""
    not_sqlite = tmp_path / "notes.txt"
    not_sqlite.write_text("hello")
    foreign = tmp_path / "foreign.db"
    with closing(sqlite3.connect(foreign)) as conn:
        conn.execute("CREATE TABLE games (id INTEGER)")
    target = tmp_path / "new.db"
    for source, why in ((not_sqlite, "file is not a database"), (foreign, "already exists")):
        status, out = copy(str(source), str(target), capsys)
        assert status == 1
        assert f"railchat: {source} is not a railchat database: it does not open (" in out
        assert why in out and out.endswith("; nothing was copied\n")
        assert not target.exists()


def test_an_honest_source_still_copies(tmp_path, capsys):
    """An honest source at the newest schema copies (its migrations are all railchat's)."""
    source = crafted(tmp_path / "honest.db", "INSERT INTO bot_state VALUES ('k', 'v')")
    status, out = copy(source, str(tmp_path / "copy.db"), capsys)
    assert status == 0, out
    assert scalar(tmp_path / "copy.db", "SELECT count(*) FROM schema_migrations") == len(MIGRATIONS)
    assert scalar(tmp_path / "copy.db", "SELECT value FROM bot_state WHERE key = 'k'") == "v"


# -- caps on games not yet over ---------------------------------------------------------------
def outcome(results: list[Any]) -> tuple[int, set[str]]:
    """How many games were made, and the refusals the others got."""
    return sum(r.ok for r in results), {r.error for r in results if not r.ok}


async def test_concurrent_new_games_stop_at_the_users_cap(make_store):
    service = GameService(make_store(), game_caps=(50, 3))
    results = await asyncio.gather(
        *(service.create_game(ANN, "tally", seats=2, guild_id=GUILD) for _ in range(8))
    )
    assert outcome(results) == (3, {USER_CAP})
    assert await service.store.open_game_counts(GUILD, ANN.user_id) == (3, 3)


async def test_concurrent_new_games_stop_at_the_servers_cap(make_store):
    service = GameService(make_store(), game_caps=(3, 10))
    results = await asyncio.gather(
        *(
            service.create_game(
                Caller(100 + n, f"P{n}", guild_id=GUILD), "tally", seats=2, guild_id=GUILD
            )
            for n in range(8)
        )
    )
    assert outcome(results) == (3, {SERVER_CAP})
    assert (await service.store.open_game_counts(GUILD, 100))[0] == 3


async def test_two_processes_opening_games_together_stop_at_the_cap(make_store):
    """Two bot processes (a store each, so a connection each) take the same caps."""
    first, second = (GameService(make_store(), game_caps=(50, 3)) for _ in range(2))
    results = await asyncio.gather(
        *(
            service.create_game(ANN, "tally", seats=2, guild_id=GUILD)
            for _ in range(5)
            for service in (first, second)
        )
    )
    assert outcome(results) == (3, {USER_CAP})
    assert await first.store.open_game_counts(GUILD, ANN.user_id) == (3, 3)


async def test_concurrent_imports_stop_at_the_users_cap(make_store):
    data = io.read_file(game_path("1830", "26855"))
    data = {**data, "actions": data["actions"][:5]}
    first, second = (GameService(make_store(), game_caps=(50, 3)) for _ in range(2))
    results = await asyncio.gather(
        *(
            service.import_game(ANN, data, [ANN.user_id], guild_id=GUILD)
            for _ in range(4)
            for service in (first, second)
        )
    )
    assert outcome(results) == (3, {USER_CAP})
    assert await first.store.open_game_counts(GUILD, ANN.user_id) == (3, 3)


async def test_games_under_the_cap_still_open_in_different_servers(make_store):
    """The caps count per server and per user: another server's games do not count."""
    service = GameService(make_store(), game_caps=(2, 10))
    ann = {guild: Caller(ANN.user_id, "Ann", guild_id=guild) for guild in (1, 2)}
    for guild in (1, 1, 2, 2):
        assert (await service.create_game(ann[guild], "tally", seats=2, guild_id=guild)).ok
    refused = await service.create_game(ann[1], "tally", seats=2, guild_id=1)
    assert refused.error and refused.error.startswith("this server has 2 games")
    execute(service.store.path, "UPDATE games SET status = 'finished' WHERE id = 1")
    assert (await service.create_game(ann[1], "tally", seats=2, guild_id=1)).ok
