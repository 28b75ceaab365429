"""What waits on players and the thread: undo votes and deals awaiting answers, previewed
moves awaiting Confirm, who was last mentioned, each game's turn post and the notes told to
one user alone."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.core.shards import Shards
from bot.core.store.base import StoreBase, game_record, now
from bot.core.store.connection import Conn, reading, writing
from bot.core.store.records import ACTIVE, DEAL, FINISHED, UNDO, GameRecord, Note, Preview, Request
from engine.game import Action


class RequestTables(StoreBase):
    # -- previewed moves awaiting Confirm ------------------------------------------------------
    @writing
    def save_preview(
        self,
        conn: Conn,
        token: str,
        game_id: int,
        version: int,
        user_id: int,
        action: Action,
        keep: int,
    ) -> None:
        """Store a previewed move; the game keeps only its `keep` newest previews."""
        conn.lock(game_id)
        row = conn.one(
            "SELECT coalesce(max(shown), 0) + 1 AS n FROM previews WHERE game_id = ?", [game_id]
        )
        shown = int(row["n"]) if row else 1
        conn.execute(
            "INSERT INTO previews (token, game_id, version, user_id, action, created_at, shown) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [token, game_id, version, user_id, json.dumps(action, sort_keys=True), now(), shown],
        )
        conn.execute(
            "DELETE FROM previews WHERE game_id = ? AND shown <= ?", [game_id, shown - keep]
        )

    @reading
    def preview(self, conn: Conn, token: str) -> Preview | None:
        row = conn.one("SELECT * FROM previews WHERE token = ?", [token])
        if row is None:
            return None
        return Preview(
            row["token"], row["game_id"], row["version"], row["user_id"], json.loads(row["action"])
        )

    @writing
    def drop_preview(self, conn: Conn, token: str) -> bool:
        """Remove a preview; False if it was already gone (confirmed or cancelled elsewhere)."""
        return conn.execute("DELETE FROM previews WHERE token = ?", [token]) > 0

    # -- the bot's own state ---------------------------------------------------------------------
    @reading
    def bot_value(self, conn: Conn, key: str) -> str | None:
        row = conn.one("SELECT value FROM bot_state WHERE key = ?", [key])
        return row["value"] if row else None

    @writing
    def set_bot_value(self, conn: Conn, key: str, value: str) -> None:
        conn.execute(
            "INSERT INTO bot_state (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [key, value],
        )

    # -- notes told to one user alone ------------------------------------------------------------
    @reading
    def pending_notes(self, conn: Conn, user_id: int, guild_id: int | None) -> list[Note]:
        """What waits to be told to the user alone, of their games in server `guild_id` (None:
        the console's), oldest first."""
        rows = conn.all(
            "SELECT n.id, n.user_id, n.game_id, n.text FROM notes n JOIN games g "
            "ON g.id = n.game_id WHERE n.user_id = ? AND n.delivered_at IS NULL AND "
            + ("g.guild_id IS NULL" if guild_id is None else "g.guild_id = ?")
            + " ORDER BY n.id",
            [user_id] if guild_id is None else [user_id, guild_id],
        )
        return [Note(**r) for r in rows]

    @writing
    def mark_delivered(self, conn: Conn, note_ids: Sequence[int]) -> None:
        for note_id in note_ids:
            conn.execute(
                "UPDATE notes SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL",
                [now(), note_id],
            )

    # -- the thread -----------------------------------------------------------------------------
    @writing
    def set_mentioned(self, conn: Conn, game_id: int, user_ids: Sequence[int]) -> None:
        """Who was last mentioned as having to act in the game's thread."""
        conn.execute(
            "UPDATE games SET mentioned = ? WHERE id = ?", [json.dumps(list(user_ids)), game_id]
        )

    @reading
    def turn_post(self, conn: Conn, game_id: int) -> tuple[int, dict[str, Any]] | None:
        """The message id and poster state of the game's turn post (see `set_turn_post`)."""
        row = conn.one("SELECT message_id, state FROM turn_posts WHERE game_id = ?", [game_id])
        return (row["message_id"], json.loads(row["state"])) if row else None

    @writing
    def set_turn_post(
        self, conn: Conn, game_id: int, message_id: int, state: dict[str, Any]
    ) -> None:
        """Remember the thread post of the turn under way and what it shows (a JSON object
        the poster alone reads), so a restart goes on editing it."""
        conn.execute(
            "INSERT INTO turn_posts (game_id, message_id, state) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET message_id = excluded.message_id, "
            "state = excluded.state",
            [game_id, message_id, json.dumps(state, sort_keys=True)],
        )

    @reading
    def posts_behind(self, conn: Conn, shards: Shards | None) -> list[tuple[GameRecord, list[str]]]:
        """Games (of the servers `shards` serve) whose turn post shows an older version than
        the stored game, with the sentences of the moves made since: a process stored them
        and stopped before posting them. A post stored without its version is not known to
        be behind."""
        served, params = self._served(shards, "g.guild_id") if shards else ("1 = 1", [])
        rows = conn.all(
            f"SELECT g.*, t.state AS post_state FROM games g JOIN turn_posts t ON "
            f"t.game_id = g.id WHERE g.status IN (?, ?) AND {served} ORDER BY g.id",
            [ACTIVE, FINISHED, *params],
        )
        out = []
        for row in rows:
            shown = json.loads(row.pop("post_state")).get("version")
            if shown is None or shown >= row["version"]:
                continue
            texts = conn.all(
                "SELECT text FROM actions WHERE game_id = ? AND version >= ? ORDER BY seq",
                [row["id"], shown],
            )
            out.append((game_record(row), [t["text"] for t in texts if t["text"]]))
        return out

    @reading
    def lobby_post(self, conn: Conn, game_id: int) -> tuple[int, int] | None:
        """The channel and message id of the game's public lobby message."""
        row = conn.one(
            "SELECT channel_id, message_id FROM lobby_posts WHERE game_id = ?", [game_id]
        )
        return (row["channel_id"], row["message_id"]) if row else None

    @writing
    def set_lobby_post(self, conn: Conn, game_id: int, where: tuple[int, int] | None) -> None:
        """Remember the game's lobby message (channel id, message id); None: it has none any
        more (its channel is gone)."""
        if where is None:
            conn.execute("DELETE FROM lobby_posts WHERE game_id = ?", [game_id])
            return
        conn.execute(
            "INSERT INTO lobby_posts (game_id, channel_id, message_id) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET channel_id = excluded.channel_id, "
            "message_id = excluded.message_id",
            [game_id, *where],
        )

    # -- undo votes and deals ------------------------------------------------------------------
    @writing
    def open_undo_request(
        self,
        conn: Conn,
        game_id: int,
        keep: int,
        version: int,
        requested_by: int,
        interaction_id: int | None = None,
    ) -> Request:
        """A new undo vote; the requester's older open undo request of the game becomes void
        (one each at most)."""
        self._change(conn, interaction_id, "undo_request", game_id)
        conn.execute(
            "UPDATE requests SET status = 'void' WHERE game_id = ? AND kind = ? AND "
            "requested_by = ? AND status = 'open'",
            [game_id, UNDO, requested_by],
        )
        request_id = _insert_request(conn, game_id, UNDO, version, requested_by, keep=keep)
        return self._requests(conn, "id = ?", [request_id])[0]

    @writing
    def open_deal(
        self,
        conn: Conn,
        game_id: int,
        version: int,
        requested_by: int,
        action: Action,
        text: str,
        interaction_id: int | None = None,
    ) -> tuple[Request, list[Request]]:
        """A deal awaiting the other owner's answer; it withdraws the requester's older open
        deals of the game (returned with the new one)."""
        self._change(conn, interaction_id, "deal", game_id)
        mine = "game_id = ? AND kind = ? AND requested_by = ? AND status = 'open'"
        replaced = self._requests(conn, mine, [game_id, DEAL, requested_by])
        conn.execute(
            f"UPDATE requests SET status = 'rejected' WHERE {mine}", [game_id, DEAL, requested_by]
        )
        request_id = _insert_request(
            conn,
            game_id,
            DEAL,
            version,
            requested_by,
            action=json.dumps(action, sort_keys=True),
            text=text,
        )
        return self._requests(conn, "id = ?", [request_id])[0], replaced

    @writing
    def ping_due(
        self,
        conn: Conn,
        kind: str,
        requested_by: int,
        users: Sequence[int],
        now: str,
        since: str,
    ) -> list[int]:
        """Those of `users` not pinged about a `kind` request from `requested_by` after
        `since` (stored times compare as text): they are pinged now, which is recorded in
        the same statement, so two processes never both ping one."""
        due = []
        for user_id in users:
            row = conn.one(
                "INSERT INTO request_pings (user_id, requested_by, kind, pinged_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (user_id, requested_by, kind) "
                "DO UPDATE SET pinged_at = excluded.pinged_at "
                "WHERE request_pings.pinged_at <= ? RETURNING user_id",
                [user_id, requested_by, kind, now, since],
            )
            if row is not None:
                due.append(int(row["user_id"]))
        return due

    @reading
    def request(self, conn: Conn, request_id: int) -> Request | None:
        found = self._requests(conn, "id = ?", [request_id])
        return found[0] if found else None

    @reading
    def open_requests(self, conn: Conn, game_id: int) -> list[Request]:
        """The game's requests still awaiting answers, oldest first."""
        return self._requests(conn, "game_id = ? AND status = 'open'", [game_id])

    @writing
    def vote(
        self,
        conn: Conn,
        request_id: int,
        user_id: int,
        approve: bool,
        interaction_id: int | None = None,
    ) -> dict[int, bool]:
        """Record (or change) one vote; return every vote so far by user id."""
        row = conn.one("SELECT game_id FROM requests WHERE id = ?", [request_id])
        self._change(conn, interaction_id, "vote", row["game_id"] if row else None)
        conn.execute(
            "INSERT INTO request_votes (request_id, user_id, approve) VALUES (?, ?, ?) "
            "ON CONFLICT (request_id, user_id) DO UPDATE SET approve = excluded.approve",
            [request_id, user_id, int(approve)],
        )
        return _votes(conn, request_id)

    @reading
    def votes(self, conn: Conn, request_id: int) -> dict[int, bool]:
        return _votes(conn, request_id)

    @writing
    def close_request(self, conn: Conn, request_id: int, status: str) -> None:
        conn.execute("UPDATE requests SET status = ? WHERE id = ?", [status, request_id])


def _votes(conn: Conn, request_id: int) -> dict[int, bool]:
    rows = conn.all("SELECT user_id, approve FROM request_votes WHERE request_id = ?", [request_id])
    return {r["user_id"]: bool(r["approve"]) for r in rows}


def _insert_request(
    conn: Conn, game_id: int, kind: str, version: int, requested_by: int, **fields: Any
) -> int:
    names = ["game_id", "kind", "version", "requested_by", "status", "created_at", *fields]
    values = [game_id, kind, version, requested_by, "open", now(), *fields.values()]
    return conn.insert(
        f"INSERT INTO requests ({', '.join(names)}) VALUES ({', '.join('?' * len(names))}) "
        "RETURNING id",
        values,
    )
