"""The caps on games not yet over (per server, per user who opened them), counted inside the
transaction that makes a game: a count made before it lets creators racing each other all
pass together."""

from __future__ import annotations

from bot.core.store.connection import Conn
from bot.core.store.records import ACTIVE, OPEN, OverCap

# The lock spaces of a server's and of a user's new games, and of a server's ratings
# (`Conn.lock_in`).
SERVER_GAMES, USER_GAMES, RATINGS = 1, 2, 3


def open_counts(conn: Conn, guild_id: int | None, creator_id: int) -> tuple[int, int]:
    """How many games not yet over the server has (None: the console), and the creator has
    opened."""
    row = conn.one(
        "SELECT (SELECT count(*) FROM games WHERE (guild_id = ? OR (guild_id IS NULL AND "
        "CAST(? AS BIGINT) IS NULL)) AND status IN (?, ?)) AS here, (SELECT count(*) FROM "
        "games WHERE creator_id = ? AND status IN (?, ?)) AS theirs",
        [guild_id, guild_id, OPEN, ACTIVE, creator_id, OPEN, ACTIVE],
    )
    assert row is not None
    return int(row["here"]), int(row["theirs"])


def past_caps(caps: tuple[int, int], here: int, theirs: int) -> bool:
    """Whether one more game would pass `caps` (per server, per user)."""
    server_cap, user_cap = caps
    return here >= server_cap or theirs >= user_cap


def make_room(
    conn: Conn, caps: tuple[int, int] | None, guild_id: int | None, creator_id: int
) -> None:
    """Refuse (`OverCap`) a game past `caps` (None: no cap). The server's lock, then the
    user's (always in that order, so two creators never wait for each other in a circle),
    make every other creator there or by that user wait until this transaction ends, so the
    count includes the games they made."""
    if caps is None:
        return
    conn.lock_in(SERVER_GAMES, fold(guild_id or 0))
    conn.lock_in(USER_GAMES, fold(creator_id))
    here, theirs = open_counts(conn, guild_id, creator_id)
    if past_caps(caps, here, theirs):
        raise OverCap(here, theirs)


def fold(snowflake: int) -> int:
    """A 64-bit Discord id as a signed 32-bit lock key (two ids that share one only wait for
    each other)."""
    return ((snowflake ^ (snowflake >> 32)) & 0xFFFFFFFF) - 2**31
