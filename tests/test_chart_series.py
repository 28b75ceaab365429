"""The series the end-of-game charts draw, checked against the reference engine's states after
every action (../shared/fixtures: each player's cash, shares and privates, each company's price
and trains) and against the routes the recorded games ran; String Railway against its scores
computed by hand.

The expected worth is computed here from a reference state by the rules' count (cash, each
certificate at its company's price, halved in 1860 while the company has no train, privates at
face value; nothing for a company not yet parred), the expected revenue from the `run_routes` actions of the game file.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.eighteen import io
from engine.series import ChartSeries
from tests.reference_games import ROOT, game_files, reference_states

# the recorded games, and every other random game (their corners: bankruptcies, re-pars...)
SETS = {"1830": 1, "1860": 1, "programmed": 1, "random/1830": 2, "random/1860": 2}
CASES = [(s, p) for s, every in SETS.items() for p in game_files(s)[::every]]


def _label(state: dict[str, Any]) -> str:
    """A reference state's round as players name it."""
    if state["round"] == "Operating Round":
        return f"OR {state['turn']}.{state['round_num']}"
    if state["round"] == "Stock Round":
        return f"SR {state['turn']}"
    assert state["round"] == "Auction Round", state["round"]
    return "Auction"


def _sampled(states: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """(point name, state) at the start, at every change of round (the state just after the
    action that ended the round, named after that round) and at the end when no round just
    ended there."""
    out = [("start", states[0])]
    last_change = 0
    for n in range(1, len(states)):
        if _label(states[n]) != _label(states[n - 1]):
            out.append((_label(states[n - 1]), states[n]))
            last_change = n
    if last_change != len(states) - 1:
        out.append((_label(states[-1]), states[-1]))
    return out


def _face_values(title: str) -> dict[str, int]:
    data = json.loads((ROOT / "engine" / "data" / f"{title}.json").read_text())
    return {c["sym"]: c["value"] for c in data["private_companies"]}


def _certificates(state: dict[str, Any], pid: Any, sym: str, percent: int) -> list[int]:
    """The percents of a player's certificates of one company: the director's 20 and tens."""
    if state["corporations"][sym]["president"] == pid:
        return [20] + [10] * ((percent - 20) // 10)
    return [10] * (percent // 10)


def _worth(title: str, state: dict[str, Any], player: dict[str, Any], faces: dict[str, int]) -> int:
    total = player["cash"] + sum(faces[c] for c in player["companies"])
    for sym, percent in player["shares"].items():
        corp = state["corporations"][sym]
        if not corp["ipoed"]:  # a director's share given with a private, not yet parred
            continue
        for cert in _certificates(state, player["id"], sym, percent):
            value = corp["price"] * cert // 10
            total += value // 2 if title == "1860" and not corp["trains"] else value
    return total


@cache
def _load(path: Path) -> tuple[dict[str, Any], str, ChartSeries]:
    """A recorded game's file, title and series (each game replayed once for both tests)."""
    data = json.loads(path.read_text())
    game = io.load(data).game
    return data, game.title, game.chart_series()


@pytest.mark.parametrize(("game_set", "path"), CASES, ids=[f"{s}/{p.stem}" for s, p in CASES])
def test_worth_and_prices_follow_the_reference_states(game_set: str, path: Path) -> None:
    data, title, series = _load(path)
    assert "non_operated_full_value" not in (data["settings"].get("optional_rules") or [])
    sampled = _sampled(reference_states(path))
    worth, prices = series.chart("worth"), series.chart("prices")
    assert worth.points == prices.points == tuple(name for name, _ in sampled)
    faces = _face_values(title)
    seats = [p["id"] for p in data["players"]]
    for n, (name, state) in enumerate(sampled):
        by_id = {p["id"]: p for p in state["players"]}
        expected = [_worth(title, state, by_id[pid], faces) for pid in seats]
        assert [line.values[n] for line in worth.lines] == expected, name
        ref_prices = {
            sym: None if corp["closed"] else corp["price"]
            for sym, corp in state["corporations"].items()
        }
        drawn = {line.name: line.values[n] for line in prices.lines}
        assert drawn == {s: p for s, p in ref_prices.items() if s in drawn}, name
        assert all(p is None for s, p in ref_prices.items() if s not in drawn), name
    final = {str(pid): line.values[-1] for pid, line in zip(seats, worth.lines)}
    assert final == {str(k): v for k, v in data["result"].items()}
    assert series.finished and series.ranking[0][1] == max(data["result"].values())


@pytest.mark.parametrize(("game_set", "path"), CASES, ids=[f"{s}/{p.stem}" for s, p in CASES])
def test_revenue_is_what_each_company_ran_in_each_operating_round(
    game_set: str, path: Path
) -> None:
    data, _, series = _load(path)
    states = reference_states(path)
    ran: dict[tuple[str, str], int] = {}
    untold: set[tuple[str, str]] = set()  # runs whose file does not say what they earned
    for before, after in zip(states, states[1:]):
        action = data["actions"][after["idx"]]
        if action["type"] == "run_routes":
            key = (_label(before), action["entity"])
            if any("revenue" not in r for r in action["routes"]):
                untold.add(key)
                continue
            ran[key] = ran.get(key, 0) + sum(r["revenue"] for r in action["routes"])
    revenue = series.chart("revenue")
    ours = {
        (point, line.name): value
        for line in revenue.lines
        for point, value in zip(revenue.points, line.values)
        if value is not None
    }
    assert ran or untold, "the game ran no routes"
    assert {k: ours.get(k) for k in ran} == ran
    told = {k: v for k, v in ours.items() if v and k not in untold}
    assert told == {k: v for k, v in ran.items() if v}
    assert all(p.startswith("OR ") for p in revenue.points)
    assert len(set(revenue.points)) == len(revenue.points)


def test_a_game_under_way_ends_its_series_where_it_stands() -> None:
    """Cut in the middle of an operating round: the last point is that round, with the
    revenue of the companies that ran in it so far."""
    path = next(p for p in game_files("1830") if p.stem == "1830_game_end_bank")
    data = json.loads(path.read_text())
    states = reference_states(path)
    cut = next(
        n
        for n, s in enumerate(states)
        if n > 200 and s["type"] == "dividend" and s["round"] == "Operating Round"
    )
    game = io.load(data, upto=states[cut]["idx"]).game
    series = game.chart_series()
    worth = series.chart("worth")
    assert not series.finished and worth.points[-1] == _label(states[cut])
    faces = _face_values("1830")
    by_id = {p["id"]: p for p in states[cut]["players"]}
    assert [line.values[-1] for line in worth.lines] == [
        _worth("1830", states[cut], by_id[p["id"]], faces) for p in data["players"]
    ]
    revenue = series.chart("revenue")
    ran_now = {line.name for line in revenue.lines if line.values[-1] is not None}
    assert states[cut]["idx"] and data["actions"][states[cut]["idx"]]["entity"] in ran_now


def test_string_railway_scores_by_round_as_computed_by_hand() -> None:
    from tests.test_string_game_three import AFTER_TURN, GAME

    game = io.load(GAME).game
    series = game.chart_series()
    assert series.keys() == ("score", "per-round")
    score = series.chart("score")
    assert score.points == ("start", "turn 1", "turn 2", "turn 3", "turn 4", "turn 5")
    rounds = [(3, 3, 3)] + AFTER_TURN[2::3]  # everyone starts on their base's 3 VP
    assert [line.values for line in score.lines] == [tuple(r[i] for r in rounds) for i in range(3)]
    gained = series.chart("per-round")
    assert gained.lines[2].values == (3, 3, 2, 1, 4)  # c: 6, 9, 11, 12, 16 from 3
    assert series.ranking == (("c", 16), ("b", 15), ("a", 13))


def test_a_chart_is_named_in_full_or_by_its_start() -> None:
    from tests.test_string_game_three import GAME

    series = io.load(GAME).game.chart_series()
    assert series.chart("Score").key == "score" and series.chart("per").key == "per-round"
    with pytest.raises(KeyError):
        series.chart("prices")
