"""The hint: a company's best rail lays now. Every path that runs straight from station to
station is tried; then the best ones that pay for crossings try a bend (one free waypoint
beside a leg) around each crossing. Deterministic and bounded by a node count, never by the
clock."""

from __future__ import annotations

import math

from engine.errors import GameError
from engine.strings.board import RailPlan
from engine.strings.host import StringRailwayHost

NODE_BUDGET = 6000
DETOURS = 12  # how many of the best paths try bends around their crossings
BENDS = (4.0, 8.0, 12.0)  # how far beside a leg's crossing a bend may go (cm)


def best_rails(
    game: StringRailwayHost, count: int = 5, budget: int = NODE_BUDGET
) -> list[RailPlan]:
    """The `count` best legal rails for the company to move (by its own VP gain, then shorter),
    over station-to-station paths starting at a station its rails reach."""
    if game.finished or game.pending:
        return []
    company = game.current
    board = game.board
    centres = {label: st.centre for label, st in board.stations.items()}
    found: dict[tuple[str, tuple[str, ...]], RailPlan] = {}
    nodes = 0
    kinds = [k for k in ("long", "short") if company.rails[k] > 0]
    if not kinds:
        return []
    reach = board.sizes.long if "long" in kinds else board.sizes.short

    def extend(path: list[str], run: float) -> None:
        nonlocal nodes
        here = centres[path[-1]]
        nexts = sorted(
            (math.dist(here, c), label)
            for label, c in centres.items()
            if label not in path and run + math.dist(here, c) <= reach + 1e-9
        )
        for gap, label in nexts:
            if nodes >= budget:
                return
            nodes += 1
            candidate = path + [label]
            kind = next(
                (
                    k
                    for k in reversed(kinds)
                    if run + gap <= (board.sizes.long if k == "long" else board.sizes.short) + 1e-9
                ),
                None,
            )
            if kind is None:
                continue
            try:
                plan = board.plan_rail(game.companies, company.index, kind, candidate)
            except GameError:
                continue  # every longer path through this one breaks the same rule
            found.setdefault((kind, tuple(candidate)), plan)
            if board.stations[label].kind != "terminal":
                extend(candidate, run + gap)

    for start in sorted(company.reached, key=lambda s: (s[0], int(s[1:]))):
        extend([start], 0.0)
    for key, plan in list(_by_rank(found.values(), company.index))[:DETOURS]:
        better = _bend(game, plan)
        if better is not None:
            found[key] = better
    ranked = [plan for _, plan in _by_rank(found.values(), company.index)]
    out, seen = [], set()
    for plan in ranked:
        key = frozenset(plan.visits)
        if key in seen:
            continue
        seen.add(key)
        out.append(plan)
        if len(out) == count:
            break
    return out


def _by_rank(plans, who: int):
    ranked = sorted(
        plans, key=lambda p: (-p.gain(who), p.kind == "long", p.length, [str(s) for s in p.stops])
    )
    return [((p.kind, tuple(str(s) for s in p.stops)), p) for p in ranked]


def _bend(game: StringRailwayHost, plan: RailPlan) -> RailPlan | None:
    """The plan with bends around its paid crossings, where one helps (None: no better)."""
    best = plan
    for _ in range(len(plan.crossings)):
        improved = None
        for where, _, _ in best.crossings:
            leg = _leg_of(best, where)
            if leg is None:
                continue
            a, b = best.points[leg], best.points[leg + 1]
            dx, dy = b[0] - a[0], b[1] - a[1]
            norm = math.hypot(dx, dy)
            for side in (1, -1):
                for off in BENDS:
                    bend = [
                        round(where[0] - side * dy / norm * off, 1),
                        round(where[1] + side * dx / norm * off, 1),
                    ]
                    stops = best.stops[: leg + 1] + [bend] + best.stops[leg + 1 :]
                    for kind in (best.kind, "long"):
                        if game.current.rails[kind] <= 0:
                            continue
                        try:
                            cand = game.board.plan_rail(game.companies, plan.company, kind, stops)
                        except GameError:
                            continue
                        if cand.gain(plan.company) > (improved or best).gain(plan.company):
                            improved = cand
                        break
        if improved is None:
            break
        best = improved
    return best if best is not plan else None


def _leg_of(plan: RailPlan, p: tuple[float, float]) -> int | None:
    """The index of the leg of the rail that holds point p."""
    for i, (a, b) in enumerate(zip(plan.points, plan.points[1:])):
        cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
        if (
            abs(cross) <= 1e-6 * max(1.0, math.dist(a, b))
            and min(a[0], b[0]) - 1e-6 <= p[0] <= max(a[0], b[0]) + 1e-6
            and min(a[1], b[1]) - 1e-6 <= p[1] <= max(a[1], b[1]) + 1e-6
        ):
            return i
    return None
