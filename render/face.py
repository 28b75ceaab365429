"""One hex face of the map: colour, track, stations, and its labels (revenues, place name, hex
label, terrain cost, offboard values, tile number) placed where nothing else is; plus where the
board sits in the map image (`Geometry`), which the map and its close-ups share.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from render import palette as pal
from render.board import Art, Board, edge_dir
from render.fonts import text_width
from render.snapshot import money
from render.svg import Svg
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
    ring,
)

TARGET_WIDTH = 1450  # px of board; the frame and margins come on top
MAX_RADIUS = 84.0
HEADER = 58
FRAME = 26
MARGIN = 8
TRACK_W = 0.085  # in hex radii
CASING = 0.05
OPTIONAL_LABELS = ("label", "tile", "name")  # left out where they would cover something
OFF_PHASE = 0.85  # an offboard value of another phase than the current one is set this small
REARRANGE = 3
OVER_TRACK = ("name", "revenue")  # may cover track where nothing else leaves room (names haloed)


@dataclass(frozen=True)
class TextSize:
    """How a view sets the text of a face: none smaller than `floor` px (a close-up's
    legibility), place names `names` times their size on the full map."""

    floor: float = 0.0
    names: float = 1.0


FULL_MAP = TextSize()


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
    text: TextSize = FULL_MAP,
) -> list[Placed]:
    """One hex: its colour, track (with a white casing where track passes over track), stations,
    revenues and labels placed where the track leaves room, set as `text` says; returns the
    boxes the labels were drawn in."""
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
    spots = _arrange(lay, _labels(g, art, lay, name, tile, terrain, text))
    placed = []
    for label, spot, _ in spots:
        x, y = g.px(coord, spot)
        label.draw(svg, x, y, art, offboard)
        w, h = label.width / 2, label.height / 2
        placed.append(Placed(label.kind, label.text, (x - w, y - h, x + w, y + h)))
    return placed


def _arrange(lay: Layout, labels: list[tuple[_Label, ...]]) -> list[tuple[_Label, Pt, float]]:
    """The labels placed one by one in the order given; where one then has to cover something
    or is left out, again with that one placed first, and likewise up to `REARRANGE` times
    (a crowded tile), keeping the best arrangement."""
    attempt = best = _place(lay, labels)
    order = labels
    for _ in range(REARRANGE):
        covering = {id(label) for label, _, clear in attempt if clear < 0}
        shown = {id(label) for label, _, _ in attempt} - covering
        stuck = [v for v in order if not any(id(x) in shown for x in v)]
        if not stuck:
            break
        first = next((v for v in stuck if any(id(x) in covering for x in v)), stuck[0])
        order = [first] + [v for v in order if v is not first]
        attempt = _place(lay, order)
        best = min(best, attempt, key=_badness)
    return best


def _place(lay: Layout, labels: list[tuple[_Label, ...]]) -> list[tuple[_Label, Pt, float]]:
    """Each label (or the first of its shorter forms that covers nothing) where it keeps
    clearest, in the given order; an optional one that would cover something is left out."""
    work = Layout(
        lay.orientation, lay.tracks, lay.terminals, lay.stops, lay.revenues, list(lay.occupied)
    )
    out = []
    for variants in labels:
        best: tuple[_Label, Pt, float] | None = None
        for label in variants:  # the first that covers nothing, else the one covering least
            spot, clear = work.free_spot(
                label.half_w, label.half_h, label.candidates, label.near, label.kind in OVER_TRACK
            )
            if best is None or clear > best[2]:
                best = (label, spot, clear)
            if clear >= 0:
                break
        assert best is not None
        label, spot, clear = best
        if clear < 0 and label.kind in OPTIONAL_LABELS:
            continue
        work.claim(spot, label.half_w, label.half_h)
        out.append(best)
    return out


def _badness(spots: list[tuple[_Label, Pt, float]]) -> tuple[int, int]:
    """Labels covering something, then labels shown (more is better; a place name counts
    twice, being what finds a hex)."""
    return (
        sum(1 for _, _, clear in spots if clear < 0),
        -sum(2 if label.kind == "name" else 1 for label, _, _ in spots),
    )


@dataclass(frozen=True)
class Placed:
    """Where a label of a hex face was drawn: its kind, its text and its box in image px."""

    kind: str
    text: str
    box: tuple[float, float, float, float]


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
    def height(self) -> float:
        """Px from the top to the bottom of what `draw` draws (a revenue is a disc, an
        offboard value a box, a terrain sign reaches above the text)."""
        tall = {"revenue": self.width / self.size, "offboard": 1.5, "terrain": 1.2}
        return self.size * tall.get(self.kind, 1.15 * self.lines)

    @property
    def half_h(self) -> float:
        return self.height / 2 / self.r + 0.02

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
_REVENUE_SPOTS = ring(0.6, 12, 0.0) + ring(0.38, 12, 15.0) + ring(0.5, 24, 7.5) + ring(0.7, 24, 0.0)


def _revenue_spots(lay: Layout, near: Pt | None) -> list[Pt]:
    """Where a station's own revenue may go: nearer to it than to any other station, so
    that it reads as that station's."""
    if near is None:
        return _REVENUE_SPOTS
    others = [s.pos for s in lay.stops if s.pos != near]
    return [
        c
        for c in _REVENUE_SPOTS
        if all(math.dist(c, near) < 0.95 * math.dist(c, o) for o in others)
    ]


