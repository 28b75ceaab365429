"""Where a game is posted: why the last post in its thread failed (kept until one succeeds,
so players and admins are told instead of a silence), and the game moved to a new thread
when its old one was deleted."""

from __future__ import annotations

from bot.core.store.base import StoreBase, now
from bot.core.store.connection import Conn, reading, writing
from bot.core.store.records import PostFailure


class PostingTables(StoreBase):
    @reading
    def post_failure(self, conn: Conn, game_id: int) -> PostFailure | None:
        row = conn.one(
            "SELECT kind, code, detail, failed_at FROM post_failures WHERE game_id = ?", [game_id]
        )
        return PostFailure(**row) if row else None

    @writing
    def set_post_failure(
        self, conn: Conn, game_id: int, kind: str, code: int | None, detail: str | None
    ) -> None:
        """A post in the game's thread failed; the first failure's time is kept while the
        same kind of failure goes on, so players see since when."""
        conn.execute(
            "INSERT INTO post_failures (game_id, kind, code, detail, failed_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
            "failed_at = CASE WHEN post_failures.kind = excluded.kind "
            "THEN post_failures.failed_at ELSE excluded.failed_at END, "
            "kind = excluded.kind, code = excluded.code, detail = excluded.detail",
            [game_id, kind, code, detail, now()],
        )

    @writing
    def clear_post_failure(self, conn: Conn, game_id: int) -> None:
        """A post in the game's thread succeeded. A deleted thread stays so (a success in it
        came before the deletion, however late this is told): a new thread forgets it."""
        conn.execute("DELETE FROM post_failures WHERE game_id = ? AND kind <> ?", [game_id, "gone"])

    @writing
    def move_thread(
        self,
        conn: Conn,
        game_id: int,
        channel_id: int,
        thread_id: int,
        interaction_id: int | None = None,
    ) -> None:
        """The game is played in a new thread from now on: its old thread's turn post and
        failure are forgotten."""
        self._change(conn, interaction_id, "thread", game_id)
        conn.execute(
            "UPDATE games SET channel_id = ?, thread_id = ?, updated_at = ? WHERE id = ?",
            [channel_id, thread_id, now(), game_id],
        )
        conn.execute("DELETE FROM turn_posts WHERE game_id = ?", [game_id])
        conn.execute("DELETE FROM post_failures WHERE game_id = ?", [game_id])
