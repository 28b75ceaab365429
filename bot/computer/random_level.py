"""The `random` level: the fuzzer's careful player (bot/core/fuzz/picking.py), for tests and
as the arena's yardstick. Every title plays it. Its biases (Pass likelier the longer a turn or a
stock round lasts) are read from the public log, so it keeps no state between moves."""

from __future__ import annotations

import random

from bot.computer.levels import Decision
from bot.core.fuzz.picking import PASS_KINDS, SHARE_KINDS, pick_move
from engine.game import Choice, Game, PlayerId

PASS_GROWTH = 1.15  # per move of the turn so far, as in the fuzzer
MAX_PASS_BIAS = 50.0


def choose(view: Game, player: PlayerId, choices: list[Choice], rng: random.Random) -> Decision:
    dealing = any(c.action.get("type") in SHARE_KINDS for c in choices)
    share = min(0.85, 0.01 + 0.025 * dealing_streak(view)) if dealing else None
    bias = min(PASS_GROWTH ** turn_length(view), MAX_PASS_BIAS)
    choice = pick_move(rng, choices, bias, pass_share=share, careful=True)
    return Decision(choice, "a random move, weighted as the fuzzer weighs them")


def turn_length(view: Game) -> int:
    """Moves (not passes) the entity that moved last has made in a row: the current turn."""
    count = 0
    last = view.actions[-1].get("entity") if view.actions else None
    for action in reversed(view.actions):
        if action.get("entity") != last or action.get("type") in PASS_KINDS:
            break
        count += 1
    return count


def dealing_streak(view: Game) -> int:
    """Share dealings and passes in a row at the end of the log: how long a stock round has
    lasted."""
    count = 0
    for action in reversed(view.actions):
        if action.get("type") not in SHARE_KINDS and action.get("type") not in PASS_KINDS:
            break
        count += 1
    return count
