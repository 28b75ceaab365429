"""Hex coordinates as 18xx.games writes them ("E19"), for both map orientations.

Both orientations number the six sides 0..5 clockwise; side `e` of a hex touches side
`(e + 3) % 6` of its neighbour. A pointy-topped map (1830) names a hex by row letter and
column number, a flat-topped one (1860) by column letter and row number; in both, only every
other number exists in a row (the "doubled" coordinate system).
"""

from __future__ import annotations

import re
from enum import Enum

_COORD = re.compile(r"^([A-Z]+)(-?\d+)$")


class Orientation(Enum):
    POINTY = "pointy"  # side 0 = SW, 1 = W, 2 = NW, 3 = NE, 4 = E, 5 = SE
    FLAT = "flat"  # side 0 = S, 1 = SW, 2 = NW, 3 = N, 4 = NE, 5 = SE

    @classmethod
    def from_layout(cls, layout: str) -> Orientation:
        """Read the orientation from a title's free-text `map.layout` ("pointy-topped hexes; ...")."""
        text = layout.strip().lower()
        for orientation in cls:
            if text.startswith(orientation.value):
                return orientation
        raise ValueError(f"unknown map layout {layout!r}")


# (d letter, d number) of the neighbour across each side.
_STEPS: dict[Orientation, tuple[tuple[int, int], ...]] = {
    Orientation.POINTY: ((1, -1), (0, -2), (-1, -1), (-1, 1), (0, 2), (1, 1)),
    Orientation.FLAT: ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)),
}

SIDES = range(6)


def opposite(side: int) -> int:
    return (side + 3) % 6


def split_coordinate(hex_id: str) -> tuple[int, int]:
    """ "E19" -> (4, 19): letter index and number."""
    match = _COORD.match(hex_id)
    if not match:
        raise ValueError(f"{hex_id!r} is not a hex coordinate")
    letters, number = match.groups()
    index = 0
    for ch in letters:
        index = index * 26 + (ord(ch) - ord("A") + 1)
    return index - 1, int(number)


def join_coordinate(letter_index: int, number: int) -> str:
    letters = ""
    n = letter_index + 1
    while n > 0:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return f"{letters}{number}"


def neighbour_id(orientation: Orientation, hex_id: str, side: int) -> str | None:
    """The coordinate across `side` of `hex_id` (whether or not the map has such a hex)."""
    letter, number = split_coordinate(hex_id)
    d_letter, d_number = _STEPS[orientation][side]
    if letter + d_letter < 0:
        return None
    return join_coordinate(letter + d_letter, number + d_number)
