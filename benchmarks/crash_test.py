"""Crash test: a child process plays 1830 games through the service on one SQLite file and is
SIGKILLed at a random moment of play, again and again. After each kill the database must pass
SQLite's integrity check, every command the child was told was stored (the answer the bot
would post) must be in the log exactly once and in order, and the games it played must load;
every game must load every `--full-every` kills and at the end.

The child prints `try ...` before each command and, after it, `ok KIND GAME COUNT DIGEST` when
it changed the game (COUNT: the log's length after it; DIGEST: of the log's last action) or
`no KIND GAME` when it did not, flushed, so the parent knows what was acknowledged. A command
cut off before its answer may have been stored or not; either is accepted, nothing else is (a
move's action and its interaction id are stored together or not at all). A move cut off is
sent again by the next child with the same interaction id, as Discord redelivers an
interaction or a user retries it: it must be answered "already handled" exactly when the first
attempt was stored, so that no move is applied twice. The child also opens, seats and starts
games (those steps are killed as well).

Children are forked from this process with the engine already imported (Linux), so a kill
costs little more than the play before it.

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
import sqlite3
import sys
import tempfile
import threading
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.core.fuzz.picking import pick_move  # noqa: E402
from bot.core.results import Caller  # noqa: E402
from bot.core.service import GameService  # noqa: E402
from bot.core.store import ACTIVE, OPEN, Store  # noqa: E402

PLAYERS = [Caller(2000 + i, f"P{i + 1}") for i in range(4)]
MAX_DELAY = 2.0  # seconds of play before the kill, at most


def digest(payload: object) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]


def log_end(db: Path, gid: int) -> tuple[int, str]:
    """The length of a game's log and the digest of its last action, read from the file as
    committed (without reading the whole log: long games made that the child's main cost)."""
    with closing(sqlite3.connect(db)) as conn:
        (count,) = conn.execute("SELECT count(*) FROM actions WHERE game_id = ?", [gid]).fetchone()
        row = conn.execute(
            "SELECT payload FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT 1", [gid]
        ).fetchone()
    return count, "-" if row is None else digest(json.loads(row[0]))


@dataclass
class Pending:
    """The command a kill cut off; a move carries what is needed to send it again."""

    kind: str
    game: int
    interaction: int = 0
    user: int = 0
    action: str = ""
    stored: bool | None = None  # known after the kill's check

    def line(self) -> str:
        return " ".join(
            map(str, ("try", self.kind, self.game, self.interaction, self.user, self.action))
        )

    @classmethod
    def parse(cls, words: list[str]) -> Pending:
        return cls(words[1], int(words[2]), int(words[3]), int(words[4]), " ".join(words[5:]))


class Child:
    """Plays until killed, reporting each command on `out` before and after it."""

    def __init__(self, db: Path, games: int, seed: int, out: TextIO) -> None:
        self.rng = random.Random(seed)
        self.games = games
        self.out = out
        self.db = db
        self.service = GameService(Store(db), new_seed=lambda: self.rng.randrange(2**31))

    def say(self, *words: object) -> None:
        self.out.write(" ".join(map(str, words)) + "\n")
        self.out.flush()

    def acked(self, kind: str, gid: int) -> None:
        self.say("ok", kind, gid, *log_end(self.db, gid))

    async def run(self, retry: Pending | None) -> None:
        for record in await self.service.store.games(statuses=(ACTIVE,), limit=self.games):
            await self.service.prompt(record.id)  # load the games: the kill falls in play
        self.say("ready")
        if retry is not None:
            await self.resend(retry)
        while True:
            await self.top_up()
            running = await self.service.store.games(statuses=(ACTIVE,), limit=self.games)
            await self.play(self.rng.choice(running).id)

    async def resend(self, move: Pending) -> None:
        """The cut-off move again, with its interaction id: applied once in all."""
        self.say(move.line())
        caller = next(p for p in PLAYERS if p.user_id == move.user)
        result = await self.service.act(
            move.game, caller, json.loads(move.action), move.interaction
        )
        if result.duplicate:
            self.say("dup act", move.game)
        elif result.ok and result.changed:
            self.acked("act", move.game)
        else:
            self.say("no act", move.game)

    async def top_up(self) -> None:
        """Seat and start the open games, and open new ones, until `games` are running."""
        store = self.service.store
        for record in await store.games(statuses=(OPEN,), limit=10**6):
            seated = {s.user_id for s in await store.seats(record.id)}
            for player in PLAYERS:
                if player.user_id not in seated:
                    self.say(Pending("join", record.id).line())
                    await self.service.join(record.id, player)
                    self.say("ok join", record.id, 0, "-")
            self.say(Pending("start", record.id).line())
            await self.service.start(record.id, PLAYERS[0])
            self.acked("start", record.id)
        if len(await store.games(statuses=(ACTIVE,), limit=self.games)) < self.games:
            self.say(Pending("create", 0).line())
            created = await self.service.create_game(PLAYERS[0], "1830", seats=len(PLAYERS))
            self.say("ok create", created.game_id, 0, "-")
            await self.top_up()

    async def play(self, gid: int) -> None:
        """A move of whoever must act, or now and then their undo."""
        prompt = await self.service.prompt(gid)
        caller = next(p for p in PLAYERS if p.user_id == prompt.notify[0])
        if self.rng.random() < 0.05:
            self.say(Pending("undo", gid).line())
            result = await self.service.undo(gid, caller)
            if result.ok and result.changed and result.vote is None:
                self.acked("undo", gid)
            else:
                self.say("no undo", gid)
            return
        legal = await self.service.legal_actions(gid, caller.user_id)
        move = pick_move(
            self.rng, [c for c in legal if c.action.get("type") != "buy_company"] or legal, 3.0
        )
        sent = Pending(
            "act", gid, self.rng.getrandbits(62), caller.user_id, json.dumps(move.action)
        )
        self.say(sent.line())
        result = await self.service.act(gid, caller, move.action, sent.interaction)
        if result.ok and result.changed:
            self.acked("act", gid)
        else:
            self.say("no act", gid)


@dataclass
class Counts:
    kills: int = 0
    acked: int = 0
    cut: int = 0  # kills that fell between a command's `try` and its answer
    cut_stored: int = 0
    resent_duplicate: int = 0
    resent_applied: int = 0


def check(
    db: Path, expected: dict[int, tuple[int, str]], pending: Pending | None, load: set[int] | None
) -> list[str]:
    """Problems of the database after a kill (empty: none). `expected`: per game, the log
    length and last digest last acknowledged; `pending`: the command cut off, if any (whether
    it was stored is noted in it); `load`: the games to load (None: all)."""
    problems = []
    with closing(sqlite3.connect(db)) as conn:
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
    store = Store(db)
    try:
        if integrity != "ok":
            problems.append(f"integrity check: {integrity}")
        for gid, (count, last) in expected.items():
            log = asyncio.run(store.actions(gid))
            if [a.seq for a in log] != list(range(1, len(log) + 1)):
                problems.append(f"game {gid}: the log's numbers have gaps or repeats")
            same = len(log) == count and (count == 0 or digest(log[count - 1].payload) == last)
            cut = pending is not None and pending.game == gid
            if cut and pending is not None:
                pending.stored = (
                    asyncio.run(store.seen_interaction(pending.interaction))
                    if pending.kind == "act"
                    else not same
                )
                if pending.kind == "act" and len(log) == count + 1 and not pending.stored:
                    problems.append(
                        f"game {gid}: the move cut off is stored without its interaction id"
                    )
            if same or (cut and abs(len(log) - count) == 1):
                continue  # as acknowledged, or the command cut off (or its undo) was stored
            problems.append(
                f"game {gid}: {len(log)} actions stored, {count} acknowledged"
                + (" (the last one differs)" if len(log) == count else "")
            )
        service = GameService(store)
        ids = [r.id for r in asyncio.run(store.games(statuses=None, limit=10**6))]
        for gid in ids if load is None else sorted(load & set(ids)):
            status = asyncio.run(service.status(gid))
            if status.error:
                problems.append(f"game {gid} does not load: {status.error}")
    finally:
        store.close()
    return problems


def spawn(db: Path, games: int, seed: int, retry: Pending | None) -> tuple[int, TextIO]:
    """Fork a child that plays; its pid and the read end of its reports."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        code = 0
        try:
            with os.fdopen(write, "w") as out:
                asyncio.run(Child(db, games, seed, out).run(retry))
        except BaseException:
            import traceback

            traceback.print_exc()
            code = 1
        os._exit(code)
    os.close(write)
    return pid, os.fdopen(read)


def kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run(db: Path, kills: int, games: int, seed: int, full_every: int) -> int:
    rng = random.Random(seed)
    expected: dict[int, tuple[int, str]] = {}
    tally = Counts()
    started = time.monotonic()
    retry: Pending | None = None  # the move the last kill cut off, to send again
    for n in range(1, kills + 1):
        pid, reports = spawn(db, games, rng.randrange(2**31), retry)
        pending: Pending | None = None
        touched: set[int] = set()
        killer = None
        failure = ""
        for line in reports:  # acknowledgements, until the kill ends the output
            words = line.split()
            if words[0] == "ready" and killer is None:
                killer = threading.Timer(rng.uniform(0.0, MAX_DELAY), kill, (pid,))
                killer.start()
                continue
            if words[0] == "try":
                pending = Pending.parse(words)
                touched.add(pending.game)
                continue
            gid = int(words[2])
            if (
                retry is not None
                and pending is not None
                and pending.interaction == retry.interaction
            ):  # the answer to the resent move
                if (words[0] == "dup") != bool(retry.stored):
                    failure = (
                        f"the move resent to game {gid} was "
                        f"{'stored' if retry.stored else 'not stored'} before, and now "
                        f"it is answered {' '.join(words[:2])}"
                    )
                    break
                tally.resent_duplicate += words[0] == "dup"
                tally.resent_applied += words[0] == "ok"
                retry = None
            if words[0] == "ok":
                expected[gid] = (int(words[3]), words[4])
                tally.acked += 1
            touched.add(gid)
            pending = None
        if failure:
            kill(pid)
        reports.close()
        if killer is not None:
            killer.join()
        _, status = os.waitpid(pid, 0)
        if failure:
            print(f"kill {n}: {failure}")
            return 1
        if not (os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL):
            print(f"kill {n}: the child ended by itself (status {status}); see its traceback")
            return 1
        tally.kills += 1
        full = n % full_every == 0 or n == kills
        problems = check(db, expected, pending, None if full else touched)
        if problems:
            print(f"kill {n}: " + "; ".join(problems))
            return 1
        if pending is not None:
            tally.cut += 1
            tally.cut_stored += bool(pending.stored)
            if retry is not None and pending.interaction == retry.interaction:
                pending.stored = pending.stored or retry.stored  # the resend itself was cut
        retry = pending if pending is not None and pending.kind == "act" else retry
        store = Store(db)  # adopt the stored state: a cut-off command may have been stored
        for record in asyncio.run(store.games(statuses=None, limit=10**6)):
            expected[record.id] = log_end(db, record.id)
        store.close()
        if n % 10 == 0:
            print(
                f"kill {n}/{kills}: {tally.acked} acknowledged, {tally.cut} cut off, "
                f"{time.monotonic() - started:.0f} s",
                flush=True,
            )
    store = Store(db)
    records = asyncio.run(store.games(statuses=None, limit=10**6))
    actions = sum(log_end(db, r.id)[0] for r in records)
    finished = sum(r.status not in (OPEN, ACTIVE) for r in records)
    store.close()
    print(
        f"{tally.kills} SIGKILLs in {time.monotonic() - started:.0f} s: {tally.acked} "
        f"acknowledged commands, none lost; {tally.cut} kills cut a command off "
        f"({tally.cut_stored} of them stored); cut-off moves sent again: "
        f"{tally.resent_duplicate} answered 'already handled', {tally.resent_applied} applied "
        f"once; database intact; {len(records)} games ({finished} finished, {actions} "
        f"actions), all load. Database: {db}"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--games", type=int, default=3, help="games played at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--full-every",
        type=int,
        default=20,
        help="load every game after this many kills (else the games played)",
    )
    parser.add_argument("--db", type=Path)
    args = parser.parse_args()
    db = args.db or Path(tempfile.mkdtemp(prefix="railchat-crash-")) / "railchat.db"
    return run(db, args.kills, args.games, args.seed, args.full_every)


if __name__ == "__main__":
    sys.exit(main())
