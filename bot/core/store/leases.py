"""Leases: which bot process does a piece of work that any of them could find.

Several processes may run one sweep (due reminders, programmed or computer moves) over the
same games; before doing one game's work a process claims its lease by name (for example
`remind:12`), and only the claimant goes on. A lease lapses at its expiry, so work held by a
process that died is taken up by another (or by the same one restarted) after at most that
long. Claiming is one atomic upsert, on SQLite as on PostgreSQL, so two processes can never
both hold a name. The store's version check still guards every change a lease holder makes
(a move computed by a process whose lease lapsed meanwhile is refused if the game moved on).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from bot.core.store.base import StoreBase
from bot.core.store.connection import Conn, reading, writing


class LeaseTables(StoreBase):
    @writing
    def claim_lease(
        self, conn: Conn, name: str, holder: str, seconds: float, now: float | None = None
    ) -> bool:
        """Whether `holder` now holds `name` for `seconds` from `now` (default: the clock):
        granted when nobody holds it, its lease lapsed, or `holder` holds it already (then it
        is extended)."""
        return _claim(conn, name, holder, seconds, time.time() if now is None else now)

    @writing
    def claim_leases(
        self, conn: Conn, names: Sequence[str], holder: str, seconds: float
    ) -> list[str]:
        """Of `names`, those `holder` now holds (as `claim_lease` each, in one transaction: a
        sweep over many games claims them at once)."""
        at = time.time()
        return [name for name in names if _claim(conn, name, holder, seconds, at)]

    @writing
    def release_lease(self, conn: Conn, name: str, holder: str) -> bool:
        """Let go of a lease (only its holder can); whether it was held."""
        return conn.execute("DELETE FROM leases WHERE name = ? AND holder = ?", [name, holder]) > 0

    @writing
    def release_leases(self, conn: Conn, names: Sequence[str], holder: str) -> None:
        for name in names:
            conn.execute("DELETE FROM leases WHERE name = ? AND holder = ?", [name, holder])

    @reading
    def lease_holder(self, conn: Conn, name: str, now: float | None = None) -> str | None:
        """Who holds `name` now (None: nobody, or the lease lapsed)."""
        at = time.time() if now is None else now
        row = conn.one("SELECT holder FROM leases WHERE name = ? AND expires_at > ?", [name, at])
        return None if row is None else str(row["holder"])


def _claim(conn: Conn, name: str, holder: str, seconds: float, at: float) -> bool:
    row = conn.one(
        "INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?) "
        "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, "
        "expires_at = excluded.expires_at "
        "WHERE leases.expires_at <= ? OR leases.holder = excluded.holder RETURNING name",
        [name, holder, at + seconds, at],
    )
    return row is not None
