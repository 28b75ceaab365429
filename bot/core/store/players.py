"""What the store keeps per player rather than per game: their settings, their choice of direct
messages per game, the direct messages waiting for their quiet hours to end, and the games they
are seated in across every server (read in one go, whatever their number)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from bot.core.shards import Shards
from bot.core.store.base import StoreBase, chunks, game_record, marks
from bot.core.store.connection import Conn, reading, writing
from bot.core.store.games import _seat_record
from bot.core.store.records import (
    ACTIVE,
    OPEN,
    GameRecord,
    PendingDM,
    ReminderClock,
    SeatRecord,
)
from bot.core.user_settings import UserSettings

SETTING_COLUMNS = frozenset(
    {"turn_dm", "reminder_dm", "time_zone", "quiet_start", "quiet_end", "away_until"}
)


class PlayerTables(StoreBase):
    # -- settings ------------------------------------------------------------------------------
    @reading
    def user_settings(self, conn: Conn, user_ids: Sequence[int]) -> dict[int, UserSettings]:
        """Each user's settings (the defaults for one who never set any)."""
        return _settings(conn, user_ids)

    @writing
    def save_settings(self, conn: Conn, user_id: int, changes: Mapping[str, Any]) -> None:
        """Change some of a user's settings (columns of `user_settings`), the others kept."""
        unknown = set(changes) - SETTING_COLUMNS
        assert not unknown, unknown
        names = sorted(changes)
        conn.execute(
            f"INSERT INTO user_settings (user_id, {', '.join(names)}) "
            f"VALUES (?{', ?' * len(names)}) ON CONFLICT (user_id) DO UPDATE SET "
            + ", ".join(f"{n} = excluded.{n}" for n in names),
            [user_id, *(changes[n] for n in names)],
        )

    @reading
    def game_dms(self, conn: Conn, user_id: int) -> dict[int, bool]:
        """The games whose direct messages the user chose apart from their other games."""
        rows = conn.all(
            "SELECT game_id, dm FROM game_dms WHERE user_id = ? ORDER BY game_id", [user_id]
        )
        return {r["game_id"]: bool(r["dm"]) for r in rows}

    @writing
    def set_game_dm(self, conn: Conn, user_id: int, game_id: int, dm: bool | None) -> None:
        """One game's direct messages on or off for the user (None: as their other games)."""
        conn.execute("DELETE FROM game_dms WHERE user_id = ? AND game_id = ?", [user_id, game_id])
        if dm is not None:
            conn.execute(
                "INSERT INTO game_dms (user_id, game_id, dm) VALUES (?, ?, ?)",
                [user_id, game_id, int(dm)],
            )

    @reading
    def dm_choices(
        self, conn: Conn, user_ids: Sequence[int], game_id: int
    ) -> tuple[dict[int, UserSettings], dict[int, bool]]:
        """The users' settings and their choices for this one game, where they made one."""
        chosen: dict[int, bool] = {}
        for part in chunks(user_ids):
            rows = conn.all(
                f"SELECT user_id, dm FROM game_dms WHERE game_id = ? AND user_id IN ({marks(part)})",
                [game_id, *part],
            )
            chosen.update({r["user_id"]: bool(r["dm"]) for r in rows})
        return _settings(conn, user_ids), chosen

    # -- direct messages held back by quiet hours ----------------------------------------------
    @writing
    def hold_dm(
        self, conn: Conn, user_id: int, game_id: int, due_at: str, request_id: int | None
    ) -> None:
        """Hold a direct message until `due_at`; it replaces one held for the same game."""
        conn.execute(
            "INSERT INTO pending_dms (user_id, game_id, due_at, request_id) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (user_id, game_id) DO UPDATE SET due_at = excluded.due_at, "
            "request_id = excluded.request_id",
            [user_id, game_id, due_at, request_id],
        )

    @reading
    def held_dms(self, conn: Conn, shards: Shards | None = None) -> list[PendingDM]:
        """Every direct message held back (`shards`: about the games of the servers those
        shards serve), the soonest due first."""
        served, params = self._served(shards) if shards else ("1 = 1", [])
        rows = conn.all(
            "SELECT * FROM pending_dms WHERE game_id IN (SELECT id FROM games WHERE "
            f"{served}) ORDER BY due_at, user_id, game_id",
            params,
        )
        return [PendingDM(**r) for r in rows]

    @writing
    def drop_dms(self, conn: Conn, held: Sequence[PendingDM]) -> None:
        """Forget these held messages (sent, or no longer waiting), unless held again since."""
        for dm in held:
            conn.execute(
                "DELETE FROM pending_dms WHERE user_id = ? AND game_id = ? AND due_at = ?",
                [dm.user_id, dm.game_id, dm.due_at],
            )

    # -- a player's games everywhere -----------------------------------------------------------
    @reading
    def seated_games(
        self, conn: Conn, user_id: int
    ) -> tuple[list[GameRecord], dict[int, list[SeatRecord]], dict[int, UserSettings]]:
        """The open and running games the user is seated in, in every server; every seat of
        those games; and the settings of those who must act in them: three queries, whatever
        the number of games."""
        mine = "SELECT game_id FROM seats WHERE user_id = ?"
        rows = conn.all(
            f"SELECT * FROM games WHERE id IN ({mine}) AND status IN (?, ?) ORDER BY id",
            [user_id, OPEN, ACTIVE],
        )
        games = [game_record(r) for r in rows]
        seats = _seats_where(
            conn,
            f"game_id IN (SELECT id FROM games WHERE id IN ({mine}) AND status IN (?, ?))",
            [user_id, OPEN, ACTIVE],
        )
        acting = {(g.id, seat) for g in games for seat in g.acting or ()}
        users = sorted(
            {s.user_id for game in seats.values() for s in game if (s.game_id, s.seat) in acting}
        )
        return games, seats, _settings(conn, [u for u in users if u > 0])

    @reading
    def reminder_clocks(self, conn: Conn, shards: Shards | None = None) -> list[ReminderClock]:
        """The turn clock of every running game not paused (`shards`: of the servers those
        shards serve): all the reminders read of each game, whatever their number (the games
        due are read whole after)."""
        served, params = self._served(shards) if shards else ("1 = 1", [])
        rows = conn.all(
            "SELECT id, remind_hours, turn_since, reminded_at FROM games "
            f"WHERE status = ? AND paused = 0 AND {served} ORDER BY id",
            [ACTIVE, *params],
        )
        return [ReminderClock(**r) for r in rows]

    @reading
    def games_by_id(self, conn: Conn, game_ids: Sequence[int]) -> list[GameRecord]:
        found = []
        for part in chunks(game_ids):
            rows = conn.all(f"SELECT * FROM games WHERE id IN ({marks(part)})", list(part))
            found += [game_record(r) for r in rows]
        return sorted(found, key=lambda g: g.id)

    @reading
    def seats_and_settings(
        self, conn: Conn, game_ids: Sequence[int]
    ) -> tuple[dict[int, list[SeatRecord]], dict[int, UserSettings]]:
        """The seats of these games and the settings of everyone seated in them."""
        seats: dict[int, list[SeatRecord]] = {}
        for part in chunks(game_ids):
            seats.update(_seats_where(conn, f"game_id IN ({marks(part)})", list(part)))
        users = sorted({s.user_id for game in seats.values() for s in game if s.user_id > 0})
        return seats, _settings(conn, users)


