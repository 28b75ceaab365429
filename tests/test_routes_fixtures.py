"""Every run_routes of the real 1830 games: our revenue per route equals the recorded one, and the
exact best is never below what the players ran (and above it only where checked by hand)."""

from __future__ import annotations

import json

import pytest

from engine.eighteen import io
from tests.reference_games import game_ids, require_games

# Positions where the players (or the site's auto-router) left money on the table, each checked
# on the map by hand:
#  1830_game_end_bank #70  B&O 2+2: I15-J14 and J14-K13 (Deep South) = 100, not I15-I19 + I15-J14 = 90
#  1830_game_end_bank #348 B&O 4+3: the 3-train can run H18-H16-I15 (150) beside G19-G17-H16-H14-I15
#  26855 #296 PRR 3+3: I15-H14-H16 (80) instead of H10-H12-H16 (60); H14's two tracks share a side
#  26855 #328 NYC 3+3: F22-F20-G19 and G19-F18-F20-E21-E19 through both towns of F20, 240 not 210
BETTER_THAN_RECORDED = {"1830_game_end_bank": {70, 348}, "26855": {296, 328}, "29133": set()}


def check_runs(data: dict, name: str) -> tuple[int, set]:
    """Replay a game; at each run_routes check the recorded revenues and the best routes.
    Returns how many run_routes were checked and the ids where the best beats the recorded."""
    game = io.new_game(data)
    better = set()
    checked = 0
    for _, action in io.effective_actions(data["actions"]):
        if action["type"] == "run_routes":
            corp = game.corporation(action["entity"])
            routes = action["routes"]
            trains = {r["train"]: game.train(r["train"]).distance for r in routes}
            ours = game.board.route_revenues(
                corp.sym, routes, trains, phase_color=game.phases.current.offboard_color
            )
            assert ours == [r["revenue"] for r in routes], f"{name} #{action['id']}"
            best, best_routes = game.best_routes(corp)
            assert best >= sum(ours), f"{name} #{action['id']}"
            if best > sum(ours):
                better.add(action["id"])
            rerun = game.board.route_revenues(
                corp.sym,
                best_routes,
                {t.id: t.distance for t in corp.trains},
                phase_color=game.phases.current.offboard_color,
            )
            assert sum(rerun) == best and [r["revenue"] for r in best_routes] == rerun
            checked += 1
        game.process(io.imported(action))
    return checked, better


@pytest.mark.parametrize("name", game_ids("1830"))
def test_recorded_routes_and_best_routes(name: str) -> None:
    path = {p.stem: p for p in require_games("1830")}[name]
    checked, better = check_runs(json.loads(path.read_text()), name)
    assert checked == {"1830_game_end_bank": 99, "26855": 43, "29133": 24}[name]
    assert better == BETTER_THAN_RECORDED[name]


@pytest.mark.parametrize("name", game_ids("random/1830"))
def test_random_games_best_routes_never_below_recorded(name: str) -> None:
    """The random player ran 18xx.games' own route finder; ours is never worse."""
    path = {p.stem: p for p in require_games("random/1830")}[name]
    data = json.loads(path.read_text())
    checked, _ = check_runs(data, name)
    assert checked == sum(
        1 for _, a in io.effective_actions(data["actions"]) if a["type"] == "run_routes"
    )
