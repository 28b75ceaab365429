"""Acceptance: real 18xx.games 1830 games replay to their recorded results, state by state."""
from __future__ import annotations

import json

import pytest

from engine.eighteen import io
from engine.eighteen.states import public_state
from tests.fixtures_1830 import FIXTURES, fixture_ids, reference_states, require_fixtures

COMPARED = ("round", "turn", "round_num", "active", "phase", "bank", "players", "corporations",
            "companies", "tiles", "depot", "discarded", "finished")


def _path(name: str):
    files = {p.stem: p for p in require_fixtures("1830")}
    return files[name]


@pytest.mark.parametrize("name", fixture_ids("1830"))
def test_fixture_replays_to_recorded_result(name: str) -> None:
    path = _path(name)
    data = json.loads(path.read_text())
    loaded = io.load(data)
    game = loaded.game
    assert game.finished
    assert {str(k): v for k, v in game.result().items()} == data["result"]
    assert game.game_end_reason == data["game_end_reason"]


@pytest.mark.parametrize("name", fixture_ids("1830"))
def test_fixture_matches_reference_state_after_every_action(name: str) -> None:
    path = _path(name)
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
                f"{theirs['type']}) in '{key}'")


def test_fixture_folder_is_where_the_readme_says() -> None:
    if not FIXTURES.is_dir():
        pytest.skip("../shared is absent")
    assert (FIXTURES / "STATES.md").exists()


@pytest.mark.parametrize("name", fixture_ids("1830"))
def test_export_round_trips_through_import(name: str) -> None:
    path = _path(name)
    data = json.loads(path.read_text())
    game = io.load(data).game
    exported = io.export(game)
    assert all(not k.startswith("_") for a in exported["actions"] for k in a)
    again = io.load(json.loads(json.dumps(exported))).game
    assert again.result() == game.result()
    assert exported["result"] == data["result"]
