"""Registry of game titles (the `find_title` of railchat)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import InvalidAction
from engine.game import Game, PlayerInfo

_TITLES: dict[str, type[Game]] = {}


def register_title(cls: type[Game]) -> type[Game]:
    _TITLES[cls.title.lower()] = cls
    return cls


def _load_builtin() -> None:
    import engine.builtin_titles  # noqa: F401  (registers the shipped titles)


def find_title(name: str) -> type[Game]:
    _load_builtin()
    try:
        return _TITLES[name.lower()]
    except KeyError:
        known = ", ".join(sorted(_TITLES)) or "none"
        raise InvalidAction(f"unknown title {name!r}; known titles: {known}") from None


def title_names() -> list[str]:
    _load_builtin()
    return sorted(_TITLES)


def create_game(
    title: str,
    players: Sequence[PlayerInfo],
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> Game:
    return find_title(title)(players, options, seed)
