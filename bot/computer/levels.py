"""The levels of computer play and the seat object a service calls for each move.

A strategy is `choose(view, player, choices, rng) -> Decision`: `view` is the game as a seated
player sees it (`Game.player_view()`), `choices` the engine's legal moves for that player (the
service computes them), `rng` dice for ties and random play, seeded from the seat's seed and the
move number only, so that a decision never depends on anything hidden and a game replays the
same. Strategies keep no state between moves: a restarted bot plays on as before.
"""

from __future__ import annotations

import importlib
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType

from engine.game import Action, Choice, Game, PlayerId

log = logging.getLogger(__name__)

LEVELS = ("random", "standard")


@dataclass(frozen=True)
class Decision:
    """The move picked and why, in a player's words (shown in logs, kept for a thread), and
    the runners-up the decision weighed, best first, each with its reason: what a hint offers
    after the pick (none where the decision ranks nothing else honestly)."""

    choice: Choice
    why: str
    others: tuple[Decision, ...] = ()


def ranked(decisions: Sequence[Decision]) -> Decision:
    """The first of `decisions` (not empty, best first), the rest its runners-up."""
    return Decision(decisions[0].choice, decisions[0].why, tuple(decisions[1:]))


Strategy = Callable[[Game, PlayerId, list[Choice], random.Random], Decision]
Volunteer = Callable[[Game, PlayerId, list[Choice]], bool]

# (title, level) -> the module holding its `choose` (and, optionally, `volunteers`)
_MODULES = {
    ("1830", "standard"): "bot.computer.g1830_standard",
    ("1860", "standard"): "bot.computer.g1860_standard",
    ("string_railway", "standard"): "bot.computer.strings_standard",
}


def _module(title: str, level: str) -> ModuleType:
    if level not in LEVELS:
        raise ValueError(f"unknown computer level {level!r} (levels: {', '.join(LEVELS)})")
    if level != "random" and (title, level) not in _MODULES:
        raise ValueError(f"{title} has no {level} computer player yet; it plays random")
    return importlib.import_module(_MODULES.get((title, level), "bot.computer.random_level"))


def ever_volunteers(title: str, level: str) -> bool:
    """Whether this level may make optional moves out of turn in this title (see
    `Computer.volunteers`): a frontend need not ask the others otherwise."""
    return hasattr(_module(title, level), "volunteers")


def best_level(title: str) -> str:
    """The strongest level the title has (every title plays `random`): a computer seat's
    level unless one is named."""
    return next((lv for lv in LEVELS[::-1] if (title, lv) in _MODULES), "random")


def check_level(title: str, level: str) -> None:
    """Raise ValueError when the title has no such level (every title plays `random`)."""
    _module(title, level)


@dataclass(frozen=True)
class Computer:
    """A computer seat of `level` playing engine player `player`. Called as a `MoveBuilder`
    (`service.play(game_id, caller, computer)`): given the live game and the seat's legal
    choices it returns one of those moves (String Railway may return a hint, which is a complete
    legal move too)."""

    level: str
    player: PlayerId
    seed: int = 0

    def __call__(self, game: Game, choices: list[Choice]) -> Action:
        return self.decide(game, choices).choice.action

    def decide(self, game: Game, choices: list[Choice]) -> Decision:
        """The move to make, moves that take another player's property at a price they must
        accept (deals) left out (`_own`)."""
        if not choices:
            raise ValueError(f"player {self.player} has no legal move to choose from")
        try:
            return self.pick(game, choices)
        except Exception:  # a strategy bug must not stall the game: the random level moves
            log.exception(
                "%s computer failed in %s; it plays a random move", self.level, game.title
            )
            fallback = importlib.import_module("bot.computer.random_level")
            options, view = self._own(game, choices), game.player_view()
            decision = fallback.choose(view, self.player, options, self.dice(game))
            return Decision(decision.choice, f"fallback after an error: {decision.why}")

    def pick(self, game: Game, choices: list[Choice]) -> Decision:
        """The level's own decision among `choices` (not empty): `decide` without the
        fallback, raising where the strategy fails (a hint falls back on nothing)."""
        module = _module(game.title, self.level)
        return module.choose(
            game.player_view(), self.player, self._own(game, choices), self.dice(game)
        )

    def _own(self, game: Game, choices: list[Choice]) -> list[Choice]:
        """Deals are left out while anything else is open: a computer does not haggle."""
        own = [c for c in choices if game.counterparty(c.action) in (None, self.player)]
        return own or choices

    def volunteers(self, game: Game, choices: list[Choice]) -> bool:
        """Whether to make an optional move now while another player is the one the game waits
        for (String Railway's rerolls before the first station); False for most levels."""
        wants: Volunteer | None = getattr(_module(game.title, self.level), "volunteers", None)
        return (
            bool(choices) and wants is not None and wants(game.player_view(), self.player, choices)
        )

    def dice(self, game: Game) -> random.Random:
        """Seeded by the seat and the number of moves made: public, and the same on a replay."""
        return random.Random(f"{self.seed}:{self.player}:{len(game.actions)}")


HINTS = 3  # suggestions a hint gives at most


def advise(game: Game, player: PlayerId, choices: list[Choice]) -> list[Decision]:
    """A hint where the title suggests nothing itself: the move the title's best level would
    make for the player now, then the runners-up its decision weighed (HINTS in all at most,
    each a listed move with its reason). Judged on the player's view with dice of the position
    alone, so the same position gets the same hint; nothing when the title has only the random
    level or the strategy fails (a random move is no advice)."""
    level = best_level(game.title)
    if level == "random" or not choices:
        return []
    try:
        picked = Computer(level, player).pick(game, choices)
    except Exception:
        log.exception("the %s computer could not advise in %s", level, game.title)
        return []
    out = [picked]
    for other in picked.others:
        # the same label is the same move to a player (a symmetric tile turned round)
        if len(out) < HINTS and all(other.choice.label != d.choice.label for d in out):
            out.append(other)
    return out
