"""The String Railway table in play: stations and rails on the area, and the rules that check a
station placement or a rail and score it. Nothing here knows whose turn it is (see game.py)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely import STRtree
from shapely.geometry import LineString, Polygon
from shapely.ops import nearest_points, unary_union

from engine.errors import IllegalAction, InvalidAction
from engine.strings.geometry import (
    Point,
    Square,
    bounds,
    boxes_apart,
    comes_near,
    contacts,
    crossings,
    fmt,
    length,
    self_contact,
    swept,
)
from engine.strings.setup import Sizes
from engine.strings.stations import OWNER_EFFECT, TYPES, value

RAIL_KINDS = ("short", "long")
TOUCH = 1e-9  # a station this close to a string or station touches it (cm)
ROOM_MARGIN = 1e-6  # how far inside the free region a listed station centre keeps (cm)


@dataclass
class Station:
    label: str
    kind: str
    square: Square
    owner: int | None  # company index (bases, cities, transits)
    in_mountains: bool
    served: set[int] = field(default_factory=set)  # companies whose rails reach it

    @property
    def centre(self) -> Point:
        return self.square.centre

    @property
    def name(self) -> str:
        return f"{TYPES[self.kind].display} {self.label}"


@dataclass
class Company:
    index: int
    player: Any  # the player id that acts for it
    name: str
    base: str
    vp: int = 3
    rails: dict[str, int] = field(default_factory=dict)
    reached: set[str] = field(default_factory=set)


@dataclass
class Rail:
    CHECKPOINT_SKIP = True  # never changed once laid: a checkpoint need not copy it

    company: int
    kind: str
    stops: list[Any]
    points: list[Point]
    visits: list[str]
    crossings: list[Point]


@dataclass(frozen=True)
class Change:
    """One line of a rail's score: who gains (or loses) what, and why."""

    company: int
    vp: int
    why: str


@dataclass
class RailPlan:
    """A checked rail and everything laying it would change; `Board.lay` does it. Complete
    when `plan_rail` returns it, and never changed after (a checkpoint need not copy it)."""

    CHECKPOINT_SKIP = True

    company: int
    kind: str
    stops: list[Any]
    points: list[Point]
    length: float
    visits: list[str]
    crossings: list[tuple[Point, str, int]]  # (where, what is crossed, VP cost)
    free_crossings: list[Point]
    changes: list[Change]

    def gain(self, company: int) -> int:
        return sum(c.vp for c in self.changes if c.company == company)


