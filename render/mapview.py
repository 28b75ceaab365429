"""The map image: the board with laid tiles, stations, tokens, home markers and the last move.

The preprinted board (hexes, terrain, preprinted track, offboard values for the current phase
colour, the coordinate frame) never changes during a game, so it is rasterised once per board
and offboard colour; each state draws only tiles, tokens and marks over it. One hex face is
drawn by render.face.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image

from engine.eighteen.board.hexgrid import split_coordinate
from render import palette as pal
from render.board import APOTHEM, Board, board_for, edge_dir
from render.face import FRAME, FULL_MAP, MARGIN, Geometry, TextSize, draw_face, geometry
from render.runs import draw_runs
from render.snapshot import SnapshotError, header_line, need, reading
from render.svg import Svg, Text, draw_texts, finish, rasterize
from render.tileart import CITY_R, Layout, edge_mid, layout


def _frame(svg: Svg, g: Geometry) -> None:
    """Coordinates around the board: numbers and letters where the hexes are."""
    b = g.board
    xs = [g.centre(c)[0] for c in b.hexes]
    ys = [g.centre(c)[1] for c in b.hexes]
    half_h = (1.0 if b.orientation == "pointy" else APOTHEM) * g.r
    half_w = (APOTHEM if b.orientation == "pointy" else 1.0) * g.r
    top, bottom = min(ys) - half_h - 6, max(ys) + half_h + FRAME - 6
    left, right = min(xs) - half_w - FRAME / 2, max(xs) + half_w + FRAME / 2
    svg.rect(
        left - FRAME / 2 + 3,
        top - FRAME + 4,
        right - left + FRAME - 6,
        bottom - top + FRAME - 2,
        "none",
        pal.RULE,
        1.5,
        rx=6,
    )
    columns: dict[str, float] = {}
    rows: dict[str, float] = {}
    for c in b.hexes:
        _letter, number = split_coordinate(c)
        x, y = g.centre(c)
        letter_text = c[: len(c) - len(str(number))]
        if b.orientation == "pointy":
            columns[str(number)], rows[letter_text] = x, y
        else:
            columns[letter_text], rows[str(number)] = x, y
    size = 13
    for text, x in columns.items():
        svg.text(x, top - 3, text, size, pal.MUTED, bold=True)
        svg.text(x, bottom - 3, text, size, pal.MUTED, bold=True)
    for text, y in rows.items():
        svg.text(left, y + size * 0.36, text, size, pal.MUTED, bold=True)
        svg.text(right, y + size * 0.36, text, size, pal.MUTED, bold=True)


@lru_cache(maxsize=8)
def _background(board: Board, offboard: str | None) -> Image.Image:
    g = geometry(board)
    svg = Svg(g.width, g.height)
    svg.rect(0, 0, g.width, g.height, pal.PAGE)
    _frame(svg, g)
    for coord, h in board.hexes.items():
        draw_face(
            svg,
            g,
            coord,
            h.art,
            layout(board.orientation, h.art),
            name=h.name,
            tile=None,
            terrain=h.terrain,
            offboard=offboard,
        )
        if h.cosmetic:  # joined offboard areas: hide the line between them
            for e in h.cosmetic:
                a, b = _edge_points(g, coord, e)
                svg.path(
                    f"M{a[0]:.1f},{a[1]:.1f}L{b[0]:.1f},{b[1]:.1f}",
                    pal.TILE.get(h.art.color, "#fff"),
                    2.5,
                )
    return draw_texts(rasterize(svg), svg.texts)


def _edge_points(
    g: Geometry, coord: str, edge: int
) -> tuple[tuple[float, float], tuple[float, float]]:
    mx, my = edge_mid(g.board.orientation, edge)
    dx, dy = edge_dir(g.board.orientation, edge)
    half = 0.5  # an edge is one radius long
    return g.px(coord, (mx - dy * half, my + dx * half)), g.px(
        coord, (mx + dy * half, my - dx * half)
    )


@lru_cache(maxsize=4096)
def _tile_fragment(
    board: Board, coord: str, tile: str, rotation: int, text: TextSize = FULL_MAP
) -> tuple[str, tuple[Text, ...]]:
    """The drawing of a laid tile, which stays the same until the hex is upgraded."""
    g = geometry(board)
    art = board.tiles[tile].rotated(rotation)
    svg = Svg(0, 0)
    draw_face(
        svg,
        g,
        coord,
        art,
        layout(board.orientation, art),
        name=board.hexes[coord].name,
        tile=tile,
        terrain=(),
        offboard=None,
        text=text,
    )
    return "".join(svg.parts), tuple(svg.texts)


def _laid(board: Board, snapshot: Mapping[str, Any]) -> dict[str, tuple[str, int]]:
    tiles = need(snapshot, "tiles", dict)
    out = {}
    for coord, entry in tiles.items():
        if coord not in board.hexes:
            raise SnapshotError(
                f"snapshot lays a tile on {coord}, which is not on the {board.title} map"
            )
        if not isinstance(entry, Mapping) or "tile" not in entry:
            raise SnapshotError(
                f"snapshot tile entry for {coord} should be {{'tile': name, 'rotation': n}}"
            )
        name = str(entry["tile"])
        if name not in board.tiles:
            raise SnapshotError(
                f"snapshot lays tile {name!r} on {coord}; {board.title} has no such tile"
            )
        out[coord] = (name, int(entry.get("rotation", 0)) % 6)
    return out


def _face_layout(board: Board, laid: dict[str, tuple[str, int]], coord: str) -> Layout:
    art = (
        board.tiles[laid[coord][0]].rotated(laid[coord][1])
        if coord in laid
        else board.hexes[coord].art
    )
    return layout(board.orientation, art)


def _slot_xy(g: Geometry, lay: Layout, coord: str, city: int, slot: int) -> tuple[float, float]:
    stop = lay.city(city)
    if stop is None or not 0 <= slot < stop.slots:
        raise SnapshotError(
            f"snapshot puts a token in city {city} slot {slot} of {coord}, which has no such slot"
        )
    return g.px(coord, stop.slot_centres()[slot])


def _token(
    svg: Svg,
    g: Geometry,
    x: float,
    y: float,
    sym: str,
    fill: str,
    ghost: bool = False,
    text: TextSize = FULL_MAP,
) -> None:
    """A station token: the company's colour with its abbreviation, condensed further than
    other text so that five letters stay legible in a close-up. A home not yet taken (the
    company has not floated) shows as a dashed ring in the colour around the abbreviation."""
    radius = CITY_R * g.r - 2.0
    if ghost:
        svg.circle(
            x, y, radius - 1.5, pal.tint(fill, 0.25), fill, 3.0, extra=' stroke-dasharray="5,2.5"'
        )
        ink, inner = pal.INK, radius - 3.0
    else:
        svg.circle(x, y, radius, fill, pal.INK, 1.5)
        ink, inner = pal.text_on(fill), radius
    size = max(0.2 * g.r, text.floor)
    svg.text(x, y + size * 0.36, sym, size, ink, bold=True, fit=2 * inner * 0.92, min_squeeze=0.6)


def _company_order(board: Board, snapshot: Mapping[str, Any]) -> list[str]:
    return list(board.corporations) + [
        s for s in snapshot.get("corporations", {}) if s not in board.corporations
    ]


def _overlay(
    board: Board,
    snapshot: Mapping[str, Any],
    runs: Sequence[Mapping[str, Any]] = (),
    only: Collection[str] | None = None,
    text: TextSize = FULL_MAP,
) -> Svg:
    """Tiles, borders, tokens, home markers, runs and the last move over the printed board;
    `only`: just the hexes a cropped view shows (the rest is skipped, not drawn and cut);
    `text`: how that view sets text."""
    g = geometry(board)
    svg = Svg(g.width, g.height)
    svg.header(*header_line(snapshot), MARGIN + 6)

    laid = _laid(board, snapshot)
    for coord, (tile, rotation) in laid.items():
        if only is not None and coord not in only:
            continue
        parts, texts = _tile_fragment(board, coord, tile, rotation, text)
        svg.raw(parts)
        svg.texts.extend(texts)

    drawn = set()
    for coord, h in board.hexes.items():
        if only is not None and coord not in only:
            continue
        for e in h.impassable:
            other = board.neighbour(coord, e)
            key = frozenset((coord, other or f"{coord}/{e}"))
            if key in drawn:
                continue
            drawn.add(key)
            a, b = _edge_points(g, coord, e)
            svg.path(f"M{a[0]:.1f},{a[1]:.1f}L{b[0]:.1f},{b[1]:.1f}", pal.IMPASSABLE, 0.09 * g.r)

    draw_runs(svg, g.centre, g.r, runs, lambda h: h in board.hexes)  # under the tokens
    order = _company_order(board, snapshot)
    title = board.title
    occupied: set[tuple[str, int, int]] = set()
    tokens = need(snapshot, "tokens", dict)
    for coord, placed in tokens.items():
        if coord not in board.hexes:
            raise SnapshotError(f"snapshot has tokens on {coord}, which is not on the {title} map")
        if only is not None and coord not in only:
            continue
        lay = _face_layout(board, laid, coord)
        for t in placed:
            city, slot, corp = int(t.get("city", 0)), int(t.get("slot", 0)), str(t.get("corp"))
            x, y = _slot_xy(g, lay, coord, city, slot)
            _token(svg, g, x, y, corp, pal.company_colour(title, corp, order), text=text)
            occupied.add((coord, city, slot))

    for sym, corp in snapshot.get("corporations", {}).items():
        spec = board.corporations.get(sym)
        if (
            corp.get("floated")
            or corp.get("closed")
            or spec is None
            or spec.home not in board.hexes
            or (only is not None and spec.home not in only)
        ):
            continue
        lay = _face_layout(board, laid, spec.home)
        city = spec.home_city or 0
        stop = lay.city(city)
        if stop is None:
            continue
        free = next((s for s in range(stop.slots) if (spec.home, city, s) not in occupied), None)
        if free is None:
            continue
        x, y = g.px(spec.home, stop.slot_centres()[free])
        _token(svg, g, x, y, sym, pal.company_colour(title, sym, order), ghost=True, text=text)
        occupied.add((spec.home, city, free))

    _highlight(svg, g, board, laid, snapshot.get("last_action"))
    return svg


def _highlight(
    svg: Svg, g: Geometry, board: Board, laid: dict[str, tuple[str, int]], action: Any
) -> None:
    """Ring the hex of the last tile laid, or the city of the last token placed."""
    if not isinstance(action, Mapping) or action.get("hex") not in board.hexes:
        return
    coord = action["hex"]
    if action.get("type") == "lay_tile":
        svg.polygon(g.hex_points(coord, shrink=0.04), "none", pal.HIGHLIGHT, 0.09 * g.r)
    elif action.get("type") == "place_token":
        stop = _face_layout(board, laid, coord).city(int(action.get("city", 0)))
        if stop is None:
            return
        x, y = g.px(coord, stop.pos)
        h = 2 * (CITY_R * g.r + 5)
        w = h + 2 * CITY_R * g.r * (stop.slots - 1)
        svg.rect(
            x - w / 2,
            y - h / 2,
            w,
            h,
            "none",
            pal.HIGHLIGHT,
            5.0,
            rx=h / 2,
            extra=f' transform="rotate({math.degrees(stop.angle):.1f},{x:.1f},{y:.1f})"',
        )


def render_map(
    snapshot: Mapping[str, Any],
    options: Collection[str] = (),
    runs: Sequence[Mapping[str, Any]] = (),
) -> bytes:
    """PNG of the map for this state; `options` are the game's optional rules (they pick the
    board variant, e.g. 1860's first-edition map); `runs` are drawn over it (render.runs)."""
    with reading("map"):
        board = board_for(str(need(snapshot, "title", str)), options)
        overlay = _overlay(board, snapshot, runs)
        return finish(overlay, _background(board, snapshot.get("offboard_color")))
