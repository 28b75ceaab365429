"""A player's games in every server as the front ends show them (`/turns`, the direct messages):
those where it is their turn first, each with who must act and how long the turn has waited.
What a front end adds is the link to each game's thread, so the lines take it as an argument.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

PAGE = 8  # games per page: with their links, well within one Discord message
NAMES_SHOWN = 3  # players named as having to act; more are counted
SUMMARY = 5  # games named in a direct message's summary of the player's turns


@dataclass(frozen=True)
class TurnEntry:
    """One game the player is seated in. `yours`: they must act (and the game runs); `to_act`
    names who must act; `away` tells who of them is away; `waited` is the time since the last
    move (None before the start)."""

    game_id: int
    title: str
    guild_id: int | None
    thread_id: int | None
    yours: bool
    to_act: tuple[str, ...] = ()
    away: tuple[str, ...] = ()
    waited: timedelta | None = None
    paused: bool = False
    started: bool = True
    seated: int = 0
    seat_limit: int = 0
    clock: str = ""  # the time left on their clock, when it is their turn in a clocked game
    deadline: datetime | None = None

    def line(self, link: str | None, *, markdown: bool = True) -> str:
        """`markdown`: Discord shows "your turn" in bold; a terminal would print the stars."""
        parts = [f"#{self.game_id}", self.title]
        if not self.started:
            parts.append(f"open, {self.seated}/{self.seat_limit} seated")
        elif self.paused:
            parts.append("paused")
        elif self.yours:
            mine = "**your turn**" if markdown else "your turn"
            parts[0] = f"{mine} · #{self.game_id}"
        elif self.to_act:
            parts.append(f"{names(self.to_act)} to act")
        if self.away:
            parts.append("; ".join(self.away))
        if self.waited is not None and self.started and not self.paused:
            parts.append(f"waiting {duration_label(self.waited)}")
        if self.clock:
            parts.append(self.clock)
        if link:
            parts.append(link)
        return " · ".join(parts)


@dataclass(frozen=True)
class TurnList:
    """One page of a player's games (`entries`), of `total`, `yours` of which wait for them."""

    entries: tuple[TurnEntry, ...]
    total: int
    yours: int
    page: int
    pages: int

    def text(self, link: Callable[[TurnEntry], str | None], *, markdown: bool = True) -> str:
        if not self.total:
            return "You are not seated in any game that is open or in play."
        turns = "your turn in none" if not self.yours else f"your turn in {self.yours}"
        head = f"Your games: {self.total} ({turns})"
        if self.pages > 1:
            head += f", page {self.page} of {self.pages}"
        lines = [head + ":", *(e.line(link(e), markdown=markdown) for e in self.entries)]
        later = self.total - (self.page - 1) * PAGE - len(self.entries)
        if later > 0:
            lines.append(f"… and {later} more: /turns page:{self.page + 1}")
        return "\n".join(lines)


def summary(entries: Sequence[TurnEntry], link: Callable[[TurnEntry], str | None]) -> str:
    """A direct message's last lines: the other games where it is the player's turn."""
    if not entries:
        return ""
    shown = [e.line(link(e)) for e in entries[:SUMMARY]]
    more = len(entries) - len(shown)
    tail = [f"… and {more} more (/turns lists them)"] if more > 0 else []
    return "\n".join(["Your turn also in:", *shown, *tail])


def names(shown: Sequence[str]) -> str:
    if len(shown) <= NAMES_SHOWN:
        return ", ".join(shown)
    return ", ".join(shown[:NAMES_SHOWN]) + f" and {len(shown) - NAMES_SHOWN} more"


def duration_label(delta: timedelta) -> str:
    hours = delta.total_seconds() / 3600
    if hours < 1:
        return f"{max(delta.total_seconds() // 60, 0):.0f} min"
    return f"{hours:.0f} h" if hours < 48 else f"{hours / 24:.0f} days"
