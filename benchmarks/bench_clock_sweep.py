"""What the clock sweep costs with 10,000 running clocked games: the bot sweeps whenever a
deadline falls due (at most a quarter hour apart), so finding the few due among thousands must
not read, let alone replay, the others.

One 4-player 1830 game is made through the service with a clock (`bank:14d turn:1d`) and
copied straight into the store in bulk, each copy with its own server, thread, players and
deadline: a burst of `--burst` already due, then one every `--step` seconds. The sweeps then
run on a fake clock that moves as the bot's loop would (`sweep_wait`: until the next deadline,
at most the period), each timing `GameService.clock_sweep` with its real wall time. Every game
replayed must be one whose deadline was due (the engine's replays are counted), each due
one's move must be made within one sweep period of its deadline, and none due may be left.
Then sweeps with nothing due (the look at the period's end) are timed alone. Goal: 500 ms.

Run: python benchmarks/bench_clock_sweep.py [--games 10000] [--db postgresql://...]
(`--db`: on that PostgreSQL database, in a schema made for the run and dropped after it;
without it, a SQLite file in a temporary folder.)
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_turns import Counts, database  # noqa: E402
from bot.core.clocks import parse_clock  # noqa: E402
from bot.core.results import Caller  # noqa: E402
from bot.core.service import GameService  # noqa: E402
from bot.core.service import base as service_base  # noqa: E402
from bot.core.service.base import store_time, stored_time  # noqa: E402
from bot.core.service.clocks import TIMED_OUT  # noqa: E402
from bot.core.store import Store  # noqa: E402
from bot.core.store.connection import Conn  # noqa: E402
from bot.discord_ui.app import REMINDER_CHECK_SECONDS, sweep_wait  # noqa: E402

START = datetime(2030, 1, 7, 12, tzinfo=UTC)
PERIOD = timedelta(seconds=REMINDER_CHECK_SECONDS)  # the bot's longest wait between sweeps
GOAL_MS = 500.0
SPEC = "bank:14d turn:1d"
BUDGET = timedelta(days=15)  # a turn's increment and a full bank: the deadline's distance
USERS = 1_000_000  # the copies' players' ids start here


class FakeClock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


class Replays:
    """The games the service rebuilt from their log while counting."""

    def __init__(self) -> None:
        self.games: list[int] = []
        original = service_base._replay

        def counted(record: Any, *args: Any) -> Any:
            self.games.append(record.id)
            return original(record, *args)

        service_base._replay = counted


async def template(service: GameService) -> int:
    """A started 4-player 1830 game with a clock, made as players make one."""
    players = [Caller(USERS - n, f"p{n}", guild_id=500) for n in range(1, 5)]
    made = await service.create_game(
        players[0], "1830", seats=4, clock=parse_clock(SPEC), guild_id=500, thread_id=10**9 - 1
    )
    assert made.ok, made.error
    for p in players[1:]:
        assert (await service.join(made.game_id, p)).ok
    assert (await service.start(made.game_id, players[0])).ok
    return made.game_id


def deadline_of(n: int, burst: int, step: float) -> datetime:
    """Game n's deadline: the first `burst` due at the start, the others `step` apart."""
    return (
        START - timedelta(minutes=1)
        if n < burst
        else START + (n - burst + 1) * timedelta(seconds=step)
    )


def copy_games(store: Store, first: int, games: int, burst: int, step: float) -> None:
    """`games` games in all: the template's rows copied, each copy its own server, thread,
    players and deadline (the template's clock given the first deadline)."""

    def body(conn: Conn) -> None:
        game = conn.one("SELECT * FROM games WHERE id = ?", [first])
        seats = conn.all("SELECT * FROM seats WHERE game_id = ?", [first])
        clock = conn.one("SELECT * FROM game_clocks WHERE game_id = ?", [first])
        assert game and clock and clock["deadline_at"], "the template's clock runs"
        top = int(conn.one("SELECT max(id) AS m FROM games")["m"])  # type: ignore[index]
        ids = [first] + [top + n for n in range(1, games)]

        def rows(table: dict[str, Any], change: Any) -> tuple[str, list[list[Any]]]:
            names = list(table)
            sql = f"INSERT INTO {{}} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
            return sql, [
                [change(n, gid).get(k, table[k]) for k in names] for n, gid in enumerate(ids)
            ]

        sql, copies = rows(
            game,
            lambda n, gid: {
                "id": gid,
                "guild_id": 1000 + n % 500,
                "thread_id": 10**9 + n,
                "channel_id": 10**8 + n % 500,
                "creator_id": USERS + 4 * n,
            },
        )
        conn.execute_many(sql.format("games"), copies[1:])
        for seat in seats:
            sql, copies = rows(
                seat, lambda n, gid: {"game_id": gid, "user_id": USERS + 4 * n + seat["seat"]}
            )
            conn.execute_many(sql.format("seats"), copies[1:])
        conn.execute("DELETE FROM game_clocks WHERE game_id = ?", [first])

        def timed(n: int, gid: int) -> dict[str, Any]:
            due = deadline_of(n, burst, step)
            return {
                "game_id": gid,
                "deadline_at": store_time(due),
                "started_at": store_time(due - BUDGET),
            }

        sql, copies = rows(clock, timed)
        conn.execute_many(sql.format("game_clocks"), copies)
        conn.renumber("games")

    store.backend.write_now(body)


