"""Acceptance: recorded 18xx.games 1830 games (real ones, and complete random games played
through the 18xx.games engine) replay to their results, state by state."""

from __future__ import annotations

import json

import pytest

from engine.eighteen import io
from engine.eighteen.states import public_state
from tests.reference_games import game_files, game_path, reference_states

COMPARED = (
    "round",
    "turn",
    "round_num",
    "active",
    "phase",
    "bank",
    "players",
    "corporations",
    "companies",
    "tiles",
    "depot",
    "discarded",
    "finished",
)
SETS = ("1830", "random/1830", "generated/1830")
GAMES = [(s, p.stem) for s in SETS for p in game_files(s)]
IDS = [f"{s}/{stem}" for s, stem in GAMES]


def test_every_set_has_games() -> None:
    for game_set in SETS:
        assert game_files(game_set), f"tests/data/fixtures/{game_set} lost its games"


@pytest.mark.parametrize(("game_set", "name"), GAMES, ids=IDS)
def test_fixture_replays_to_recorded_result(game_set: str, name: str) -> None:
    data = json.loads(game_path(game_set, name).read_text())
    game = io.load(data).game
    assert game.finished
    assert {str(k): v for k, v in game.result().items()} == data["result"]
    assert game.game_end_reason == data["game_end_reason"]


@pytest.mark.parametrize(("game_set", "name"), GAMES, ids=IDS)
def test_fixture_matches_reference_state_after_every_action(game_set: str, name: str) -> None:
    path = game_path(game_set, name)
    data = json.loads(path.read_text())
    ref = reference_states(path)
    game = io.new_game(data)
    seen = [public_state(game)]
    io.load(data, on_state=lambda idx, action, g: seen.append({"idx": idx, **public_state(g)}))
    assert len(seen) == len(ref)
    for ours, theirs in zip(seen, ref):
        for key in COMPARED:
            assert ours[key] == theirs[key], (
                f"{name}: first divergence after action index {theirs['idx']} (id {theirs['id']}, "
                f"{theirs['type']}) in '{key}'"
            )


@pytest.mark.parametrize(("game_set", "name"), GAMES, ids=IDS)
def test_export_round_trips_through_import(game_set: str, name: str) -> None:
    data = json.loads(game_path(game_set, name).read_text())
    game = io.load(data).game
    exported = io.export(game)
    assert all(not k.startswith("_") for a in exported["actions"] for k in a)
    again = io.load(json.loads(json.dumps(exported))).game
    assert again.result() == game.result()
    assert exported["result"] == data["result"]
