"""Game clocks as players choose them and the time they count. Pure: the time is passed in.

A clock is none, a deadline per turn (`24h`), or a time bank with an increment per turn
(`bank:3d turn:8h`: each turn first spends its own increment, then the bank; an unspent
increment is lost, so the bank never grows). What happens at the deadline (`timeout:computer`,
`pass`, `ask`) and the vacation days a player may spend away in the game (`vacation:7`) are
part of the same text, so one string carries the whole choice from `/game new` to the store.

Only the player's own time counts: their quiet hours and, while the game's vacation allowance
lasts, their absence stop their clock (so time zones are fair); pauses and the bot's downtime
are credited by the service.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from bot.core.user_settings import UserSettings

TIMEOUTS = ("computer", "pass", "ask")
MAX_CLOCK = timedelta(days=60)  # the longest turn or bank: deadlines stay within reach
MAX_VACATION_DAYS = 60
_UNITS = {"m": 60, "min": 60, "h": 3600, "d": 86400}
_DURATION = re.compile(r"^(\d+(?:\.\d+)?)(m|min|h|d)$")
_STEPS = 400  # a walk never takes more (two quiet spells a day over sixty days, and absences)
# Nudges before a deadline, at these fractions of the turn's time left: the first in the game's
# thread, the others by direct message (a thread mention for those who take no turn DMs).
NUDGES = (1 / 2, 1 / 4, 1 / 10)


@dataclass(frozen=True)
class ClockSpec:
    """`turn`: seconds per turn (the whole turn on a deadline clock, the increment on a bank
    clock); `bank`: the bank's seconds (None: a deadline clock)."""

    turn: float
    bank: float | None = None
    timeout: str = "computer"
    vacation_days: int = 0

    def text(self) -> str:
        """The spec as `parse_clock` reads it back (stored, and shown in the lobby)."""
        parts = [f"bank:{_typed(self.bank)} turn:{_typed(self.turn)}"] if self.bank else []
        parts = parts or [_typed(self.turn)]
        if self.timeout != "computer":
            parts.append(f"timeout:{self.timeout}")
        if self.vacation_days:
            parts.append(f"vacation:{self.vacation_days}")
        return " ".join(parts)

    def label(self) -> str:
        """The clock in words, for the lobby and `/game status`."""
        if self.bank is not None:
            words = f"a bank of {span(self.bank)} and {span(self.turn)} a turn"
        else:
            words = f"{span(self.turn)} a turn"
        words += "; at the deadline " + self.at_deadline()
        if self.vacation_days:
            words += f"; {self.vacation_days} vacation days each"
        return words

    def at_deadline(self) -> str:
        """What happens when a turn's time runs out, in words."""
        then = {"computer": "the computer moves", "pass": "a pass (else the computer)"}
        return then.get(self.timeout, "the game's admins decide")


def parse_clock(text: str | None) -> ClockSpec | None:
    """The clock typed (None: no clock); ValueError says what is accepted."""
    words = (text or "").replace(",", " ").split()
    if not words or [w.casefold() for w in words] == ["none"]:
        return None
    turn: float | None = None
    bank: float | None = None
    timeout, vacation = "computer", 0
    for word in words:
        key, _, value = word.casefold().rpartition(":")
        if key in ("", "turn"):
            turn = _duration(value)
        elif key == "bank":
            bank = _duration(value)
        elif key == "timeout" and value in TIMEOUTS:
            timeout = value
        elif key == "vacation" and value.removesuffix("d").isdigit():
            vacation = int(value.removesuffix("d"))
            if vacation > MAX_VACATION_DAYS:
                raise ValueError(f"at most {MAX_VACATION_DAYS} vacation days, not {vacation}")
        else:
            raise ValueError(
                f"{word!r} is not part of a clock: none, a time per turn (24h), a bank and "
                "its increment per turn (bank:3d turn:8h), then timeout:computer, pass or "
                "ask, and vacation:DAYS"
            )
    if turn is None:
        raise ValueError("a clock needs a time per turn (24h), or bank:3d turn:8h")
    return ClockSpec(turn, bank, timeout, vacation)


