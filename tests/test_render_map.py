"""The map image: sizes, tile and token colours where the snapshot puts them, home markers,
highlights, borders, the two 1860 boards, track geometry, and clear errors for bad snapshots."""

from __future__ import annotations

import copy
import io
import json
import math
import re

import pytest
from PIL import Image
from test_render_fixtures import DATA, fixture_paths, fixture_snapshot, state_count

from render import palette as pal
from render import render_map
from render.board import board_for, load_board
from render.mapview import geometry
from render.tileart import CITY_R, edge_mid, edge_to_edge, layout

MAX_BYTES = 10 * 1024 * 1024


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def _close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 24) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def _image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _share(
    img: Image.Image, points: list[tuple[float, float]], colour: str, tol: int = 24
) -> float:
    want = _rgb(colour)
    hits = sum(_close(img.getpixel((round(x), round(y))), want, tol) for x, y in points)
    return hits / len(points)


def _disc(g, coord: str, radius: float = 0.8) -> list[tuple[float, float]]:
    return [
        g.px(coord, (radius * i / 6 * math.cos(a), radius * i / 6 * math.sin(a)))
        for i in range(1, 7)
        for a in (k * math.pi / 12 for k in range(24))
    ]


def _art(board, snap, coord):
    t = snap["tiles"].get(coord)
    return board.tiles[t["tile"]].rotated(t["rotation"]) if t else board.hexes[coord].art


@pytest.fixture(scope="module", params=[p.name for p in fixture_paths("1830")])
def final(request):
    path = next(p for p in fixture_paths("1830") if p.name == request.param)
    snap = fixture_snapshot(path)
    return snap, _image(render_map(snap)), render_map(snap)


def test_map_fits_a_chat_post(final):
    _snap, img, png = final
    assert 1400 <= img.width <= 1900
    assert img.height <= 1400
    assert len(png) < MAX_BYTES


def assert_tiles_shown(img: Image.Image, snap: dict) -> None:
    """Every laid tile's hex is mostly in the tile's colour."""
    board = load_board(snap["title"])
    g = geometry(board)
    for coord, t in snap["tiles"].items():
        colour = pal.TILE[board.tiles[t["tile"]].color]
        assert _share(img, _disc(g, coord), colour) > 0.3, (coord, t)


def assert_tokens_shown(img: Image.Image, snap: dict) -> None:
    """Every token's slot shows its company's colour (sampled above the abbreviation)."""
    board = load_board(snap["title"])
    g = geometry(board)
    for coord, tokens in snap["tokens"].items():
        lay = layout(board.orientation, _art(board, snap, coord))
        for t in tokens:
            x, y = lay.city(t["city"]).slot_centres()[t["slot"]]
            above_text = g.px(coord, (x, y - 0.17))
            colour = _rgb(pal.company_colour(snap["title"], t["corp"], list(board.corporations)))
            assert _close(img.getpixel(tuple(map(round, above_text))), colour), (coord, t)


def test_every_laid_tile_shows_its_colour(final):
    snap, img, _png = final
    assert_tiles_shown(img, snap)


def test_unlaid_hexes_keep_their_preprinted_colour(final):
    snap, img, _png = final
    board = load_board("1830")
    g = geometry(board)
    for coord, h in board.hexes.items():
        if coord not in snap["tiles"]:
            assert _share(img, _disc(g, coord), pal.TILE[h.art.color]) > 0.3, coord


def test_every_token_shows_its_company_colour(final):
    snap, img, _png = final
    assert_tokens_shown(img, snap)


def test_impassable_borders_are_drawn(final):
    _snap, img, _png = final
    board = load_board("1830")
    g = geometry(board)
    for coord, h in board.hexes.items():
        for e in h.impassable:
            x, y = g.px(coord, edge_mid(board.orientation, e))
            assert _close(img.getpixel((round(x), round(y))), _rgb(pal.IMPASSABLE), 40), (coord, e)


def test_home_markers_of_unfloated_companies_show_before_the_game_starts():
    path = fixture_paths("1830")[0]
    snap = fixture_snapshot(path, 0)
    img = _image(render_map(snap))
    board = load_board("1830")
    g = geometry(board)
    for corp in board.corporations.values():
        lay = layout(board.orientation, board.hexes[corp.home].art)
        x, y = lay.city(corp.home_city or 0).slot_centres()[0]
        ring = [
            g.px(corp.home, (x + (CITY_R - 0.06) * math.cos(a), y + (CITY_R - 0.06) * math.sin(a)))
            for a in (k * math.pi / 16 for k in range(32))
        ]
        colour = pal.company_colour("1830", corp.sym, list(board.corporations))
        assert _share(img, ring, colour, 30) > 0.3, corp.sym


