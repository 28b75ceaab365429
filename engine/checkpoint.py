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
_IMMUTABLE: dict[type, bool] = {}  # per class: never walked (see `_immutable`, or no __dict__)


def _immutable(cls: type) -> bool:
    params = getattr(cls, "__dataclass_params__", None)
    return bool(
        issubclass(cls, (type, Enum))
        or (params is not None and params.frozen)
        or getattr(cls, "CHECKPOINT_SKIP", False)
    )


class Saved:
    """What `save` found: objects with their attributes, containers with their contents."""

    def __init__(self) -> None:
        self.objects: list[tuple[Any, dict[str, Any]]] = []
        self.containers: list[tuple[Any, Any]] = []


def save(root: Any) -> Saved:
    """The state of `root` and of every object and container reachable from it. One loop over
    a work list (no call per value): this runs before every move and every legality probe."""
    saved = Saved()
    objects, containers = saved.objects, saved.containers
    atoms, immutable = _ATOMS, _IMMUTABLE
    seen = {id(root)}
    pending: list[Any] = [root]
    while pending:
        value = pending.pop()
        kind = type(value)
        items: Any
        if kind is list or kind is set:
            containers.append((value, value.copy()))
            items = value
        elif kind is dict:
            containers.append((value, value.copy()))
            for key in value:
                if type(key) not in atoms and id(key) not in seen:
                    seen.add(id(key))
                    pending.append(key)
            items = value.values()
        else:
            attrs = value.__dict__
            objects.append((value, attrs.copy()))
            shared = getattr(kind, "CHECKPOINT_SHARED", ())
            items = [v for k, v in attrs.items() if k not in shared] if shared else attrs.values()
        for item in items:
            item_kind = type(item)
            if item_kind in atoms or id(item) in seen:
                continue
            if item_kind is list or item_kind is dict or item_kind is set:
                seen.add(id(item))
                pending.append(item)
                continue
            fixed = immutable.get(item_kind)
            if fixed is None:
                fixed = immutable[item_kind] = _immutable(item_kind) or not hasattr(
                    item, "__dict__"
                )
            if not fixed:
                seen.add(id(item))
                pending.append(item)
    return saved


class Packed:
    """A saved state kept for long (a game's history): the same contents as `Saved`, laid out
    in one flat list. `Saved` holds two tracked objects per object and container it saved (a
    pair and a copy), thousands per game; kept for hundreds of actions they made each full
    garbage collection walk them all. One list is one tracked object whose items are only
    visited. Restoring it is slower, which a rewind can afford."""

    __slots__ = ("objects", "flat")

    def __init__(self, saved: Saved) -> None:
        flat: list[Any] = []
        for obj, attrs in saved.objects:
            flat += (obj, len(attrs))
            flat += attrs
            flat += attrs.values()
        for container, contents in saved.containers:
            flat += (container, len(contents))
            flat += contents
            if type(contents) is dict:
                flat += contents.values()
        self.objects = len(saved.objects)
        self.flat = flat

    def restore(self) -> None:
        flat, at, n = self.flat, 0, 0
        while at < len(flat):
            holder, size = flat[at], flat[at + 1]
            items = flat[at + 2 : at + 2 + size]
            at += 2 + size
            if n < self.objects or type(holder) is dict:  # keys, then as many values
                target = holder if type(holder) is dict else holder.__dict__
                target.clear()
                target.update(zip(items, flat[at : at + size]))
                at += size
            elif type(holder) is list:
                holder[:] = items
            else:
                holder.clear()
                holder.update(items)
            n += 1


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