def _labels(
    g: Geometry,
    art: Art,
    lay: Layout,
    name: str | None,
    tile: str | None,
    terrain: tuple[tuple[str, int], ...],
    text: TextSize = FULL_MAP,
) -> list[tuple[_Label, ...]]:
    """The labels of a face, each with shorter forms to fall back on, in the order they are
    placed: the ones with the fewest places to go first (an offboard's values, then revenues
    that must sit by their station; a name may cover track). Each is set at its size on the
    full map, or the view's floor when that is larger."""
    r, floor = g.r, text.floor
    out: list[tuple[_Label, ...]] = []
    if art.offboards:
        size = max(0.17 * r, floor / OFF_PHASE)  # values of other phases are set smaller
        out.append((_Label("offboard", "", size, len(art.offboards[0]) * 2.0 * size, 1, _GRID, r),))
    for near, value in lay.revenues:
        size = max(0.155 * r, floor)
        disc = max(1.68 * size, text_width(str(value), size, True) + 0.3 * size)
        out.append(
            (_Label("revenue", str(value), size, disc, 1, _revenue_spots(lay, near), r, near),)
        )
    if name:
        short = name.split(" & ")[0]  # "New York & Newark": "New York"
        forms = [
            (form, size)
            for size in dict.fromkeys([max(0.145 * r * text.names, floor), max(0.145 * r, floor)])
            for form in dict.fromkeys([_wrap(name, 1.2 * r, size), short, short.replace(" ", "\n")])
        ]
        out.append(
            tuple(
                _Label(
                    "name",
                    form,
                    size,
                    max(text_width(line, size) for line in form.split("\n")),
                    form.count("\n") + 1,
                    _NAME_SPOTS,
                    r,
                )
                for form, size in forms
            )
        )
    if art.label:
        size = max(0.2 * r, floor)
        out.append(
            (
                _Label(
                    "label",
                    art.label,
                    size,
                    text_width(art.label, size, True),
                    1,
                    [(0.0, 0.0)] + ring(0.45, 12, 0.0) + ring(0.6, 12, 15.0),
                    r,
                ),
            )
        )
    for kind, cost in terrain:
        size = max(0.15 * r, floor)
        sign = f"{kind}:{money(g.board.title, cost)}"
        out.append(
            (
                _Label(
                    "terrain",
                    sign,
                    size,
                    2.0 * size + text_width(sign.split(":")[1], size),
                    1,
                    _GRID,
                    r,
                ),
            )
        )
    if tile:
        size = max(0.13 * r, floor)
        out.append(
            (
                _Label(
                    "tile",
                    tile,
                    size,
                    text_width(tile, size),
                    1,
                    ring(0.62, 12, 15.0) + ring(0.5, 12, 0.0),
                    r,
                ),
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
            size * (1.05 if now else OFF_PHASE),
            pal.INK if now else "#4A4A4A",
            bold=now,
        )
