"""Crash test: a child process plays 1830 games through the service on one SQLite file and is
SIGKILLed at random moments, again and again. After each kill the database must pass SQLite's
integrity check, every move the child was told was stored (the answer the bot would post) must
be in the log exactly once and in order, and every game must load.

The child prints `try KIND GAME` before each command and `ok KIND GAME COUNT DIGEST` after a
stored one (COUNT: the log's length after it; DIGEST: of the log's last action), flushed, so
the parent knows what was acknowledged. A command cut off between `try` and `ok` may have been
stored or not; either is accepted, nothing else is.

Run: python benchmarks/crash_test.py [--kills 200] [--games 3] [--seed 1] [--db FILE]
"""
from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.core.fuzz.player import pick_move  # noqa: E402
from bot.core.results import Caller  # noqa: E402
from bot.core.service import GameService  # noqa: E402
from bot.core.store import ACTIVE, Store  # noqa: E402

PLAYERS = [Caller(2000 + i, f"P{i + 1}") for i in range(4)]


def digest(payload: object) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]


def say(*words: object) -> None:
    sys.stdout.write(" ".join(map(str, words)) + "\n")
    sys.stdout.flush()


async def child(db: Path, games: int, seed: int) -> None:
    """Play forever (until killed): moves, and now and then an undo of one's own move."""
    rng = random.Random(seed)
    service = GameService(Store(db), new_seed=lambda: rng.randrange(2**31))
    while len(service.store.games(statuses=(ACTIVE,), limit=games)) < games:
        say("try create 0")
        created = await service.create_game(PLAYERS[0], "1830", seats=len(PLAYERS))
        for p in PLAYERS[1:]:
            await service.join(created.game_id, p)
        await service.start(created.game_id, PLAYERS[0])
        say("ok create", created.game_id, 0, "-")
    say("ready")
    while True:
        running = service.store.games(statuses=(ACTIVE,), limit=games)
        if not running:
            return
        gid = rng.choice(running).id
        prompt = await service.prompt(gid, choices=True)
        user = prompt.notify[0] if prompt.notify else None
        caller = next(p for p in PLAYERS if p.user_id == user)
        if rng.random() < 0.05:
            say("try undo", gid)
            result = await service.undo(gid, caller)
            kind = "undo"
        else:
            legal = await service.legal_actions(gid, caller.user_id)
            move = pick_move(rng, [c for c in legal if c.action.get("type") != "buy_company"]
                             or legal, 3.0)
            say("try act", gid)
            result = await service.act(gid, caller, move.action, rng.getrandbits(62))
            kind = "act"
        if result.ok and result.changed and result.vote is None:
            log = service.store.actions(gid)
            say("ok", kind, gid, len(log), digest(log[-1].payload) if log else "-")


def check(db: Path, expected: dict[int, tuple[int, str]], pending: tuple[str, int] | None
          ) -> list[str]:
    """Problems of the database after a kill (empty: none). `expected`: per game, the log
    length and last digest last acknowledged; `pending`: the command cut off, if any."""
    problems = []
    store = Store(db)
    try:
        integrity = store.db.execute("PRAGMA integrity_check").fetchone()[0]
        if integrity != "ok":
            problems.append(f"integrity check: {integrity}")
        for gid, (count, last) in expected.items():
            log = store.actions(gid)
            if [a.seq for a in log] != list(range(1, len(log) + 1)):
                problems.append(f"game {gid}: the log's numbers have gaps or repeats")
            cut = pending is not None and pending[1] == gid
            if len(log) == count and (count == 0 or digest(log[count - 1].payload) == last):
                continue
            if cut and abs(len(log) - count) == 1:
                continue  # the command that was cut off was stored (or its undo was)
            problems.append(f"game {gid}: {len(log)} actions stored, {count} acknowledged")
        service = GameService(store)
        for record in store.games(statuses=None, limit=10**6):
            status = asyncio.run(service.status(record.id))
            if status.error:
                problems.append(f"game {record.id} does not load: {status.error}")
    finally:
        store.close()
    return problems


def run(db: Path, kills: int, games: int, seed: int) -> int:
    rng = random.Random(seed)
    expected: dict[int, tuple[int, str]] = {}
    acked = 0
    started = time.monotonic()
    for n in range(kills):
        proc = subprocess.Popen([sys.executable, __file__, "--child", "--db", str(db),
                                 "--games", str(games), "--seed", str(rng.randrange(2**31))],
                                stdout=subprocess.PIPE, text=True, cwd=ROOT)
        assert proc.stdout is not None
        pending: tuple[str, int] | None = None
        killer = None
        for line in proc.stdout:  # acknowledgements, until the kill ends the output
            words = line.split()
            if words[0] == "ready" and killer is None:  # kill at any moment of play
                killer = threading.Timer(rng.uniform(0.0, 3.0), os.kill,
                                         (proc.pid, signal.SIGKILL))
                killer.start()
            elif words[0] == "try":
                pending = (words[1], int(words[2]))
            elif words[0] == "ok":
                expected[int(words[2])] = (int(words[3]), words[4])
                pending, acked = None, acked + 1
        if killer is None:
            proc.kill()
            print(f"kill {n + 1}: the child ended before play started")
            return 1
        killer.join()
        proc.wait()
        problems = check(db, expected, pending)
        if problems:
            print(f"kill {n + 1}: " + "; ".join(problems))
            return 1
        store = Store(db)  # adopt the stored state: a cut-off command may have been stored
        for gid in expected:
            log = store.actions(gid)
            expected[gid] = (len(log), digest(log[-1].payload) if log else "-")
        store.close()
    print(f"{kills} SIGKILLs, {acked} acknowledged commands, {len(expected)} games: no "
          f"acknowledged action lost, database intact, every game loads "
          f"({time.monotonic() - started:.0f} s; database {db})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", type=Path)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    db = args.db or Path(tempfile.mkdtemp(prefix="railchat-crash-")) / "railchat.db"
    if args.child:
        asyncio.run(child(db, args.games, args.seed))
        return 0
    return run(db, args.kills, args.games, args.seed)


if __name__ == "__main__":
    sys.exit(main())
