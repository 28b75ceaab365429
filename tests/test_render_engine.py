"""The engine's own snapshot (`game.snapshot()` after replaying a fixture) renders, and its
tokens and tiles appear where it says: the contract between engine and renderer, end to end."""

from __future__ import annotations

import json

import pytest
from test_render_fixtures import fixture_paths
from test_render_map import _image, assert_tiles_shown, assert_tokens_shown

from engine.eighteen import io
from render import render_all


@pytest.mark.parametrize("path", fixture_paths("1830"), ids=lambda p: p.stem)
def test_engine_snapshot_of_the_final_state_renders_as_it_says(path):
    snap = io.load(io.read_file(path)).game.snapshot()
    json.dumps(snap)  # the contract: a plain JSON-able dict
    images = render_all(snap)
    assert set(images) == {"map.png", "market.png", "sheet.png"}
    img = _image(images["map.png"])
    assert_tiles_shown(img, snap)
    assert_tokens_shown(img, snap)
