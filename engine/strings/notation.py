"""How players type String Railway moves in chat: a station's centre as `x y` or a cell of the
image (`D4`), a rail as its kind and stops, e.g. `short B1 S3 (40 20) D4 S5` (labels, and free
points as two numbers or a cell)."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from engine.errors import InvalidAction
from engine.game import Action, PlayerId
from engine.strings import grid as cells
from engine.strings.host import StringRailwayHost
from engine.strings.options import points as shape_points

_TOKEN = re.compile(r"[A-Za-z]+\d*|-?\d+(?:\.\d+)?")


def point(text: str, bounds: cells.Bounds) -> tuple[float, float]:
    """A point typed as `x y` (centimetres, the image's bottom and left scales) or as a cell
    of the image (`D4`, its centre)."""
    if cells.is_cell(text):
        return cells.centre(text, bounds)
    nums = re.findall(r"-?\d+(?:\.\d+)?", text)
    if len(nums) != 2 or re.sub(r"[-\d.\s,;()]", "", text):
        raise InvalidAction(
            f"give the station's centre as two numbers, x y (e.g. 40 25), or a "
            f"cell of the image (e.g. D4), not {text!r}"
        )
    return float(nums[0]), float(nums[1])


def path(
    text: str, labels: Collection[str] = (), bounds: cells.Bounds | None = None
) -> tuple[str | None, list[Any]]:
    """(rail kind if typed, stops) from `short B1 S3 (40 20) D4 S5`: a name that is not one of
    the station `labels` but a cell of the image (with `bounds`) is a free point, its centre."""
    kind = None
    stops: list[Any] = []
    pending: list[float] = []
    for token in _TOKEN.findall(text):
        low = token.lower()
        if low in ("short", "long"):
            kind = low
        elif token[0].isalpha():
            if pending:
                raise InvalidAction(f"a free point needs two numbers (x y), near {token}")
            if token.upper() not in labels and bounds is not None and cells.is_cell(token):
                stops.append(list(cells.centre(token, bounds)))
            else:
                stops.append(token.upper())
        else:
            pending.append(float(token))
            if len(pending) == 2:
                stops.append([pending[0], pending[1]])
                pending = []
    if pending:
        raise InvalidAction("a free point needs two numbers (x y)")
    leftover = re.sub(r"[A-Za-z]+\d*|-?\d+(?:\.\d+)?|[\s,;()\[\]–-]", "", text)
    if leftover:
        raise InvalidAction(
            f"cannot read {leftover!r} in the rail; write e.g. short B1 S3 (40 20) S5"
        )
    if len(stops) < 2:
        raise InvalidAction("a rail lists at least its two end stations, e.g. B1 S3")
    return kind, stops


def typed_action(
    game: StringRailwayHost, entity: PlayerId, action_type: str, typed: Mapping[str, str]
) -> Action:
    text = " ".join(str(v) for v in typed.values() if v)
    if action_type in ("place_station", "set_aside_station"):
        if "aside" in text.lower().split():  # a station that fits nowhere: `set aside`
            return {"type": "set_aside_station", "entity": entity}
        x, y = point(text, game.board.area.bounds)
        return {"type": "place_station", "entity": entity, "x": x, "y": y}
    if action_type == "lay_rail":
        kind, stops = path(text, game.board.stations, game.board.area.bounds)
        if kind is None:  # the shortest rail left that is long enough
            from engine.strings.geometry import length

            run = length([game.board.resolve(s)[0] for s in stops])
            fits = [
                k
                for k in ("short", "long")
                if game.current.rails[k] > 0
                and run <= (game.sizes.short if k == "short" else game.sizes.long) + 1e-9
            ]
            kind = fits[0] if fits else ("long" if game.current.rails["long"] else "short")
        return {"type": "lay_rail", "entity": entity, "rail": kind, "path": stops}
    if action_type == "forfeit_rail":
        kind = text.strip().lower()
        if kind not in ("short", "long"):
            raise InvalidAction("say which rail to give up: short or long")
        return {"type": "forfeit_rail", "entity": entity, "rail": kind}
    if action_type in ("reroll", "set_shape"):
        return _shape_action(entity, text)
    raise InvalidAction(f"String Railway has no typed {action_type} moves")


def _shape_action(entity: PlayerId, text: str) -> Action:
    """`river` rolls the river again; `river 10 20, 40 35, 70 50` lays it by hand through
    those points (the mountain alike, its corners in order around it)."""
    what, _, corners = text.strip().partition(" ")
    what = what.casefold()
    if what not in ("river", "mountain"):
        raise InvalidAction(
            "say river or mountain to roll it again, or add its points x y to lay it by hand, "
            "e.g. river 10 20, 40 35, 70 50"
        )
    if not corners.strip():
        return {"type": "reroll", "entity": entity, "what": what}
    pts = shape_points(what, corners)
    return {
        "type": "set_shape",
        "entity": entity,
        "what": what,
        "points": [list(p) for p in pts or []],
    }
