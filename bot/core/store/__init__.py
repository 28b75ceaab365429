"""The game store: games, seats, the append-only action log, the requests awaiting players'
answers (undo votes, deals), previews, turn posts, and each player's settings.

Every method is a coroutine whose database work runs off the event loop (`connection`); each
change is one write transaction, stored whole or not at all, and a change computed from an older
game version is refused (`StaleGame`). SQLite in WAL mode by default. The store holds no game
logic. Engine player ids are stored JSON-encoded because titles use ints (seat numbers) or
strings (imported files).
"""

from bot.core.store.caps import past_caps
from bot.core.store.clocks import ClockRecord, ClockTables
from bot.core.store.connection import BUSY_TIMEOUT
from bot.core.store.games import GameTables
from bot.core.store.leases import LeaseTables
from bot.core.store.players import PlayerTables
from bot.core.store.posting import PostingTables
from bot.core.store.records import (
    ACTIVE,
    ANY_GUILD,
    DEAL,
    FINISHED,
    OPEN,
    SEAT,
    UNDO,
    ActionRecord,
    DuplicateInteraction,
    GameRecord,
    Invitation,
    Note,
    OverCap,
    PendingDM,
    PostFailure,
    Preview,
    ReminderClock,
    Request,
    SeatRecord,
    StaleGame,
    StoreBusy,
    StoreError,
    Undone,
)
from bot.core.store.requests import RequestTables
from bot.core.store.seating import SeatingTables, unclaimed
from bot.core.store.standings import Entrant, RatedGame, Standing, StandingTables


class Store(
    GameTables,
    SeatingTables,
    RequestTables,
    PlayerTables,
    LeaseTables,
    PostingTables,
    StandingTables,
    ClockTables,
):
    """Every table of the store, on one database."""


__all__ = [
    "ACTIVE",
    "ANY_GUILD",
    "BUSY_TIMEOUT",
    "DEAL",
    "FINISHED",
    "OPEN",
    "SEAT",
    "UNDO",
    "ActionRecord",
    "ClockRecord",
    "DuplicateInteraction",
    "Entrant",
    "GameRecord",
    "Invitation",
    "Note",
    "OverCap",
    "PendingDM",
    "PostFailure",
    "Preview",
    "RatedGame",
    "ReminderClock",
    "Request",
    "SeatRecord",
    "Standing",
    "StaleGame",
    "Store",
    "StoreBusy",
    "StoreError",
    "Undone",
    "past_caps",
    "unclaimed",
]
