"""Acceptance: 18xx.games 1860 games (3 real, 16 random, 4 generated here by the reference engine
with the map and re-entry options) replay to their recorded results, and match the reference
public state after every action."""

from __future__ import annotations

import json

import pytest

from engine.eighteen import io
from tests.reference_games import first_divergence, game_files, game_path

FOLDERS = ("1860", "random/1860", "generated/1860")
GAMES = [(folder, p.stem) for folder in FOLDERS for p in game_files(folder)] or [("1860", "absent")]


def _path(folder: str, name: str):
    return game_path(folder, name)


@pytest.mark.parametrize("folder,name", GAMES)
def test_fixture_replays_to_recorded_result(folder: str, name: str) -> None:
    data = json.loads(_path(folder, name).read_text())
    game = io.load(data).game
    assert game.finished
    assert {str(k): v for k, v in game.result().items()} == data["result"]
    assert game.game_end_reason == data["game_end_reason"]


@pytest.mark.parametrize("folder,name", GAMES)
def test_fixture_matches_reference_state_after_every_action(folder: str, name: str) -> None:
    n, what = first_divergence(_path(folder, name))
    assert what is None, f"{name}: {n} reference lines match, then {what}"


@pytest.mark.parametrize("folder,name", GAMES[:3])
def test_export_round_trips_through_import(folder: str, name: str) -> None:
    data = json.loads(_path(folder, name).read_text())
    game = io.load(data).game
    again = io.load(json.loads(json.dumps(io.export(game)))).game
    assert again.result() == game.result()
