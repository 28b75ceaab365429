"""How the fuzzer's random player weighs the legal moves: by type, so that random games move
towards their end (runs, payouts, trains) rather than drag on (sales), with Pass growing likelier
the longer a turn or a stock round lasts. Shared by the fuzzer and the computer's `random` level;
it imports nothing of the service."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.game import Choice

# Relative weight of a legal move by its type, so that random games finish: runs, payouts and
# train purchases move an 18xx game towards its end; selling drags it out. Types not named
# weigh 1; a title with other move names plays uniformly, which is still valid play.
WEIGHTS = {
    "run_routes": 20.0,
    "buy_company": 0.3,
    "buy_train": 6.0,
    "lay_tile": 3.0,
    "place_token": 2.0,
    "par": 2.0,
    "buy_shares": 2.0,
    "sell_shares": 0.3,
    "bankrupt": 0.2,
}
PASS_KINDS = ("pass",)
# Moves of a share-dealing round: the more of them since such a round began, the likelier Pass,
# so that everyone passes in turn and the round ends.
SHARE_KINDS = frozenset({"buy_shares", "sell_shares", "par"})


def pick_move(
    rng: random.Random,
    legal: list[Choice],
    pass_bias: float = 1.0,
    *,
    pass_share: float | None = None,
    careful: bool = False,
    deal: Callable[[dict[str, Any]], bool] | None = None,
) -> Choice:
    """A legal move drawn by the `WEIGHTS` of its type. Pass weighs `pass_bias`, or, with
    `pass_share`, that share of the whole (whatever the number of other moves); a move that
    needs another player's agreement (`deal`) weighs a tenth. A `careful` player's sales weigh
    as one move together, and Pass never less than `pass_bias`: else broke players sell their
    way out of every company and most 1860 games never see a phase-3 train."""
    weights = []
    sales = sum(1 for c in legal if c.action.get("type") == "sell_shares") if careful else 1
    for c in legal:
        kind = str(c.action.get("type"))
        w = WEIGHTS.get(kind, 1.0)
        if kind == "sell_shares":
            w /= sales
        elif kind in PASS_KINDS:
            w = pass_bias
        elif kind == "dividend":
            w = 8.0 if c.action.get("kind") == "payout" else 1.0
        if deal is not None and deal(c.action):
            w /= 10
        weights.append(w)
    passes = [i for i, c in enumerate(legal) if c.action.get("type") in PASS_KINDS]
    others = sum(w for i, w in enumerate(weights) if i not in passes)
    if pass_share is not None and passes and others:
        for i in passes:
            share = others * pass_share / (1 - pass_share) / len(passes)
            weights[i] = max(weights[i], share) if careful else share
    return rng.choices(legal, weights)[0]
