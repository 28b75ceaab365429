"""Game clocks as stored: one row per clocked game (see migration m019), written by the
service with its own clock; the store only keeps them and finds those due by their indexed
deadline, never by reading every game."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from bot.core.shards import Shards
from bot.core.store.base import StoreBase, chunks, marks
from bot.core.store.connection import Conn, reading, writing
from bot.core.store.records import ACTIVE, OPEN, StaleGame


@dataclass(frozen=True)
class ClockRecord:
    """A game's clock: its spec (as `bot.core.clocks.parse_clock` reads it), each seat's bank
    left and vacation spent (seconds), and the turn under way (None: no clock runs)."""

    game_id: int
    spec: str
    banks: dict[int, float] = field(default_factory=dict)
    vacation: dict[int, float] = field(default_factory=dict)
    turn: str | None = None
    seat: int | None = None
    started_at: str | None = None
    credit: float = 0.0
    paused_at: str | None = None
    deadline_at: str | None = None
    timed_out: str | None = None


class ClockTables(StoreBase):
    @writing
    def set_game_clock(self, conn: Conn, game_id: int, spec: str) -> None:
        """Give a game not yet started its clock (fixed once it starts)."""
        row = conn.one("SELECT status FROM games WHERE id = ?", [game_id])
        if row is None or row["status"] != OPEN:
            raise StaleGame(f"game {game_id} has started; its clock is fixed")
        conn.execute(
            "INSERT INTO game_clocks (game_id, spec) VALUES (?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET spec = excluded.spec",
            [game_id, spec],
        )

    @reading
    def game_clock(self, conn: Conn, game_id: int) -> ClockRecord | None:
        row = conn.one("SELECT * FROM game_clocks WHERE game_id = ?", [game_id])
        return None if row is None else _record(row)

    @reading
    def game_clocks(self, conn: Conn, game_ids: Sequence[int]) -> dict[int, ClockRecord]:
        """The clocks of these games (those that have one)."""
        found: dict[int, ClockRecord] = {}
        for part in chunks(game_ids):
            rows = conn.all(f"SELECT * FROM game_clocks WHERE game_id IN ({marks(part)})", part)
            found.update((r["game_id"], _record(r)) for r in rows)
        return found

    @writing
    def save_clock(self, conn: Conn, clock: ClockRecord) -> None:
        values = asdict(clock)
        values["banks"], values["vacation"] = _dump(clock.banks), _dump(clock.vacation)
        names = [k for k in values if k != "game_id"]
        conn.execute(
            f"UPDATE game_clocks SET {', '.join(f'{n} = ?' for n in names)} WHERE game_id = ?",
            [*(values[n] for n in names), clock.game_id],
        )

    @writing
    def delay_deadline(self, conn: Conn, game_id: int, deadline_at: str) -> None:
        """Move a clock's deadline alone (the rest of the clock as the last write left it)."""
        conn.execute(
            "UPDATE game_clocks SET deadline_at = ? WHERE game_id = ?", [deadline_at, game_id]
        )

    @reading
    def due_clocks(
        self, conn: Conn, shards: Shards | None, before: str | None
    ) -> list[ClockRecord]:
        """The running clocks whose deadline comes before `before` (None: all that have one),
        soonest first (`shards`: of the servers those shards serve)."""
        running, params = self._running(shards, before)
        rows = conn.all(f"SELECT c.* {running} ORDER BY c.deadline_at", params)
        return [_record(r) for r in rows]

    @reading
    def next_deadline(self, conn: Conn, shards: Shards | None) -> str | None:
        """The soonest deadline of a running clock (None: none runs), read from the index's
        first entries: the sweep asks after every look, so it must not read every clock."""
        running, params = self._running(shards, None)
        row = conn.one(f"SELECT c.deadline_at {running} ORDER BY c.deadline_at LIMIT 1", params)
        return None if row is None else str(row["deadline_at"])

    def _running(self, shards: Shards | None, before: str | None) -> tuple[str, list[Any]]:
        """FROM and WHERE of the running clocks with a deadline (before `before`)."""
        served, params = self._served(shards, "g.guild_id") if shards else ("1 = 1", [])
        until, bound = ("c.deadline_at <= ?", [before]) if before else ("1 = 1", [])
        return (
            "FROM game_clocks c JOIN games g ON g.id = c.game_id WHERE c.deadline_at IS NOT "
            f"NULL AND {until} AND g.status = ? AND g.paused = 0 AND {served}",
            [*bound, ACTIVE, *params],
        )


def _record(row: dict[str, Any]) -> ClockRecord:
    values = dict(row)
    values["banks"] = _load(values["banks"])
    values["vacation"] = _load(values["vacation"])
    values["credit"] = float(values["credit"] or 0)
    return ClockRecord(**values)


def _load(text: str | None) -> dict[int, float]:
    return {int(k): float(v) for k, v in json.loads(text or "{}").items()}


def _dump(values: dict[int, float]) -> str:
    return json.dumps({str(k): v for k, v in sorted(values.items())})
