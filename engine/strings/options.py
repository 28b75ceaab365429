"""Reading String Railway's game options and file settings (lists from files, text from chat)."""

from __future__ import annotations

import re
from typing import Any

from engine.errors import InvalidAction
from engine.strings.geometry import Point
from engine.strings.setup import Sizes

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
