"""benchmarks/crash_test.py stays runnable (a few kills here; 200 for the acceptance run) and its
checks see an acknowledged action lost, changed, or a log with a gap."""

from __future__ import annotations

import asyncio
import importlib.util
import io
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "crash_test.py"


def _script():
    spec = importlib.util.spec_from_file_location("crash_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_few_kills(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--kills",
            "3",
            "--seed",
            "4",
            "--db",
            str(tmp_path / "crash.db"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("3 SIGKILLs in ") and "none lost" in done.stdout


def test_the_checks_see_an_action_lost_or_changed_and_a_gap(tmp_path: Path) -> None:
    crash, db = _script(), tmp_path / "crash.db"
    child = crash.Child(db, 1, 3, io.StringIO())

    async def play() -> int:
        await child.top_up()
        [game] = await child.service.store.games(limit=1)
        for _ in range(6):
            await child.play(game.id)
        return game.id

    game = asyncio.run(play())
    child.service.store.close()
    count, last = crash.log_end(db, game)
    assert count >= 3 and crash.check(db, {game: (count, last)}, None, None) == []
    assert crash.check(db, {game: (count + 1, last)}, None, None) == [
        f"game {game}: {count} actions stored, {count + 1} acknowledged"
    ]
    assert crash.check(db, {game: (count, "0" * 16)}, None, None) == [
        f"game {game}: {count} actions stored, {count} acknowledged (the last one differs)"
    ]
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("DELETE FROM actions WHERE game_id = ? AND seq = 1", [game])
    assert f"game {game}: the log's numbers have gaps or repeats" in crash.check(
        db, {game: (count - 1, last)}, None, {game}
    )
