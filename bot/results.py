"""What a frontend hands to the service (who is asking) and what it gets back (what to show)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Caller:
    """The person behind a command. `is_admin` is the frontend's own grant (Discord: the
    Manage Threads permission); the creator of a game is its admin regardless."""

    user_id: int
    name: str
    is_admin: bool = False


@dataclass(frozen=True)
class Result:
    """The outcome of one command.

    On success `text` belongs in the game's channel (or answers the caller for read-only
    commands), `views` names the images to redraw and `notify` lists the user ids who must act
    now. On refusal `error` says why and nothing was changed. `duplicate` marks a resubmitted
    interaction that was ignored.
    """

    text: str = ""
    error: str | None = None
    game_id: int | None = None
    thread_id: int | None = None
    views: tuple[str, ...] = ()
    notify: tuple[int, ...] = ()
    changed: bool = False
    duplicate: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None


class Refused(Exception):
    """Raised inside the service for a refusal; the message is meant for the user."""
