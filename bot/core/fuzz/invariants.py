"""What must hold after every change of a fuzzed game, and the position's public picture.

The core checks only the engine's title-neutral contract (engine/game.py). A title family
adds its own bookkeeping checks (money, shares, trains...) with `register`; the modules in
`CHECK_MODULES` are imported so that they can.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.game import Choice, Game

# A check returns the problems it finds (empty: all is well). `baseline` is what the checker
# recorded from the game's starting position (`start`), e.g. the money in play.
Checker = tuple[Callable[[Game], bool], Callable[[Game], Any], Callable[[Game, Any], list[str]]]
_CHECKERS: list[Checker] = []
CHECK_MODULES: tuple[str, ...] = ("bot.core.fuzz.eighteen",)


def register(
    applies: Callable[[Game], bool],
    start: Callable[[Game], Any],
    check: Callable[[Game, Any], list[str]],
) -> None:
    _CHECKERS.append((applies, start, check))


def _load() -> None:
    for name in CHECK_MODULES:
        importlib.import_module(name)


class Invariants:
    """The checks that apply to one game, with their baselines from its first position."""

    def __init__(self, game: Game) -> None:
        _load()
        self.checks = [(check, start(game)) for applies, start, check in _CHECKERS if applies(game)]

    def problems(self, game: Game, legal: Mapping[Any, Sequence[Choice]]) -> list[str]:
        """`legal`: the legal moves of each player who must act (as the service lists them)."""
        out = contract_problems(game, legal)
        for check, baseline in self.checks:
            out += check(game, baseline)
        return out


def contract_problems(game: Game, legal: Mapping[Any, Sequence[Choice]]) -> list[str]:
    """The title-neutral promises: someone must act unless the game is over, and whoever
    must act has a legal move."""
    if game.finished:
        return (
            []
            if not game.active_players()
            else [f"the game is over but {game.active_players()} must still act"]
        )
    active = game.active_players()
    if not active:
        return ["nobody must act but the game is not over"]
    return [f"player {p} must act but has no legal action" for p in active if not legal.get(p)]


def public_state(game: Game) -> str:
    """Everything a player can see of the position, as canonical JSON: for comparing a game
    with its replay and a position before and after a refused move."""
    picture: dict[str, Any] = {
        "finished": game.finished,
        "active": game.active_players(),
        "result": sorted(game.result().items(), key=str),
        "status": game.status_text(),
        "actions": len(game.file_actions()),  # as many moves as its game file holds
    }
    snapshot = getattr(game, "snapshot", None)  # titles with a renderer picture offer one
    if callable(snapshot):
        picture["snapshot"] = snapshot()
    return json.dumps(picture, sort_keys=True, default=str)