def _settings(conn: Conn, user_ids: Sequence[int]) -> dict[int, UserSettings]:
    found = {u: UserSettings(u) for u in user_ids}
    for part in chunks(user_ids):
        rows = conn.all(f"SELECT * FROM user_settings WHERE user_id IN ({marks(part)})", list(part))
        found.update({r["user_id"]: _user_settings(r) for r in rows})
    return found


def _user_settings(row: dict[str, Any]) -> UserSettings:
    start, end = row["quiet_start"], row["quiet_end"]
    return UserSettings(
        row["user_id"],
        turn_dm=bool(row["turn_dm"]),
        reminder_dm=bool(row["reminder_dm"]),
        time_zone=row["time_zone"],
        quiet=None if start is None or end is None else (int(start), int(end)),
        away_until=_day(row["away_until"]),
    )


def _day(text: str | None) -> date | None:
    """A stored day; one that cannot be read (written by hand) counts as none, so one bad row
    cannot stop the reminders of all games."""
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def _seats_where(conn: Conn, where: str, params: list[Any]) -> dict[int, list[SeatRecord]]:
    out: dict[int, list[SeatRecord]] = {}
    for r in conn.all(f"SELECT * FROM seats WHERE {where} ORDER BY game_id, seat", params):
        out.setdefault(r["game_id"], []).append(_seat_record(r))
    return out
