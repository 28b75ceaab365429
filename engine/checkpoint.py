"""Cheap save and restore of a game's whole mutable state, for refusals and legality probes.

A refused action must leave the game exactly as it was, and the legal-move listing tries moves
on the real game. Copying the game (deepcopy) costs tens of milliseconds and replaying the log
grows with the game; instead nothing is copied but the contents: every object reachable from
the game keeps its identity and every list, dict and set keeps its identity too, and only what
they hold is saved. Restoring puts the contents back in place, so every reference held anywhere
(even a loop in progress over a list) stays valid.

Immutable objects (frozen dataclasses, enum members) and classes that set `CHECKPOINT_SKIP =
True` (derived, read-only snapshots such as a track network) are not walked; attributes named
in a class's `CHECKPOINT_SHARED` are kept as they are (data that never changes).
"""
from __future__ import annotations

from enum import Enum
from typing import Any

_ATOMS = frozenset({str, int, float, bool, type(None), bytes, tuple, frozenset})
_IMMUTABLE: dict[type, bool] = {}


def _immutable(cls: type) -> bool:
    known = _IMMUTABLE.get(cls)
    if known is None:
        params = getattr(cls, "__dataclass_params__", None)
        known = _IMMUTABLE[cls] = bool(
            issubclass(cls, (type, Enum)) or (params is not None and params.frozen)
            or getattr(cls, "CHECKPOINT_SKIP", False))
    return known


class Saved:
    """What `save` found: objects with their attributes, containers with their contents."""

    def __init__(self) -> None:
        self.objects: list[tuple[Any, dict[str, Any]]] = []
        self.containers: list[tuple[Any, Any]] = []


def save(root: Any) -> Saved:
    """The state of `root` and of every object and container reachable from it."""
    saved = Saved()
    pending: list[Any] = [root]
    seen = {id(root)}
    atoms = _ATOMS

    def visit(value: Any) -> None:
        kind = type(value)
        if kind in atoms or id(value) in seen:
            return
        if kind is list or kind is dict or kind is set:
            seen.add(id(value))
            saved.containers.append((value, value.copy()))
            items = value.items() if kind is dict else ((None, v) for v in value)
            for k, v in items:
                if type(k) not in atoms:
                    visit(k)
                if type(v) not in atoms:
                    visit(v)
            return
        if not hasattr(value, "__dict__") or _immutable(kind):
            return
        seen.add(id(value))
        pending.append(value)

    while pending:
        obj = pending.pop()
        shared = getattr(obj, "CHECKPOINT_SHARED", ())
        attrs = obj.__dict__
        saved.objects.append((obj, attrs.copy()))
        for key, value in attrs.items():
            if type(value) not in atoms and key not in shared:
                visit(value)
    return saved


def restore(saved: Saved) -> None:
    for obj, attrs in saved.objects:
        obj.__dict__.clear()
        obj.__dict__.update(attrs)
    for container, contents in saved.containers:
        if type(container) is list:
            container[:] = contents
        else:
            container.clear()
            container.update(contents)
