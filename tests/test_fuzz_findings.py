"""Bugs the fuzzer found, each replayed from the game file it wrote (tests/data/fuzz/). A bug
in a title's engine that is not fixed yet is a strict xfail: it turns into a failure, and the
mark must go, once the engine is fixed."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.errors import IllegalAction
from engine.game import PlayerInfo
from engine.titles import create_game

FILES = Path(__file__).parent / "data" / "fuzz"


def _replay(name: str):
    return _replay_data(json.loads((FILES / name).read_text()))


def _replay_data(data: dict):
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


@pytest.mark.parametrize("name, seat", [("fuzz-string_railway-1399756255.json", 3),
                                        ("fuzz-string_railway-2045421347.json", 4)])
def test_string_railway_a_setup_seat_out_of_rerolls_is_not_waited_for(name, seat) -> None:
    # the seat that lays the river (mountain) rerolled it for the last time and stayed among
    # the players who must act, with no move left to list
    game = _replay(name)
    assert game.rolls["river" if seat == 3 else "mountain"] == game.max_rolls
    assert seat not in game.active_players()
    for player in game.active_players():
        assert game.legal_actions(player)


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=(
    "1860: in operating round 1.1 IWNJ must buy a train but no player controls it, so nobody "
    "must act and the game is not over"))
def test_1860_someone_acts_after_a_stock_round_of_passes() -> None:
    game = _replay("fuzz-1860-1588945316.json")  # ends with the stock round's last pass
    assert game.finished or game.active_players()


def test_1830_a_bankruptcy_declared_before_the_train_step_sells_no_share() -> None:
    """NYNH's president (player 2) goes bankrupt as NYNH's turn starts, before its track step:
    the 18xx.games engine sells a bankrupt player's shares only as the step under way allows
    sales, so player 2 keeps 20% of C&O and the game ends 633 / 320 / 437 there."""
    game = _replay("fuzz-1830-1215378193.json")
    assert game.finished and game.result() == {1: 633, 2: 320, 3: 437}


@pytest.mark.parametrize("name, refused", [
    ("fuzz-1830-124138362.json", "NYNH may only spend between $437 and $450 on B&O's 5 train"),
    ("fuzz-1830-831656024.json", "ERIE cannot buy NYC's 5-train now: after the shares sold this turn "
                                 "it would have to pay at least $702"),
])
def test_1830_shares_sold_for_a_train_bound_what_is_paid_to_another_company(name: str, refused: str) -> None:
    """A president who sold shares for the company's train may still see it buy another company's
    train that turn, but for no less than the cash the last sale was needed for (18xx.games),
    even once a train was bought: the fuzzer's cheaper purchase is refused there and here."""
    data = json.loads((FILES / name).read_text())
    last = data["actions"][-1]
    data["actions"] = data["actions"][:-1]
    game = _replay_data(data)
    with pytest.raises(IllegalAction, match=re.escape(refused)):
        game.process({k: v for k, v in last.items() if k != "id"})
