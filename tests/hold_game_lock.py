"""`python -m tests.hold_game_lock DB GAME_ID`: another process that holds one game's write
lock, as a write of that game holds it (on SQLite, the whole file's), until its standard input
closes; it prints "locked" once it holds it. For the tests of writers waiting on each other."""

from __future__ import annotations

import sys

from bot.core.store import Store
from bot.core.store.connection import Conn


def main() -> None:
    db, game_id = sys.argv[1], int(sys.argv[2])
    store = Store(db)

    def hold(conn: Conn) -> None:
        conn.lock(game_id)
        print("locked", flush=True)
        sys.stdin.read()

    try:
        store.backend.write_now(hold)
    finally:
        store.close()


if __name__ == "__main__":
    main()
