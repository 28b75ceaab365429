"""The String Railway board image: the snapshot's things are drawn where and how it says."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.eighteen import io as gamefile
from render.snapshot import SnapshotError
from render.strings import COMPANY, MARGIN, WIDTH, render_string_board
from tests.test_string_game_three import ACTIONS, GAME


def pixel(img: Image.Image, snap: dict, x: float, y: float) -> tuple[int, int, int]:
    k = (WIDTH - 2 * MARGIN) / 85
    return img.getpixel((round(MARGIN + x * k), round(MARGIN + (85 - y) * k)))[:3]


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))


def close(a, b, tol=40) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


@pytest.fixture(scope="module")
def final():
    game = gamefile.load(GAME).game
    snap = game.snapshot()
    return snap, Image.open(io.BytesIO(render_string_board(snap))).convert("RGB")


def test_rails_are_drawn_in_their_company_colour(final):
    snap, img = final
    # a's first rail S1-S2 runs up x = 20 from y = 5 to 20; b's S7-S4 along y = x - 40
    assert close(pixel(img, snap, 20, 13), rgb(COMPANY[0]))
    assert close(pixel(img, snap, 55, 15), rgb(COMPANY[1]))


def test_the_last_rail_is_highlighted_and_its_crossings_marked(final):
    snap, img = final
    assert snap["last_rail"]["crossings"]
    # the halo around c's last rail S5 (78,60)-S9 (62,62): at x = 74 the line is at y = 60.5
    halo = pixel(img, snap, 74, 61.0)
    assert halo[0] > 200 and halo[1] < 190  # pink, not the board's beige


def test_station_shows_its_owner_frame(final):
    snap, img = final
    s16 = next(s for s in snap["stations"] if s["label"] == "S16")  # a's Transit
    assert s16["owner"] == 0 and s16["vp"] == "0/2"
    assert close(pixel(img, snap, s16["x"] - 2.9, s16["y"]), rgb(COMPANY[0]))


def test_the_image_grows_with_the_table_and_rejects_bad_snapshots(final):
    snap, img = final
    assert img.width == WIDTH and img.height > WIDTH
    with pytest.raises(SnapshotError, match="'river'"):
        render_string_board({k: v for k, v in snap.items() if k != "river"})


def test_a_proposed_rail_is_drawn_before_it_is_laid():
    from engine.strings.snapshot import snapshot

    game = gamefile.load(GAME, upto=len(ACTIONS) - 2).game
    plan = game.plan("c", "long", ["S5", "S9", "S10"])
    snap = snapshot(game, plan)
    assert snap["last_rail"]["proposed"] and len(snap["rails"]) == 14
    img = Image.open(io.BytesIO(render_string_board(snap))).convert("RGB")
    assert close(pixel(img, snap, 66, 61.5), rgb(COMPANY[2]), tol=60)


def test_a_rail_laid_again_along_the_same_stops_is_drawn_beside_the_first(final):
    """a's first rail runs from its base at (3, 3) to S1 at (20, 5); b lays one along the same
    stops (the other way): both colours show, one each side of the line, neither hidden."""
    snap, _ = final
    first = next(r for r in snap["rails"] if r["company"] == 0)
    twin = {"company": 1, "kind": first["kind"], "points": first["points"][::-1]}
    doubled = {**snap, "rails": [*snap["rails"], twin], "last_rail": None}
    img = Image.open(io.BytesIO(render_string_board(doubled))).convert("RGB")
    (x0, y0), (x1, y1) = first["points"][0], first["points"][-1]
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    k = (WIDTH - 2 * MARGIN) / 85
    px, py = MARGIN + mx * k, MARGIN + (85 - my) * k
    across = [img.getpixel((round(px), round(py) + dy))[:3] for dy in range(-8, 9)]
    assert any(close(c, rgb(COMPANY[0]), 30) for c in across)
    assert any(close(c, rgb(COMPANY[1]), 30) for c in across)
    # drawn alone, the rail keeps its place on the line
    alone = Image.open(io.BytesIO(render_string_board({**snap, "last_rail": None}))).convert("RGB")
    assert close(alone.getpixel((round(px), round(py)))[:3], rgb(COMPANY[0]))
