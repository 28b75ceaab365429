"""How a game went, as the series its charts draw: each player's worth, each company's share
price and each company's revenue per operating round, sampled at the end of every round.

Title-neutral: a title fills these in from one replay of its log (`Game.chart_series`, by
`Game.replayed`), and the renderer draws them without knowing any rule. Values are whole numbers; None where a line has
no value at a point (a company not yet started, closed, or not operating in that round).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Line:
    """One player's or company's values, one per point of its chart. `seat` is the player's
    place at the table (their colour across charts); None for a company, known by `name`."""

    name: str
    values: tuple[int | None, ...]
    seat: int | None = None

    @property
    def last(self) -> tuple[int, int] | None:
        """(point index, value) of the line's last value; None for a line without any."""
        for i in range(len(self.values) - 1, -1, -1):
            value = self.values[i]
            if value is not None:
                return i, value
        return None


@dataclass(frozen=True)
class Chart:
    """One chart: `points` name each x position in players' words ("SR 2", "OR 3.1"); `axis`
    the (point index, text) worth writing under the axis when room is short (the start of each
    set of rounds)."""

    key: str  # what `/game view chart` calls it: worth, prices, revenue...
    title: str
    points: tuple[str, ...]
    axis: tuple[tuple[int, str], ...]
    lines: tuple[Line, ...]
    currency: str = ""  # "$" or "£" for money, "" for points
    unit: str = ""  # " VP" after a plain number

    def value_text(self, value: int) -> str:
        sign = "-" if value < 0 else ""
        return f"{sign}{self.currency}{abs(value):,}{self.unit}"


@dataclass(frozen=True)
class ChartSeries:
    """Every chart of one game, in the title's order (the first is the one shown by default),
    with the ranking (name, score) best first as the title's result counts it. `title` is the
    title's id (its companies' colours are the renderer's), `name` what players call it."""

    title: str
    name: str
    finished: bool
    charts: tuple[Chart, ...]
    ranking: tuple[tuple[str, int], ...]

    def keys(self) -> tuple[str, ...]:
        return tuple(c.key for c in self.charts)

    def chart(self, key: str) -> Chart:
        """The chart named `key` or by the start of its name (KeyError when none or several)."""
        wanted = key.strip().casefold()
        found = [c for c in self.charts if c.key == wanted] or [
            c for c in self.charts if c.key.startswith(wanted)
        ]
        if len(found) != 1:
            raise KeyError(key)
        return found[0]


def by_set(points: Sequence[str], starts: Callable[[str], bool]) -> tuple[tuple[int, str], ...]:
    """The axis labels of a chart: the points that start a set of rounds (`starts`), and the
    last point."""
    marks = [(i, p) for i, p in enumerate(points) if starts(p)]
    if points and (not marks or marks[-1][0] != len(points) - 1):
        marks.append((len(points) - 1, points[-1]))
    return tuple(marks)
