"""The SQLite game store: games, seats, the append-only action log and the requests awaiting
players' answers (undo votes, deals), with sqlite-utils in WAL mode.

Every state change is one write transaction begun IMMEDIATE (the write lock is taken first,
waiting up to a busy timeout, so a transaction is never refused half-way for a lock another
process holds), so an action, a join or a start is stored whole or not at all. Changes to a
game can name the game version they were computed from: if another process (the bot and
`railchat local` may share one file) changed the game since, `StaleGame` is raised and nothing
is written. Calls are short; the store holds no game logic. Engine player ids are stored
JSON-encoded because titles use ints (seat numbers) or strings (imported files).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from bot.core.migrations import MIGRATIONS
from engine.game import Action, PlayerId

log = logging.getLogger(__name__)

OPEN, ACTIVE, FINISHED = "open", "active", "finished"
UNDO, DEAL = "undo", "deal"  # the kinds of request


BUSY_TIMEOUT = 15.0  # seconds a write waits for another connection's write to finish


class DuplicateInteraction(Exception):
    """This interaction id was already handled; the change it carried was not applied again."""


class StaleGame(Exception):
    """The game changed (another process wrote) since the version a change was computed from;
    nothing was written."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    title: str
    options: dict[str, Any]
    seat_limit: int
    status: str
    creator_id: int
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    seed: int | None
    created_at: str
    updated_at: str
    version: int = 0
    paused: bool = False
    abandoned_at: str | None = None
    remind_hours: float | None = None
    turn_since: str | None = None
    reminded_at: str | None = None
    mentioned: tuple[int, ...] = ()  # who was last @mentioned as having to act

    @property
    def abandoned(self) -> bool:
        return self.abandoned_at is not None


@dataclass(frozen=True)
class SeatRecord:
    game_id: int
    seat: int
    user_id: int
    name: str
    player_id: PlayerId | None


@dataclass(frozen=True)
class ActionRecord:
    game_id: int
    seq: int
    user_id: int
    payload: Action
    created_at: str
    text: str | None = None  # the engine's sentence when it was accepted


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Undone:
    """The actions one undo (or rewind) took back, oldest first; `redo_version` is the game
    version the undo left, at which alone they may be redone."""

    undone_by: int
    redo_version: int
    actions: tuple[ActionRecord, ...]


@dataclass(frozen=True)
class Request:
    """A question to other players about game `version`: an undo (take the log back to `keep`
    actions; the affected players vote) or a deal (apply `action` for the requester once the
    player whose property it takes agrees). `text` tells what the deal does."""

    id: int
    game_id: int
    kind: str
    version: int
    requested_by: int
    status: str
    created_at: str
    keep: int | None = None
    action: Action | None = None
    text: str | None = None


@dataclass(frozen=True)
class Preview:
    """A move shown to one player, made when they confirm it while the game is at `version`."""

    token: str
    game_id: int
    version: int
    user_id: int
    action: Action


