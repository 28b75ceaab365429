"""What a player's games everywhere and the reminders cost: `/turns` for a user seated in 500
games, and one reminder sweep over 2,000 running games (every one due: the worst; and none
due: the usual look every quarter hour). Reports the store's round trips and SQL statements and
the time taken (median of `--runs`). Neither replays a game: who must act is stored.

Run: python benchmarks/bench_turns.py [--games 500] [--running 2000] [--runs 7] [--db URL]
(`--db postgresql://...`: on that PostgreSQL database, in a schema made for the run and
dropped after it; without it, a SQLite file in a temporary folder.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.core.service import GameService  # noqa: E402
from bot.core.store import Store  # noqa: E402
from bot.core.store.connection import Conn  # noqa: E402
from bot.core.turn_list import TurnList  # noqa: E402

PLAYER = 1000  # the user seated in `--games` games
THEN = datetime(2030, 1, 1, tzinfo=UTC)  # the turn clock of every game
SEATS = 4


def fill(store: Store, games: int, running: int) -> None:
    """`running` started 1830 games of four seats (the player in the first `games`, to act in
    every other one), a quarter of their players with quiet hours and a few away."""

    def body(conn: Conn) -> None:
        for n in range(running):
            game_id = conn.insert(
                "INSERT INTO games (title, options, seat_limit, status, creator_id, guild_id, "
                "thread_id, seed, created_at, updated_at, version, turn_since, acting) VALUES "
                "('1830', '{}', 4, 'active', ?, 500, ?, 1, ?, ?, 9, ?, ?) RETURNING id",
                [
                    PLAYER if n < games else 2000 + n,
                    10_000 + n,
                    THEN.isoformat(),
                    THEN.isoformat(),
                    THEN.isoformat(),
                    json.dumps([1 + n % SEATS]),
                ],
            )
            for seat in range(1, SEATS + 1):
                user = PLAYER if n < games and seat == 1 + (n % 2) else 5000 + n * SEATS + seat
                conn.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name, player_id) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [game_id, seat, user, f"player {user}", json.dumps(seat)],
                )
                if user % 4 == 0:
                    conn.execute(
                        "INSERT INTO user_settings (user_id, time_zone, quiet_start, quiet_end, "
                        "away_until) VALUES (?, 'Europe/Paris', 1380, 480, ?) "
                        "ON CONFLICT (user_id) DO NOTHING",
                        [user, "2030-01-05" if user % 40 == 0 else None],
                    )

    store.backend.write_now(body)


class Counts:
    """The store's round trips and SQL statements while counting."""

    def __init__(self, store: Store) -> None:
        self.trips = self.statements = 0
        backend = store.backend
        for name in ("read", "write"):
            original = getattr(backend, name)

            async def counted(body: Any, original: Any = original) -> Any:
                self.trips += 1
                return await original(body)

            setattr(backend, name, counted)
        for name in ("all", "execute"):
            original = getattr(Conn, name)

            def counted_sql(conn: Conn, *args: Any, original: Any = original) -> Any:
                self.statements += 1
                return original(conn, *args)

            setattr(Conn, name, counted_sql)

    def reset(self) -> None:
        self.trips = self.statements = 0


async def timed(
    runs: int, counts: Counts, work: Callable[[], Awaitable[Any]], before: Callable[[], None]
) -> str:
    """The median wall and CPU milliseconds of `work` (CPU: of every thread of the process, so
    a machine shared with other work shows less in it), its round trips and statements."""
    wall, cpu = [], []
    for _ in range(runs):
        before()
        counts.reset()
        start, start_cpu = time.perf_counter(), time.process_time()
        await work()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return (
        f"{statistics.median(wall):.1f} ms ({statistics.median(cpu):.1f} ms CPU), "
        f"{counts.trips} round trips, {counts.statements} SQL"
    )


@contextmanager
def database(url: str | None) -> Iterator[str]:
    """Where to fill the games: a schema of `url` made and dropped here, or a SQLite file."""
    if url is None:
        with tempfile.TemporaryDirectory() as tmp:
            yield str(Path(tmp) / "bench.db")
        return
    import psycopg

    schema = f"bench_turns_{os.getpid()}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    parts = urlsplit(url)
    options = urlencode({"options": f"-csearch_path={schema}"})
    try:
        yield urlunsplit(parts._replace(query=f"{parts.query}&{options}".lstrip("&")))
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


async def main(games: int, running: int, runs: int, db: str | None) -> None:
    with database(db) as target:
        store = Store(target, durable=False)
        fill(store, games, running)
        service = GameService(store, remind_hours=24)
        counts = Counts(store)
        listing = await service.my_turns(PLAYER, now=THEN + timedelta(hours=5))
        assert isinstance(listing, TurnList) and listing.total == games, listing
        cost = await timed(
            runs,
            counts,
            lambda: service.my_turns(PLAYER, now=THEN + timedelta(hours=5)),
            lambda: None,
        )
        print(f"/turns, seated in {games} games: {cost}")

        def unremind() -> None:
            store.backend.write_now(lambda c: c.execute("UPDATE games SET reminded_at = NULL"))

        due_at = THEN + timedelta(hours=25)  # 01:00 UTC: the quiet ones wait
        found: list[Any] = []

        async def sweep() -> None:
            found[:] = [await service.sweep(due_at)]

        cost = await timed(runs, counts, sweep, unremind)
        sent = len(found[0].reminders)
        print(
            f"sweep, {running} running games all due: {cost} ({sent} reminded, the others "
            "wait for quiet hours or absences)"
        )
        cost = await timed(
            runs, counts, lambda: service.sweep(THEN + timedelta(hours=1)), lambda: None
        )
        print(f"sweep, {running} running games none due: {cost}")
        store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--running", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--db", help="a postgresql:// URL (default: SQLite)")
    args = parser.parse_args()
    asyncio.run(main(args.games, args.running, args.runs, args.db))
