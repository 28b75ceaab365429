"""1860 routes: a+b trains, halts that pay a subsidy instead of revenue, passing one full station,
no hex entered twice, every route touching another and one of them the home station; leased
trains of insolvent companies earn 40 + 20 per stop. Tracks are resolved by the core's reader."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.eighteen.board.graph import Node, TrackNetwork
from engine.eighteen.board.routes import Run, resolve_route
from engine.eighteen.board.tiles import NodeKind
from engine.errors import IllegalAction, InvalidAction

LEASE_BASE = 40
LEASE_PER_STOP = 20


@dataclass(frozen=True)
class RouteRules:
    """What changes how stops are counted: the options and the game's stage."""

    no_skip_towns: bool = False  # 1st edition: every town passed is a stop
    re_enter_hexes: bool = False
    ignore_halts: bool = False  # from the first SR after the Southern Railway formed
    nationalization: bool = False  # British Rail: first number only, all towns
    halt_subsidy: int = 10
    insolvency: str = "new"  # leased trains: "new" (2nd ed.), "original" (1st), "simplified"

    def leased_counts_first_number_only(self, leased: bool) -> bool:
        return leased and self.insolvency != "original"

    def leased_revenue(self, big: int, stops: int, normal: int) -> int:
        """A leased train's revenue: 40 + 20 a stop (2nd edition), half the normal revenue (1st
        edition, rounded down as 18xx.games rounds it), or 40 + 20 × its first number (simplified)."""
        if self.insolvency == "original":
            return normal // 2
        if self.insolvency == "simplified":
            return LEASE_BASE + LEASE_PER_STOP * big
        return LEASE_BASE + LEASE_PER_STOP * stops

    @property
    def all_towns(self) -> bool:
        return self.nationalization or self.no_skip_towns


@dataclass(frozen=True)
class RunResult:
    revenue: int
    subsidy: int
    stops: tuple[int, ...]
    halts: int | None


def _is_city(node: Node) -> bool:
    return node.kind in (NodeKind.CITY, NodeKind.OFFBOARD)


def full_for(node: Node, corp: str, flipped: set[str]) -> bool:
    """A city all of whose circles hold live tokens of other companies (a bankrupt company's
    flipped base never makes a city full)."""
    if (
        node.kind is not NodeKind.CITY
        or corp in node.tokens
        or None in node.tokens
        or not node.tokens
    ):
        return False
    return not any(t in flipped for t in node.tokens)


def choose_stops(
    network: TrackNetwork,
    run: Run,
    big: int,
    small: int,
    requested: Any,
    rules: RouteRules,
    leased: bool,
) -> tuple[list[int], int | None]:
    """Which visited centres count as stops (18xx.games `compute_stops`), and the halts kept."""
    leased = rules.leased_counts_first_number_only(leased)
    visits = [network.nodes[n] for n in run.nodes]
    stops = [n.id for n in visits if _is_city(n)]
    second = big if (leased or rules.nationalization) else big + small
    allowance = second - len(stops)
    halts = [n.id for n in visits if n.kind is NodeKind.HALT]
    towns = [n for n in visits if n.kind is NodeKind.TOWN]
    halt_max = 0
    if halts and not rules.ignore_halts:
        halt_max = allowance - (len(towns) if rules.all_towns else 0)
        halt_max = max(0, min(len(halts), halt_max))
    asked: int | None = (
        requested if isinstance(requested, int) and not isinstance(requested, bool) else None
    )
    if (
        not halts
        or rules.ignore_halts
        or leased
        or halt_max == 0
        or (asked is not None and asked > halt_max)
    ):
        asked = None
    taken = min(len(halts), asked or 0)
    stops += halts[:taken]
    allowance -= taken
    count = len(towns) if rules.no_skip_towns else max(0, min(allowance, len(towns)))
    best = sorted(towns, key=lambda t: -t.revenue.maximum)[:count]
    stops += [t.id for t in best]
    allowance -= count
    if asked is None and halts and allowance > 0 and not rules.ignore_halts:
        taken = min(len(halts), allowance)
        stops += halts[:taken]
    kept = taken if halts and not leased and not rules.ignore_halts else None
    return stops, kept


