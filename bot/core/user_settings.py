"""A player's own settings and the time rules they set: direct messages wanted, their time zone,
quiet hours (no direct message and no reminder ping inside them) and an absence (reminders
wait until they are back). Pure: the time is always passed in, never read here, so reminders
are tested at any hour; settings as typed are checked here, with a refusal that says what
is accepted.
"""

from __future__ import annotations

import functools
import re
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo

DAY = 24 * 60  # minutes
MAX_QUIET = 18 * 60  # the longest quiet spell: a reminder always finds a moment in the day
MAX_AWAY_DAYS = 366
MAX_ZONE_NAME = 64
FIRST_FREE_HORIZON = timedelta(days=2)  # past this, overlapping quiet hours never all end
_QUIET = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*(?:-|–|to)\s*(\d{1,2})(?::(\d{2}))?\s*$")
_AWAY_FORMATS = ("%Y-%m-%d", "%d %b %Y", "%d %B %Y", "%b %d %Y", "%B %d %Y")
_NO_YEAR_FORMATS = ("%d %b", "%d %B", "%b %d", "%B %d")
OFF_WORDS = frozenset({"off", "none", "no", "back"})


@dataclass(frozen=True)
class UserSettings:
    """What one user chose (the defaults: no direct messages, UTC, never quiet, not away).
    `quiet` is (start, end) in minutes after local midnight, end excluded; it may wrap past
    midnight (23:00-08:00). `away_until` is the local date they are back on."""

    user_id: int
    turn_dm: bool = False
    reminder_dm: bool = False
    time_zone: str | None = None
    quiet: tuple[int, int] | None = None
    away_until: date | None = None

    @property
    def zone(self) -> tzinfo:
        """Their time zone; UTC when unset or no longer known to this system."""
        return zone_named(self.time_zone) or UTC

    def local(self, now: datetime) -> datetime:
        return now.astimezone(self.zone)

    def quiet_at(self, now: datetime) -> bool:
        if self.quiet is None:
            return False
        start, end = self.quiet
        local = self.local(now)
        minute = local.hour * 60 + local.minute
        return start <= minute < end if start < end else minute >= start or minute < end

    def quiet_ends(self, now: datetime) -> datetime:
        """When the quiet spell under way at `now` ends (`now` itself when there is none)."""
        if self.quiet is None or not self.quiet_at(now):
            return now
        local = self.local(now)
        end = time(self.quiet[1] // 60, self.quiet[1] % 60)
        for days in (0, 1):
            at = datetime.combine(local.date() + timedelta(days=days), end, self.zone)
            if at.astimezone(UTC) > now:
                return at.astimezone(UTC)
        return now + timedelta(days=1)  # unreachable: the end comes within a day

    def away_at(self, now: datetime) -> bool:
        return self.away_until is not None and self.local(now).date() < self.away_until

    def back_at(self) -> datetime | None:
        """The moment their absence ends (local midnight of the day they are back)."""
        if self.away_until is None:
            return None
        return datetime.combine(self.away_until, time(0), self.zone).astimezone(UTC)

    def reachable(self, at: datetime) -> datetime:
        """The first moment from `at` when they are neither away nor in quiet hours."""
        for _ in range(4):  # an absence ends at midnight, maybe inside quiet hours: both end
            back = self.back_at() if self.away_at(at) else None
            later = back if back is not None and back > at else self.quiet_ends(at)
            if later <= at:
                break
            at = later
        return at

    def away_note(self, name: str, now: datetime) -> str | None:
        """What others read in the turn prompt while the user is away."""
        if not self.away_at(now):
            return None
        assert self.away_until is not None
        return f"{name} is away until {day_label(self.away_until, self.local(now).date())}"


def first_free(users: Iterable[UserSettings], due: datetime) -> datetime | None:
    """The first moment from `due` when none of `users` is in quiet hours (None: their quiet
    hours overlap so that no such moment comes within two days)."""
    chosen = list(users)
    at = due
    while at - due <= FIRST_FREE_HORIZON:
        quiet = [u for u in chosen if u.quiet_at(at)]
        if not quiet:
            return at
        at = max(u.quiet_ends(at) for u in quiet)
    return None


@functools.cache
def zone_named(name: str | None) -> tzinfo | None:
    if not name:
        return None
    canonical = _zones_by_key().get(name.casefold())
    return zoneinfo.ZoneInfo(canonical) if canonical else None


def check_zone(text: str) -> str:
    """The IANA name of the time zone typed (any case); ValueError says what is accepted."""
    typed = text.strip()
    canonical = _zones_by_key().get(typed.casefold()) if len(typed) <= MAX_ZONE_NAME else None
    if canonical is None:
        shown = typed if len(typed) <= MAX_ZONE_NAME else typed[:MAX_ZONE_NAME] + "…"
        raise ValueError(
            f"{shown!r} is not a time zone I know; pick one of the suggestions "
            "(IANA names such as Europe/Paris, America/New_York or UTC)"
        )
    return canonical


def zone_suggestions(typed: str, limit: int) -> list[str]:
    """Time zone names containing what was typed, those starting with it first."""
    key = typed.strip().casefold().replace(" ", "_")
    names = sorted(_zones_by_key().values())
    starts = [n for n in names if n.casefold().startswith(key)]
    inside = [n for n in names if key in n.casefold() and n not in starts]
    return (starts + inside)[:limit]


@functools.cache
def _zones_by_key() -> dict[str, str]:
    return {name.casefold(): name for name in zoneinfo.available_timezones()}


def parse_quiet_hours(text: str) -> tuple[int, int] | None:
    """Quiet hours as typed ("23-8", "22:30-07:00"; "off": none) in minutes after midnight."""
    if text.strip().casefold() in OFF_WORDS:
        return None
    match = _QUIET.match(text)
    shown = text.strip()[:40]
    if match is None:
        raise ValueError(
            f"quiet hours are two times of day such as 23-8 or 22:30-07:00 (in your time "
            f"zone), or off; not {shown!r}"
        )
    start, end = (_minutes(match[i], match[i + 1], shown) for i in (1, 3))
    length = (end - start) % DAY
    if length == 0:
        raise ValueError("quiet hours must start and end at different times")
    if length > MAX_QUIET:
        raise ValueError(
            f"quiet hours last at most {MAX_QUIET // 60} hours (so that a reminder finds a "
            f"moment in your day); {shown} is {length // 60} h {length % 60:02d}"
        )
    return start, end


def _minutes(hours: str, minutes: str | None, shown: str) -> int:
    h, m = int(hours), int(minutes or 0)
    if h > 24 or m > 59 or (h == 24 and m):
        raise ValueError(f"{shown!r} is not a time of day (hours 0-24, minutes 0-59)")
    return (h * 60 + m) % DAY


def parse_away(text: str, today: date) -> date | None:
    """The day someone is back, as typed ("2025-12-03", "3 Dec", "Dec 3 2025"; "off": not
    away), after `today` (their local date) and within a year. A day without a year is the
    next such day."""
    typed = " ".join(text.replace(",", " ").split())
    if typed.casefold() in OFF_WORDS:
        return None
    found = _read_day(typed, today)
    if found is None:
        raise ValueError(
            f"away until a day such as 2025-12-03, 3 Dec or Dec 3 2025, or off; not {typed[:40]!r}"
        )
    if found <= today:
        raise ValueError(f"{found.isoformat()} is not after today ({today.isoformat()})")
    if found > today + timedelta(days=MAX_AWAY_DAYS):
        raise ValueError(f"away at most a year ahead (until {day_label(found, today)}: no)")
    return found


def _read_day(typed: str, today: date) -> date | None:
    for pattern in _AWAY_FORMATS:
        try:
            return datetime.strptime(typed, pattern).date()
        except ValueError:
            continue
    for pattern in _NO_YEAR_FORMATS:
        try:
            # parsed with this year (strptime alone would read 29 Feb in 1900, no leap year)
            found = datetime.strptime(f"{typed} {today.year}", f"{pattern} %Y").date()
        except ValueError:
            continue
        if found <= today:
            try:
                return found.replace(year=today.year + 1)
            except ValueError:  # 29 Feb, next year has none
                return found
        return found
    return None


def day_label(day: date, today: date) -> str:
    """A day as people write it: "3 Dec" this year, "3 Dec 2026" another year."""
    label = f"{day.day} {day:%b}"
    return label if day.year == today.year else f"{label} {day.year}"


def clock_label(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"
