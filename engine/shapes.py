"""Bounds on JSON that comes from outside (a typed move, an imported game file), checked before
anything reads it, so a huge or deeply nested value is refused with one clear line instead of
exhausting memory, the recursion limit or an integer conversion."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import InvalidAction


@dataclass(frozen=True)
class Limits:
    depth: int  # nesting of lists and objects
    string: int  # characters in one string (keys included)
    items: int  # entries in one list or object
    integer: int = 10**12  # largest magnitude of a number


MOVE = Limits(depth=6, string=200, items=100)  # one move typed by a user
MAX_NAME = 100  # characters in a player's name


# Fields of a move that name something (a player, company, train, hex...) or count something,
# as 18xx.games files and railchat's titles have them. Python takes true for 1 and 2.0 for 2,
# so such a value would be accepted and then kept in the log and in exported files as sent.
ID_FIELDS = frozenset(
    {"entity", "corporation", "company", "train", "tile", "hex", "city", "tokener", "user"}
)
NUMBER_FIELDS = frozenset(
    {
        "price",
        "percent",
        "share_price",
        "rotation",
        "slot",
        "extra_revenue",
        "subsidy",
        "amount",
        "limit",
        "until_condition",
        "action_id",
        "id",
        "created_at",
    }
)


def check_ids(action: Mapping[str, Any]) -> None:
    """Raise InvalidAction naming the first id or whole number of `action` (or of the
    auto_actions a game file gives it) that is true, false or a decimal number."""
    for key, value in action.items():
        if type(value) is bool or type(value) is float:
            if key in ID_FIELDS:
                raise InvalidAction(
                    f"{key} must be a whole number or a name, not {json.dumps(value)}"
                )
            if key in NUMBER_FIELDS:
                raise InvalidAction(f"{key} must be a whole number, not {json.dumps(value)}")
    autos = action.get("auto_actions")
    for auto in autos if isinstance(autos, list) else ():
        if isinstance(auto, Mapping):
            check_ids(auto)


def bounded_name(name: str) -> str:
    """A player's name cut to MAX_NAME characters (a chat name cannot be refused)."""
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"


def check_bounded(value: Any, limits: Limits, what: str) -> None:
    """Raise InvalidAction naming the first part of `value` beyond `limits` (or not JSON data).
    Iterative, so no nesting can overflow Python's stack. Most values fit: they are checked
    without naming every part, and only a value that does not fit is walked again for the
    name of its first offending part."""
    if not _fits(value, limits):
        _name_the_problem(value, limits, what)


def _fits(value: Any, limits: Limits) -> bool:
    """Whether everything in `value` is within `limits`. Texts and numbers inside a list or an
    object are checked where they are met (a game file holds hundreds of thousands), and only
    lists and objects go on the work list."""
    string, integer, items, depth_limit = limits.string, limits.integer, limits.items, limits.depth
    if not _scalar_fits(value, string, integer):
        return False
    stack: list[tuple[Any, int]] = [(value, 0)] if type(value) in (dict, list) else []
    pop, push = stack.pop, stack.append
    while stack:
        item, depth = pop()
        if depth >= depth_limit or len(item) > items:
            return False
        if type(item) is dict:
            for key in item:
                if type(key) is not str or len(key) > string:
                    return False
            subs = item.values()
        else:
            subs = item
        for sub in subs:
            kind = type(sub)
            if kind is str:
                if len(sub) > string:
                    return False
            elif kind is int or kind is float:
                if not abs(sub) <= integer:
                    return False
            elif kind is dict or kind is list:
                push((sub, depth + 1))
            elif not (kind is bool or sub is None):
                return False  # subclasses and other types: the slow walk decides and names them
    return True


def _scalar_fits(value: Any, string: int, integer: int) -> bool:
    kind = type(value)
    if kind is str:
        return len(value) <= string
    if kind is int or kind is float:
        return abs(value) <= integer
    return kind in (dict, list, bool) or value is None


def _name_the_problem(value: Any, limits: Limits, what: str) -> None:
    stack: list[tuple[Any, str, int]] = [(value, what, 0)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, bool) or item is None:
            continue
        if isinstance(item, (int, float)):
            if not abs(item) <= limits.integer:  # also refuses NaN
                raise InvalidAction(
                    f"{where} is {_short(item)}: numbers must lie within ±{limits.integer:,}"
                )
        elif isinstance(item, str):
            if len(item) > limits.string:
                raise InvalidAction(
                    f"{where} is {len(item):,} characters long; at most {limits.string} are allowed"
                )
        elif isinstance(item, (list, dict)):
            if depth >= limits.depth:
                raise InvalidAction(f"{where} is nested more than {limits.depth} levels deep")
            if len(item) > limits.items:
                raise InvalidAction(
                    f"{where} has {len(item):,} entries; at most {limits.items} are allowed"
                )
            if isinstance(item, dict):
                for key, sub in item.items():
                    if not isinstance(key, str) or len(key) > limits.string:
                        raise InvalidAction(f"{where} has a key that is not a short text")
                    stack.append((sub, f"{where}.{key}", depth + 1))
            else:
                stack.extend((sub, f"{where}[{i}]", depth + 1) for i, sub in enumerate(item))
        else:
            raise InvalidAction(f"{where} is not JSON data ({type(item).__name__})")


def _short(value: Any) -> str:
    try:
        text = repr(value)
    except ValueError:  # an integer with more digits than Python prints
        return "a number too long to print"
    return text if len(text) <= 24 else text[:20] + "…"
