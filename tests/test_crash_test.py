"""benchmarks/crash_test.py stays runnable (a few kills here; 200 for the acceptance run) and its
checks see an acknowledged action lost, changed, or a log with a gap."""

from __future__ import annotations

import asyncio
import importlib.util
import io
import subprocess
import sys
from pathlib import Path

from bot.core.store import Store

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
        [game] = child.service.store.games(limit=1)
        for _ in range(6):
            await child.play(game.id)
        return game.id

    game = asyncio.run(play())
    store = child.service.store
    count, last = crash.log_end(store, game)
    store.close()
    assert count >= 3 and crash.check(db, {game: (count, last)}, None, None) == []
    assert crash.check(db, {game: (count + 1, last)}, None, None) == [
        f"game {game}: {count} actions stored, {count + 1} acknowledged"
    ]
    assert crash.check(db, {game: (count, "0" * 16)}, None, None) == [
        f"game {game}: {count} actions stored, {count} acknowledged (the last one differs)"
    ]
    store = Store(db)
    with store.db:
        store.db.execute("DELETE FROM actions WHERE game_id = ? AND seq = 1", [game])
    store.close()
    assert f"game {game}: the log's numbers have gaps or repeats" in crash.check(
        db, {game: (count - 1, last)}, None, {game}
    )