class Store:
    def __init__(
        self, path: str | Path, *, busy_timeout: float = BUSY_TIMEOUT, durable: bool = True
    ) -> None:
        """`durable=False` skips the disk flush of each commit (a throwaway database, such as
        the fuzzer's: what it checks does not depend on surviving a power cut)."""
        self.path = str(path)
        self.db = Database(sqlite3.connect(self.path, timeout=busy_timeout))
        self.db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        if self.path != ":memory:":
            self.db.enable_wal()
        if not durable:
            self.db.execute("PRAGMA synchronous = OFF")
        self.db.execute("PRAGMA foreign_keys = ON")
        with self._write():  # two processes opening one new file migrate it once
            MIGRATIONS.apply(self.db)

    def close(self) -> None:
        self.db.close()

    @property
    def schema_version(self) -> int:
        """How many forward migrations this database has applied."""
        return len(MIGRATIONS.applied(self.db))

    # -- reading -------------------------------------------------------------------------------
    def game(self, game_id: int) -> GameRecord | None:
        row = self._one("SELECT * FROM games WHERE id = ?", [game_id])
        return _game(row) if row else None

    def game_by_thread(self, thread_id: int) -> GameRecord | None:
        row = self._one("SELECT * FROM games WHERE thread_id = ?", [thread_id])
        return _game(row) if row else None

    def games(
        self, *, guild_id: int | None = None, statuses: Iterable[str] | None = None, limit: int = 50
    ) -> list[GameRecord]:
        """Newest first; filters combine."""
        where, params = [], []
        if guild_id is not None:
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
        return [_game(r) for r in self._all(sql, [*params, limit])]

    def seats(self, game_id: int) -> list[SeatRecord]:
        rows = self._all("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", [game_id])
        return [
            SeatRecord(
                r["game_id"],
                r["seat"],
                r["user_id"],
                r["name"],
                None if r["player_id"] is None else json.loads(r["player_id"]),
            )
            for r in rows
        ]

    def actions(self, game_id: int) -> list[ActionRecord]:
        rows = self._all("SELECT * FROM actions WHERE game_id = ? ORDER BY seq", [game_id])
        return [_action(r) for r in rows]

    def action_count(self, game_id: int) -> int:
        return self._one("SELECT count(*) AS n FROM actions WHERE game_id = ?", [game_id])["n"]

    def version(self, game_id: int) -> int | None:
        row = self._one("SELECT version FROM games WHERE id = ?", [game_id])
        return row["version"] if row else None

    def repeated(self, game_id: int, since: int, user_id: int, digest: str | None) -> bool:
        """Whether the user's move `digest` (None: any move) was stored at game version
        `since` or later (the same move sent twice against one version is applied once)."""
        return (
            self._one(
                "SELECT 1 AS x FROM actions WHERE game_id = ? AND version >= ? AND "
                "user_id = ? AND (? IS NULL OR digest = ?)",
                [game_id, since, user_id, digest, digest],
            )
            is not None
        )

    def seen_interaction(self, interaction_id: int) -> bool:
        return (
            self._one("SELECT 1 AS x FROM interactions WHERE id = ?", [interaction_id]) is not None
        )

    # -- writing (each method is one transaction) ----------------------------------------------
    def create_game(
        self,
        *,
        title: str,
        options: dict[str, Any],
        seat_limit: int,
        creator_id: int,
        guild_id: int | None = None,
        channel_id: int | None = None,
        thread_id: int | None = None,
        first_seat: tuple[int, str] | None = None,
        interaction_id: int | None = None,
    ) -> GameRecord:
        now = _now()
        with self._change(interaction_id, "new", None):
            game_id = (
                self.db["games"]
                .insert(
                    {
                        "title": title,
                        "options": json.dumps(options, sort_keys=True),
                        "seat_limit": seat_limit,
                        "status": OPEN,
                        "creator_id": creator_id,
                        "guild_id": guild_id,
                        "channel_id": channel_id,
                        "thread_id": thread_id,
                        "seed": None,
                        "created_at": now,
                        "updated_at": now,
                    }
                )
                .last_pk
            )
            if first_seat is not None:
                self._insert_seat(game_id, 1, *first_seat)
            self._link_interaction(interaction_id, game_id)
        return self._created(game_id)

    def add_seat(
        self, game_id: int, user_id: int, name: str, interaction_id: int | None = None
    ) -> int:
        """Seat the user after the last taken seat; return the seat number. `StaleGame` when
        the game started or filled up meanwhile (another process seated someone)."""
        with self._change(interaction_id, "join", game_id):
            seat = self._one(
                "SELECT coalesce(max(seat), 0) + 1 AS s FROM seats WHERE game_id = ?", [game_id]
            )["s"]
            open_seats = self._one(
                "SELECT 1 AS x FROM games WHERE id = ? AND status = ? AND seat_limit >= ?",
                [game_id, OPEN, seat],
            )
            if open_seats is None:
                raise StaleGame(f"game {game_id} is no longer open for seat {seat}")
            self._insert_seat(game_id, seat, user_id, name)
            self._touch(game_id)
        return seat

    def remove_seat(self, game_id: int, user_id: int, interaction_id: int | None = None) -> None:
        """Free the user's seat and close the gap so seats stay numbered 1..n in join order."""
        with self._change(interaction_id, "leave", game_id):
            if (
                self._one("SELECT 1 AS x FROM games WHERE id = ? AND status = ?", [game_id, OPEN])
                is None
            ):
                raise StaleGame(f"game {game_id} has started meanwhile")
            seat = self._one(
                "SELECT seat FROM seats WHERE game_id = ? AND user_id = ?", [game_id, user_id]
            )["seat"]
            self.db.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", [game_id, seat])
            later = [
                r["seat"]
                for r in self._all(
                    "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat",
                    [game_id, seat],
                )
            ]
            for s in later:
                self.db.execute(
                    "UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?", [s - 1, game_id, s]
                )
            self._touch(game_id)

    def start_game(
        self,
        game_id: int,
        seed: int,
        player_ids: Sequence[PlayerId],
        interaction_id: int | None = None,
        *,
        version: int | None = None,
    ) -> None:
        """Fix the seat order: seat i (1-based) plays as player_ids[i-1]."""
        with self._change(interaction_id, "start", game_id, version):
            for seat, pid in enumerate(player_ids, start=1):
                self.db.execute(
                    "UPDATE seats SET player_id = ? WHERE game_id = ? AND seat = ?",
                    [json.dumps(pid), game_id, seat],
                )
            now = _now()
            self.db.execute(
                "UPDATE games SET status = ?, seed = ?, updated_at = ?, "
                "version = version + 1, turn_since = ? WHERE id = ?",
                [ACTIVE, seed, now, now, game_id],
            )

    def append_action(
        self,
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
    ) -> None:
        """Store one accepted action (seq = its 1-based place in the log), its sentence and
        the game status; `answers` is the deal it carries out (done; other requests lapse).
        `digest` names the move as the user sent it (see `repeated`); the row keeps the game
        version it was applied at."""
        now = _now()
        with self._change(interaction_id, "act", game_id, version):
            if answers is not None:
                self.db.execute("UPDATE requests SET status = 'done' WHERE id = ?", [answers])
            self._insert_action(game_id, seq, user_id, payload, now, text, digest)
            self._advance(game_id, FINISHED if finished else ACTIVE, now)

    def last_undone(self, game_id: int) -> Undone | None:
        """The actions the game's latest undo or rewind took back (None: nothing was)."""
        row = self._one(
            "SELECT max(redo_version) AS v FROM undone_actions WHERE game_id = ?", [game_id]
        )
        if row is None or row["v"] is None:
            return None
        rows = self._all(
            "SELECT * FROM undone_actions WHERE game_id = ? AND redo_version = ? ORDER BY seq",
            [game_id, row["v"]],
        )
        return Undone(rows[0]["undone_by"], row["v"], tuple(_action(r) for r in rows))

    def redo(
        self,
        game_id: int,
        actions: Sequence[ActionRecord],
        texts: Sequence[str],
        *,
        finished: bool,
        version: int,
        interaction_id: int | None = None,
    ) -> None:
        """Put undone actions back at the end of the log, each by its original user, with
        the sentences the engine wrote for them now; only while the game is at `version`."""
        now = _now()
        with self._change(interaction_id, "redo", game_id, version):
            for action, text in zip(actions, texts, strict=True):
                self._insert_action(
                    game_id, action.seq, action.user_id, action.payload, now, text, None
                )
            self._advance(game_id, FINISHED if finished else ACTIVE, now)

    def undo_last_action(
        self, game_id: int, undone_by: int, interaction_id: int | None = None
    ) -> ActionRecord:
        """Move the newest live action to `undone_actions`; the game is active again."""
        last = self.action_count(game_id)
        if last == 0:
            raise LookupError(f"game {game_id} has no action to undo")
        return self.rewind(game_id, last - 1, undone_by, interaction_id)[0]

    def rewind(
        self,
        game_id: int,
        keep: int,
        undone_by: int,
        interaction_id: int | None = None,
        *,
        version: int | None = None,
    ) -> list[ActionRecord]:
        """Keep the first `keep` actions; move the later ones to `undone_actions` (returned,
        oldest first), redoable at the version this leaves. The game is active again."""
        now = _now()
        with self._change(interaction_id, "undo", game_id, version):
            redo_version = (self.version(game_id) or 0) + 1  # see _advance
            rows = self._all(
                "SELECT * FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq", [game_id, keep]
            )
            if not rows:
                raise LookupError(f"game {game_id} has no action after {keep}")
            for row in rows:
                self.db["undone_actions"].insert(
                    {
                        "game_id": game_id,
                        "seq": row["seq"],
                        "user_id": row["user_id"],
                        "payload": row["payload"],
                        "created_at": row["created_at"],
                        "text": row["text"],
                        "undone_by": undone_by,
                        "undone_at": now,
                        "redo_version": redo_version,
                    }
                )
            self.db.execute("DELETE FROM actions WHERE game_id = ? AND seq > ?", [game_id, keep])
            self.db.execute("UPDATE games SET abandoned_at = NULL WHERE id = ?", [game_id])
            self._advance(game_id, ACTIVE, now)
        return [_action(r) for r in rows]

    def import_game(
        self,
        *,
        title: str,
        options: dict[str, Any],
        seed: int,
        creator_id: int,
        seats: Sequence[tuple[int, str, PlayerId]],
        actions: Sequence[Action],
        texts: Sequence[str],
        finished: bool,
        guild_id: int | None = None,
        channel_id: int | None = None,
        thread_id: int | None = None,
        interaction_id: int | None = None,
    ) -> GameRecord:
        """A started game with its seats (user id, name, engine player id) and whole log,
        stored in one transaction (the actions are recorded as made by user 0, the import)."""
        now = _now()
        with self._change(interaction_id, "import", None):
            game_id = (
                self.db["games"]
                .insert(
                    {
                        "title": title,
                        "options": json.dumps(options, sort_keys=True),
                        "seat_limit": len(seats),
                        "status": FINISHED if finished else ACTIVE,
                        "creator_id": creator_id,
                        "guild_id": guild_id,
                        "channel_id": channel_id,
                        "thread_id": thread_id,
                        "seed": seed,
                        "created_at": now,
                        "updated_at": now,
                        "version": 1,
                        "turn_since": now,
                    }
                )
                .last_pk
            )
            for seat, (user_id, name, player_id) in enumerate(seats, start=1):
                self._insert_seat(game_id, seat, user_id, name, player_id)
            self.db["actions"].insert_all(
                {
                    "game_id": game_id,
                    "seq": seq,
                    "user_id": 0,
                    "payload": json.dumps(payload, sort_keys=True),
                    "created_at": now,
                    "text": text,
                }
                for seq, (payload, text) in enumerate(zip(actions, texts, strict=True), start=1)
            )
            self._link_interaction(interaction_id, game_id)
        return self._created(game_id)

    def replace_seat(
        self, game_id: int, seat: int, user_id: int, name: str, interaction_id: int | None = None
    ) -> None:
        """Hand a seat (and its engine player) to another user."""
        with self._change(interaction_id, "replace", game_id):
            self.db.execute(
                "UPDATE seats SET user_id = ?, name = ? WHERE game_id = ? AND seat = ?",
                [user_id, name, game_id, seat],
            )
            self._touch(game_id)

    def set_paused(self, game_id: int, paused: bool, interaction_id: int | None = None) -> None:
        """Pausing stops reminders; resuming restarts the turn clock."""
        with self._change(interaction_id, "pause" if paused else "resume", game_id):
            now = _now()
            self.db.execute(
                "UPDATE games SET paused = ?, updated_at = ?, turn_since = ?, "
                "reminded_at = NULL WHERE id = ?",
                [int(paused), now, now, game_id],
            )

    def abandon(
        self, game_id: int, interaction_id: int | None = None, *, version: int | None = None
    ) -> None:
        """End the game without a result; the log is kept."""
        with self._change(interaction_id, "abandon", game_id, version):
            now = _now()
            self._lapse_requests(game_id)
            self.db.execute(
                "UPDATE games SET status = ?, abandoned_at = ?, updated_at = ?, "
                "version = version + 1 WHERE id = ?",
                [FINISHED, now, now, game_id],
            )

    def set_remind_hours(
        self, game_id: int, hours: float | None, interaction_id: int | None = None
    ) -> None:
        with self._change(interaction_id, "remind", game_id):
            self.db.execute("UPDATE games SET remind_hours = ? WHERE id = ?", [hours, game_id])

    def mark_reminded(self, game_id: int, when: str) -> None:
        with self._write():
            self.db.execute("UPDATE games SET reminded_at = ? WHERE id = ?", [when, game_id])

    # -- previewed moves awaiting Confirm ------------------------------------------------------
    def save_preview(
        self, token: str, game_id: int, version: int, user_id: int, action: Action, keep: int
    ) -> None:
        """Store a previewed move; only the `keep` newest previews are kept."""
        with self._write():
            self.db.execute(
                "INSERT INTO previews (token, game_id, version, user_id, action, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?)",
                [token, game_id, version, user_id, json.dumps(action, sort_keys=True), _now()],
            )
            self.db.execute(
                "DELETE FROM previews WHERE rowid NOT IN (SELECT rowid FROM "
                "previews ORDER BY rowid DESC LIMIT ?)",
                [keep],
            )

    def preview(self, token: str) -> Preview | None:
        row = self._one("SELECT * FROM previews WHERE token = ?", [token])
        if row is None:
            return None
        return Preview(
            row["token"], row["game_id"], row["version"], row["user_id"], json.loads(row["action"])
        )

    def drop_preview(self, token: str) -> bool:
        """Remove a preview; False if it was already gone (confirmed or cancelled elsewhere)."""
        with self._write():
            return self.db.execute("DELETE FROM previews WHERE token = ?", [token]).rowcount > 0

    # -- notifications and undo votes ----------------------------------------------------------
    def wants_dm(self, user_id: int) -> bool:
        row = self._one("SELECT dm FROM notify_prefs WHERE user_id = ?", [user_id])
        return bool(row and row["dm"])

    def set_dm(self, user_id: int, dm: bool) -> None:
        with self._write():
            self.db["notify_prefs"].upsert({"user_id": user_id, "dm": int(dm)}, pk="user_id")

    def open_undo_request(
        self,
        game_id: int,
        keep: int,
        version: int,
        requested_by: int,
        interaction_id: int | None = None,
    ) -> Request:
        """A new undo vote; any older open undo request of the game becomes void."""
        with self._change(interaction_id, "undo_request", game_id):
            self.db.execute(
                "UPDATE requests SET status = 'void' WHERE game_id = ? AND "
                "kind = ? AND status = 'open'",
                [game_id, UNDO],
            )
            request_id = self._insert_request(game_id, UNDO, version, requested_by, keep=keep)
        return self._request(request_id)

    def open_deal(
        self,
        game_id: int,
        version: int,
        requested_by: int,
        action: Action,
        text: str,
        interaction_id: int | None = None,
    ) -> tuple[Request, list[Request]]:
        """A deal awaiting the other owner's answer; it withdraws the requester's older open
        deals of the game (returned with the new one)."""
        with self._change(interaction_id, "deal", game_id):
            replaced = self._requests(
                "game_id = ? AND kind = ? AND requested_by = ? AND status = 'open'",
                [game_id, DEAL, requested_by],
            )
            self.db.execute(
                "UPDATE requests SET status = 'rejected' WHERE game_id = ? AND "
                "kind = ? AND requested_by = ? AND status = 'open'",
                [game_id, DEAL, requested_by],
            )
            request_id = self._insert_request(
                game_id,
                DEAL,
                version,
                requested_by,
                action=json.dumps(action, sort_keys=True),
                text=text,
            )
        return self._request(request_id), replaced

    def request(self, request_id: int) -> Request | None:
        found = self._requests("id = ?", [request_id])
        return found[0] if found else None

    def open_requests(self, game_id: int) -> list[Request]:
        """The game's requests still awaiting answers, oldest first."""
        return self._requests("game_id = ? AND status = 'open'", [game_id])

    def vote(
        self, request_id: int, user_id: int, approve: bool, interaction_id: int | None = None
    ) -> dict[int, bool]:
        """Record (or change) one vote; return every vote so far by user id."""
        game_id = self._one("SELECT game_id FROM requests WHERE id = ?", [request_id])["game_id"]
        with self._change(interaction_id, "vote", game_id):
            self.db["request_votes"].upsert(
                {"request_id": request_id, "user_id": user_id, "approve": int(approve)},
                pk=("request_id", "user_id"),
            )
        return self.votes(request_id)

    def votes(self, request_id: int) -> dict[int, bool]:
        rows = self._all(
            "SELECT user_id, approve FROM request_votes WHERE request_id = ?", [request_id]
        )
        return {r["user_id"]: bool(r["approve"]) for r in rows}

    def close_request(self, request_id: int, status: str) -> None:
        with self._write():
            self.db.execute("UPDATE requests SET status = ? WHERE id = ?", [status, request_id])

    def set_mentioned(self, game_id: int, user_ids: Sequence[int]) -> None:
        """Who was last mentioned as having to act in the game's thread."""
        with self._write():
            self.db.execute(
                "UPDATE games SET mentioned = ? WHERE id = ?", [json.dumps(list(user_ids)), game_id]
            )

    def turn_post(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        """The message id and poster state of the game's turn post (see `set_turn_post`)."""
        row = self._one("SELECT message_id, state FROM turn_posts WHERE game_id = ?", [game_id])
        return (row["message_id"], json.loads(row["state"])) if row else None

    def set_turn_post(self, game_id: int, message_id: int, state: dict[str, Any]) -> None:
        """Remember the thread post of the turn under way and what it shows (a JSON object
        the poster alone reads), so a restart goes on editing it."""
        with self._write():
            self.db["turn_posts"].upsert(
                {
                    "game_id": game_id,
                    "message_id": message_id,
                    "state": json.dumps(state, sort_keys=True),
                },
                pk="game_id",
            )

    # -- helpers -------------------------------------------------------------------------------
    @contextmanager
    def _write(self) -> Iterator[None]:
        """One write transaction, begun IMMEDIATE (nested: a savepoint)."""
        if self.db.conn.in_transaction:
            with self.db.atomic():
                yield
            return
        self.db.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.conn.rollback()
            raise
        self.db.conn.execute("COMMIT")

    @contextmanager
    def _change(
        self, interaction_id: int | None, kind: str, game_id: int | None, version: int | None = None
    ) -> Iterator[None]:
        """One transaction that also records the interaction id that asked for it (if any);
        with a `version`, only while the game is still at that version."""
        with self._write():
            if version is not None and game_id is not None:
                stored = self.version(game_id)
                if stored != version:
                    raise StaleGame(f"game {game_id} is at version {stored}, not {version}")
            if interaction_id is not None:
                try:
                    self.db.execute(
                        "INSERT INTO interactions (id, game_id, kind, created_at) "
                        "VALUES (?, ?, ?, ?)",
                        [interaction_id, game_id, kind, _now()],
                    )
                except sqlite3.IntegrityError:
                    raise DuplicateInteraction(interaction_id) from None
            yield

    def _insert_action(
        self,
        game_id: int,
        seq: int,
        user_id: int,
        payload: Action,
        now: str,
        text: str | None,
        digest: str | None,
    ) -> None:
        self.db["actions"].insert(
            {
                "game_id": game_id,
                "seq": seq,
                "user_id": user_id,
                "payload": json.dumps(payload, sort_keys=True),
                "created_at": now,
                "text": text,
                "version": self.version(game_id),
                "digest": digest,
            }
        )

    def _insert_request(
        self, game_id: int, kind: str, version: int, requested_by: int, **fields: Any
    ) -> int:
        return (
            self.db["requests"]
            .insert(
                {
                    "game_id": game_id,
                    "kind": kind,
                    "version": version,
                    "requested_by": requested_by,
                    "status": "open",
                    "created_at": _now(),
                    **fields,
                }
            )
            .last_pk
        )

    def _request(self, request_id: int) -> Request:
        found = self.request(request_id)
        assert found is not None
        return found

    def _requests(self, where: str, params: Sequence[Any]) -> list[Request]:
        rows = self._all(f"SELECT * FROM requests WHERE {where} ORDER BY id", params)
        return [
            Request(**{**r, "action": None if r["action"] is None else json.loads(r["action"])})
            for r in rows
        ]

    def _insert_seat(
        self, game_id: int, seat: int, user_id: int, name: str, player_id: PlayerId | None = None
    ) -> None:
        self.db["seats"].insert(
            {
                "game_id": game_id,
                "seat": seat,
                "user_id": user_id,
                "name": name,
                "player_id": None if player_id is None else json.dumps(player_id),
            }
        )

    def _link_interaction(self, interaction_id: int | None, game_id: int) -> None:
        """A new game's id, on the interaction row written before the game existed."""
        if interaction_id is not None:
            self.db.execute(
                "UPDATE interactions SET game_id = ? WHERE id = ?", [game_id, interaction_id]
            )

    def _created(self, game_id: int) -> GameRecord:
        created = self.game(game_id)
        assert created is not None
        return created

    def _advance(self, game_id: int, status: str, now: str) -> None:
        """The log changed: a new version, a new turn clock, no reminder sent for it yet, and
        every open request (asked about the old position) lapses."""
        self._lapse_requests(game_id)
        self.db.execute(
            "UPDATE games SET status = ?, updated_at = ?, version = version + 1, "
            "turn_since = ?, reminded_at = NULL WHERE id = ?",
            [status, now, now, game_id],
        )

    def _lapse_requests(self, game_id: int) -> None:
        self.db.execute(
            "UPDATE requests SET status = 'void' WHERE game_id = ? AND status = 'open'", [game_id]
        )

    def _touch(self, game_id: int) -> None:
        self.db.execute("UPDATE games SET updated_at = ? WHERE id = ?", [_now(), game_id])

    def _one(self, sql: str, params: Sequence[Any]) -> dict[str, Any] | None:
        return next(iter(self._all(sql, params)), None)

    def _all(self, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
        cursor = self.db.execute(sql, list(params))
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]


def _action(row: dict[str, Any]) -> ActionRecord:
    return ActionRecord(
        row["game_id"],
        row["seq"],
        row["user_id"],
        json.loads(row["payload"]),
        row["created_at"],
        row["text"],
    )


def _game(row: dict[str, Any]) -> GameRecord:
    return GameRecord(
        **{
            **row,
            "options": json.loads(row["options"]),
            "paused": bool(row["paused"]),
            "mentioned": tuple(json.loads(row["mentioned"] or "[]")),
        }
    )
