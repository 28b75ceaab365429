"""Where track, stations and labels go on one hex face, in units of the hex's circumradius with
the hex centre at the origin (screen axes: y grows downwards).

Conventions (as printed on 18xx tiles): edge-to-edge track is straight across, a gentle curve
(radius 1.5, centred on the neighbour across the skipped edge) or a sharp curve (radius 0.5,
centred on the shared corner). A lone city sits in the middle; several stations sit half-way
towards one of their exits, the least crowded one; a town on a through track is a bar across
it. Layouts depend only on (orientation, art), so they are cached.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

from render.board import APOTHEM, SQRT3, Art, End, Orientation, edge_angle, edge_dir

Pt = tuple[float, float]

CITY_R = 0.25  # radius of one token slot
STOP_OFFSET = 0.5  # distance of an off-centre station from the hex centre
TOWN_R = 0.09
BAR_LEN, BAR_W = 0.34, 0.11
HALT_R = 0.075
TERMINAL_TIP = 0.3  # an offboard's tapered track ends this far from the centre
OVERLAP_PENALTY = 10.0


def edge_mid(orientation: Orientation, edge: int) -> Pt:
    dx, dy = edge_dir(orientation, edge)
    return APOTHEM * dx, APOTHEM * dy


def hex_corners(orientation: Orientation) -> list[Pt]:
    start = 30.0 if orientation == "pointy" else 0.0
    return [
        (math.cos(math.radians(start + 60 * k)), math.sin(math.radians(start + 60 * k)))
        for k in range(6)
    ]


@lru_cache(maxsize=2)
def _edge_dirs(orientation: Orientation) -> tuple[Pt, ...]:
    return tuple(edge_dir(orientation, e) for e in range(6))


def inside_hex(orientation: Orientation, p: Pt, margin: float = 0.0) -> bool:
    return all(p[0] * dx + p[1] * dy <= APOTHEM - margin for dx, dy in _edge_dirs(orientation))


def _dist(a: Pt, b: Pt) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _unit(v: Pt) -> Pt:
    n = math.hypot(*v)
    return (v[0] / n, v[1] / n) if n > 1e-9 else (0.0, 0.0)


@dataclass(frozen=True)
class Segment:
    """A straight line or a circular arc (centre given) from p0 to p1."""

    p0: Pt
    p1: Pt
    centre: Pt | None = None

    @property
    def radius(self) -> float:
        return _dist(self.centre, self.p0) if self.centre else 0.0

    def _angles(self) -> tuple[float, float]:
        cx, cy = self.centre  # type: ignore[misc]
        a0 = math.atan2(self.p0[1] - cy, self.p0[0] - cx)
        a1 = math.atan2(self.p1[1] - cy, self.p1[0] - cx)
        d = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi  # the short way round
        return a0, d

    def point(self, t: float) -> Pt:
        if self.centre is None:
            return (
                self.p0[0] + (self.p1[0] - self.p0[0]) * t,
                self.p0[1] + (self.p1[1] - self.p0[1]) * t,
            )
        a0, d = self._angles()
        r = self.radius
        return self.centre[0] + r * math.cos(a0 + d * t), self.centre[1] + r * math.sin(a0 + d * t)

    def tangent(self, t: float) -> Pt:
        if self.centre is None:
            return _unit((self.p1[0] - self.p0[0], self.p1[1] - self.p0[1]))
        a0, d = self._angles()
        a = a0 + d * t
        s = 1.0 if d > 0 else -1.0
        return -math.sin(a) * s, math.cos(a) * s

    def sweep(self) -> int:
        """SVG sweep flag: 1 when the arc turns clockwise on screen."""
        return 1 if self._angles()[1] > 0 else 0

    def samples(self, n: int = 8) -> list[Pt]:
        return [self.point(i / n) for i in range(n + 1)]


def tangent_arc(start: Pt, inward: Pt, end: Pt) -> Segment:
    """Track leaving an edge at right angles (direction `inward`) and bending to reach `end`."""
    vx, vy = end[0] - start[0], end[1] - start[1]
    ux, uy = -inward[1], inward[0]  # along the edge
    along = vx * ux + vy * uy
    if abs(along) < 1e-6:
        return Segment(start, end)
    t = (vx * vx + vy * vy) / (2 * along)
    return Segment(start, end, (start[0] + ux * t, start[1] + uy * t))


def edge_to_edge(orientation: Orientation, a: int, b: int) -> Segment:
    pa, pb = edge_mid(orientation, a), edge_mid(orientation, b)
    diff = (b - a) % 6
    if diff == 3:
        return Segment(pa, pb)
    if diff in (1, 5):  # sharp: centred on the shared corner
        low = a if diff == 1 else b
        corner = edge_angle(orientation, low) + math.radians(30)
        return Segment(pa, pb, (math.cos(corner), math.sin(corner)))
    middle = (a + 1) % 6 if diff == 2 else (b + 1) % 6  # gentle: centred on the neighbour
    mx, my = edge_dir(orientation, middle)
    return Segment(pa, pb, (SQRT3 * mx, SQRT3 * my))


@dataclass(frozen=True)
class Stop:
    kind: str  # city, town, halt
    index: int
    pos: Pt
    slots: int = 1
    angle: float = 0.0  # direction (radians) along which a multi-slot city's slots line up
    bar: bool = False  # a town drawn as a bar across its through track

    def slot_centres(self) -> list[Pt]:
        ca, sa = math.cos(self.angle), math.sin(self.angle)
        first = -(self.slots - 1) * CITY_R
        return [
            (
                self.pos[0] + (first + 2 * CITY_R * i) * ca,
                self.pos[1] + (first + 2 * CITY_R * i) * sa,
            )
            for i in range(self.slots)
        ]


@dataclass
class Layout:
    orientation: Orientation
    tracks: list[Segment] = field(default_factory=list)
    terminals: list[int] = field(default_factory=list)  # edges with tapered offboard track
    stops: list[Stop] = field(default_factory=list)
    revenues: list[tuple[Pt | None, int]] = field(
        default_factory=list
    )  # (near this station, value)
    occupied: list[tuple[Pt, float, bool]] = field(
        default_factory=list
    )  # (point, clearance, is track)

    def city(self, index: int) -> Stop | None:
        return next((s for s in self.stops if s.kind == "city" and s.index == index), None)

    def free_spot(
        self,
        half_w: float,
        half_h: float,
        candidates: list[Pt],
        near: Pt | None = None,
        over_track: bool = False,
    ) -> tuple[Pt, float]:
        """The candidate centre of a half_w x half_h box that stays inside the hex and keeps
        furthest from stations, labels and (unless `over_track`, for haloed text) track;
        earlier candidates win ties, and `near` pulls towards a point. Returns the spot and its
        clearance (negative when the box had to overlap something)."""
        best, best_score, best_clear = candidates[0], -math.inf, -1.0
        for c in candidates:
            corners = [(c[0] + sx * half_w, c[1] + sy * half_h) for sx in (-1, 1) for sy in (-1, 1)]
            if not all(inside_hex(self.orientation, p, 0.03) for p in corners):
                continue
            hard = soft = 1.0
            cx, cy = c
            for (px, py), r, track in self.occupied:  # the box's distance to each, inlined
                dx = max(abs(px - cx) - half_w, 0.0)
                dy = max(abs(py - cy) - half_h, 0.0)
                d = (dx * dx + dy * dy) ** 0.5 - r
                if track and over_track:
                    soft = min(soft, d)
                else:
                    hard = min(hard, d)
            score = min(hard, 0.2) + 0.3 * min(soft, 0.1) - (0.3 * _dist(c, near) if near else 0.0)
            if hard < 0:  # any spot that covers nothing beats one that does, however near
                score -= OVERLAP_PENALTY
            if score > best_score + 1e-9:
                best, best_score, best_clear = c, score, hard
        return best, best_clear

    def claim(self, centre: Pt, half_w: float, half_h: float) -> None:
        """Mark a placed label's box as taken, sampled on a grid fine enough that no later box
        fits between the samples."""
        nx, ny = max(2, math.ceil(half_w / 0.06)), max(2, math.ceil(half_h / 0.06))
        for i in range(nx + 1):
            for j in range(ny + 1):
                p = (
                    centre[0] - half_w + 2 * half_w * i / nx,
                    centre[1] - half_h + 2 * half_h * j / ny,
                )
                self.occupied.append((p, 0.04, False))


def ring(radius: float, count: int = 12, start_deg: float = 0.0) -> list[Pt]:
    return [
        (
            radius * math.cos(math.radians(start_deg + 360 * k / count)),
            radius * math.sin(math.radians(start_deg + 360 * k / count)),
        )
        for k in range(count)
    ]


# -- station placement --------------------------------------------------------------------------
def _weight(diff_deg: float, table: tuple[float, float, float, float]) -> float:
    """Interpolate a crowding weight for an angular distance of 0, 60, 120, 180 degrees."""
    diff_deg = min(diff_deg, 180.0)
    i = min(int(diff_deg // 60), 2)
    f = (diff_deg - 60 * i) / 60
    return table[i] + (table[i + 1] - table[i]) * f


_PATH_W = (1.0, 0.1, 0.0, 0.0)
_STOP_W = (1.0, 0.5, 0.25, 0.0)


def _angle_diff(a: float, b: float) -> float:
    return abs((a - b + 3) % 6 - 3) * 60.0  # in edge units -> degrees


@lru_cache(maxsize=1024)
def layout(orientation: Orientation, art: Art) -> Layout:
    lay = Layout(orientation)
    exits: dict[End, list[int]] = {}
    links: dict[End, list[End]] = {}
    nodes: list[End] = (
        [End("city", i) for i in range(len(art.cities))]
        + [End("town", i) for i in range(len(art.towns))]
        + [End("halt", i) for i in range(art.halts)]
    )
    for n in nodes:
        exits[n], links[n] = [], []
    edge_use = [0] * 6
    for a, b in art.paths:
        for x, y in ((a, b), (b, a)):
            if x.is_edge:
                edge_use[x.index] += 1
                if y.kind != "edge" and y in exits:
                    exits[y].append(x.index)
            elif not y.is_edge and x in links:
                links[x].append(y)

    bars = [n for n in nodes if n.kind == "town" and len(exits[n]) == 2 and not links[n]]
    rest = [n for n in nodes if n not in bars]
    positions = _place(orientation, art, rest, exits, links, edge_use)
    lay.stops.extend(_spread([_stop(n, positions[n], art) for n in rest]))
    positions = {End(s.kind, s.index): s.pos for s in lay.stops}  # type: ignore[arg-type]

    for a, b in art.paths:
        if a.kind == "offboard" or b.kind == "offboard":
            lay.terminals.append(a.index if a.is_edge else b.index)
        elif a.is_edge and b.is_edge:
            lay.tracks.append(edge_to_edge(orientation, a.index, b.index))
        elif a.is_edge or b.is_edge:
            edge, node = (a, b) if a.is_edge else (b, a)
            if node in bars:
                continue
            start = edge_mid(orientation, edge.index)
            dx, dy = edge_dir(orientation, edge.index)
            lay.tracks.append(tangent_arc(start, (-dx, -dy), positions[node]))
        else:
            lay.tracks.append(Segment(positions[a], positions[b]))

    bar_tracks = [(n, edge_to_edge(orientation, *exits[n])) for n in bars]
    lay.tracks.extend(seg for _, seg in bar_tracks)
    for n, t in zip(bars, _bar_positions([seg for _, seg in bar_tracks])):
        seg = dict(bar_tracks)[n]
        tx, ty = seg.tangent(t)
        lay.stops.append(Stop("town", n.index, seg.point(t), 1, math.atan2(tx, -ty), bar=True))

    for seg in lay.tracks:
        lay.occupied.extend((p, 0.07, True) for p in seg.samples())
    for e in lay.terminals:
        mx, my = edge_mid(orientation, e)
        dx, dy = edge_dir(orientation, e)
        lay.occupied.extend(((mx - dx * s, my - dy * s), 0.07, True) for s in (0.0, 0.2, 0.4, 0.55))
    for s in lay.stops:
        if s.kind != "city":
            lay.occupied.append((s.pos, (BAR_LEN / 2 if s.bar else TOWN_R) + 0.03, False))
            continue
        centres = s.slot_centres()  # the slots and the waist of the pill that joins them
        waists = [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in zip(centres, centres[1:])]
        lay.occupied.extend((c, CITY_R + 0.03, False) for c in centres + waists)
    _revenues(lay, art)
    return lay


def _stop(node: End, pos: Pt, art: Art) -> Stop:
    """A placed station; an off-centre city lines its slots up across its direction."""
    slots = art.cities[node.index][1] if node.kind == "city" else 1
    angle = math.atan2(pos[1], pos[0]) + math.pi / 2 if math.hypot(*pos) > 1e-6 else 0.0
    return Stop(node.kind, node.index, pos, slots, angle)


def _spread(stops: list[Stop], gap: float = 0.05, limit: float = 0.6) -> list[Stop]:
    """Move off-centre cities outwards (up to `limit`) until their slots keep `gap` apart."""
    for _ in range(4):
        moved = False
        for i, a in enumerate(stops):
            for j in range(i + 1, len(stops)):
                b = stops[j]
                if a.kind != "city" or b.kind != "city":
                    continue
                d = min(_dist(p, q) for p in a.slot_centres() for q in b.slot_centres())
                if d >= 2 * CITY_R + gap:
                    continue
                for k, s in ((i, a), (j, b)):
                    r = math.hypot(*s.pos)
                    if 1e-6 < r < limit:
                        grow = min(limit, r + gap) / r
                        stops[k] = Stop(
                            s.kind, s.index, (s.pos[0] * grow, s.pos[1] * grow), s.slots, s.angle
                        )
                        moved = True
                a = stops[i]
        if not moved:
            break
    return stops


def _bar_positions(tracks: list[Segment]) -> list[float]:
    """Where along its track each town bar sits: the middle, unless two bars would touch."""
    ts = [0.5] * len(tracks)
    for i in range(len(tracks)):
        for j in range(i + 1, len(tracks)):
            if _dist(tracks[i].point(ts[i]), tracks[j].point(ts[j])) < 0.3:
                for k, other in ((i, j), (j, i)):
                    here, there = tracks[k].point(0.5), tracks[other].point(0.5)
                    ahead = tracks[k].point(0.7)
                    away = (ahead[0] - here[0]) * (here[0] - there[0]) + (ahead[1] - here[1]) * (
                        here[1] - there[1]
                    )
                    ts[k] = 0.72 if away > 0 or (away == 0 and k == i) else 0.28
    return ts


def _place(
    orientation: Orientation,
    art: Art,
    nodes: list[End],
    exits: dict[End, list[int]],
    links: dict[End, list[End]],
    edge_use: list[int],
) -> dict[End, Pt]:
    if not nodes:
        return {}
    if len(nodes) == 1:
        return {nodes[0]: (0.0, 0.0)}
    if all(not exits[n] and not links[n] for n in nodes):  # nothing connected yet: spread out
        step = 6 / len(nodes)
        return {n: _toward(orientation, i * step) for i, n in enumerate(nodes)}

    placed: dict[End, Pt] = {}
    directions: list[float] = []  # edge-unit directions already taken by stations
    hubs = [n for n in nodes if len(exits[n]) >= 3]
    if len(hubs) == 1 and not any(n.kind == "city" for n in nodes if n != hubs[0]):
        placed[hubs[0]] = (0.0, 0.0)

    def crowd(direction: float) -> float:
        c = sum(
            use * _weight(_angle_diff(direction, e), _PATH_W)
            for e, use in enumerate(edge_use)
            if use
        )
        return c + sum(_weight(_angle_diff(direction, d), _STOP_W) for d in directions)

    for n in sorted(
        (n for n in nodes if exits[n] and n not in placed), key=lambda n: min(exits[n])
    ):
        es = sorted(exits[n])
        candidates = [float(e) for e in es]
        if len(es) == 2 and (es[1] - es[0]) % 6 != 3:
            mean = (
                es[0] + ((es[1] - es[0]) % 6) / 2
                if (es[1] - es[0]) % 6 < 3
                else es[1] + ((es[0] - es[1]) % 6) / 2
            )
            candidates.append(mean % 6)
        best = min(candidates, key=lambda d: (round(crowd(d), 6), candidates.index(d)))
        directions.append(best)
        placed[n] = _toward(orientation, best)

    heading = {n: _unit((-p[0], -p[1])) for n, p in placed.items()}
    pending = [n for n in nodes if n not in placed]
    while pending:
        n = next((n for n in pending if any(m in placed for m in links[n])), pending[0])
        source = next((m for m in links[n] if m in placed), None)
        if source is None:
            placed[n], heading[n] = (0.0, 0.0), (0.0, 0.0)
        else:
            p, h = placed[source], heading[source]
            q = (p[0] + STOP_OFFSET * h[0], p[1] + STOP_OFFSET * h[1])
            if math.hypot(*q) > STOP_OFFSET:
                q = (q[0] * STOP_OFFSET / math.hypot(*q), q[1] * STOP_OFFSET / math.hypot(*q))
            placed[n], heading[n] = q, h
        pending.remove(n)
    return placed


def _toward(orientation: Orientation, direction: float) -> Pt:
    dx, dy = edge_dir(orientation, direction)
    return STOP_OFFSET * dx, STOP_OFFSET * dy


def _revenues(lay: Layout, art: Art) -> None:
    """One revenue for the tile when all its stations pay the same, else one per station."""
    values: dict[tuple[str, int], int] = {
        ("city", i): rev for i, (rev, _slots) in enumerate(art.cities)
    }
    values.update({("town", i): rev for i, rev in enumerate(art.towns)})
    shown = {v for v in values.values() if v > 0}
    if len(shown) == 1:
        lay.revenues.append((None, shown.pop()))
        return
    for stop in lay.stops:
        rev = values.get((stop.kind, stop.index), 0)
        if rev > 0:
            lay.revenues.append((stop.pos, rev))