def test_floated_companies_have_no_home_marker():
    snap = fixture_snapshot(fixture_paths("1830")[0], 0)
    for corp in snap["corporations"].values():
        corp["floated"] = True
    img = _image(render_map(snap))
    board = load_board("1830")
    g = geometry(board)
    corp = board.corporations["PRR"]
    x, y = layout(board.orientation, board.hexes[corp.home].art).city(0).slot_centres()[0]
    ring = [
        g.px(corp.home, (x + (CITY_R - 0.06) * math.cos(a), y + (CITY_R - 0.06) * math.sin(a)))
        for a in (k * math.pi / 16 for k in range(32))
    ]
    assert _share(img, ring, pal.company_colour("1830", "PRR", list(board.corporations)), 30) == 0


def _state_with(path, kind: str) -> int:
    for line in range(state_count(path) - 1, 0, -1):
        snap = fixture_snapshot(path, line)
        if snap["last_action"] and snap["last_action"]["type"] == kind:
            return line
    raise AssertionError(f"no {kind} in {path.name}")


def _highlight_share(img, g, coord, radius):
    ring = [
        g.px(coord, (radius * math.cos(a), radius * math.sin(a)))
        for a in (k * math.pi / 18 for k in range(36))
    ]
    return _share(img, ring, pal.HIGHLIGHT, 40)


def test_the_last_laid_tile_is_highlighted_and_nothing_else():
    path = fixture_paths("1830")[0]
    snap = fixture_snapshot(path, _state_with(path, "lay_tile"))
    coord = snap["last_action"]["hex"]
    board = load_board("1830")
    g = geometry(board)
    img = _image(render_map(snap))
    corners = [
        g.px(coord, (0.92 * math.cos(a), 0.92 * math.sin(a)))
        for a in (math.radians(30 + 60 * k) for k in range(6))
    ]
    assert _share(img, corners, pal.HIGHLIGHT, 40) >= 0.8
    snap["last_action"] = None
    plain = _image(render_map(snap))
    assert _share(plain, corners, pal.HIGHLIGHT, 40) == 0


def test_the_last_token_is_highlighted():
    path = fixture_paths("1830")[0]
    snap = fixture_snapshot(path, _state_with(path, "place_token"))
    action = snap["last_action"]
    board = load_board("1830")
    g = geometry(board)
    lay = layout(board.orientation, _art(board, snap, action["hex"]))
    x, y = lay.city(action["city"]).pos
    img = _image(render_map(snap))
    reach = CITY_R + 5 / g.r
    ring = [
        g.px(action["hex"], (x + reach * math.cos(a), y + reach * math.sin(a)))
        for a in (k * math.pi / 18 for k in range(36))
    ]
    assert _share(img, ring, pal.HIGHLIGHT, 40) > 0.3


def test_offboards_emphasise_the_current_phase_value():
    """The brown value is framed heavily in phase 5+, the yellow one before (1830's red areas)."""
    path = fixture_paths("1830")[0]
    early = fixture_snapshot(path, 0)
    late = copy.deepcopy(early)
    late["offboard_color"] = "brown"
    assert render_map(early) != render_map(late)


# -- 1860: the flat-topped boards --------------------------------------------------------------
def _blank_1860(options=()):
    board = board_for("1860", options)
    return {
        "title": "1860",
        "round": "Stock Round",
        "turn": 1,
        "round_num": 1,
        "phase": "2",
        "active": [],
        "bank": 10000,
        "players": [],
        "corporations": {},
        "companies": {},
        "tiles": {},
        "tokens": {},
        "depot": [],
        "discarded": [],
        "trains": [],
        "offboard_color": "yellow",
        "last_action": None,
        "finished": False,
        "result": None,
    }, board


