"""Registry of game titles (the `find_title` of railchat).

The shipped titles are a table of name -> module: a title's rules are imported the first time
that title is asked for, so that a process playing 1830 never loads String Railway's geometry
(numpy, shapely) and listing the titles loads none of them.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import InvalidAction
from engine.game import Game, PlayerInfo

# title name (lower case) -> (module, class) of the shipped titles
BUILTIN_TITLES: dict[str, tuple[str, str]] = {
    "1830": ("engine.g1830", "Game1830"),
    "1860": ("engine.g1860.game", "Game1860"),
    "string_railway": ("engine.strings.game", "StringRailway"),
}

_TITLES: dict[str, type[Game]] = {}


def register_title(cls: type[Game]) -> type[Game]:
    """Make a title known beyond the shipped ones (tests register small titles this way)."""
    _TITLES[cls.title.lower()] = cls
    return cls


def find_title(name: str) -> type[Game]:
    """The title by its id, or as printed ("String Railway", "string-railway")."""
    key = "_".join(name.lower().replace("-", " ").split())
    if key not in _TITLES and key in BUILTIN_TITLES:
        module, cls_name = BUILTIN_TITLES[key]
        register_title(getattr(importlib.import_module(module), cls_name))
    try:
        return _TITLES[key]
    except KeyError:
        known = ", ".join(title_names()) or "none"
        raise InvalidAction(f"unknown title {name!r}; known titles: {known}") from None


def title_names() -> list[str]:
    return sorted(set(BUILTIN_TITLES) | set(_TITLES))


def create_game(
    title: str,
    players: Sequence[PlayerInfo],
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> Game:
    return find_title(title)(players, options, seed)
