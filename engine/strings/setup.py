"""The table before the first turn: play area, bases in its corners, river, mountain, deck.

Everything generated comes from a `random.Random` seeded by the game's seed (and a roll number
for river and mountain, so the seat that lays them can ask for another shape): the deck from the
seed itself, what the map shows from `map_key` (so the map tells nothing of the deck).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import shapely
from shapely.geometry import LineString, Polygon
from shapely.ops import nearest_points, unary_union

from engine.errors import InvalidAction
from engine.strings.geometry import Point, Square, fmt, length, self_contact, swept
from engine.strings.stations import DRAWN, TYPES

# Seeds from here on are new games' (128 secret bits above it); every seed below (all a stored
# game or a file could hold before: 64-bit at most) keeps rolling its map from the seed itself.
SECRET_SEEDS = 2**64


def map_key(seed: int) -> str:
    """What the public rolls (area, river, mountain) are seeded by. An old seed is its own key,
    as it always was, so old games replay; a new seed's key is a one-way hash of it, so a map
    cannot be searched back to the seed that deals the deck."""
    if seed < SECRET_SEEDS:
        return str(seed)
    return hashlib.sha256(f"{seed}:map".encode()).hexdigest()


def map_roll(seed: int, what: str) -> random.Random:
    """The generator of one public roll (`area`, `river:0`, `mountain:2`...)."""
    return random.Random(f"{map_key(seed)}:{what}")


def deck_roll(seed: int) -> random.Random:
    """The generator that shuffles the deck: seeded by the secret seed itself."""
    return random.Random(f"{seed}:deck")


@dataclass(frozen=True)
class Sizes:
    """Part B's measures (centimetres); every one is a game option."""

    short: float = 30.0
    long: float = 60.0
    station: float = 6.0
    river: float = 90.0  # longest river
    mountain: float = 120.0  # longest mountain perimeter


def regular_area(corners: int) -> list[Point]:
    """The default area: square 85 (2, 4 players), triangle 113 (3), pentagon 68 (5), with the
    origin at the bottom-left of its bounding box, vertices counter-clockwise from bottom-left."""
    side = {3: 113.0, 4: 85.0, 5: 68.0}[corners]
    pts: list[Point] = [(0.0, 0.0)]
    heading = 0.0
    for _ in range(corners - 1):
        x, y = pts[-1]
        pts.append((x + side * math.cos(heading), y + side * math.sin(heading)))
        heading += 2 * math.pi / corners
    minx = min(p[0] for p in pts)
    return [(round(x - minx, 6), round(y, 6)) for x, y in pts]


def chaotic_area(rng: random.Random, corners: int) -> list[Point]:
    """The chaotic variant's generated area: an irregular polygon with one vertex per company
    (base i sits at vertex i), about as large as the square; any other shape can be given."""
    pts = []
    for i in range(corners):
        angle = 2 * math.pi * (i + rng.uniform(-0.2, 0.2)) / corners + math.pi * 1.25
        r = rng.uniform(45, 70)
        pts.append((r * math.cos(angle), r * math.sin(angle)))
    minx, miny = min(p[0] for p in pts), min(p[1] for p in pts)
    return [(round(x - minx, 1), round(y - miny, 1)) for x, y in pts]


def check_area(points: Sequence[Point]) -> Polygon:
    if len(points) < 3:
        raise InvalidAction("the play area needs at least 3 vertices")
    poly = Polygon(points)
    if not poly.is_valid or poly.area <= 0:
        raise InvalidAction(
            "the play area must be a simple polygon (its outline crosses or touches itself)"
        )
    return poly


def base_square(area: Polygon, vertex: Point, size: float) -> Square:
    """The base at an area corner: a size×size axis-aligned square with one corner on the
    vertex, inside the area; where none fits, the square inside the area nearest the vertex."""
    h = size / 2
    for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1)):
        sq = Square.centred(vertex[0] + sx * h, vertex[1] + sy * h, size)
        if area.buffer(1e-9).covers(sq.shape()):
            return sq
    # centres whose square fits: the area minus every edge swept by the square
    feasible = area.difference(unary_union(swept([list(area.exterior.coords)], h)))
    if feasible.is_empty:
        raise InvalidAction(f"no {size:g}×{size:g} base fits in the area near corner {fmt(vertex)}")
    centre = nearest_points(feasible, Square.centred(vertex[0], vertex[1], size).shape())[0]
    return Square.centred(round(centre.x, 6), round(centre.y, 6), size)


def check_river(points: Sequence[Point], area: Polygon, sizes: Sizes) -> LineString:
    if len(points) < 2:
        raise InvalidAction("the river needs at least 2 points")
    spot = self_contact(points)
    if spot is not None:
        raise InvalidAction(f"the river may not cross itself (near {fmt(spot)})")
    if length(points) > sizes.river + 1e-9:
        raise InvalidAction(f"the river is {length(points):.1f} long; at most {sizes.river:g}")
    river = LineString(points)
    outside = [p for p in (points[0], points[-1]) if not area.covers(LineString([p, p]).centroid)]
    if len(outside) > 1:
        raise InvalidAction("only one end of the river may lie outside the play area")
    out = river.difference(area)
    if not out.is_empty:
        parts = getattr(out, "geoms", [out])
        if (
            not outside
            or len(parts) > 1
            or parts[0].distance(LineString([outside[0], outside[0]]).centroid) > 1e-9
        ):
            p = out.representative_point()
            raise InvalidAction(
                f"the river leaves the play area near {fmt((p.x, p.y))}; only one end may stick out"
            )
    return river


