"""Bugs the fuzzer found, each replayed from the game file it wrote (tests/data/fuzz/). A bug
in a title's engine that is not fixed yet is a strict xfail: it turns into a failure, and the
mark must go, once the engine is fixed."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.game import PlayerInfo
from engine.titles import create_game

FILES = Path(__file__).parent / "data" / "fuzz"


def _replay(name: str):
    data = json.loads((FILES / name).read_text())
    game = create_game(data["title"], [PlayerInfo(p["id"], p["name"]) for p in data["players"]],
                       {}, data["settings"]["seed"])
    for action in data["actions"]:
        game.process({k: v for k, v in action.items() if k != "id"})
    return game


def test_string_railway_lists_moves_after_the_mountain_is_rerolled() -> None:
    # rerolling the mountain rebuilt the board without the bases B1-B3 (KeyError 'B1')
    game = _replay("fuzz-string_railway-577090037.json")
    assert game.active_players() == [1]
    assert game.legal_actions(1)


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=(
    "1860: in operating round 1.1 IWNJ must buy a train but no player controls it, so nobody "
    "must act and the game is not over"))
def test_1860_someone_acts_after_a_stock_round_of_passes() -> None:
    game = _replay("fuzz-1860-1588945316.json")  # ends with the stock round's last pass
    assert game.finished or game.active_players()
