"""What the store hands back: plain frozen records of games, seats, actions and requests, the
status words, and the errors a change can meet. No database code here, so the service and the
front ends can name them without importing a driver."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.game import Action, PlayerId

OPEN, ACTIVE, FINISHED = "open", "active", "finished"
ANY_GUILD = -1  # `Store.games`: games of every server and of the console
UNDO, DEAL = "undo", "deal"  # the kinds of request
SEAT = "seat"  # a seat offered to a user (an `Invitation`), as the ping cooldown names it


class StoreError(Exception):
    """A change the database refused; nothing of it was stored."""


class DuplicateInteraction(StoreError):
    """This interaction id was already handled; the change it carried was not applied again."""


class StaleGame(StoreError):
    """The game changed (another process wrote) since the version a change was computed from;
    nothing was written."""


class StoreBusy(StoreError):
    """Another connection held the write lock past the busy timeout; nothing was written."""


class OverCap(StoreError):
    """A new game would pass a cap on games not yet over: the server has `here` of them and
    the creator opened `theirs`; nothing was written."""

    def __init__(self, here: int, theirs: int) -> None:
        super().__init__(f"{here} games not yet over here, {theirs} opened by the creator")
        self.here, self.theirs = here, theirs


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
    # the version of the last change others see (None: the current one); only standing orders
    # set since (`Store.append_action(quiet=True)`), so buttons and requests of it stand
    moved_version: int | None = None
    acting: tuple[int, ...] | None = None  # the seats that must act (None: not known yet)

    @property
    def moved(self) -> int:
        return self.version if self.moved_version is None else self.moved_version

    @property
    def abandoned(self) -> bool:
        return self.abandoned_at is not None


@dataclass(frozen=True)
class ReminderClock:
    """What the reminders read of a running game: its period (None: the bot's default) and
    when its turn began and was last reminded."""

    id: int
    remind_hours: float | None
    turn_since: str | None
    reminded_at: str | None


@dataclass(frozen=True)
class SeatRecord:
    game_id: int
    seat: int
    user_id: int
    name: str
    player_id: PlayerId | None
    computer: str | None = None  # the computer level playing the seat; None: its holder

    @property
    def human(self) -> bool:
        """Whether a person plays the seat now (holds it and has not left it to the computer)."""
        return self.user_id > 0 and self.computer is None


@dataclass(frozen=True)
class ActionRecord:
    game_id: int
    seq: int
    user_id: int
    payload: Action
    created_at: str
    text: str | None = None  # the engine's sentence when it was accepted
    computer: str | None = None  # the computer level that made it; None: the seat's holder


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


@dataclass(frozen=True)
class Note:
    """Something told to one user alone (a programmed move of theirs that stopped, and why),
    kept until it reached them: by direct message, or with their next command."""

    id: int
    user_id: int
    game_id: int
    text: str


@dataclass(frozen=True)
class PendingDM:
    """A direct message held back by the user's quiet hours until `due_at`: their move in
    the game, or (`request_id`) a request to answer; sent then only if it still waits."""

    user_id: int
    game_id: int
    due_at: str
    request_id: int | None = None


@dataclass(frozen=True)
class Invitation:
    """A seat offered to a user, who is seated only once they accept (status "open" until
    they answer, "void" once the seat was offered to someone else or taken)."""

    id: int
    game_id: int
    seat: int
    user_id: int
    invited_by: int
    status: str
    created_at: str


@dataclass(frozen=True)
class PostFailure:
    """Why the bot last failed to post in a game's thread: `kind` is "permission", "access",
    "locked" or "gone", `code` Discord's error code, `detail` what to grant (when known)."""

    kind: str
    code: int | None
    detail: str | None
    failed_at: str