def check_mountain(points: Sequence[Point], area: Polygon, sizes: Sizes) -> Polygon:
    if len(points) < 3:
        raise InvalidAction("the mountain needs at least 3 vertices")
    ring = list(points) + [points[0]]
    if length(ring) > sizes.mountain + 1e-9:
        raise InvalidAction(
            f"the mountain's outline is {length(ring):.1f} long; at most {sizes.mountain:g}"
        )
    poly = Polygon(points)
    if not poly.is_valid or poly.area <= 0:
        raise InvalidAction(
            "the mountain must be a simple closed loop (its outline crosses itself)"
        )
    if not area.contains(poly) or area.exterior.distance(poly) <= 0:
        raise InvalidAction("the mountain must lie strictly inside the play area")
    return poly


def generate_river(
    rng: random.Random, area: Polygon, bases: list[Square], sizes: Sizes
) -> list[Point]:
    """A meandering river from just outside one side of the area into it."""
    keep_clear = unary_union([b.shape().buffer(4) for b in bases])
    inner = area.buffer(-3)
    shapely.prepare(keep_clear)
    shapely.prepare(inner)
    coords = list(area.exterior.coords)
    for _ in range(500):
        i = rng.randrange(len(coords) - 1)
        a, b = coords[i], coords[i + 1]
        t = rng.uniform(0.3, 0.7)
        edge = (b[0] - a[0], b[1] - a[1])
        norm = math.hypot(*edge)
        inward = (-edge[1] / norm, edge[0] / norm)
        if not area.contains(
            LineString(
                [(a[0] + t * edge[0] + inward[0], a[1] + t * edge[1] + inward[1])] * 2
            ).centroid
        ):
            inward = (-inward[0], -inward[1])
        start = (a[0] + t * edge[0] - 2 * inward[0], a[1] + t * edge[1] - 2 * inward[1])
        pts = [start]
        heading = math.atan2(inward[1], inward[0])
        total = 0.0
        target = rng.uniform(0.7, 0.95) * sizes.river
        while total < target:
            heading += rng.uniform(-0.6, 0.6)
            step = min(rng.uniform(7, 12), target - total)
            if step < 3:
                break
            nxt = (pts[-1][0] + step * math.cos(heading), pts[-1][1] + step * math.sin(heading))
            pts.append(nxt)
            total += step
        pts = [(round(x, 1), round(y, 1)) for x, y in pts]
        line = LineString(pts)
        if line.intersects(keep_clear) or self_contact(pts) is not None:
            continue
        if not inner.contains(LineString(pts[1:])):
            continue
        try:
            check_river(pts, area, sizes)
        except InvalidAction:
            continue
        return pts
    raise InvalidAction("could not generate a river for this area; give its points")


def generate_mountain(
    rng: random.Random, area: Polygon, bases: list[Square], river: LineString, sizes: Sizes
) -> list[Point]:
    """A lumpy loop somewhere inside the area, clear of the bases and the river."""
    keep_clear = unary_union([b.shape().buffer(4) for b in bases] + [river.buffer(3)])
    inner = area.buffer(-3)
    shapely.prepare(keep_clear)
    shapely.prepare(inner)
    minx, miny, maxx, maxy = area.bounds
    for _ in range(1000):
        c = (rng.uniform(minx, maxx), rng.uniform(miny, maxy))
        radius = rng.uniform(0.6, 0.9) * sizes.mountain / (2 * math.pi)
        n = rng.randint(7, 10)
        pts = []
        for k in range(n):
            ang = 2 * math.pi * k / n + rng.uniform(-0.2, 0.2)
            r = radius * rng.uniform(0.75, 1.15)
            pts.append((round(c[0] + r * math.cos(ang), 1), round(c[1] + r * math.sin(ang), 1)))
        poly = Polygon(pts)
        if not poly.is_valid or poly.intersects(keep_clear):
            continue
        if not inner.contains(poly):
            continue
        try:
            check_mountain(pts, area, sizes)
        except InvalidAction:
            continue
        return pts
    raise InvalidAction("could not generate a mountain for this area; give its points")


def deck(rng: random.Random) -> list[str]:
    """The table's 38 stations, shuffled."""
    cards = [name for name in DRAWN for _ in range(TYPES[name].count)]
    rng.shuffle(cards)
    return cards


def check_order(order: Sequence[str]) -> list[str]:
    bad = [s for s in order if s not in DRAWN]
    if bad:
        raise InvalidAction(
            f"unknown station type {bad[0]!r} in station_order; types: {', '.join(DRAWN)}"
        )
    return list(order)
