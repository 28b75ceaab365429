"""What a frontend hands to the service (who is asking) and what it gets back (what to show)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.core.names import plain_name
from engine.game import Action, Choice, TurnInfo


@dataclass(frozen=True)
class Caller:
    """The person behind a command and where it comes from. `guild_id` is the Discord server
    (None: the console); a game of another server does not exist for the caller. `is_admin` is
    the frontend's grant in that server (Discord: Manage Threads or Manage Server); the
    creator of a game is its admin regardless."""

    user_id: int
    name: str
    is_admin: bool = False
    guild_id: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", plain_name(self.name))


@dataclass(frozen=True)
class Result:
    """The outcome of one command.

    On success `text` belongs in the game's channel (or answers the caller for read-only
    commands), `views` names the images to redraw and `notify` lists the user ids who must act
    now (for a request: who must answer it). On refusal `error` says why and nothing was
    changed. `duplicate` marks a resubmitted interaction that was ignored. `vote` is the id of
    a request awaiting answers, of `vote_kind` "undo" (a vote) or "deal" (the other owner's
    agreement); `files` are (name, bytes) attachments for the caller; `confirm` is the token of
    a previewed move the caller may now confirm or cancel. `action` is the move applied (for
    the thread's pictures of it) and `places` the map places it changed; `confirm_undo` asks
    the caller to confirm first (an admin taking back another player's move), at that version.
    `confirm_start` asks the caller first when a game would start with empty seats (how many
    play then); nothing was changed.
    `invitations` are seats offered to the `invited` users (mentioned once, to accept).
    `hushed` are those asked (`notify` of a request, `invited`) who were pinged about a request
    of that kind from the same requester within the cooldown: shown it, but neither mentioned
    nor sent a direct message again. `replaces` names the requests this one replaced.
    A standing order set quietly changes the game without `changed` (nothing for the thread):
    its `text` is for the caller alone.
    """

    text: str = ""
    error: str | None = None
    game_id: int | None = None
    thread_id: int | None = None
    views: tuple[str, ...] = ()
    notify: tuple[int, ...] = ()
    changed: bool = False
    duplicate: bool = False
    vote: int | None = None
    vote_kind: str = "undo"
    files: tuple[tuple[str, bytes], ...] = ()
    confirm: str | None = None
    action: Action | None = None
    places: tuple[str, ...] = ()
    confirm_undo: int | None = None
    confirm_start: int | None = None
    invitations: tuple[int, ...] = ()
    invited: tuple[int, ...] = ()
    hushed: tuple[int, ...] = ()
    replaces: tuple[int, ...] = ()
    version: int | None = None  # the game's version once the change was made, when known
    aside: str = ""  # told to the caller alone (what their move did to their standing orders)
    noted: tuple[int, ...] = ()  # users with a new note waiting for them alone (`Note`)
    computer_moves: tuple[Action, ...] = ()  # the computer seats' moves made after the change
    only_computers: bool = False  # the change is those moves alone (the worker's)
    # moves offered to the caller alone, each made with one press at `version`: (its number
    # in `text`, the move) of a hint's suggestions that are listed moves
    offered: tuple[tuple[int, Choice], ...] = ()

    @property
    def ok(self) -> bool:
        return self.error is None


class Refused(Exception):
    """Raised inside the service for a refusal; the message is meant for the user."""


@dataclass(frozen=True)
class Prompt:
    """What a turn prompt shows: the game's version (buttons carry it, so a button from an
    older turn is recognised), who must act, who was last @mentioned as having to act (stored,
    so a restart does not mention them again), and the legal choices of the first of them;
    the turn as the title tells it (for whom, step, cash, what is compulsory), the round under
    way, who of those to act is away, and at the end the final ranking (name, score) best
    first."""

    game_id: int
    thread_id: int | None
    version: int
    notify: tuple[int, ...] = ()
    mentioned: tuple[int, ...] = ()
    names: tuple[str, ...] = ()
    choices: tuple[Choice, ...] = ()
    turn: tuple[TurnInfo, ...] = ()
    player_names: dict[Any, str] = field(default_factory=dict)
    round: str = ""
    moved: int = 0  # the version of the last change the thread is told of (`GameRecord.moved`)
    finished: bool = False
    ranking: tuple[tuple[str, str], ...] = ()  # (name, score as the title writes it)
    views: tuple[str, ...] = ()
    close_ups: bool = False  # the title names the map places a move changed (focus views)
    orders: bool = False  # players may set standing orders (programmed moves) now
    # the programmed moves everyone may be told of ("Bob passes automatically in ...")
    programmed: tuple[str, ...] = ()
    clock: str = ""  # the time left on the clock of the player to act ("" without a clock)
    away: tuple[str, ...] = ()  # who of those to act is away ("Ann is away until 3 Dec")


@dataclass(frozen=True)
class AdminControls:
    """What a game's administration offers now (to one who administers it): pause or resume
    while it runs, its reminder period, the points it can be rewound to (action number kept,
    its sentence; 0 is the start), its seats (number, holder's name) and which of them the
    computer plays."""

    running: bool
    paused: bool
    over: bool
    remind: float
    actions: tuple[tuple[int, str], ...] = ()
    seats: tuple[tuple[int, str], ...] = ()
    computers: tuple[int, ...] = ()  # the seats the computer plays