class Board:
    # the shapes of the table never change once play starts (a new roll builds a new Board)
    CHECKPOINT_SHARED = (
        "area",
        "area_points",
        "area_ring",
        "river",
        "mountain",
        "mountain_shape",
        "river_line",
        "mountain_ring",
        "sizes",
        "fixed_blocked",
    )

    def __init__(
        self,
        area: Sequence[Point],
        river: Sequence[Point],
        mountain: Sequence[Point],
        sizes: Sizes,
        expert: bool,
    ) -> None:
        # points as tuples (options and saved games give lists)
        self.area_points = [(x, y) for x, y in area]
        self.area = Polygon(self.area_points)
        shapely.prepare(self.area)  # asked about every station and rail
        self.area_ring = list(self.area.exterior.coords)
        self.river = [(x, y) for x, y in river]
        self.mountain = [(x, y) for x, y in mountain] + [(mountain[0][0], mountain[0][1])]
        self.mountain_shape = Polygon(self.mountain)
        self.river_line = LineString(self.river)
        self.mountain_ring = LineString(self.mountain)
        self.sizes = sizes
        self.expert = expert
        # the area's edge, river and mountain grown by the station square (see `_blocked`)
        self.fixed_blocked = swept([self.area_ring, self.river, self.mountain], sizes.station / 2)
        self.stations: dict[str, Station] = {}
        self.rails: list[Rail] = []
        self.drawn_count = 0

    # -- stations ------------------------------------------------------------------------------
    def add_base(self, label: str, square: Square, company: int) -> Station:
        st = Station(label, "base", square, company, False, {company})
        self.stations[label] = st
        return st

    def check_station(self, kind: str, x: float, y: float) -> Square:
        """Where a drawn station may go: wholly inside the area, touching no station and no
        string (the area's edge, river, mountain, rails)."""
        for v in (x, y):
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
                raise InvalidAction("a station's x and y are numbers (its centre)")
        sq = Square.centred(float(x), float(y), self.sizes.station)
        name = f"the {TYPES[kind].display} station at {fmt((x, y))}"
        # the common case without shapely objects: centre inside, no string near the square
        inside = shapely.contains_xy(self.area, sq.centre[0], sq.centre[1]) and not comes_near(
            self.area_ring, sq, 2 * TOUCH
        )
        strings = (
            ("the edge of the play area", self.area_ring, self.area.exterior),
            ("the river", self.river, self.river_line),
            ("the mountain", self.mountain, self.mountain_ring),
        )
        if not inside or any(comes_near(pts, sq, 2 * TOUCH) for _, pts, _ in strings[1:]):
            shape = sq.shape()
            if not self.area.contains(shape):
                raise IllegalAction(
                    f"{name} would stick out of the play area; stations go wholly inside it"
                )
            for what, _, geom in strings:
                if geom.distance(shape) <= TOUCH:
                    raise IllegalAction(
                        f"{name} would touch {what} near "
                        f"{self._near(geom, shape)}; stations may touch no string"
                    )
        for st in self.stations.values():
            if st.square.gap(sq) <= TOUCH:
                raise IllegalAction(
                    f"{name} would touch {st.name}; stations may touch no other station"
                )
        for n, rail in enumerate(self.rails, 1):
            if not comes_near(rail.points, sq, 2 * TOUCH):
                continue
            geom, shape = LineString(rail.points), sq.shape()
            if geom.distance(shape) <= TOUCH:
                raise IllegalAction(
                    f"{name} would touch rail #{n} near {self._near(geom, shape)}; "
                    "stations may touch no string"
                )
        return sq

    def _blocked(self) -> list[Any]:
        """Every string and station grown by the station square: the centres where a drawn
        station would touch it (the area's edge included)."""
        h = self.sizes.station / 2
        squares = [st.square.grown(h) for st in self.stations.values()]
        grown = shapely.box(
            [q.x0 for q in squares],
            [q.y0 for q in squares],
            [q.x1 for q in squares],
            [q.y1 for q in squares],
        )
        return self.fixed_blocked + list(grown) + swept([r.points for r in self.rails], h)

    def room(self) -> Any:
        """The centres where a drawn station fits now: the area minus `_blocked`, shrunk by
        ROOM_MARGIN so that each of its points passes `check_station`. Empty: it fits nowhere."""
        return self.area.difference(unary_union(self._blocked())).buffer(-ROOM_MARGIN)

    def fits_at(self, centres: Sequence[Point]) -> list[bool]:
        """For each centre, whether a drawn station fits there with ROOM_MARGIN to spare (all
        at once: the suggestions test every grid point)."""
        if not centres:
            return []
        xs, ys = np.array([c[0] for c in centres]), np.array([c[1] for c in centres])
        blocked = self._blocked()
        m = ROOM_MARGIN
        # pairs whose bounding boxes come within the margin, then their exact distance
        which, what = STRtree(blocked).query(shapely.box(xs - m, ys - m, xs + m, ys + m))
        dist = shapely.distance(
            shapely.points(xs[which], ys[which]), np.array(blocked, dtype=object)[what]
        )
        near = np.zeros(len(centres), dtype=bool)
        near[which[dist <= m]] = True
        return list(shapely.contains_xy(self.area, xs, ys) & ~near)

    @staticmethod
    def _near(geom: Any, shape: Any) -> str:
        """The middle of where a string meets a square."""
        inter = geom.intersection(shape)
        p = inter.centroid if not inter.is_empty else nearest_points(geom, shape)[0]
        return fmt((p.x, p.y))

    def add_station(self, kind: str, square: Square, owner: int | None) -> Station:
        self.drawn_count += 1
        label = f"S{self.drawn_count}"
        inside = self.mountain_shape.contains(square.shape())
        st = Station(label, kind, square, owner if TYPES[kind].owned else None, inside)
        self.stations[label] = st
        return st

    # -- rails ---------------------------------------------------------------------------------
    def resolve(self, stop: Any) -> tuple[Point, str | None]:
        """A stop as (point, station label or None for a free point)."""
        if isinstance(stop, str):
            label = stop.strip().upper()
            if label not in self.stations:
                raise InvalidAction(
                    f"there is no station {stop!r}; stations: {', '.join(self.stations)}"
                )
            return self.stations[label].centre, label
        if (
            isinstance(stop, (list, tuple))
            and len(stop) == 2
            and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                for v in stop
            )
        ):
            return (float(stop[0]), float(stop[1])), None
        raise InvalidAction(
            f"a rail's stop is a station label (S3, B1) or a point [x, y], not {stop!r}"
        )

    def plan_rail(
        self, companies: Sequence[Company], who: int, kind: str, stops: Sequence[Any]
    ) -> RailPlan:
        """Check a rail for company `who` and work out its score, changing nothing."""
        company = companies[who]
        if kind not in RAIL_KINDS:
            raise InvalidAction(f"a rail is 'short' or 'long', not {kind!r}")
        if company.rails.get(kind, 0) <= 0:
            raise IllegalAction(f"{company.name} has no {kind} rail left")
        if not isinstance(stops, (list, tuple)) or len(stops) < 2:
            raise InvalidAction("a rail's path lists at least two stops: the stations at its ends")
        resolved = [self.resolve(s) for s in stops]
        for verb, (pt, label) in (("starts", resolved[0]), ("ends", resolved[-1])):
            if label is None:
                raise IllegalAction(
                    f"the rail {verb} at the free point {fmt(pt)}; both ends of a "
                    "rail lie on stations"
                )
        points = [pt for pt, _ in resolved]
        for i, (a, b) in enumerate(zip(points, points[1:]), 1):
            if math.dist(a, b) < 1e-9:
                raise InvalidAction(
                    f"stops {i} and {i + 1} of the path are the same point {fmt(a)}"
                )
        limit = self.sizes.long if kind == "long" else self.sizes.short
        run = length(points)
        if run > limit + 1e-9:
            raise IllegalAction(
                f"the path is {run:.1f} long; a {kind} rail is {limit:g} (it may "
                "lie slack, never stretched)"
            )
        geom = LineString(points)
        if not self.area.covers(geom):
            out = geom.difference(self.area).representative_point()
            raise IllegalAction(f"the rail leaves the play area near {fmt((out.x, out.y))}")
        spot = self_contact(points)
        if spot is not None:
            raise IllegalAction(f"the rail crosses itself near {fmt(spot)}")
        visits = self._visits(points, stops)
        start, end = resolved[0][1], resolved[-1][1]
        assert start is not None and end is not None  # both ends were checked to be stations
        if start not in company.reached and end not in company.reached:
            reach = ", ".join(sorted(company.reached, key=_label_key))
            raise IllegalAction(
                f"one end of the rail must be on {company.name}'s base or a station "
                f"its rails reach ({reach}); {start} and {end} are not"
            )
        for label in visits:
            st = self.stations[label]
            limit_n = TYPES[st.kind].limit
            if who not in st.served and len(st.served) >= limit_n:
                served = f"{len(st.served)} compan{'y' if len(st.served) == 1 else 'ies'}"
                raise IllegalAction(
                    f"{st.name} already serves {served}, its limit; the rail may not reach it"
                )
        plan = RailPlan(who, kind, list(stops), points, run, visits, [], [], [])
        self._score(companies, plan)
        return plan

    def _visits(self, points: list[Point], stops: Sequence[Any]) -> list[str]:
        """Stations the rail reaches, in path order; once each, Terminals only at an end."""
        total = length(points)
        box = bounds(points)
        found = []
        for st in self.stations.values():
            sq = st.square
            if boxes_apart(box, (sq.x0, sq.y0, sq.x1, sq.y1)):
                continue
            spans = contacts(points, sq)
            if not spans:
                continue
            if len(spans) > 1:
                raise IllegalAction(
                    f"the rail reaches {st.name} twice (again near "
                    f"{fmt(_at(points, spans[1][0]))}); one rail may visit a "
                    "station only once"
                )
            lo, hi = spans[0]
            if st.kind == "terminal" and lo > 1e-7 and hi < total - 1e-7:
                raise IllegalAction(
                    f"the rail passes through {st.name} near "
                    f"{fmt(_at(points, lo))}; rails may only start or end at a "
                    "Terminal"
                )
            found.append((lo, st.label))
        return [label for _, label in sorted(found)]

    def _score(self, companies: Sequence[Company], plan: RailPlan) -> None:
        who = plan.company
        company = companies[who]
        for label in plan.visits:
            st = self.stations[label]
            if st.kind == "junction":
                plan.changes.append(Change(who, 1, f"{st.name} (every rail)"))
            elif label not in company.reached:
                vp = value(st.kind, st.owner == who, st.in_mountains)
                where = " in the mountains" if st.kind == "scenic" and st.in_mountains else ""
                plan.changes.append(Change(who, vp, f"{st.name}{where}"))
            if st.owner is not None and st.owner != who:
                plan.changes.append(
                    Change(
                        st.owner, OWNER_EFFECT[st.kind], f"{company.name} reached their {st.name}"
                    )
                )
        strings: list[tuple[list[Point], bool, str, int]] = [
            (self.river, False, "the river", 1),
            (self.mountain, True, "the mountain", 1),
        ]
        for rail in self.rails:
            own = rail.company == who
            cost = 2 if self.expert and not own else 1
            whose = "its own" if own else f"{companies[rail.company].name}'s"
            strings.append((rail.points, False, f"{whose} {rail.kind} rail", cost))
        squares = [st.square for st in self.stations.values()]
        box = bounds(plan.points)
        for pts, closed, what, cost in strings:
            if boxes_apart(box, bounds(pts)):
                continue
            for p in crossings(plan.points, pts, closed):
                if any(sq.holds(p) for sq in squares):
                    plan.free_crossings.append(p)
                else:
                    plan.crossings.append((p, what, cost))
        for p, what, cost in sorted(plan.crossings, key=lambda c: _along(plan.points, c[0])):
            plan.changes.append(Change(who, -cost, f"crossing {what} at {fmt(p)}"))

    def lay(self, companies: Sequence[Company], plan: RailPlan) -> Rail:
        company = companies[plan.company]
        for change in plan.changes:
            companies[change.company].vp += change.vp
        for label in plan.visits:
            self.stations[label].served.add(plan.company)
            company.reached.add(label)
        company.rails[plan.kind] -= 1
        rail = Rail(
            plan.company,
            plan.kind,
            plan.stops,
            plan.points,
            plan.visits,
            [p for p, _, _ in plan.crossings] + plan.free_crossings,
        )
        self.rails.append(rail)
        return rail


def _at(points: Sequence[Point], s: float) -> Point:
    """The point at arc length s along a polyline."""
    for a, b in zip(points, points[1:]):
        seg = math.dist(a, b)
        if s <= seg + 1e-12:
            t = s / seg if seg else 0.0
            return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
        s -= seg
    return points[-1]


def _along(points: Sequence[Point], p: Point) -> float:
    return LineString(points).project(LineString([p, p]).centroid)


def _label_key(label: str) -> tuple[str, int]:
    return (label[0], int(label[1:]))
