"""The stock market image: markers in their cells, stacking order, the par chart, both market
shapes (1830's grid, 1860's one zig-zag track) and clear errors for bad positions."""

from __future__ import annotations

import copy
import io
import re

import pytest
from PIL import Image
from test_render_fixtures import fixture_paths, fixture_snapshot

from render import palette as pal
from render import render_market
from render.board import board_for
from render.market import market_layout
from render.snapshot import SnapshotError

ORDER_1830 = list(board_for("1830").corporations)


def _image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _pixels_of(
    img: Image.Image, box: tuple[float, float, float, float], colour: str, tol: int = 20
) -> list[tuple[int, int]]:
    want = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    x0, y0, x1, y1 = (round(v) for v in box)
    return [
        (x, y)
        for y in range(y0, y1)
        for x in range(x0, x1)
        if all(abs(a - b) <= tol for a, b in zip(img.getpixel((x, y)), want))
    ]


def _cell_box(title: str, key: tuple[int, int]) -> tuple[float, float, float, float]:
    cell = market_layout(board_for(title)).cells[key]
    return cell.x, cell.y, cell.x + cell.w, cell.y + cell.h


@pytest.mark.parametrize("path", fixture_paths("1830"), ids=lambda p: p.name)
def test_every_company_marker_is_in_its_cell(path):
    snap = fixture_snapshot(path)
    png = render_market(snap)
    img = _image(png)
    assert 1400 <= img.width <= 1900 and len(png) < 10 * 1024 * 1024
    placed = 0
    for sym, corp in snap["corporations"].items():
        if corp["market"] is None:
            continue
        colour = pal.company_colour("1830", sym, ORDER_1830)
        assert len(_pixels_of(img, _cell_box("1830", tuple(corp["market"][:2])), colour)) > 60, sym
        placed += 1
    assert placed


def test_markers_sharing_a_cell_stack_in_the_given_order():
    snap = fixture_snapshot(fixture_paths("1830")[0])
    corps = snap["corporations"]
    corps["PRR"]["market"], corps["NYC"]["market"] = [0, 7, 0], [0, 7, 1]
    box = _cell_box("1830", (0, 7))
    prr, nyc = (
        pal.company_colour("1830", "PRR", ORDER_1830),
        pal.company_colour("1830", "NYC", ORDER_1830),
    )

    def mean_y(img, colour):
        ys = [y for _x, y in _pixels_of(img, box, colour)]
        return sum(ys) / len(ys)

    img = _image(render_market(snap))
    assert mean_y(img, prr) < mean_y(img, nyc)
    swapped = copy.deepcopy(snap)
    swapped["corporations"]["PRR"]["market"], swapped["corporations"]["NYC"]["market"] = (
        [0, 7, 1],
        [0, 7, 0],
    )
    img = _image(render_market(swapped))
    assert mean_y(img, prr) > mean_y(img, nyc)


def test_par_chart_lists_companies_under_their_par():
    snap = fixture_snapshot(fixture_paths("1830")[0])
    lay = market_layout(board_for("1830"))
    img = _image(render_market(snap))
    slot_w = (lay.width - 20 - (20 + 44)) / len(lay.par_values)
    for sym, corp in snap["corporations"].items():
        if not corp["ipoed"]:
            continue
        i = lay.par_values.index(corp["par"])
        box = (64 + i * slot_w, lay.par_top, 64 + (i + 1) * slot_w, lay.par_top + 60)
        assert _pixels_of(img, box, pal.company_colour("1830", sym, ORDER_1830)), sym


def test_one_track_market_of_1860_renders():
    board = board_for("1860")
    snap = {
        "title": "1860",
        "round": "Stock Round",
        "turn": 1,
        "round_num": 1,
        "phase": "2",
        "active": [],
        "bank": 10000,
        "players": [],
        "companies": {},
        "corporations": {
            "IOW": {
                "market": [0, 20, 0],
                "par": 74,
                "ipoed": True,
                "floated": False,
                "closed": False,
            }
        },
    }
    img = _image(render_market(snap))
    lay = market_layout(board)
    assert len(lay.cells) == len(board.market["cells"])
    colour = pal.company_colour("1860", "IOW", list(board.corporations))
    assert len(_pixels_of(img, _cell_box("1860", (0, 20)), colour)) > 60


@pytest.mark.parametrize(
    "where, message",
    [
        ([20, 1, 0], "(20, 1) is not a cell"),
        ([0, 1], "should be [row, column, stack index]"),
    ],
)
def test_bad_market_positions_get_a_clear_message(where, message):
    snap = fixture_snapshot(fixture_paths("1830")[0])
    snap["corporations"]["PRR"]["market"] = where
    with pytest.raises(SnapshotError, match=re.escape(message)):
        render_market(snap)


def test_a_company_with_a_par_price_is_never_listed_as_not_yet_started():
    """Whatever a state's flags say, a company parred (or placed in the market) is started:
    the compact market and the full one list only the others as not yet started."""
    from render.market_compact import render_market_compact
    from tests.drawn_text import drawn_text

    snap = copy.deepcopy(fixture_snapshot(fixture_paths("1830")[0]))
    started = [s for s, c in snap["corporations"].items() if c["ipoed"] and not c["closed"]]
    assert started
    for sym in started:  # a state whose flag lags its par price, as a hand-made file may say
        snap["corporations"][sym]["ipoed"] = False
    for draw in (render_market_compact, render_market):
        with drawn_text() as seen:
            draw(snap)
        waiting = [t for *_, t in seen if "Not yet started" in t or t in started]
        listed = " ".join(t for *_, t in seen)
        tail = listed[listed.find("Not yet started") :] if "Not yet started" in listed else ""
        assert not any(re.search(rf"\b{re.escape(sym)}\b", tail) for sym in started), waiting
