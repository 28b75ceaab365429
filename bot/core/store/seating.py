"""Who holds each seat: seats handed over by an admin, and seats offered to a user who is
seated only when they accept (an imported game's players, a replaced seat). A seat's powers
(undoing and redoing its moves) go with it; a seat nobody holds has a negative user id. The
computer may play a seat (held or not); handing the seat to someone ends that."""

from __future__ import annotations

from bot.core.shards import Shards
from bot.core.store.base import StoreBase, now
from bot.core.store.connection import Conn, reading, writing
from bot.core.store.records import ACTIVE, Invitation, StaleGame


def unclaimed(seat: int) -> int:
    """The user id a seat nobody holds has (negative, so no user has it)."""
    return -seat


class SeatingTables(StoreBase):
    @writing
    def hand_seat(
        self,
        conn: Conn,
        game_id: int,
        seat: int,
        user_id: int,
        name: str | None = None,
        interaction_id: int | None = None,
    ) -> int:
        """Give a seat (and its engine player) to `user_id` (`unclaimed(seat)`: to nobody yet),
        renamed when `name` is given; the previous holder's id, returned, loses its powers."""
        self._change(conn, interaction_id, "replace", game_id)
        return _hand(conn, game_id, seat, user_id, name)

    @writing
    def set_computer(
        self,
        conn: Conn,
        game_id: int,
        seat: int,
        level: str | None,
        interaction_id: int | None = None,
    ) -> None:
        """Let the computer play a seat at `level` (None: its holder plays it again); who holds
        the seat and what its player owns stay as they are."""
        self._change(conn, interaction_id, "computer", game_id)
        conn.execute(
            "UPDATE seats SET computer = ? WHERE game_id = ? AND seat = ?", [level, game_id, seat]
        )
        StoreBase._lapse_requests(conn, game_id)
        StoreBase._touch(conn, game_id)

    @reading
    def games_with_computers(self, conn: Conn, shards: Shards | None = None) -> list[int]:
        """The games in play, not paused, in which the computer plays a seat (`shards`: of
        the servers those shards serve, whose process alone posts there)."""
        served, params = self._served(shards, "g.guild_id") if shards else ("1 = 1", [])
        rows = conn.all(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE s.computer IS NOT NULL AND g.status = ? AND g.paused = 0 "
            f"AND g.abandoned_at IS NULL AND {served} ORDER BY g.id",
            [ACTIVE, *params],
        )
        return [int(r["id"]) for r in rows]

    @writing
    def invite(
        self,
        conn: Conn,
        game_id: int,
        seat: int,
        user_id: int,
        invited_by: int,
        interaction_id: int | None = None,
    ) -> Invitation:
        """Offer a seat to a user, taking it from its holder (it is unclaimed until they
        accept); an older open offer of that seat lapses."""
        self._change(conn, interaction_id, "invite", game_id)
        _hand(conn, game_id, seat, unclaimed(seat), None)
        _void_offers(conn, game_id, seat)
        return _invitation(conn, _offer(conn, game_id, seat, user_id, invited_by))

    @reading
    def invitation(self, conn: Conn, invitation_id: int) -> Invitation | None:
        row = conn.one("SELECT * FROM invitations WHERE id = ?", [invitation_id])
        return Invitation(**row) if row else None

    @reading
    def open_invitations(self, conn: Conn, game_id: int) -> list[Invitation]:
        rows = conn.all(
            "SELECT * FROM invitations WHERE game_id = ? AND status = 'open' ORDER BY id",
            [game_id],
        )
        return [Invitation(**r) for r in rows]

    @reading
    def invitations_for(self, conn: Conn, user_id: int) -> list[Invitation]:
        """The seats offered to a user and not yet answered, in every game."""
        rows = conn.all(
            "SELECT * FROM invitations WHERE user_id = ? AND status = 'open' ORDER BY id",
            [user_id],
        )
        return [Invitation(**r) for r in rows]

    @writing
    def answer_invitation(
        self,
        conn: Conn,
        invitation_id: int,
        accept: bool,
        name: str,
        interaction_id: int | None = None,
    ) -> Invitation:
        """The invited user's answer: accepted, they hold the seat (under `name`), if it is
        still offered to them and nobody holds it; `StaleGame` when that changed meanwhile."""
        self._change(conn, interaction_id, "answer", _invitation(conn, invitation_id).game_id)
        found = _invitation(conn, invitation_id)  # again, under the game's lock
        if found.status != "open":
            raise StaleGame(f"invitation {invitation_id} is {found.status}")
        if accept:
            holder = conn.one(
                "SELECT user_id FROM seats WHERE game_id = ? AND seat = ?",
                [found.game_id, found.seat],
            )
            if holder is None or holder["user_id"] > 0:
                raise StaleGame(f"seat {found.seat} of game {found.game_id} is held meanwhile")
            _hand(conn, found.game_id, found.seat, found.user_id, name)
        conn.execute(
            "UPDATE invitations SET status = ? WHERE id = ?",
            ["accepted" if accept else "declined", invitation_id],
        )
        return _invitation(conn, invitation_id)


def _hand(conn: Conn, game_id: int, seat: int, user_id: int, name: str | None) -> int:
    row = conn.one("SELECT user_id FROM seats WHERE game_id = ? AND seat = ?", [game_id, seat])
    if row is None:
        raise StaleGame(f"game {game_id} has no seat {seat}")
    old = int(row["user_id"])
    conn.execute(
        "UPDATE seats SET user_id = ?, name = coalesce(?, name), computer = NULL "
        "WHERE game_id = ? AND seat = ?",
        [user_id, name, game_id, seat],
    )
    for sql in (
        "UPDATE actions SET user_id = ? WHERE game_id = ? AND user_id = ?",
        "UPDATE undone_actions SET user_id = ? WHERE game_id = ? AND user_id = ?",
        "UPDATE undone_actions SET undone_by = ? WHERE game_id = ? AND undone_by = ?",
    ):
        conn.execute(sql, [user_id, game_id, old])
    conn.execute("DELETE FROM previews WHERE game_id = ? AND user_id = ?", [game_id, old])
    if user_id > 0:  # the seat is taken: nobody else may still accept it
        _void_offers(conn, game_id, seat)
    StoreBase._lapse_requests(conn, game_id)
    StoreBase._touch(conn, game_id)
    return old


def _offer(conn: Conn, game_id: int, seat: int, user_id: int, invited_by: int) -> int:
    return conn.insert(
        "INSERT INTO invitations (game_id, seat, user_id, invited_by, status, created_at) "
        "VALUES (?, ?, ?, ?, 'open', ?) RETURNING id",
        [game_id, seat, user_id, invited_by, now()],
    )


def _void_offers(conn: Conn, game_id: int, seat: int) -> None:
    conn.execute(
        "UPDATE invitations SET status = 'void' WHERE game_id = ? AND seat = ? AND status = 'open'",
        [game_id, seat],
    )


def _invitation(conn: Conn, invitation_id: int) -> Invitation:
    row = conn.one("SELECT * FROM invitations WHERE id = ?", [invitation_id])
    if row is None:
        raise StaleGame(f"there is no invitation {invitation_id}")
    return Invitation(**row)
