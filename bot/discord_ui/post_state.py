"""What the thread poster holds of a game: the changes gathered for its next post (`Batch`)
and the post of the turn under way (`TurnPost`, stored so a restart goes on editing it)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from bot.core.rendering import runs_of
from bot.core.results import Result
from bot.discord_ui.markup import as_written


@dataclass
class Batch:
    """Changes of one game gathered for a moment, posted together. Of requests, the newest
    is posted (`vote`, asking `vote_ping`); `hushed` were pinged about such a request lately
    and are not pinged again; `replaces` are the requests it replaced, whose post it may take."""

    thread_id: int | None
    lines: list[str] = field(default_factory=list)
    places: list[str] = field(default_factory=list)
    runs: list[dict[str, Any]] = field(default_factory=list)
    vote: int | None = None
    vote_kind: str = "undo"
    vote_ping: tuple[int, ...] = ()
    moves_only: bool = True  # every change is a move (not a join, pause, undo, deal answer...)
    kinds: set[str] = field(default_factory=set)  # the types of the moves made
    offers: list[int] = field(default_factory=list)  # seats offered, with who they go to
    invited: list[int] = field(default_factory=list)
    hushed: list[int] = field(default_factory=list)
    replaces: list[int] = field(default_factory=list)
    version: int | None = None  # the game version the newest change left (None: not known)
    # the bot's permissions missing in the thread, as the command that made a change there
    # saw them (a refused post names them)
    lacking: list[str] = field(default_factory=list)
    late: bool = False  # held after a refused post: its lines go with the next one
    watchers: list[asyncio.Future[Any]] = field(default_factory=list)  # told how it went

    def watch(self) -> asyncio.Future[Any]:
        """A future told how the post of this batch went (None: posted; else why not)."""
        watcher = asyncio.get_running_loop().create_future()
        self.watchers.append(watcher)
        return watcher

    def settle(self, outcome: Any) -> None:
        for watcher in self.watchers:
            if not watcher.done():
                watcher.set_result(outcome)
        self.watchers.clear()

    def take(self, result: Result) -> None:
        """Add one change to the batch."""
        self.lines.append(as_written(result.text))
        self.moves_only = self.moves_only and (result.action is not None or result.only_computers)
        self.places += [p for p in result.places if p not in self.places]
        for move in (result.action, *result.computer_moves):
            if move is not None:
                self.runs += runs_of(move)
                self.kinds.add(str(move.get("type")))
        if result.vote is not None:
            self.vote, self.vote_kind, self.vote_ping = result.vote, result.vote_kind, result.notify
        self.offers += result.invitations
        self.invited += result.invited
        self.hushed += result.hushed
        self.replaces += result.replaces
        if result.version is not None:
            self.version = max(self.version or 0, result.version)

    def extend(self, newer: Batch) -> None:
        """Add the changes of a batch gathered after this one."""
        for name in ("lines", "places", "runs", "offers", "invited", "hushed", "replaces"):
            getattr(self, name).extend(getattr(newer, name))
        self.kinds |= newer.kinds
        self.watchers += newer.watchers
        self.lacking = newer.lacking or self.lacking
        self.moves_only = self.moves_only and newer.moves_only
        self.version = newer.version
        if newer.vote is not None:
            self.vote, self.vote_kind, self.vote_ping = (
                newer.vote,
                newer.vote_kind,
                newer.vote_ping,
            )


@dataclass
class TurnPost:
    """The post of the turn under way, edited as its moves come in."""

    message: Any
    owners: tuple[int, ...]
    round: str
    lines: list[str] = field(default_factory=list)
    places: list[str] = field(default_factory=list)
    runs: list[dict[str, Any]] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)  # attached now: file name -> digest
    started: bool = True  # False for a post made before the game started
    version: int | None = None  # the game version it shows (None: stored before it was kept)

    def state(self) -> dict[str, Any]:
        """What is stored of the post (all but the message, known by its id)."""
        return {
            "owners": list(self.owners),
            "round": self.round,
            "lines": self.lines,
            "places": self.places,
            "runs": self.runs,
            "files": self.files,
            "started": self.started,
            "version": self.version,
        }

    @classmethod
    def restored(cls, message: Any, state: dict[str, Any]) -> TurnPost:
        return cls(
            message,
            tuple(state["owners"]),
            state["round"],
            list(state["lines"]),
            list(state["places"]),
            list(state["runs"]),
            dict(state["files"]),
            bool(state["started"]),
            state.get("version"),
        )