async def main(games: int, burst: int, step: float, sweeps: int, db: str | None) -> None:
    with database(db) as target:
        store = Store(target, durable=False)
        clock = FakeClock()
        service = GameService(store, clock=clock, new_seed=lambda: 1830)
        first = await template(service)
        began = time.perf_counter()
        copy_games(store, first, games, burst, step)
        print(f"{games} clocked 1830 games stored in {time.perf_counter() - began:.1f} s")
        deadlines = {
            c.game_id: stored_time(c.deadline_at)
            for c in await store.due_clocks(None, None)
            if c.deadline_at
        }
        assert len(deadlines) == games, len(deadlines)
        service = GameService(store, clock=clock)  # a fresh process: nothing cached
        replays, counts = Replays(), Counts(store)
        clock.now = START - PERIOD  # the sweep before the first deadline: a heartbeat
        swept = await service.clock_sweep(clock.now, PERIOD)
        clock.now += timedelta(seconds=sweep_wait(swept.next_due, clock.now))
        handled: dict[int, datetime] = {}
        timings: list[tuple[float, int, int]] = []  # ms, games timed out, round trips
        for _ in range(sweeps):
            replays.games.clear()
            counts.reset()
            now = clock.now
            began = time.perf_counter()
            swept = await service.clock_sweep(now, PERIOD)
            took = time.perf_counter() - began
            due = {g for g, at in deadlines.items() if at <= now and g not in handled}
            moved = {r.game_id for r in swept.results}
            assert all(r.ok and r.text.endswith(TIMED_OUT) for r in swept.results), swept
            assert moved == due, f"due {sorted(due - moved)}, moved {sorted(moved - due)}"
            assert set(replays.games) <= due, f"replayed games not due: {replays.games}"
            for gid in moved:
                handled[gid] = now + timedelta(seconds=took)  # the move is made by then
            timings.append((took * 1000, len(moved), counts.trips))
            after = now + timedelta(seconds=took)
            clock.now = after + timedelta(seconds=sweep_wait(swept.next_due, after))
        late = max((handled[g] - deadlines[g]).total_seconds() for g in handled)
        assert late <= PERIOD.total_seconds(), f"a move {late:.0f} s after its deadline"
        quiet: list[tuple[float, int, int]] = []
        clock.now = after  # right after the last sweep: the next deadline is not yet due
        for _ in range(sweeps):
            replays.games.clear()
            counts.reset()
            began = time.perf_counter()
            swept = await service.clock_sweep(clock.now, PERIOD)
            quiet.append(((time.perf_counter() - began) * 1000, len(swept.results), counts.trips))
            assert not swept.results and not replays.games
        burst_ms, burst_moved, burst_trips = timings[0]
        print(
            f"first sweep, {burst_moved} due: {burst_ms:.0f} ms, {burst_trips} round trips "
            f"({burst_ms / max(burst_moved, 1):.0f} ms a timeout, each a replay and a computer "
            "move)"
        )
        report("sweeps as the bot schedules them", timings[1:])
        report("sweeps with nothing due", quiet)
        print(
            f"{len(handled)} timeouts, each made at most {late:.1f} s after its deadline "
            f"(period {PERIOD.total_seconds():.0f} s); replays only of games due"
        )
        worst = max(ms for ms, _, _ in timings + quiet)
        print(f"goal {GOAL_MS:.0f} ms per sweep: {'met' if worst <= GOAL_MS else 'MISSED'}")
        store.close()


def report(what: str, timings: list[tuple[float, int, int]]) -> None:
    times = [ms for ms, _, _ in timings]
    moved = sorted({n for _, n, _ in timings})
    trips = sorted({t for _, _, t in timings})
    print(
        f"{what} ({len(times)}, {'/'.join(map(str, moved))} due each): median "
        f"{statistics.median(times):.0f} ms, worst {max(times):.0f} ms, "
        f"{'/'.join(map(str, trips))} round trips"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--burst", type=int, default=20, help="deadlines due at the start")
    parser.add_argument("--step", type=float, default=90.0, help="seconds between deadlines")
    parser.add_argument("--sweeps", type=int, default=9)
    parser.add_argument("--db", help="a postgresql:// URL (default: SQLite)")
    args = parser.parse_args()
    asyncio.run(main(args.games, args.burst, args.step, args.sweeps, args.db))
