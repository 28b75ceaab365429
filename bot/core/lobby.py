"""What a game's public lobby shows and how a game is named in lists and suggestions, in words
any front end can show: the title, options and seats of an open game; whose turn and which
round once it runs; the result at the end. Discord shows the lobby as a message with Join /
Leave / Start buttons kept up to date; the console prints the same lines."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.core.store import ACTIVE, FINISHED, OPEN, GameRecord, SeatRecord

MAX_LABEL = 100  # characters of a suggestion's name (Discord's limit)


@dataclass(frozen=True)
class Lobby:
    """A game as its lobby shows it. `to_act`: who must act now; `ranking`: (name, score),
    best first, once it is over."""

    game_id: int
    title: str
    status: str  # OPEN, ACTIVE or FINISHED
    seat_limit: int
    min_players: int
    seats: tuple[str, ...]
    creator: str
    options: tuple[tuple[str, Any], ...] = ()
    thread_id: int | None = None
    channel_id: int | None = None
    paused: bool = False
    abandoned: bool = False
    round: str = ""
    to_act: tuple[str, ...] = ()
    ranking: tuple[tuple[str, int], ...] = ()
    clock: str = ""  # the clock chosen (open), or the time left of the player to act

    @property
    def open(self) -> bool:
        return self.status == OPEN and not self.abandoned


def lobby_text(lobby: Lobby, where: str = "") -> str:
    """The lobby's lines (`where`: how to reach the game's thread, added when given)."""
    head = f"**Game #{lobby.game_id} · {lobby.title}**"
    seated = ", ".join(f"{n}. {name}" for n, name in enumerate(lobby.seats, start=1)) or "nobody"
    lines = []
    if lobby.abandoned:
        lines += [f"{head} · abandoned", f"Players: {seated}"]
    elif lobby.status == OPEN:
        lines.append(
            f"{head} · open: {len(lobby.seats)} of {lobby.seat_limit} seats taken "
            f"({lobby.min_players} needed to start)"
        )
        if lobby.options:
            lines.append(f"Options: {options_text(lobby.options)}")
        if lobby.clock:
            lines.append(f"Clock: {lobby.clock}")
        lines += [
            f"Seated: {seated}",
            f"Join to take a seat; {lobby.creator} (or a server admin) starts the game.",
        ]
    elif lobby.status == ACTIVE:
        state = "paused" if lobby.paused else "in play"
        lines += [f"{head} · {state} · {lobby.round}".rstrip(" ·"), f"Players: {seated}"]
        if lobby.to_act and not lobby.paused:
            clock = f" · {lobby.clock}" if lobby.clock else ""
            lines.append(f"To act: {', '.join(lobby.to_act)}{clock}")
    else:
        lines += [f"{head} · finished", f"Players: {seated}"]
        if lobby.ranking:
            lines.append(
                "Result: "
                + ", ".join(
                    f"{n}. {name} {score}" for n, (name, score) in enumerate(lobby.ranking, 1)
                )
            )
    if where:
        lines.append(where)
    return "\n".join(lines)


def options_text(options: tuple[tuple[str, Any], ...]) -> str:
    return ", ".join(
        name
        if value is True
        else f"{name}={json.dumps(value) if not isinstance(value, str) else value}"
        for name, value in options
    )


@dataclass(frozen=True)
class GameEntry:
    """A game as a list or a suggestion names it for one user."""

    game_id: int
    title: str
    state: str  # "your turn", "waiting for ann", "open, 2 of 4 seats", "finished"...
    mine: bool
    thread_id: int | None = None

    @property
    def label(self) -> str:
        return fit_label(f"#{self.game_id} · {self.title} · {self.state}")


def entry_state(
    record: GameRecord, seats: list[SeatRecord], acting: tuple[int, ...], user_id: int
) -> str:
    """How a game stands for `user_id`, from its record, its seats and the users to act."""
    if record.abandoned:
        return "abandoned"
    if record.status == OPEN:
        return f"open, {len(seats)} of {record.seat_limit} seats"
    if record.status == FINISHED:
        return "finished"
    if record.paused:
        return "paused"
    if user_id in acting:
        return "your turn"
    names = [s.name for s in seats if s.user_id in acting]
    return f"waiting for {', '.join(names)}" if names else "in play"


def fit_label(text: str, size: int = MAX_LABEL) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"
