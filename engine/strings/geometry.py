"""Plane geometry for String Railway: polylines, station squares, crossings and contacts.

Shapely answers the area questions (containment, distances); crossings are classified here
segment by segment, because the rules need to tell a crossing (one string passes from one side
of the other to the other side) from a mere touch, and need every crossing's place.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Polygon, box

Point = tuple[float, float]
EPS = 1e-9


def fmt(p: Point) -> str:
    """A point as players read it: (41.2, 17.0)."""
    return f"({p[0]:.1f}, {p[1]:.1f})"


def length(points: Sequence[Point]) -> float:
    return sum(math.dist(a, b) for a, b in zip(points, points[1:]))


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


@dataclass(frozen=True)
class Square:
    """An axis-aligned station square."""

    x0: float
    y0: float
    x1: float
    y1: float

    @classmethod
    def centred(cls, x: float, y: float, size: float) -> Square:
        h = size / 2
        return cls(x - h, y - h, x + h, y + h)

    @property
    def centre(self) -> Point:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)

    def shape(self) -> Polygon:
        return box(self.x0, self.y0, self.x1, self.y1)

    def grown(self, by: float) -> Square:
        return Square(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)

    def gap(self, other: Square) -> float:
        """The distance between two squares (0 when they touch or overlap)."""
        gx = max(0.0, other.x0 - self.x1, self.x0 - other.x1)
        gy = max(0.0, other.y0 - self.y1, self.y0 - other.y1)
        return math.hypot(gx, gy)

    def holds(self, p: Point) -> bool:
        """The point lies in the closed square."""
        return (self.x0 - EPS <= p[0] <= self.x1 + EPS) and (self.y0 - EPS <= p[1] <= self.y1 + EPS)

    def clip(self, a: Point, b: Point) -> tuple[float, float] | None:
        """Parameters [t0, t1] of segment a→b inside the closed square (Liang–Barsky)."""
        t0, t1 = 0.0, 1.0
        dx, dy = b[0] - a[0], b[1] - a[1]
        for p, q in (
            (-dx, a[0] - self.x0),
            (dx, self.x1 - a[0]),
            (-dy, a[1] - self.y0),
            (dy, self.y1 - a[1]),
        ):
            if abs(p) < EPS:
                if q < -EPS:
                    return None
                continue
            r = q / p
            if p < 0:
                t0 = max(t0, r)
            else:
                t1 = min(t1, r)
            if t0 > t1 + EPS:
                return None
        return (t0, max(t0, t1))


def swept(lines: Sequence[Sequence[Point]], half: float) -> list[Polygon]:
    """Each segment of the polylines swept by an axis-aligned square of half-side `half`: the
    centres where such a square meets the segment (Minkowski sum), one polygon per segment."""
    segments = [(a, b) for line in lines for a, b in zip(line, line[1:])]
    if not segments:
        return []
    ends = np.asarray(segments, dtype=float)  # (n, 2 ends, 2 coordinates)
    corners = np.array([(dx, dy) for dx in (-half, half) for dy in (-half, half)])
    hulls = np.concatenate([ends[:, 0, None, :] + corners, ends[:, 1, None, :] + corners], axis=1)
    return list(shapely.convex_hull(shapely.multipoints(hulls)))


Box = tuple[float, float, float, float]


def bounds(points: Sequence[Point]) -> Box:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def boxes_apart(a: Box, b: Box, tol: float = 1e-6) -> bool:
    """The boxes are more than `tol` apart along x or y: nothing in one meets the other."""
    return a[0] > b[2] + tol or b[0] > a[2] + tol or a[1] > b[3] + tol or b[1] > a[3] + tol


def comes_near(points: Sequence[Point], square: Square, tol: float) -> bool:
    """Whether a polyline meets the square grown by `tol` on every side: a cheap test that a
    string may lie within `tol` of the square (it never misses one that does)."""
    grown = square.grown(tol)
    return any(grown.clip(a, b) is not None for a, b in zip(points, points[1:]))


def contacts(points: Sequence[Point], square: Square) -> list[tuple[float, float]]:
    """The separate stretches (as arc-length intervals) of a polyline that touch a square.
    Two stretches mean the polyline reached the square twice."""
    spans: list[tuple[float, float]] = []
    s = 0.0
    for a, b in zip(points, points[1:]):
        seg = math.dist(a, b)
        hit = square.clip(a, b)
        if hit is not None:
            lo, hi = s + hit[0] * seg, s + hit[1] * seg
            if spans and lo <= spans[-1][1] + 1e-7:
                spans[-1] = (spans[-1][0], max(hi, spans[-1][1]))
            else:
                spans.append((lo, hi))
        s += seg
    return spans


@dataclass(frozen=True)
class _Where:
    """Where a point lies on a polyline: at vertex `index` or inside segment `index`."""

    vertex: bool
    index: int


def _rays(points: Sequence[Point], closed: bool, where: _Where, at: Point) -> list[Point]:
    """The directions the polyline leaves a point on it in (one at an open end)."""
    n = len(points)
    if not where.vertex:
        neighbours = [points[where.index], points[where.index + 1]]
    else:
        k = where.index
        neighbours = []
        if k > 0 or closed:
            neighbours.append(points[k - 1] if k > 0 else points[n - 2])
        if k < n - 1 or closed:
            neighbours.append(points[k + 1] if k < n - 1 else points[1])
    return [(q[0] - at[0], q[1] - at[1]) for q in neighbours]


def _separates(a: list[Point], b: list[Point]) -> bool:
    """Whether the two rays of b lie on opposite sides of the two rays of a (a true crossing)."""
    if len(a) != 2 or len(b) != 2:
        return False
    angle = [math.atan2(v[1], v[0]) for v in a + b]
    a0 = angle[0]
    rel = [(x - a0) % (2 * math.pi) for x in angle]
    a1, b0, b1 = rel[1], rel[2], rel[3]
    if (
        min(
            abs(b0),
            abs(b0 - a1),
            abs(b1),
            abs(b1 - a1),
            abs(b0 - 2 * math.pi),
            abs(b1 - 2 * math.pi),
        )
        < 1e-9
    ):
        return False  # running along the other string for a while: a touch, not a crossing
    return (0 < b0 < a1) != (0 < b1 < a1)


def _where(t: float, i: int, last: int) -> _Where:
    if t <= 1e-9:
        return _Where(True, i)
    if t >= 1 - 1e-9:
        return _Where(True, i + 1 if i + 1 <= last else 0)
    return _Where(False, i)


def meetings(
    a: Sequence[Point],
    b: Sequence[Point],
    b_closed: bool = False,
) -> list[tuple[Point, bool]]:
    """Every point where polylines a (open) and b meet, with whether b crosses a there
    (False: they only touch or run along each other). Collinear overlaps give their ends."""
    found: dict[tuple[_Where, _Where], tuple[Point, bool]] = {}
    last_a, last_b = len(a) - 1, len(b) - 1
    bx = [min(p[0] for p in b), max(p[0] for p in b), min(p[1] for p in b), max(p[1] for p in b)]
    for i, (p1, p2) in enumerate(zip(a, a[1:])):
        if (
            max(p1[0], p2[0]) < bx[0] - EPS
            or min(p1[0], p2[0]) > bx[1] + EPS
            or max(p1[1], p2[1]) < bx[2] - EPS
            or min(p1[1], p2[1]) > bx[3] + EPS
        ):
            continue
        r = (p2[0] - p1[0], p2[1] - p1[1])
        for j, (q1, q2) in enumerate(zip(b, b[1:])):
            if (
                max(q1[0], q2[0]) < min(p1[0], p2[0]) - EPS
                or min(q1[0], q2[0]) > max(p1[0], p2[0]) + EPS
                or max(q1[1], q2[1]) < min(p1[1], p2[1]) - EPS
                or min(q1[1], q2[1]) > max(p1[1], p2[1]) + EPS
            ):
                continue
            s = (q2[0] - q1[0], q2[1] - q1[1])
            den = r[0] * s[1] - r[1] * s[0]
            qp = (q1[0] - p1[0], q1[1] - p1[1])
            if abs(den) < EPS * max(1.0, math.hypot(*r) * math.hypot(*s)):
                if abs(qp[0] * r[1] - qp[1] * r[0]) > 1e-7 * max(1.0, math.hypot(*r)):
                    continue  # parallel, apart
                rr = r[0] * r[0] + r[1] * r[1]
                ss = s[0] * s[0] + s[1] * s[1]
                hits = []  # collinear: the overlap's ends
                for q, in_b in ((q1, 0.0), (q2, 1.0)):
                    t = ((q[0] - p1[0]) * r[0] + (q[1] - p1[1]) * r[1]) / rr
                    if -EPS <= t <= 1 + EPS:
                        hits.append((t, in_b))
                for p, t in ((p1, 0.0), (p2, 1.0)):
                    u = ((p[0] - q1[0]) * s[0] + (p[1] - q1[1]) * s[1]) / ss
                    if -EPS <= u <= 1 + EPS:
                        hits.append((t, u))
            else:
                t = (qp[0] * s[1] - qp[1] * s[0]) / den
                u = (qp[0] * r[1] - qp[1] * r[0]) / den
                if not (-EPS <= t <= 1 + EPS and -EPS <= u <= 1 + EPS):
                    continue
                hits = [(t, u)]
            for t, u in hits:
                t, u = min(max(t, 0.0), 1.0), min(max(u, 0.0), 1.0)
                wa, wb = _where(t, i, last_a), _where(u, j, last_b if not b_closed else last_b - 1)
                if b_closed and wb.vertex and wb.index == last_b:
                    wb = _Where(True, 0)
                if (wa, wb) in found:
                    continue
                at = (p1[0] + t * r[0], p1[1] + t * r[1])
                crossing = _separates(_rays(a, False, wa, at), _rays(b, b_closed, wb, at))
                found[(wa, wb)] = (at, crossing)
    return list(found.values())


def crossings(a: Sequence[Point], b: Sequence[Point], b_closed: bool = False) -> list[Point]:
    return [p for p, crossing in meetings(a, b, b_closed) if crossing]


def self_contact(points: Sequence[Point]) -> Point | None:
    """The first place where a polyline meets itself (crosses, touches or doubles back)."""
    n = len(points) - 1
    for i in range(n):
        a1, a2 = points[i], points[i + 1]
        for j in range(i + 1, n):
            b1, b2 = points[j], points[j + 1]
            if j == i + 1:
                # neighbours share a vertex; they may only meet there, i.e. not fold back
                d1 = (a1[0] - a2[0], a1[1] - a2[1])
                d2 = (b2[0] - b1[0], b2[1] - b1[1])
                if (
                    abs(d1[0] * d2[1] - d1[1] * d2[0])
                    < 1e-9 * max(1.0, math.hypot(*d1) * math.hypot(*d2))
                    and d1[0] * d2[0] + d1[1] * d2[1] > 0
                ):
                    return a2
                continue
            for p, _ in meetings([a1, a2], [b1, b2]):
                return p
    return None
