"""The named cells of the board image: 10 cm squares between its labelled grid lines, so that
a player can name a point by what they see ("D4") instead of estimating centimetres.

Columns are lettered from the left, rows numbered from the bottom, counted from the grid line
at or left of (below) the area. The letters skip B and S, which begin station labels (B1, S3),
and I and O, which read like 1 and 0. A cell names its centre.
"""

from __future__ import annotations

import math
import re

from engine.errors import InvalidAction
from engine.strings.geometry import Point

CELL = 10.0
REACH = 1.0  # a column (row) the area reaches less far into than this is not named
LETTERS = "ACDEFGHJKLMNPQRTUVWXYZ"
_NAME = re.compile(r"([A-Za-z])(\d{1,2})")

Bounds = tuple[float, float, float, float]


def _start(low: float) -> float:
    return math.floor(low / CELL + 1e-9) * CELL


def _count(start: float, high: float) -> int:
    """Cells from `start` that the area reaches at least REACH into."""
    return max(1, math.ceil((high - start - REACH) / CELL - 1e-9))


def columns(bounds: Bounds) -> list[tuple[str, float]]:
    """(letter, left edge) of every column the area spans (as many as there are letters)."""
    minx, _, maxx, _ = bounds
    x0 = _start(minx)
    n = min(len(LETTERS), _count(x0, maxx))
    return [(LETTERS[i], x0 + i * CELL) for i in range(n)]


def rows(bounds: Bounds) -> list[tuple[str, float]]:
    """(number, bottom edge) of every row the area spans."""
    _, miny, _, maxy = bounds
    y0 = _start(miny)
    n = _count(y0, maxy)
    return [(str(i + 1), y0 + i * CELL) for i in range(n)]


def is_cell(text: str) -> bool:
    """Whether the text has the shape of a cell name (a letter of the grid and a number)."""
    m = _NAME.fullmatch(text.strip())
    return m is not None and m.group(1).upper() in LETTERS


def centre(text: str, bounds: Bounds) -> Point:
    """The centre of the named cell; InvalidAction naming the board's cells if it has none."""
    m = _NAME.fullmatch(text.strip())
    cols, rws = dict(columns(bounds)), dict(rows(bounds))
    if m is None or m.group(1).upper() not in cols or m.group(2) not in rws:
        first, last = columns(bounds)[0][0], columns(bounds)[-1][0]
        raise InvalidAction(
            f"there is no cell {text.strip()!r} on this board; cells run "
            f"{first}1 to {last}{len(rws)} (columns {first}–{last} along the "
            f"top of the image, rows 1–{len(rws)} up its right side)"
        )
    return (cols[m.group(1).upper()] + CELL / 2, rws[m.group(2)] + CELL / 2)


def name(p: Point, cols: list[tuple[str, float]], rws: list[tuple[str, float]]) -> str | None:
    """The cell whose centre is p, if p is one (`cols`, `rows`: the board's `columns`, `rows`)."""
    i = (p[0] - cols[0][1] - CELL / 2) / CELL
    j = (p[1] - rws[0][1] - CELL / 2) / CELL
    if abs(i - round(i)) > 1e-9 or abs(j - round(j)) > 1e-9:
        return None
    if not (0 <= round(i) < len(cols) and 0 <= round(j) < len(rws)):
        return None
    return f"{cols[round(i)][0]}{rws[round(j)][0]}"


def centres(bounds: Bounds) -> list[Point]:
    """Every cell's centre, column by column."""
    return [(x0 + CELL / 2, y0 + CELL / 2) for _, x0 in columns(bounds) for _, y0 in rows(bounds)]
