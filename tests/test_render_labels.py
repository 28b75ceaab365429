"""No label covers another: on every hex of every title's map, printed and with each tile that
can be laid there in each rotation, the revenue discs, terrain costs, place names, hex labels,
offboard values and tile numbers keep clear of each other and of the token slots.

Tiles that can go on a hex follow the upgrade rule of the title data's tile manifest: the
tiles a hex or tile names, or a tile one colour further with the same label and as many cities
and towns. Faces are checked at the full map's sizes and at the close-up's largest.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import pytest

from engine.eighteen.board.tiles import COLORS, TileDef, tile_from_hex, tile_from_manifest
from render.board import DATA_DIR, Art, Board, board_for
from render.face import Placed, TextSize, draw_face, geometry
from render.focus import MAX_WIDTH, NAME_BOOST, text_floor
from render.fonts import pil_font
from render.svg import ANCHORS, Svg, Text
from render.tileart import CITY_R, layout

MAPS = [("1830", ()), ("1860", ()), ("1860", ("original_game",))]
Box = tuple[float, float, float, float]
SLACK = 2.0  # px a glyph may stand out of its box (Pillow rounds its bounding box to px)


@lru_cache(maxsize=4)
def _manifest(title: str) -> tuple[dict[str, Any], dict[str, TileDef]]:
    data = json.loads((DATA_DIR / f"{title}.json").read_text(encoding="utf-8"))
    hexes = data["map"].get("hexes") or data["map"]["hexes_second_edition"]
    return {h["hex"]: h for h in hexes}, {t["name"]: tile_from_manifest(t) for t in data["tiles"]}


def _upgrades(old: TileDef, tiles: dict[str, TileDef]) -> list[TileDef]:
    if old.color not in COLORS[:-1]:
        return []
    nxt = COLORS[COLORS.index(old.color) + 1]
    return [
        t
        for t in tiles.values()
        if t.name in old.upgrades
        or (t.color == nxt and t.label == old.label and t.kind_counts() == old.kind_counts())
    ]


def _tiles_for(title: str, coord: str) -> list[str]:
    """Every tile that can come onto the hex, by successive upgrades of its printed face."""
    hexes, tiles = _manifest(title)
    seen: dict[str, TileDef] = {}
    todo = [tile_from_hex(hexes[coord])]
    while todo:
        for t in _upgrades(todo.pop(), tiles):
            if t.name not in seen:
                seen[t.name] = todo.append(t) or t  # type: ignore[func-returns-value]
    return sorted(seen)


def _faces(board: Board) -> Iterator[tuple[str, str, Art, str | None]]:
    """(hex, what lies on it, its art, the tile's name) for the printed face and every tile
    in every rotation whose track stays on the map."""
    for coord, h in board.hexes.items():
        yield coord, "printed", h.art, None
        for name in _tiles_for(board.title, coord):
            tile = _manifest(board.title)[1][name]
            for rotation in (0,) if tile.fixed_rotation else range(6):
                exits = tile.exits(rotation)
                if all(board.neighbour(coord, e) for e in exits):
                    yield coord, f"{name}/{rotation}", board.tiles[name].rotated(rotation), name


def _slots(board: Board, coord: str, art: Art) -> list[tuple[float, float, float]]:
    """Token slots (x, y, radius) in px."""
    g = geometry(board)
    lay = layout(board.orientation, art)
    return [
        (*g.px(coord, c), CITY_R * g.r)
        for s in lay.stops
        if s.kind == "city"
        for c in s.slot_centres()
    ]


def _boxes_meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def _box_meets_disc(a: Box, x: float, y: float, r: float) -> bool:
    dx = max(a[0] - x, 0.0, x - a[2])
    dy = max(a[1] - y, 0.0, y - a[3])
    return math.hypot(dx, dy) < r - 0.5


def _inside_some(t: Text, placed: list[Placed]) -> bool:
    """The glyphs of a text lie in the box of one label (so the boxes tell where text is)."""
    left, top, right, bottom = pil_font(t.bold, t.size).getbbox(t.text, anchor=ANCHORS[t.anchor])
    x0, y0, x1, y1 = t.x + left, t.y + top, t.x + right, t.y + bottom
    return any(
        x0 >= b[0] - SLACK and y0 >= b[1] - SLACK and x1 <= b[2] + SLACK and y1 <= b[3] + SLACK
        for b in (p.box for p in placed)
    )


def _clashes(board: Board, coord: str, art: Art, tile: str | None, text: TextSize) -> list[str]:
    g = geometry(board)
    h = board.hexes[coord]
    svg = Svg(0, 0)
    placed: list[Placed] = draw_face(
        svg,
        g,
        coord,
        art,
        layout(board.orientation, art),
        name=h.name,
        tile=tile,
        terrain=() if tile else h.terrain,
        offboard=None,
        text=text,
    )
    found = [
        f"text {t.text!r} outside its label's box" for t in svg.texts if not _inside_some(t, placed)
    ]
    for i, a in enumerate(placed):
        found += [
            f"{a.kind} {a.text!r} / {b.kind} {b.text!r}"
            for b in placed[:i]
            if _boxes_meet(a.box, b.box)
        ]
        found += [
            f"{a.kind} {a.text!r} / token slot"
            for s in _slots(board, coord, art)
            if _box_meets_disc(a.box, *s)
        ]
    return found


@pytest.mark.parametrize("close_up", [False, True], ids=["map", "close-up"])
@pytest.mark.parametrize(
    ("title", "options"), MAPS, ids=lambda v: v if isinstance(v, str) else "+".join(v) or "standard"
)
def test_no_label_covers_another_on_any_face(
    title: str, options: tuple[str, ...], close_up: bool
) -> None:
    board = board_for(title, options)
    text = (
        TextSize(text_floor(MAX_WIDTH * geometry(board).r), NAME_BOOST) if close_up else TextSize()
    )
    clashes, seen = [], set()
    for coord, what, art, tile in _faces(board):
        h = board.hexes[coord]
        face = (art, h.name, () if tile else h.terrain, tile)  # drawn alike wherever it is
        if face not in seen:
            seen.add(face)
            clashes += [f"{coord} {what}: {c}" for c in _clashes(board, coord, art, tile, text)]
    assert not clashes, f"{len(clashes)} overlaps, e.g.\n" + "\n".join(clashes[:40])