def clock_chosen(
    clock: str | None, at_deadline: str | None, vacation: int | None
) -> ClockSpec | None:
    """The clock of `/game new`'s three choices: the clock, what happens at the deadline,
    the vacation days (the last two may also be typed in the first)."""
    extra = [f"timeout:{at_deadline}"] if at_deadline else []
    extra += [f"vacation:{vacation}"] if vacation else []
    if extra and parse_clock(clock) is None:
        raise ValueError("timeout and vacation go with a clock (clock:24h, or bank:3d turn:8h)")
    return parse_clock(" ".join([clock or "", *extra]))


def _duration(text: str) -> float:
    match = _DURATION.match(text)
    if match is None:
        raise ValueError(f"{text!r} is not a duration such as 30m, 8h or 3d")
    seconds = float(match[1]) * _UNITS[match[2]]
    if not 60 <= seconds <= MAX_CLOCK.total_seconds():
        raise ValueError(f"a clock's times are from 1 minute to {MAX_CLOCK.days} days")
    return seconds


def _typed(seconds: float) -> str:
    """A duration as `parse_clock` reads it ("3d", "8h", "90m")."""
    for unit in ("d", "h"):
        if seconds % _UNITS[unit] == 0:
            return f"{seconds / _UNITS[unit]:g}{unit}"
    return f"{seconds / 60:g}m"


def span(seconds: float) -> str:
    """A duration as the clock shows it: "2 d 6 h", "14 h", "35 min"."""
    minutes = max(int(seconds // 60), 0)
    days, hours, mins = minutes // 1440, minutes % 1440 // 60, minutes % 60
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {mins} min" if mins and hours < 3 else f"{hours} h"
    return f"{mins} min"


@dataclass(frozen=True)
class Walk:
    """Time counted against a player from a start: where the walk ended, the seconds counted,
    and the seconds of absence their vacation allowance covered."""

    end: datetime
    counted: float
    away: float


def counted(user: UserSettings | None, start: datetime, end: datetime, vacation: float) -> Walk:
    """The player's time from `start` to `end` (`vacation`: seconds of absence still
    allowed)."""
    return _walk(user, start, vacation, end=end)


def deadline(user: UserSettings | None, start: datetime, budget: float, vacation: float) -> Walk:
    """When `budget` seconds of the player's time from `start` are spent."""
    return _walk(user, start, vacation, budget=budget)


def nudge_times(
    user: UserSettings | None, start: datetime, budget: float, vacation: float
) -> list[datetime]:
    """When each nudge of a turn from `start` falls due: when `NUDGES` of the `budget`
    seconds of the player's own time are left (so never in their quiet hours)."""
    return [deadline(user, start, budget * (1 - left), vacation).end for left in NUDGES]


def _walk(
    user: UserSettings | None,
    start: datetime,
    vacation: float,
    *,
    end: datetime | None = None,
    budget: float | None = None,
) -> Walk:
    at, used, away = start, 0.0, 0.0
    for _ in range(_STEPS):
        stopped, until = _spell(user, at, vacation - away)
        if end is not None:
            until = min(until, end)
        length = (until - at).total_seconds()
        if stopped == "away":
            length = min(length, vacation - away)
            away += length
        elif stopped is None:
            if budget is not None and used + length >= budget:
                return Walk(at + timedelta(seconds=budget - used), budget, away)
            used += length
        at += timedelta(seconds=length)
        if end is not None and at >= end:
            break
    return Walk(at, used, away)


def _spell(user: UserSettings | None, at: datetime, vacation: float) -> tuple[str | None, datetime]:
    """Why the clock stops at `at` ("away", "quiet"; None: it runs) and until when."""
    far = at + MAX_CLOCK * 2
    if user is None:
        return None, far
    back = user.back_at()
    if back is not None and user.away_at(at) and vacation > 0:
        return "away", back
    if user.quiet_at(at):
        return "quiet", user.quiet_ends(at)
    return None, min(_next_quiet(user, at) or far, back if back is not None and back > at else far)


def _next_quiet(user: UserSettings, at: datetime) -> datetime | None:
    """When the player's next quiet spell starts after `at` (None: they have none)."""
    if user.quiet is None:
        return None
    local = user.local(at)
    begin = time(user.quiet[0] // 60, user.quiet[0] % 60)
    for days in (0, 1, 2):
        when = datetime.combine(local.date() + timedelta(days=days), begin, user.zone)
        if when.astimezone(UTC) > at:
            return when.astimezone(UTC)
    return None