def check_run(
    network: TrackNetwork,
    corp: str,
    run: Run,
    big: int,
    small: int,
    rules: RouteRules,
    leased: bool,
    flipped: set[str],
) -> Node | None:
    """Raise if the run breaks a rule; return the full station it passes through, if any."""
    label = f"train {run.train}"
    visits = [network.nodes[n] for n in run.nodes]
    if len(visits) < 2:
        raise IllegalAction(f"{label}: a route needs at least two stops")
    if len(set(run.nodes)) != len(run.nodes):
        raise IllegalAction(f"{label}: the route visits a station twice")
    if visits[0].kind is NodeKind.HALT or visits[-1].kind is NodeKind.HALT:
        raise IllegalAction(f"{label}: a route cannot begin or end at a halt")
    for node in visits[1:-1]:
        if node.kind is NodeKind.OFFBOARD:
            raise IllegalAction(f"{label}: Ryde Pier can only end a route")
    if not any(corp in n.tokens for n in visits):
        raise IllegalAction(f"{label}: the route must include a station of {corp}")
    cities = sum(1 for n in visits if _is_city(n))
    if cities > big:
        raise IllegalAction(f"{label}: {cities} big stations are more than the train's {big}")
    if rules.no_skip_towns:
        towns = sum(1 for n in visits if n.kind is NodeKind.TOWN)
        first_only = rules.leased_counts_first_number_only(leased) or rules.nationalization
        second = big if first_only else big + small
        if towns > max(second - cities, 0):
            raise IllegalAction(f"{label}: the route passes more towns than the train may stop at")
    if not rules.re_enter_hexes:
        seq: list[str] = []
        for i, chain in enumerate(run.chains):
            hexes = chain.hexes if chain.a == run.nodes[i] else chain.hexes[::-1]
            for h in hexes:
                if not seq or seq[-1] != h:
                    seq.append(h)
        if len(seq) != len(set(seq)):
            raise IllegalAction(f"{label}: a route may not enter a hex twice")
    blocked = [n for n in visits[1:-1] if full_for(n, corp, flipped)]
    if len(blocked) > 1:
        raise IllegalAction(f"{label}: a route can pass only one full station")
    return blocked[0] if blocked else None


def track_bits(network: TrackNetwork, chain: Any) -> int:
    """The track a chain uses, as bits: its hex sides, and its paths that join two stations inside
    one hex (which cross no side, yet no two trains may share them either)."""
    bits = chain.sides
    for pid in chain.paths:
        if len(network.paths[pid].nodes) == 2:
            bits |= 1 << (network.side_count + pid)
    return bits


def evaluate(
    network: TrackNetwork,
    corp: str,
    routes: Sequence[dict[str, Any]],
    trains: dict[str, tuple[int, int, bool]],
    home: tuple[str, int] | None,
    phase_color: str,
    rules: RouteRules,
    flipped: set[str],
) -> list[RunResult]:
    """Check a company's run_routes and value each route. `trains`: id -> (big, small, leased)."""
    runs = [resolve_route(network, r) for r in routes]
    results: list[RunResult] = []
    used_sides = 0
    passers = 0
    seen: set[str] = set()
    for route, run in zip(routes, runs):
        if run.train not in trains:
            raise InvalidAction(f"{corp} has no train {run.train}")
        if run.train in seen:
            raise IllegalAction(f"train {run.train} can run only once")
        seen.add(run.train)
        big, small, leased = trains[run.train]
        if check_run(network, corp, run, big, small, rules, leased, flipped) is not None:
            passers += 1
        for chain in run.chains:
            bits = track_bits(network, chain)
            if bits & used_sides:
                raise IllegalAction(
                    f"train {run.train}: track near {', '.join(sorted(set(chain.hexes)))} "
                    f"is already used by {corp}'s trains"
                )
            used_sides |= bits
        stops, kept = choose_stops(network, run, big, small, route.get("halts"), rules, leased)
        revenue = sum(network.nodes[n].revenue.value(phase_color) for n in stops)
        subsidy = rules.halt_subsidy * sum(
            1 for n in stops if network.nodes[n].kind is NodeKind.HALT
        )
        if leased:
            revenue = rules.leased_revenue(big, len(stops), revenue)
            if rules.leased_counts_first_number_only(True):
                subsidy = 0
        results.append(RunResult(revenue, subsidy, tuple(stops), kept))
    if passers > 1:
        raise IllegalAction("only one train may pass through a full station")
    if runs:
        home_node = network.node_at.get(home) if home else None
        if home_node is None or not any(home_node in run.nodes for run in runs):
            raise IllegalAction("at least one route must include the home station")
        _check_intersection(runs)
    return results


def _check_intersection(runs: Sequence[Run]) -> None:
    """The routes must form one connected set, touching at shared stations."""
    reached = {0}
    frontier = [0]
    while frontier:
        i = frontier.pop()
        for j, other in enumerate(runs):
            if j not in reached and set(runs[i].nodes) & set(other.nodes):
                reached.add(j)
                frontier.append(j)
    if len(reached) != len(runs):
        raise IllegalAction("all routes must intersect one another")
