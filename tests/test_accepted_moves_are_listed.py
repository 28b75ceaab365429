"""A move the engine accepts must do what one of the listed legal moves does. At positions of
reference games, listed moves are bent (other, extra or repeated certificates, other percents,
prices and companies); a bent move that is accepted must end in the public state of some listed
move. This found a purchase of two certificates at once, a share named twice and paid twice,
another player's share bought from under them and Mohawk & Hudson exchanged for two shares."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.eighteen import io
from engine.eighteen.game import EighteenGame
from engine.eighteen.states import public_state
from engine.errors import GameError
from tests.reference_games import game_path

GAMES = [
    ("random/1830", "1830_3p_r3_s202"),
    ("random/1830", "1830_4p_r3_s203"),
    ("random/1860", "1860_3p_r3_s205"),
    ("generated/1860", "1860_g_3p_s5005"),
]
EVERY = 30  # positions looked at: every 30th action


def _free_terms(game: EighteenGame, action: dict[str, Any]) -> bool:
    """Moves whose price (or routes) the player chooses: the listing offers one example."""
    kind = action.get("type")
    if kind in ("bid", "buy_company", "run_routes"):
        return True
    train = game.depot.all_trains.get(action.get("train")) if kind == "buy_train" else None
    return train is not None and train.owner is not game.depot


def _bent(rng: random.Random, game: EighteenGame, action: dict[str, Any]) -> list[dict[str, Any]]:
    share_ids = [s.id for c in game.corporations for s in c.all_shares]
    out = []
    if "shares" in action:
        named = list(action["shares"])
        for _ in range(4):
            other = rng.sample(share_ids, 2)
            out += [
                {**action, "shares": other[:1]},
                {**action, "shares": named + other[:1]},
                {**action, "shares": named + named[:1]},
                {**action, "shares": other},
            ]
        out += [{**action, "percent": p} for p in (0, 10, 20, 30, 50)]
    for field in ("price", "rotation"):
        if isinstance(action.get(field), int):
            out += [{**action, field: action[field] + d} for d in (-10, -1, 1, 6, 100)]
    for field in ("company", "corporation"):
        if field in action:
            names = [c.sym for c in (game.companies if field == "company" else game.corporations)]
            out += [{**action, field: name} for name in rng.sample(names, min(3, len(names)))]
    return out


@pytest.mark.parametrize("game_set,name", GAMES)
def test_every_accepted_move_does_what_a_listed_move_does(game_set: str, name: str) -> None:
    data = json.loads(game_path(game_set, name).read_text())
    rng = random.Random(name)
    outside = []
    for upto in range(EVERY, len(data["actions"]), EVERY):
        game = io.load(data, upto=upto).game
        assert isinstance(game, EighteenGame)
        if game.finished:
            break
        for pid in game.active_players():
            listed = [c.action for c in game.legal_actions(pid)]
            outcomes = {
                json.dumps(game.try_out(a, pid, lambda g, _: public_state(g)), sort_keys=True)
                for a in listed
            }
            for action in listed:
                for bent in _bent(rng, game, action):
                    if bent in listed or _free_terms(game, bent):
                        continue
                    try:
                        seen = game.try_out(bent, pid, lambda g, _: public_state(g))
                    except GameError:
                        continue
                    if json.dumps(seen, sort_keys=True) not in outcomes:
                        outside.append(f"after action {upto}: {bent}")
    assert outside == []