@pytest.mark.parametrize("options", [(), ("two_player_map",)])
def test_1860_starting_maps_render_flat_topped(options):
    snap, board = _blank_1860(options)
    img = _image(render_map(snap, options))
    g = geometry(board)
    assert board.orientation == "flat"
    assert 1400 <= img.width <= 1900 and img.height < img.width
    for coord, h in board.hexes.items():
        assert _share(img, _disc(g, coord, 0.7), pal.TILE[h.art.color]) > 0.25, coord
    # flat-topped: the top edge midpoint of a hex lies on its outline, straight above the centre
    x, y = g.px("J6", edge_mid("flat", 3))
    assert abs(x - g.centre("J6")[0]) < 0.5 and y < g.centre("J6")[1]


def test_1860_first_edition_map_lacks_the_second_edition_hexes():
    second = board_for("1860")
    first = board_for("1860", ("two_player_map",))
    data = json.loads((DATA / "1860.json").read_text())
    only_second = {
        h["hex"] for h in data["map"]["hexes_second_edition"] if h.get("second_edition_only")
    }
    assert only_second and only_second <= set(second.hexes) and not only_second & set(first.hexes)
    assert 1 not in first.hexes["B4"].impassable and 1 in second.hexes["B4"].impassable


def test_1860_impassable_lines_are_all_drawn():
    data = json.loads((DATA / "1860.json").read_text())
    snap, board = _blank_1860()
    img = _image(render_map(snap))
    g = geometry(board)
    for a, b in data["map"]["impassable_lines"]:
        b = b.split(" ")[0]
        (ax, ay), (bx, by) = g.centre(a), g.centre(b)
        assert _close(
            img.getpixel((round((ax + bx) / 2), round((ay + by) / 2))), _rgb(pal.IMPASSABLE), 40
        ), (a, b)


# -- track geometry ------------------------------------------------------------------------------
@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_track_curves_have_the_fixed_radii(orientation):
    for a in range(6):
        for b in range(6):
            if a == b:
                continue
            seg = edge_to_edge(orientation, a, b)
            diff = min((a - b) % 6, (b - a) % 6)
            assert seg.radius == pytest.approx({3: 0.0, 2: 1.5, 1: 0.5}[diff])
            assert seg.point(0) == pytest.approx(edge_mid(orientation, a))
            assert seg.point(1) == pytest.approx(edge_mid(orientation, b))
            mid = math.hypot(*seg.point(0.5))
            assert mid == pytest.approx({3: 0.0, 2: math.sqrt(3) - 1.5, 1: 0.5}[diff], abs=1e-9)


@pytest.mark.parametrize("title", ["1830", "1860"])
def test_multi_city_tiles_keep_their_cities_apart_and_inside(title):
    board = load_board(title)
    for name, art in list(board.tiles.items()) + [(h.coord, h.art) for h in board.hexes.values()]:
        for rotation in range(6):
            lay = layout(board.orientation, art.rotated(rotation))
            cities = [s for s in lay.stops if s.kind == "city"]
            assert len(cities) == len(art.cities)
            slots = [c for s in cities for c in s.slot_centres()]
            for i, p in enumerate(slots):
                assert math.hypot(*p) + CITY_R <= 0.95, (name, rotation)
                for q in slots[i + 1 :]:
                    assert math.dist(p, q) >= 2 * CITY_R - 1e-9, (name, rotation)
            for a in cities:
                for b in cities:
                    if a is not b:  # slots of different cities stand clear of each other
                        gap = min(
                            math.dist(p, q) for p in a.slot_centres() for q in b.slot_centres()
                        )
                        assert gap >= 2 * CITY_R + 0.04, (name, rotation)


# -- bad input -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "change, message",
    [
        (
            lambda s: s["tiles"].update({"Z99": {"tile": "57", "rotation": 0}}),
            "Z99, which is not on the 1830 map",
        ),
        (lambda s: s["tiles"].update({"E19": {"tile": "999", "rotation": 0}}), "tile '999' on E19"),
        (
            lambda s: s["tokens"].update({"E19": [{"city": 3, "slot": 0, "corp": "NYC"}]}),
            "city 3 slot 0 of E19",
        ),
        (lambda s: s.pop("tiles"), "snapshot has no 'tiles'"),
        (lambda s: s.update({"tokens": []}), "'tokens' should be dict"),
        (lambda s: s.update({"title": "9999"}), "no board data for title '9999'"),
    ],
)
def test_bad_snapshots_get_a_clear_message(change, message):
    snap = fixture_snapshot(fixture_paths("1830")[0])
    change(snap)
    with pytest.raises(ValueError, match=re.escape(message)):
        render_map(snap)
