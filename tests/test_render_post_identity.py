"""The images of a turn post (the close-up and the compact market) stay the pictures main drew
before they were made cheaper: pixel for pixel at positions of a recorded game
(tests/data/render_posts_main.json, pixel digests, compared with the libraries that drew them),
and on any libraries the kept rasters and the vectorised palette draw what a fresh drawing
and the per-entry palette draw."""

from __future__ import annotations

import io
import json
from functools import lru_cache
from pathlib import Path

import cairocffi
import PIL
import pytest
from PIL import Image, features

from render import svg
from render.market_compact import render_market_compact
from tests.render_posts import Post, pixel_digest, post_images, recorded_posts

RECORDED = json.loads(
    (Path(__file__).parent / "data" / "render_posts_main.json").read_text(encoding="utf-8")
)
LIBRARIES = {
    "Pillow": PIL.__version__,
    "cairo": cairocffi.cairo_version_string(),
    "freetype": features.version("freetype2"),
}


@lru_cache(maxsize=1)
def _posts() -> list[Post]:
    return recorded_posts(RECORDED["game"])


@pytest.mark.parametrize("position", sorted(RECORDED["digests"], key=int))
def test_post_images_are_mains_pixel_for_pixel(position: str) -> None:
    if LIBRARIES != RECORDED["libraries"]:
        pytest.skip(f"digests drawn with {RECORDED['libraries']}, here {LIBRARIES}")
    images = post_images(_posts()[int(position)])
    assert {k: pixel_digest(v) for k, v in images.items()} == RECORDED["digests"][position]


def test_a_kept_compact_market_is_the_one_drawn_afresh() -> None:
    posts = _posts()[140:160]  # a stock round: the shapes stay while the header changes
    kept = [render_market_compact(p.snapshot, p.options) for p in posts]
    fresh = []
    for p in posts:
        svg._kept_shapes.cache_clear()
        fresh.append(render_market_compact(p.snapshot, p.options))
    assert kept == fresh


def _snapped_entry_by_entry(palette: list[int]) -> list[int]:
    """The palette snapping as first written: each entry onto its nearest drawing colour."""
    exact = svg.drawing_colours()
    out = list(palette)
    for i in range(0, len(out) - 2, 3):
        entry = out[i : i + 3]
        best = min(exact, key=lambda c: sum(abs(a - b) for a, b in zip(entry, c)))
        if sum(abs(a - b) for a, b in zip(entry, best)) <= svg.SNAP:
            out[i : i + 3] = best
    return out


def test_the_palette_snaps_as_entry_by_entry() -> None:
    for post in _posts()[::60]:
        for png in post_images(post).values():
            raw = Image.open(io.BytesIO(png)).convert("RGB")
            palette = raw.quantize(svg.PNG_COLOURS, method=Image.Quantize.FASTOCTREE).getpalette()
            assert palette is not None
            assert svg._snapped(palette) == _snapped_entry_by_entry(palette)
