"""Reading String Railway's game options and file settings (lists from files, text from chat)."""

from __future__ import annotations

import re
from typing import Any

from engine.errors import InvalidAction
from engine.game import is_flag
from engine.strings.geometry import Point
from engine.strings.setup import Sizes, check_area, check_order

OPTION_NAMES = (
    "variant",
    "chaotic",
    "area",
    "river",
    "mountain",
    "station_order",
    "short",
    "long",
    "station_size",
    "river_length",
    "mountain_perimeter",
    "rerolls",
    "two_players",
)

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")

# The range in which each measure still makes a game (centimetres, like the defaults): below
# it a string or a shape cannot be laid, above it the table holds more cells than a chat can
# list or a turn can search.
RANGES = {
    "short": (5.0, 200.0),
    "long": (5.0, 400.0),
    "station_size": (1.0, 20.0),
    "river_length": (10.0, 500.0),
    "mountain_perimeter": (10.0, 600.0),
}
MAX_REROLLS = 10
MAX_SIDE = 300.0  # the play area's bounding box, each way (the square is 85)
MIN_SIDE = 20.0
MAX_VERTICES = {"area": 24, "river": 64, "mountain": 64}
MAX_COORDINATE = 1000.0
MAX_ORDER = 200  # stations in a given deck (the table has 38)


def points(name: str, raw: Any) -> list[Point] | None:
    """Vertices from a list of [x, y] pairs or from text such as '0 0; 85 0; 85 85'."""
    if raw is None or raw == "":
        return None
    if isinstance(raw, str):
        nums = [float(n) for n in _NUMBER.findall(raw)]
        if len(nums) % 2 or re.sub(r"[-\d.\s,;()\[\]]", "", raw):
            raise InvalidAction(f"{name}: give vertices as 'x y; x y; ...', not {raw!r}")
        return [(nums[i], nums[i + 1]) for i in range(0, len(nums), 2)]
    try:
        out = [(float(x), float(y)) for x, y in raw]
    except (TypeError, ValueError):
        raise InvalidAction(f"{name}: give vertices as a list of [x, y] pairs") from None
    return out


def station_order(raw: Any) -> list[str] | None:
    if raw is None or raw == "":
        return None
    if isinstance(raw, str):
        return [s.strip().lower() for s in re.split(r"[,\s]+", raw) if s.strip()]
    if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw):
        raise InvalidAction("station_order is a list of station type names")
    return [s.lower() for s in raw]


def number(options: dict[str, Any], name: str, default: float) -> float:
    raw = options.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise InvalidAction(f"option {name} is a number, not {raw!r}") from None
    if value <= 0:
        raise InvalidAction(f"option {name} must be positive")
    return value


def sizes(options: dict[str, Any]) -> Sizes:
    base = Sizes()
    return Sizes(
        short=number(options, "short", base.short),
        long=number(options, "long", base.long),
        station=number(options, "station_size", base.station),
        river=number(options, "river_length", base.river),
        mountain=number(options, "mountain_perimeter", base.mountain),
    )


def flag(options: dict[str, Any], name: str) -> bool:
    raw = options.get(name)
    if isinstance(raw, str):
        return raw.strip().lower() not in ("", "0", "false", "no", "off")
    return bool(raw)


def expert(options: dict[str, Any]) -> bool:
    raw = options.get("variant")
    if raw in (None, "", False):
        return False
    if raw is True or str(raw).lower() == "expert":
        return True
    raise InvalidAction(f"variant is 'expert' or nothing, not {raw!r}")


def check(options: dict[str, Any]) -> None:
    """Every option of a new String Railway game within the range the rules make sense for,
    before anything is built from it: InvalidAction names the first one that is not."""
    for name in ("chaotic", "two_players"):
        if name in options and not is_flag(options[name]):
            raise InvalidAction(f"option {name} is only on or off, not {str(options[name])[:40]!r}")
    expert(options)
    for name, (low, high) in RANGES.items():
        value = number(options, name, low)
        if not low <= value <= high:  # also refuses inf and nan
            raise InvalidAction(f"option {name} must lie between {low:g} and {high:g} cm")
    if number(options, "short", 30.0) > number(options, "long", 60.0):
        raise InvalidAction("a short rail cannot be longer than a long one")
    rerolls = options.get("rerolls")
    if rerolls not in (None, "") and not (type(rerolls) is int and 0 <= rerolls <= MAX_REROLLS):
        raise InvalidAction(f"option rerolls is a whole number from 0 to {MAX_REROLLS}")
    shapes = {name: _bounded_points(name, options.get(name)) for name in MAX_VERTICES}
    area = shapes["area"]
    if area is not None:
        xs, ys = [x for x, _ in area], [y for _, y in area]
        sides = (max(xs) - min(xs), max(ys) - min(ys))
        if not all(MIN_SIDE <= side <= MAX_SIDE for side in sides):
            raise InvalidAction(
                f"the play area must span {MIN_SIDE:g} to {MAX_SIDE:g} cm each way "
                f"(it spans {sides[0]:g} by {sides[1]:g})"
            )
        check_area(area)
    order = station_order(options.get("station_order"))
    if order is not None:
        if len(order) > MAX_ORDER:
            raise InvalidAction(f"station_order lists at most {MAX_ORDER} stations")
        check_order(order)


def _bounded_points(name: str, raw: Any) -> list[Point] | None:
    """A shape's vertices, few enough and finite, read without building anything from them."""
    if isinstance(raw, str) and len(raw) > 40 * MAX_VERTICES[name]:
        raise InvalidAction(f"{name}: at most {MAX_VERTICES[name]} vertices")
    if isinstance(raw, list) and len(raw) > MAX_VERTICES[name]:
        raise InvalidAction(f"{name}: at most {MAX_VERTICES[name]} vertices")
    found = points(name, raw)
    if found is None:
        return None
    if len(found) > MAX_VERTICES[name]:
        raise InvalidAction(f"{name}: at most {MAX_VERTICES[name]} vertices")
    if not all(abs(c) <= MAX_COORDINATE for p in found for c in p):  # also refuses nan
        raise InvalidAction(f"{name}: coordinates lie within ±{MAX_COORDINATE:g} cm")
    return found
