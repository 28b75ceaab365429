"""Random play by many asyncio tasks on one Tally game, for the two-process concurrency test
and its longer benchmark run (`benchmarks/bench_concurrency.py`).

Each task plays as a random seat: mostly moves, sometimes its own undo, an admin's rewind, a
read, or the same interaction sent twice. Every answer is sorted into a tally; an answer a
user should never see (an exception, "Something went wrong", a raw database error) is kept
whole in `bad`.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bot.core.results import Caller, Result
from bot.core.service import GameService
from bot.core.store import Store

SEATS = (Caller(10, "Ann"), Caller(11, "Bob"), Caller(12, "Cy"))
EXPECTED_REFUSALS = (
    "changed while your command was handled",
    "database is busy",
    "only the player who made the last action",
    "has no action to undo",
    "asks to take back",
    "rewind to a number",
    "has no action to take back",
    "is already waiting for",
)
NEVER = ("Something went wrong", "Traceback", "database is locked", "UNIQUE", "IntegrityError")


@dataclass
class Tally:
    applied: int = 0  # moves stored (each is one row of the log or of the undone log)
    outcomes: Counter = field(default_factory=Counter)
    bad: list[str] = field(default_factory=list)

    def note(self, kind: str, result: Result | None, error: BaseException | None = None) -> None:
        if error is not None:
            where = traceback.extract_tb(error.__traceback__)[-1]
            self.bad.append(
                f"{kind}: {type(error).__name__}: {error} at {where.filename}:{where.lineno}"
            )
            return
        assert result is not None
        text = result.error or result.text
        if any(word in text for word in NEVER):
            self.bad.append(f"{kind}: {text}")
        if result.duplicate:
            self.outcomes[f"{kind} duplicate"] += 1
        elif result.error is None:
            self.outcomes[f"{kind} ok"] += 1
            if kind == "act" and result.changed:
                self.applied += 1
        else:
            known = next((word for word in EXPECTED_REFUSALS if word in result.error), None)
            self.outcomes[
                f"{kind} refused ({known})" if known else f"{kind} refused: {result.error}"
            ] += 1


async def setup_game(db_path: str | Path) -> int:
    """A started, free-for-all Tally game for the three seats; returns its id."""
    service = GameService(Store(db_path), new_seed=lambda: 1)
    created = await service.create_game(
        SEATS[0], "tally", seats=3, options={"free_for_all": True, "target": 10**9}
    )
    for caller in SEATS[1:]:
        await service.join(created.game_id, caller)
    await service.start(created.game_id, SEATS[0])
    service.store.close()
    return created.game_id


async def play(
    db_path: str | Path, game_id: int, *, seconds: float, tasks: int, seed: int
) -> Tally:
    """Random play for `seconds` by `tasks` asyncio tasks through one service (one process)."""
    service = GameService(Store(db_path))
    tally = Tally()
    deadline = time.monotonic() + seconds
    rng = random.Random(seed)

    async def one(kind: str, call) -> None:
        try:
            tally.note(kind, await call)
        except Exception as exc:  # noqa: BLE001 - any exception here is the failure looked for
            tally.note(kind, None, exc)

    async def task(n: int) -> None:
        mine = random.Random(rng.random())
        while time.monotonic() < deadline:
            seat = mine.randrange(3)
            caller = SEATS[seat]
            roll = mine.random()
            interaction = mine.getrandbits(60)
            if roll < 0.75:
                action = {
                    "type": "add",
                    "amount": mine.randint(1, 9),
                    "entity": seat + 1,
                    "entity_type": "player",
                }
                await one("act", service.act(game_id, caller, action, interaction))
                if roll < 0.05:  # the same interaction again (a retried request)
                    await one("act", service.act(game_id, caller, action, interaction))
            elif roll < 0.85:
                await one("undo", service.undo(game_id, caller, interaction))
            elif roll < 0.88:
                count = await service.store.action_count(game_id)
                await one(
                    "rewind", service.rewind(game_id, SEATS[0], max(0, count - 2), interaction)
                )
            else:
                await one("status", service.status(game_id))
            await asyncio.sleep(0)

    await asyncio.gather(*(task(n) for n in range(tasks)))
    service.store.close()
    return tally


def main() -> None:
    """`python -m tests.random_play DB GAME SECONDS TASKS SEED`: one process's share on DB (a
    SQLite path or a PostgreSQL URL), as JSON (after a first line "ready", printed once
    loaded, so that a test starts its own share then)."""
    from tests.titles_for_tests import register

    register()
    db, game, seconds, tasks, seed = sys.argv[1:6]
    print("ready", flush=True)
    tally = asyncio.run(
        play(db, int(game), seconds=float(seconds), tasks=int(tasks), seed=int(seed))
    )
    print(
        json.dumps({"applied": tally.applied, "outcomes": dict(tally.outcomes), "bad": tally.bad})
    )


if __name__ == "__main__":
    main()
