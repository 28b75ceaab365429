"""Games, their seats and their append-only action log: opening, seating, starting, each
accepted move, undo and redo, imports, and the administration of a running game."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from bot.core.store import caps
from bot.core.store.base import (
    StoreBase,
    action_record,
    chunks,
    game_record,
    insert_action,
    marks,
    now,
    seats_json,
)
from bot.core.store.connection import Conn, reading, writing
from bot.core.store.records import (
    ACTIVE,
    ANY_GUILD,
    FINISHED,
    OPEN,
    ActionRecord,
    GameRecord,
    Request,
    SeatRecord,
    StaleGame,
    Undone,
)
from bot.core.store.seating import _offer, unclaimed
from bot.core.store.standings import take_back
from engine.game import Action, PlayerId


class GameTables(StoreBase):
    # -- reading -------------------------------------------------------------------------------
    @reading
    def game(self, conn: Conn, game_id: int) -> GameRecord | None:
        row = conn.one("SELECT * FROM games WHERE id = ?", [game_id])
        return game_record(row) if row else None

    @reading
    def game_by_thread(self, conn: Conn, thread_id: int) -> GameRecord | None:
        row = conn.one("SELECT * FROM games WHERE thread_id = ?", [thread_id])
        return game_record(row) if row else None

    @reading
    def games(
        self,
        conn: Conn,
        *,
        guild_id: int | None = ANY_GUILD,
        statuses: Iterable[str] | None = None,
        limit: int = 50,
    ) -> list[GameRecord]:
        """Newest first; filters combine (`guild_id` None: the console's games)."""
        where: list[str] = []
        params: list[Any] = []
        if guild_id is None:
            where.append("guild_id IS NULL")
        elif guild_id != ANY_GUILD:
            where.append("guild_id = ?")
            params.append(guild_id)
        if statuses is not None:
            wanted = list(statuses)
            where.append(f"status IN ({', '.join('?' * len(wanted))})")
            params.extend(wanted)
        sql = "SELECT * FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY updated_at DESC, id DESC LIMIT ?"
        return [game_record(r) for r in conn.all(sql, [*params, limit])]

    @reading
    def games_in_play(
        self, conn: Conn, user_id: int, guild_id: int | None, limit: int
    ) -> list[tuple[GameRecord, bool]]:
        """The open and running games of one server (None: the console), the user's own
        first (with True), newest first: one indexed query, whatever the number of games."""
        rows = conn.all(
            "SELECT g.*, s.user_id IS NOT NULL AS mine FROM games g LEFT JOIN seats s "
            "ON s.game_id = g.id AND s.user_id = ? WHERE (g.guild_id = ? OR "
            "(g.guild_id IS NULL AND CAST(? AS BIGINT) IS NULL)) AND g.status IN (?, ?) "
            "ORDER BY mine DESC, g.updated_at DESC, g.id DESC LIMIT ?",
            [user_id, guild_id, guild_id, OPEN, ACTIVE, limit],
        )
        return [
            (game_record({k: v for k, v in r.items() if k != "mine"}), bool(r["mine"]))
            for r in rows
        ]

    @reading
    def game_listing(
        self, conn: Conn, user_id: int, guild_id: int | None, limit: int
    ) -> list[tuple[GameRecord, list[SeatRecord]]]:
        """The games of one server (None: the console) a user may want to name: theirs (in
        play first, then over) and the others still open to join, newest first, with their
        seats; one indexed query and one per game listed, whatever the server holds."""
        rows = conn.all(
            "SELECT g.* FROM games g LEFT JOIN seats s ON s.game_id = g.id AND s.user_id = ? "
            "WHERE (g.guild_id = ? OR (g.guild_id IS NULL AND CAST(? AS BIGINT) IS NULL)) "
            "AND (s.user_id IS NOT NULL OR g.status = ?) "
            "ORDER BY CASE WHEN g.status = ? THEN 1 ELSE 0 END, "
            "CASE WHEN s.user_id IS NULL THEN 1 ELSE 0 END, g.updated_at DESC, g.id DESC "
            "LIMIT ?",
            [user_id, guild_id, guild_id, OPEN, FINISHED, limit],
        )
        return [(game_record(r), _seats(conn, r["id"])) for r in rows]

    @reading
    def open_game_counts(
        self, conn: Conn, guild_id: int | None, creator_id: int
    ) -> tuple[int, int]:
        return caps.open_counts(conn, guild_id, creator_id)

    @reading
    def seats(self, conn: Conn, game_id: int) -> list[SeatRecord]:
        return _seats(conn, game_id)

    @reading
    def actions(self, conn: Conn, game_id: int) -> list[ActionRecord]:
        rows = conn.all("SELECT * FROM actions WHERE game_id = ? ORDER BY seq", [game_id])
        return [action_record(r) for r in rows]

    @reading
    def action_count(self, conn: Conn, game_id: int) -> int:
        return _action_count(conn, game_id)

    @reading
    def version(self, conn: Conn, game_id: int) -> int | None:
        return self._version(conn, game_id)

    @reading
    def repeated(
        self, conn: Conn, game_id: int, since: int, user_id: int, digest: str | None
    ) -> bool:
        """Whether the user's move `digest` (None: any move) was stored at game version
        `since` or later (the same move sent twice against one version is applied once)."""
        row = conn.one(
            "SELECT 1 AS x FROM actions WHERE game_id = ? AND version >= ? AND "
            "user_id = ? AND (CAST(? AS TEXT) IS NULL OR digest = ?)",
            [game_id, since, user_id, digest, digest],
        )
        return row is not None

    @reading
    def seen_interaction(self, conn: Conn, interaction_id: int) -> bool:
        return (
            conn.one("SELECT 1 AS x FROM interactions WHERE id = ?", [interaction_id]) is not None
        )

    @reading
    def last_undone(self, conn: Conn, game_id: int) -> Undone | None:
        """The actions the game's newest undo or rewind not yet redone took back (None:
        there is none)."""
        row = conn.one(
            "SELECT max(redo_version) AS v FROM undone_actions WHERE game_id = ?", [game_id]
        )
        if row is None or row["v"] is None:
            return None
        rows = conn.all(
            "SELECT * FROM undone_actions WHERE game_id = ? AND redo_version = ? ORDER BY seq",
            [game_id, row["v"]],
        )
        return Undone(rows[0]["undone_by"], row["v"], tuple(action_record(r) for r in rows))

    # -- opening, seating, starting ------------------------------------------------------------
    @writing
    def create_game(
        self,
        conn: Conn,
        *,
        title: str,
        options: dict[str, Any],
        seat_limit: int,
        creator_id: int,
        guild_id: int | None = None,
        channel_id: int | None = None,
        thread_id: int | None = None,
        first_seat: tuple[int, str] | None = None,
        computers: Sequence[tuple[str, str]] = (),
        interaction_id: int | None = None,
        game_caps: tuple[int, int] | None = None,
    ) -> GameRecord:
        """A new open game; `computers` (name, level) take the seats after the first, held by
        nobody (`unclaimed`) and played by the computer. `OverCap` past `game_caps`."""
        when = now()
        self._change(conn, interaction_id, "new", None)
        caps.make_room(conn, game_caps, guild_id, creator_id)
        game_id = conn.insert(
            "INSERT INTO games (title, options, seat_limit, status, creator_id, guild_id, "
            "channel_id, thread_id, seed, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?) RETURNING id",
            [
                title,
                json.dumps(options, sort_keys=True),
                seat_limit,
                OPEN,
                creator_id,
                guild_id,
                channel_id,
                thread_id,
                when,
                when,
            ],
        )
        if first_seat is not None:
            _insert_seat(conn, game_id, 1, *first_seat)
        for seat, (name, level) in enumerate(computers, start=2 if first_seat else 1):
            _insert_seat(conn, game_id, seat, unclaimed(seat), name, computer=level)
        self._link_interaction(conn, interaction_id, game_id)
        return self._game(conn, game_id)

    @writing
    def add_seat(
        self, conn: Conn, game_id: int, user_id: int, name: str, interaction_id: int | None = None
    ) -> int:
        """Seat the user after the last taken seat; return the seat number. `StaleGame` when
        the game started or filled up meanwhile (another process seated someone)."""
        self._change(conn, interaction_id, "join", game_id)
        row = conn.one(
            "SELECT coalesce(max(seat), 0) + 1 AS s FROM seats WHERE game_id = ?", [game_id]
        )
        seat = int(row["s"]) if row else 1
        open_seats = conn.one(
            "SELECT 1 AS x FROM games WHERE id = ? AND status = ? AND seat_limit >= ?",
            [game_id, OPEN, seat],
        )
        if open_seats is None:
            raise StaleGame(f"game {game_id} is no longer open for seat {seat}")
        _insert_seat(conn, game_id, seat, user_id, name)
        self._touch(conn, game_id)
        return seat

    @writing
    def remove_seat(
        self, conn: Conn, game_id: int, user_id: int, interaction_id: int | None = None
    ) -> None:
        """Free the user's seat and close the gap so seats stay numbered 1..n in join order."""
        self._change(conn, interaction_id, "leave", game_id)
        if (
            conn.one("SELECT 1 AS x FROM games WHERE id = ? AND status = ?", [game_id, OPEN])
            is None
        ):
            raise StaleGame(f"game {game_id} has started meanwhile")
        row = conn.one(
            "SELECT seat FROM seats WHERE game_id = ? AND user_id = ?", [game_id, user_id]
        )
        if row is None:
            raise StaleGame(f"user {user_id} left game {game_id} meanwhile")
        conn.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", [game_id, row["seat"]])
        later = conn.all(
            "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat",
            [game_id, row["seat"]],
        )
        for r in later:  # a seat nobody holds keeps the user id of its number
            conn.execute(
                "UPDATE seats SET seat = ?, user_id = CASE WHEN user_id < 0 THEN ? "
                "ELSE user_id END WHERE game_id = ? AND seat = ?",
                [r["seat"] - 1, -(r["seat"] - 1), game_id, r["seat"]],
            )
        self._touch(conn, game_id)

    @writing
    def start_game(
        self,
        conn: Conn,
        game_id: int,
        seed: int,
        player_ids: Sequence[PlayerId],
        interaction_id: int | None = None,
        *,
        version: int | None = None,
        acting: Sequence[int] = (),
    ) -> None:
        """Fix the seat order: seat i (1-based) plays as player_ids[i-1]; `acting`: the seats
        that must act first."""
        self._change(conn, interaction_id, "start", game_id, version)
        for seat, pid in enumerate(player_ids, start=1):
            conn.execute(
                "UPDATE seats SET player_id = ? WHERE game_id = ? AND seat = ?",
                [json.dumps(pid), game_id, seat],
            )
        when = now()
        conn.execute(
            "UPDATE games SET status = ?, seed = ?, updated_at = ?, version = version + 1, "
            "moved_version = NULL, turn_since = ?, acting = ? WHERE id = ?",
            [ACTIVE, str(seed), when, when, seats_json(acting), game_id],
        )

    # -- the log -------------------------------------------------------------------------------
    @writing
    def append_action(
        self,
        conn: Conn,
        game_id: int,
        seq: int,
        user_id: int,
        payload: Action,
        *,
        finished: bool = False,
        interaction_id: int | None = None,
        text: str | None = None,
        answers: int | None = None,
        version: int | None = None,
        digest: str | None = None,
        quiet: bool = False,
        notes: Sequence[tuple[int, str]] = (),
        acting: Sequence[int] | None = None,
        computer: str | None = None,
    ) -> list[Request]:
        """Store one accepted action (seq = its 1-based place in the log), its sentence, the
        game status and the seats that must act now; `answers` is the deal it carries out
        (done; the other requests lapse, and are returned). `digest` names the move as the
        user sent it (see `repeated`); the row keeps the game version it was applied at. A
        `quiet` action moves nothing others see (a standing order set: see
        `_advance_quietly`). `notes` are (user, text) told to one user alone, kept until
        delivered (see `pending_notes`). `computer`: the level that made it (None: the user)."""
        when = now()
        self._change(conn, interaction_id, "act", game_id, version)
        if answers is not None:
            conn.execute("UPDATE requests SET status = 'done' WHERE id = ?", [answers])
        row = ActionRecord(game_id, seq, user_id, payload, when, text, computer)
        insert_action(conn, game_id, row, digest)
        for user, note in notes:
            conn.execute(
                "INSERT INTO notes (user_id, game_id, text, created_at) VALUES (?, ?, ?, ?)",
                [user, game_id, note, when],
            )
        if quiet:
            self._advance_quietly(conn, game_id, when)
            return []
        return self._advance(conn, game_id, FINISHED if finished else ACTIVE, when, acting)

    @writing
    def redo(
        self,
        conn: Conn,
        game_id: int,
        actions: Sequence[ActionRecord],
        texts: Sequence[str],
        *,
        finished: bool,
        version: int,
        interaction_id: int | None = None,
        acting: Sequence[int] | None = None,
    ) -> None:
        """Put undone actions back at the end of the log, each as first made (by its user or
        the computer), with the sentences the engine wrote for them now; only while the game is at `version`,
        the one the newest undo left. The undos made one right after another before it
        become redoable at the version this leaves, so redo after redo walks back through
        them all (until somebody moves)."""
        when = now()
        self._change(conn, interaction_id, "redo", game_id, version)
        for action, text in zip(actions, texts, strict=True):
            insert_action(conn, game_id, replace(action, created_at=when, text=text), None)
        conn.execute(  # redone: kept as history, never redone again
            "UPDATE undone_actions SET redo_version = NULL WHERE game_id = ? AND redo_version = ?",
            [game_id, version],
        )
        rows = conn.all(
            "SELECT DISTINCT redo_version AS v FROM undone_actions WHERE game_id = ? "
            "AND redo_version < ? ORDER BY v DESC",
            [game_id, version],
        )
        chain: list[int] = []  # each undo made at the version the one before it left
        for row in rows:
            if row["v"] != version - 1 - len(chain):
                break
            chain.append(row["v"])
        if chain:  # the whole chain moves up by two, so its links stay one version apart
            conn.execute(
                "UPDATE undone_actions SET redo_version = redo_version + 2 WHERE game_id = ? "
                "AND redo_version >= ? AND redo_version <= ?",
                [game_id, chain[-1], chain[0]],
            )
        self._advance(conn, game_id, FINISHED if finished else ACTIVE, when, acting)

    async def undo_last_action(
        self, game_id: int, undone_by: int, interaction_id: int | None = None
    ) -> ActionRecord:
        """Move the newest live action to `undone_actions`; the game is active again."""
        last = await self.action_count(game_id)
        if last == 0:
            raise LookupError(f"game {game_id} has no action to undo")
        return (await self.rewind(game_id, last - 1, undone_by, interaction_id))[0]

    @writing
    def rewind(
        self,
        conn: Conn,
        game_id: int,
        keep: int,
        undone_by: int,
        interaction_id: int | None = None,
        *,
        version: int | None = None,
    ) -> list[ActionRecord]:
        """Keep the first `keep` actions; move the later ones to `undone_actions` (returned,
        oldest first), redoable at the version this leaves. The game is active again (and
        unrated); who must act is not known until the service replays it (`set_acting`)."""
        when = now()
        self._change(conn, interaction_id, "undo", game_id, version)
        redo_version = (self._version(conn, game_id) or 0) + 1  # see _advance
        rows = conn.all(
            "SELECT * FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq", [game_id, keep]
        )
        if not rows:
            raise LookupError(f"game {game_id} has no action after {keep}")
        for row in rows:
            conn.execute(
                "INSERT INTO undone_actions (game_id, seq, user_id, payload, created_at, text, "
                "undone_by, undone_at, redo_version, computer) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    game_id,
                    row["seq"],
                    row["user_id"],
                    row["payload"],
                    row["created_at"],
                    row["text"],
                    undone_by,
                    when,
                    redo_version,
                    row["computer"],
                ],
            )
        conn.execute("DELETE FROM actions WHERE game_id = ? AND seq > ?", [game_id, keep])
        take_back(conn, game_id)  # a rated game's end is undone: so is its rating
        conn.execute("UPDATE games SET abandoned_at = NULL WHERE id = ?", [game_id])
        self._advance(conn, game_id, ACTIVE, when, None)
        return [action_record(r) for r in rows]

    @writing
    def import_game(
        self,
        conn: Conn,
        *,
        title: str,
        options: dict[str, Any],
        seed: int,
        creator_id: int,
        seats: Sequence[tuple[int, str, PlayerId]],
        actions: Sequence[Action],
        texts: Sequence[str],
        finished: bool,
        offers: Sequence[tuple[int, int]] = (),
        acting: Sequence[int] = (),
        guild_id: int | None = None,
        channel_id: int | None = None,
        thread_id: int | None = None,
        interaction_id: int | None = None,
        game_caps: tuple[int, int] | None = None,
    ) -> GameRecord:
        """A started game with its seats (user id, name, engine player id) and whole log,
        stored in one transaction (the actions are recorded as made by user 0, the import),
        its `offers`: (seat, user id) of the unclaimed seats offered to users, and the seats
        that must act. `OverCap` past `game_caps`."""
        when = now()
        self._change(conn, interaction_id, "import", None)
        caps.make_room(conn, game_caps, guild_id, creator_id)
        game_id = conn.insert(
            "INSERT INTO games (title, options, seat_limit, status, creator_id, guild_id, "
            "channel_id, thread_id, seed, created_at, updated_at, version, turn_since, acting) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?) RETURNING id",
            [
                title,
                json.dumps(options, sort_keys=True),
                len(seats),
                FINISHED if finished else ACTIVE,
                creator_id,
                guild_id,
                channel_id,
                thread_id,
                str(seed),
                when,
                when,
                when,
                seats_json(acting),
            ],
        )
        for seat, (user_id, name, player_id) in enumerate(seats, start=1):
            _insert_seat(conn, game_id, seat, user_id, name, player_id)
        for seq, (payload, text) in enumerate(zip(actions, texts, strict=True), start=1):
            conn.execute(
                "INSERT INTO actions (game_id, seq, user_id, payload, created_at, text) "
                "VALUES (?, ?, 0, ?, ?, ?)",
                [game_id, seq, json.dumps(payload, sort_keys=True), when, text],
            )
        for seat, user_id in offers:
            _offer(conn, game_id, seat, user_id, creator_id)
        self._link_interaction(conn, interaction_id, game_id)
        return self._game(conn, game_id)

    # -- administration ------------------------------------------------------------------------
    @writing
    def set_paused(
        self, conn: Conn, game_id: int, paused: bool, interaction_id: int | None = None
    ) -> None:
        """Pausing stops reminders; resuming restarts the turn clock."""
        self._change(conn, interaction_id, "pause" if paused else "resume", game_id)
        when = now()
        conn.execute(
            "UPDATE games SET paused = ?, updated_at = ?, turn_since = ?, reminded_at = NULL "
            "WHERE id = ?",
            [int(paused), when, when, game_id],
        )

    @writing
    def abandon(
        self,
        conn: Conn,
        game_id: int,
        interaction_id: int | None = None,
        *,
        version: int | None = None,
    ) -> None:
        """End the game without a result; the log is kept."""
        self._change(conn, interaction_id, "abandon", game_id, version)
        when = now()
        self._lapse_requests(conn, game_id)
        conn.execute(
            "UPDATE games SET status = ?, abandoned_at = ?, updated_at = ?, "
            "version = version + 1, moved_version = NULL WHERE id = ?",
            [FINISHED, when, when, game_id],
        )

    @writing
    def set_remind_hours(
        self, conn: Conn, game_id: int, hours: float | None, interaction_id: int | None = None
    ) -> None:
        self._change(conn, interaction_id, "remind", game_id)
        conn.execute("UPDATE games SET remind_hours = ? WHERE id = ?", [hours, game_id])

    @writing
    def mark_reminded(self, conn: Conn, game_ids: Sequence[int], when: str) -> None:
        for part in chunks(game_ids):
            conn.execute(
                f"UPDATE games SET reminded_at = ? WHERE id IN ({marks(part)})", [when, *part]
            )

    @writing
    def set_acting(self, conn: Conn, game_id: int, version: int, seats: Sequence[int]) -> bool:
        """The seats that must act at game `version` (nothing is written once the game moved
        on); whether they were stored."""
        return (
            conn.execute(
                "UPDATE games SET acting = ? WHERE id = ? AND version = ?",
                [seats_json(seats), game_id, version],
            )
            > 0
        )


def _seats(conn: Conn, game_id: int) -> list[SeatRecord]:
    rows = conn.all("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", [game_id])
    return [_seat_record(r) for r in rows]


def _seat_record(row: dict[str, Any]) -> SeatRecord:
    return SeatRecord(
        row["game_id"],
        row["seat"],
        row["user_id"],
        row["name"],
        None if row["player_id"] is None else json.loads(row["player_id"]),
        row["computer"],
    )


def _action_count(conn: Conn, game_id: int) -> int:
    row = conn.one("SELECT count(*) AS n FROM actions WHERE game_id = ?", [game_id])
    return int(row["n"]) if row else 0


def _insert_seat(
    conn: Conn,
    game_id: int,
    seat: int,
    user_id: int,
    name: str,
    player_id: PlayerId | None = None,
    computer: str | None = None,
) -> None:
    conn.execute(
        "INSERT INTO seats (game_id, seat, user_id, name, player_id, computer) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [
            game_id,
            seat,
            user_id,
            name,
            None if player_id is None else json.dumps(player_id),
            computer,
        ],
    )
