"""Golden images: the final state of every 1830 fixture, rendered and compared with reviewed
images in tests/goldens (kept at half size) within a tolerance for font rasterisation.

A golden is only ever (re)written when RAILCHAT_WRITE_GOLDENS=1 is set, and the test then skips
so that nobody mistakes it for a pass: open the new files and look at them before committing.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat
from test_render_fixtures import fixture_paths, fixture_snapshot

from render import render_map, render_market, render_sheet

GOLDENS = Path(__file__).resolve().parent / "goldens"
RENDERERS = {"map": render_map, "market": render_market, "sheet": render_sheet}
MEAN_TOLERANCE = 1.0  # mean absolute difference per channel, 0..255
OFF_PIXELS = 0.002  # share of pixels allowed to differ by more than 48 in some channel (one hex changed: ~0.006)


def _half(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB").reduce(2)


@pytest.mark.parametrize("kind", sorted(RENDERERS))
@pytest.mark.parametrize("path", fixture_paths("1830"), ids=lambda p: p.stem)
def test_final_state_matches_the_reviewed_golden(path, kind):
    image = _half(RENDERERS[kind](fixture_snapshot(path)))
    golden_path = GOLDENS / f"{path.stem}_{kind}.png"
    if os.environ.get("RAILCHAT_WRITE_GOLDENS") == "1":
        image.save(golden_path, optimize=True)
        pytest.skip(f"wrote {golden_path.name}: review it by eye before committing")
    assert golden_path.is_file(), f"no golden {golden_path.name}; see this module's docstring"
    golden = Image.open(golden_path).convert("RGB")
    assert image.size == golden.size
    diff = ImageChops.difference(image, golden)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    r, g, b = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b)  # largest channel difference per pixel
    off = sum(worst.histogram()[49:]) / (diff.width * diff.height)
    assert mean <= MEAN_TOLERANCE and off <= OFF_PIXELS, (
        f"{golden_path.name}: mean {mean:.2f}, off {off:.4f}"
    )
