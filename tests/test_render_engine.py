"""The engine's own snapshot (`game.snapshot()` after replaying a fixture) renders, and its
tokens and tiles appear where it says: the contract between engine and renderer, end to end."""
from __future__ import annotations

import json

import pytest

from render import palette as pal
from render import render_all
from render.board import load_board
from render.mapview import geometry
from render.tileart import layout
from test_render_fixtures import fixture_paths
from test_render_map import _art, _close, _disc, _image, _rgb, _share

io = pytest.importorskip("engine.eighteen.io", reason="the 18xx engine is not available")


@pytest.mark.parametrize("path", fixture_paths("1830"), ids=lambda p: p.stem)
def test_engine_snapshot_of_the_final_state_renders_as_it_says(path):
    snap = io.load(io.read_file(path)).game.snapshot()
    json.dumps(snap)  # the contract: a plain JSON-able dict
    images = render_all(snap)
    assert set(images) == {"map.png", "market.png", "sheet.png"}
    img = _image(images["map.png"])
    board = load_board("1830")
    g = geometry(board)
    for coord, t in snap["tiles"].items():
        assert _share(img, _disc(g, coord), pal.TILE[board.tiles[t["tile"]].color]) > 0.3, coord
    for coord, tokens in snap["tokens"].items():
        lay = layout(board.orientation, _art(board, snap, coord))
        for t in tokens:
            x, y = lay.city(t["city"]).slot_centres()[t["slot"]]
            px = g.px(coord, (x, y - 0.17))
            colour = _rgb(pal.company_colour("1830", t["corp"], list(board.corporations)))
            assert _close(img.getpixel(tuple(map(round, px))), colour), (coord, t)
