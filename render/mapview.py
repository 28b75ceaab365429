"""The map image: the board with laid tiles, stations, tokens, home markers and the last move.

The preprinted board (hexes, terrain, preprinted track, offboard values for the current phase
colour, the coordinate frame) never changes during a game, so it is rasterised once per board
and offboard colour; each state draws only tiles, tokens and marks over it.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image

from engine.eighteen.board.hexgrid import split_coordinate
from render import palette as pal
from render.board import APOTHEM, Art, Board, board_for, edge_dir
from render.fonts import text_width
from render.runs import draw_runs
from render.snapshot import SnapshotError, header_line, money, need, reading
from render.svg import Svg, Text, draw_texts, finish, rasterize
from render.tileart import (
    BAR_LEN,
    BAR_W,
    CITY_R,
    HALT_R,
    TERMINAL_TIP,
    TOWN_R,
    Layout,
    Pt,
    Segment,
    Stop,
    edge_mid,
    hex_corners,
    layout,
    ring,
)

TARGET_WIDTH = 1450  # px of board; the frame and margins come on top
MAX_RADIUS = 84.0
HEADER = 58
FRAME = 26
MARGIN = 8
TRACK_W = 0.085  # in hex radii
CASING = 0.05
OPTIONAL_LABELS = ("label", "tile")  # left out where they would cover something


@dataclass(frozen=True, eq=False)
class Geometry:
    """Where the board sits in the image: hex radius in px and the offset of unit coordinates."""

    board: Board
    r: float
    ox: float
    oy: float
    width: int
    height: int

    def centre(self, coord: str) -> tuple[float, float]:
        h = self.board.hexes[coord]
        return self.ox + h.x * self.r, self.oy + h.y * self.r

    def px(self, coord: str, p: Pt) -> tuple[float, float]:
        cx, cy = self.centre(coord)
        return cx + p[0] * self.r, cy + p[1] * self.r

    def hex_points(self, coord: str, shrink: float = 0.0) -> list[tuple[float, float]]:
        return [
            self.px(coord, (x * (1 - shrink), y * (1 - shrink)))
            for x, y in hex_corners(self.board.orientation)
        ]


@lru_cache(maxsize=8)
def geometry(board: Board) -> Geometry:
    x0, y0, x1, y1 = board.bounds()
    r = min(MAX_RADIUS, TARGET_WIDTH / (x1 - x0))
    ox = MARGIN + FRAME - x0 * r
    oy = HEADER + FRAME - y0 * r
    width = math.ceil((x1 - x0) * r + 2 * (MARGIN + FRAME))
    height = math.ceil(HEADER + (y1 - y0) * r + 2 * FRAME + MARGIN)
    return Geometry(board, r, ox, oy, width, height)


# -- drawing one hex face -------------------------------------------------------------------
def _segment_d(g: Geometry, coord: str, seg: Segment) -> str:
    x0, y0 = g.px(coord, seg.p0)
    x1, y1 = g.px(coord, seg.p1)
    if seg.centre is None:
        return f"M{x0:.1f},{y0:.1f}L{x1:.1f},{y1:.1f}"
    r = seg.radius * g.r
    return f"M{x0:.1f},{y0:.1f}A{r:.1f},{r:.1f} 0 0 {seg.sweep()} {x1:.1f},{y1:.1f}"


def _sub(seg: Segment, t0: float, t1: float) -> Segment:
    return Segment(seg.point(t0), seg.point(t1), seg.centre)


def _crossings(tracks: list[Segment]) -> list[list[float]]:
    """For each track, where (0..1 along it) it passes over a track drawn earlier without sharing
    an end with it: there the later track gets a white casing so the crossing reads."""
    samples = [[seg.point(i / 24) for i in range(25)] for seg in tracks]
    out: list[list[float]] = [[] for _ in tracks]
    for i in range(len(tracks)):
        for j in range(i):
            best = min(((math.dist(p, q), k) for k, p in enumerate(samples[i]) for q in samples[j]))
            t = best[1] / 24
            if best[0] < TRACK_W and 0.12 < t < 0.88:
                out[i].append(t)
    return out


def draw_face(
    svg: Svg,
    g: Geometry,
    coord: str,
    art: Art,
    lay: Layout,
    *,
    name: str | None,
    tile: str | None,
    terrain: tuple[tuple[str, int], ...],
    offboard: str | None,
) -> None:
    """One hex: its colour, track (with a white casing where track passes over track), stations,
    revenues and labels placed where the track leaves room."""
    r = g.r
    svg.polygon(g.hex_points(coord), pal.TILE.get(art.color, pal.TILE["white"]), pal.HEX_EDGE, 1.0)
    for seg, ts in zip(lay.tracks, _crossings(lay.tracks)):
        for t in ts:
            svg.path(
                _segment_d(g, coord, _sub(seg, max(0.0, t - 0.16), min(1.0, t + 0.16))),
                pal.TRACK_CASING,
                (TRACK_W + 2 * CASING) * r,
                extra=' stroke-linecap="butt"',
            )
        svg.path(_segment_d(g, coord, seg), pal.TRACK, TRACK_W * r, extra=' stroke-linecap="butt"')
    for e in lay.terminals:
        svg.polygon(_terminal(g, coord, e), pal.TRACK)
    for stop in lay.stops:
        _draw_stop(svg, g, coord, stop)
    work = Layout(
        lay.orientation, lay.tracks, lay.terminals, lay.stops, lay.revenues, list(lay.occupied)
    )
    for label in _labels(g, art, lay, name, tile, terrain):
        spot, clear = work.free_spot(
            label.half_w, label.half_h, label.candidates, label.near, label.kind == "name"
        )
        if clear < 0 and label.kind in OPTIONAL_LABELS:
            continue
        work.claim(spot, label.half_w, label.half_h)
        x, y = g.px(coord, spot)
        label.draw(svg, x, y, art, offboard)


@dataclass(frozen=True)
class _Label:
    """A piece of text (or a terrain or offboard-value box) to be placed on a hex face."""

    kind: str
    text: str
    size: float  # font size in px
    width: float  # px
    lines: int
    candidates: list[Pt]
    r: float
    near: Pt | None = None

    @property
    def half_w(self) -> float:
        return self.width / 2 / self.r + 0.02

    @property
    def half_h(self) -> float:
        return self.lines * self.size * 1.15 / 2 / self.r

    def draw(self, svg: Svg, x: float, y: float, art: Art, offboard: str | None) -> None:
        if self.kind == "terrain":
            _draw_terrain(svg, x - self.width / 2, y, self.text, self.size)
        elif self.kind == "offboard":
            _draw_offboard_values(svg, x, y, art, offboard, self.size)
        elif self.kind == "revenue":
            svg.circle(x, y, self.width / 2, "#FFFFFF", pal.INK, 1.0)
            svg.text(x, y + self.size * 0.36, self.text, self.size, pal.INK, bold=True)
        else:
            lines = self.text.split("\n")
            for i, line in enumerate(lines):
                ly = y + (i - (len(lines) - 1) / 2) * self.size * 1.1 + self.size * 0.36
                svg.text(
                    x,
                    ly,
                    line,
                    self.size,
                    pal.MUTED if self.kind == "tile" else pal.INK,
                    bold=self.kind == "label",
                    halo=pal.TILE.get(art.color) if self.kind == "name" else None,
                )


_GRID = [
    (x * 0.1, y * 0.1)
    for y in (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6)
    for x in (0, -2, 2, -4, 4)
]
_NAME_SPOTS = [
    (x, y)
    for y in (0.58, -0.58, 0.5, -0.5, 0.42, -0.42, 0.3, -0.3, 0.15, -0.15, 0.0)
    for x in (0.0, 0.1, -0.1, 0.2, -0.2, 0.3, -0.3)
]
_REVENUE_SPOTS = ring(0.6, 12, 0.0) + ring(0.38, 12, 15.0)


def _labels(
    g: Geometry,
    art: Art,
    lay: Layout,
    name: str | None,
    tile: str | None,
    terrain: tuple[tuple[str, int], ...],
) -> list[_Label]:
    """The labels of a face, largest first (they have the fewest places to go)."""
    r = g.r
    out: list[_Label] = []
    if art.offboards:
        size = 0.17 * r
        out.append(_Label("offboard", "", size, len(art.offboards[0]) * 2.0 * size, 1, _GRID, r))
    if name:
        size = 0.145 * r
        text = _wrap(name, 1.2 * r, size)
        lines = text.split("\n")
        out.append(
            _Label(
                "name",
                text,
                size,
                max(text_width(t, size) for t in lines),
                len(lines),
                _NAME_SPOTS,
                r,
            )
        )
    for near, value in lay.revenues:
        size = 0.155 * r
        out.append(_Label("revenue", str(value), size, 0.26 * r, 1, _REVENUE_SPOTS, r, near))
    if art.label:
        size = 0.2 * r
        out.append(
            _Label(
                "label",
                art.label,
                size,
                text_width(art.label, size, True),
                1,
                [(0.0, 0.0)] + ring(0.45, 12, 0.0) + ring(0.6, 12, 15.0),
                r,
            )
        )
    for kind, cost in terrain:
        size = 0.15 * r
        text = f"{kind}:{money(g.board.title, cost)}"
        out.append(
            _Label(
                "terrain",
                text,
                size,
                2.0 * size + text_width(text.split(":")[1], size),
                1,
                _GRID,
                r,
            )
        )
    if tile:
        size = 0.13 * r
        out.append(
            _Label(
                "tile",
                tile,
                size,
                text_width(tile, size),
                1,
                ring(0.62, 12, 15.0) + ring(0.5, 12, 0.0),
                r,
            )
        )
    return out


def _terminal(g: Geometry, coord: str, edge: int) -> list[tuple[float, float]]:
    """Track running into an offboard area: a stub from the edge tapering to a point."""
    mx, my = edge_mid(g.board.orientation, edge)
    dx, dy = edge_dir(g.board.orientation, edge)
    w = TRACK_W * 0.9
    nx, ny = -dy, dx
    base = 0.15
    pts = [
        (mx + nx * w, my + ny * w),
        (mx - dx * base + nx * w, my - dy * base + ny * w),
        (dx * TERMINAL_TIP, dy * TERMINAL_TIP),
        (mx - dx * base - nx * w, my - dy * base - ny * w),
        (mx - nx * w, my - ny * w),
    ]
    return [g.px(coord, p) for p in pts]


def _draw_stop(svg: Svg, g: Geometry, coord: str, stop: Stop) -> None:
    r = g.r
    x, y = g.px(coord, stop.pos)
    if stop.kind == "city":
        centres = [g.px(coord, c) for c in stop.slot_centres()]
        if stop.slots > 1:  # the slots sit in one white pill
            (ax, ay), (bx, by) = centres[0], centres[-1]
            d = f"M{ax:.1f},{ay:.1f}L{bx:.1f},{by:.1f}"
            svg.path(d, pal.INK, 2 * CITY_R * r + 3.0)
            svg.path(d, "#FFFFFF", 2 * CITY_R * r)
        for cx, cy in centres:
            svg.circle(cx, cy, CITY_R * r, "#FFFFFF", pal.INK, 1.5)
    elif stop.bar:
        deg = math.degrees(stop.angle)
        svg.rect(
            x - BAR_LEN * r / 2,
            y - BAR_W * r / 2,
            BAR_LEN * r,
            BAR_W * r,
            pal.INK,
            rx=2,
            extra=f' transform="rotate({deg:.1f},{x:.1f},{y:.1f})"',
        )
    elif stop.kind == "town":
        svg.circle(x, y, TOWN_R * r, pal.INK, "#FFFFFF", 1.5)
    else:  # halt: a small hollow station
        svg.circle(x, y, HALT_R * r, "#FFFFFF", pal.INK, 0.035 * r)


def _wrap(name: str, width: float, size: float) -> str:
    """Break a long place name into two lines, after an '&' when it has one."""
    if text_width(name, size) <= width or " " not in name:
        return name
    if " & " in name:
        a, b = name.split(" & ", 1)
        return f"{a} &\n{b}"
    words = name.split(" ")
    half = len(words) // 2 or 1
    return " ".join(words[:half]) + "\n" + " ".join(words[half:])


def _draw_terrain(svg: Svg, x0: float, y: float, text: str, size: float) -> None:
    """A mountain or water sign followed by the cost, starting at x0."""
    kind, cost = text.split(":", 1)
    ix = x0 + size * 0.8
    if kind == "mountain":
        svg.polygon(
            [
                (ix - size * 0.75, y + size * 0.45),
                (ix, y - size * 0.6),
                (ix + size * 0.75, y + size * 0.45),
            ],
            pal.MOUNTAIN,
        )
    else:
        for dy in (-size * 0.22, size * 0.3):
            svg.path(
                f"M{ix - size * 0.75:.1f},{y + dy:.1f} q{size * 0.375:.1f},{-size * 0.45:.1f} "
                f"{size * 0.75:.1f},0 t{size * 0.75:.1f},0",
                pal.WATER,
                size * 0.2,
            )
    svg.text(x0 + size * 1.9, y + size * 0.36, cost, size, pal.INK, anchor="start")


def _draw_offboard_values(
    svg: Svg, x: float, y: float, art: Art, current: str | None, size: float
) -> None:
    """One box per phase colour; the value paid now is bold in a heavy frame."""
    values = art.offboards[0] if art.offboards else ()
    bw, bh = size * 2.0, size * 1.5
    x0 = x - bw * len(values) / 2
    for i, (colour, value) in enumerate(values):
        bx = x0 + i * bw
        now = colour == current
        svg.rect(
            bx,
            y - bh / 2,
            bw,
            bh,
            pal.TILE.get(colour, "#FFFFFF"),
            pal.INK if now else pal.MUTED,
            2.2 if now else 0.8,
        )
        svg.text(
            bx + bw / 2,
            y + size * 0.36,
            str(value),
            size * (1.05 if now else 0.85),
            pal.INK if now else "#4A4A4A",
            bold=now,
        )


# -- the whole map ------------------------------------------------------------------------------
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
    board: Board, coord: str, tile: str, rotation: int
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
    svg: Svg, g: Geometry, x: float, y: float, sym: str, fill: str, ghost: bool = False
) -> None:
    """A station token: the company's colour with its abbreviation. A home not yet taken (the
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
    size = 0.2 * g.r
    svg.text(x, y + size * 0.36, sym, size, ink, bold=True, fit=2 * inner * 0.88)


def _company_order(board: Board, snapshot: Mapping[str, Any]) -> list[str]:
    return list(board.corporations) + [
        s for s in snapshot.get("corporations", {}) if s not in board.corporations
    ]


def _overlay(
    board: Board,
    snapshot: Mapping[str, Any],
    runs: Sequence[Mapping[str, Any]] = (),
    only: Collection[str] | None = None,
) -> Svg:
    """Tiles, borders, tokens, home markers, runs and the last move over the printed board;
    `only`: just the hexes a cropped view shows (the rest is skipped, not drawn and cut)."""
    g = geometry(board)
    svg = Svg(g.width, g.height)
    svg.header(*header_line(snapshot), MARGIN + 6)

    laid = _laid(board, snapshot)
    for coord, (tile, rotation) in laid.items():
        if only is not None and coord not in only:
            continue
        parts, texts = _tile_fragment(board, coord, tile, rotation)
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
            _token(svg, g, x, y, corp, pal.company_colour(title, corp, order))
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
        _token(svg, g, x, y, sym, pal.company_colour(title, sym, order), ghost=True)
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
