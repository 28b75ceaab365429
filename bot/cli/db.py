"""`railchat db copy SRC DST`: move the whole store from SQLite to PostgreSQL, or back.

Every row of every table is copied with its id, read in one snapshot of the source and written
in one transaction on the target (all or nothing); then every started game is rebuilt on the
target from its stored log, as the bot would rebuild it, and each one that does not rebuild is
named. Stop the bot first: what it writes to the source meanwhile is not copied. A source
whose tables are not railchat's is refused before the target is made (`transfer.check_schema`).
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bot.core.db_url import is_postgres, shown

if TYPE_CHECKING:
    from bot.core.store import Store


def add_parser(subparsers: Any) -> None:
    db = subparsers.add_parser("db", help="move the database between SQLite and PostgreSQL")
    commands = db.add_subparsers(dest="db_command", metavar="COMMAND", required=True)
    copy = commands.add_parser(
        "copy",
        help="copy every game, seat, request and post record from SRC to DST and check that "
        "every game replays there",
    )
    copy.add_argument("source", metavar="SRC", help="SQLite file or postgresql:// URL")
    copy.add_argument("target", metavar="DST", help="SQLite file or postgresql:// URL")
    copy.add_argument(
        "--replace", action="store_true", help="replace what DST holds, even if it has games"
    )
    copy.set_defaults(func=cmd_copy)


def cmd_copy(args: argparse.Namespace) -> int:
    source, target = args.source, args.target
    if not (is_postgres(source) or Path(source).is_file()):
        print(f"railchat: there is no database {source}", file=sys.stderr)
        return 1
    if _same(source, target):
        print("railchat: SRC and DST are the same database", file=sys.stderr)
        return 1
    # the report names each game that does not replay; the service's log would add a traceback
    logging.getLogger("bot.core.service").setLevel(logging.CRITICAL)
    import asyncio  # here: every railchat command builds the parser that imports this module

    return asyncio.run(copy(source, target, replace=args.replace, out=sys.stdout))


async def copy(source: str, target: str, *, replace: bool, out: TextIO) -> int:
    """Copy, report, check; the exit status (1 if the copy was refused or a game does not
    replay on the target)."""
    from bot.core.store import Store
    from bot.core.store import transfer as tables
    from bot.core.store.connection import Conn

    def write(conn: Conn) -> dict[str, int]:
        tables.write_all(conn, rows, replace=replace)
        return tables.counts(conn)

    try:
        src = Store(source)
    except Exception as exc:  # noqa: BLE001 - not SQLite, a schema a migration fails on...
        return _not_railchat(source, f"it does not open ({exc})", out)
    try:
        rows = await src.backend.read(tables.read_all)
    except tables.ForeignSchema as exc:  # checked before the target is even made
        return _not_railchat(source, exc, out)
    finally:
        src.close()
    dst = Store(target)
    try:
        try:
            copied = await dst.backend.write(write)
        except tables.TargetNotEmpty as exc:
            print(f"railchat: {exc} ({shown(target)}); --replace copies over them", file=out)
            return 1
        except tables.ForeignSchema as exc:
            return _not_railchat(target, exc, out)
        listed = ", ".join(f"{n} {table}" for table, n in copied.items() if n)
        print(f"Copied {shown(source)} to {shown(target)}: {listed or 'nothing'}.", file=out)
        broken = await _unreplayable(dst)
    finally:
        dst.close()
    for game_id, why in sorted(broken):
        print(f"game #{game_id} does not replay on the target: {why}", file=out)
    print(f"{len(broken)} games do not replay." if broken else "Every game replays.", file=out)
    return 1 if broken else 0


async def _unreplayable(store: Store) -> list[tuple[int, str]]:
    """(id, reason) of each started game that its stored log does not rebuild."""
    import asyncio

    from bot.core.service.base import _replay
    from bot.core.store import ANY_GUILD, OPEN

    broken = []
    for record in await store.games(guild_id=ANY_GUILD, limit=2**62):
        if record.status == OPEN:  # not started: no log yet
            continue
        seats, actions = await store.seats(record.id), await store.actions(record.id)
        try:
            await asyncio.to_thread(_replay, record, seats, actions)
        except Exception as exc:  # noqa: BLE001 - whatever stops a rebuild is reported
            why = exc.__cause__ or exc  # the service's refusal names the engine's reason
            broken.append((record.id, f"{type(why).__name__}: {why}"))
    return broken


def _not_railchat(url: str, why: object, out: TextIO) -> int:
    """Say why a database is not copied from or to; the exit status."""
    print(f"railchat: {shown(url)} is not a railchat database: {why}; nothing was copied", file=out)
    return 1


def _same(source: str, target: str) -> bool:
    if is_postgres(source) or is_postgres(target):
        return source == target
    return Path(source).resolve() == Path(target).resolve()
