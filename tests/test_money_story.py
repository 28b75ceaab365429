"""Every cash movement and price move of an action is told in its sentence.

The expected movements come from 18xx.games' own state after each action (the reference
states of the shared fixtures), not from our engine: for each action, every player and company
whose cash changed is named with the amount it gained or paid, and every share price that moved
is given as before → after.
"""

from __future__ import annotations

import json
import re

import pytest

from engine.eighteen import io
from tests.reference_games import game_ids, game_path, reference_states


def _amounts(sentence: str) -> set[int]:
    return {int(m.replace(",", "")) for m in re.findall(r"[$£](\d[\d,]*)", sentence)}


def _told(delta: int, sentence: str) -> bool:
    """The change is stated: one amount, or two that add up or net to it (two purchases, a purchase and an income)."""
    amounts = _amounts(sentence)
    return abs(delta) in amounts or any(
        abs(delta) in (a + b, abs(a - b)) for a in amounts for b in amounts
    )


GAMES = (
    [("1830", stem) for stem in game_ids("1830")]
    + [("random/1830", stem) for stem in game_ids("random/1830")]
    + [("1860", stem) for stem in game_ids("1860")]
)


@pytest.mark.parametrize(("game_set", "stem"), GAMES, ids=[s for _, s in GAMES])
def test_every_cash_and_price_change_is_told(game_set: str, stem: str) -> None:
    path = game_path(game_set, stem)
    data = json.loads(path.read_text())
    names = {p["id"]: p.get("name", str(p["id"])) for p in data["players"]}
    states = {s["idx"]: s for s in reference_states(path)}
    said: list[tuple[int, str]] = []
    io.load(data, on_state=lambda i, a, g: said.append((i, g.describe(a))))
    previous = states[-1]
    checked = 0
    for idx, sentence in said:
        state = states[idx]
        before_cash = {names[p["id"]]: p["cash"] for p in previous["players"]}
        before_cash.update({sym: c["cash"] for sym, c in previous["corporations"].items()})
        after_cash = {names[p["id"]]: p["cash"] for p in state["players"]}
        after_cash.update({sym: c["cash"] for sym, c in state["corporations"].items()})
        for name, cash in after_cash.items():
            delta = cash - before_cash[name]
            if delta:
                checked += 1
                assert name in sentence, (idx, name, delta, sentence)
                assert _told(delta, sentence), (idx, name, delta, sentence)
        for sym, corp in state["corporations"].items():
            old, new = previous["corporations"][sym]["price"], corp["price"]
            if old is not None and new is not None and old != new:
                money = "£" if game_set == "1860" else "$"
                assert f"{sym} {money}{old} → {money}{new}" in sentence, (idx, sym, sentence)
        previous = state
    assert checked > 50


def test_sentences_of_a_sale_a_payout_and_a_train_with_the_presidents_cash() -> None:
    """Read against the reference states of game 1830_game_end_bank: actions 81 (a sale), 96 (a payout)
    and 355 (ERIE's 6-train, bought with its president's help)."""
    path = game_path("1830", "1830_game_end_bank")
    data = json.loads(path.read_text())
    said: dict[int, str] = {}
    io.load(data, upto=355, on_state=lambda i, a, g: said.__setitem__(i, g.describe(a)))
    assert said[355].startswith(
        "ERIE buys a 6-train from the bank for $630 (ERIE $385, its president Player 2 adds $245)."
    )
    sale = next(s for s in said.values() if " sells " in s)
    assert re.search(
        r"sells \d+% of \S+ to the market for \$\d+\. .*Share price: \S+ \$\d+ → \$\d+", sale
    ), sale
    payout = next(s for s in said.values() if " pays out " in s)
    assert re.search(r"pays out \$\d+ \(\$\d+ a share\): Player \d \$\d+", payout), payout
