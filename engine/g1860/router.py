"""The best routes for an 1860 company: exact search over every legal route, then branch and
bound over trains. Differs from the core finder where 1860 does: a+b trains whose towns and halts
may be skipped (the best ones are kept), halts paying a subsidy, no hex entered twice, one full
station passed per company, every route touching another and one of them the home station."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain
from typing import Any

from engine.eighteen.board.graph import Chain, TrackNetwork
from engine.g1860.route_index import RouteIndex
from engine.g1860.routes import RouteRules
from engine.g1860.walks import Stops, Walk, Walks, overlaps, read_stops
from engine.g1860.walks import walks as all_walks


@dataclass(frozen=True)
class Candidate:
    value: int  # revenue × 1000 + subsidy: revenue first, subsidy breaks ties
    revenue: int
    subsidy: int
    sides: int
    nodes: tuple[int, ...]
    chains: tuple[Chain, ...]
    passes_full: bool
    halts: int | None
    node_bits: int = 0  # the stations it visits, as bits: for touching and home checks


Worth = tuple[int, int, int, "int | None"]  # value, revenue, subsidy, halts counted
# a train kind's walks best first, as runs alike in worth and length; each run's value; the worth
# of each kind of stops (None: the train may not run them)
Ranked = tuple[list[list[int]], list[int], dict[int, "Worth | None"]]


def _ranked(
    groups: dict[int, list[int]],
    stops: dict[int, Stops],
    big: int,
    small: int,
    leased: bool,
    rules: RouteRules,
) -> Ranked:
    """The walks this train may run, best first (then shortest, then in the order found): see
    `Ranked`. `groups`: the walks of each kind of stops, in the order found (walks alike in
    stops are worth the same to every train, so each kind is valued once, and no walk is
    compared with another: the runs are put in order, not the walks)."""
    first_only = rules.leased_counts_first_number_only(leased)
    second = big if (first_only or rules.nationalization) else big + small
    worths = {key: _worth(s, big, second, leased, first_only, rules) for key, s in stops.items()}
    levels: dict[tuple[int, int], list[list[int]]] = {}
    for key, group in groups.items():
        worth = worths[key]
        if worth is not None:
            n_big, _, towns, halts = stops[key]
            levels.setdefault((-worth[0], n_big + len(towns) + halts), []).append(group)
    runs = []
    for level in sorted(levels):
        alike = levels[level]
        runs.append(alike[0] if len(alike) == 1 else sorted(chain.from_iterable(alike)))
    return runs, [-level[0] for level in sorted(levels)], worths


def _worth(
    stops: Stops, big: int, second: int, leased: bool, first_only: bool, rules: RouteRules
) -> Worth | None:
    """(value, revenue, subsidy, halts counted) of a walk for this train; None if it may not run it."""
    n_big, big_revenue, towns, halts = stops
    if n_big > big:
        return None
    allowance = max(second - n_big, 0)
    if rules.no_skip_towns and len(towns) > allowance:
        return None
    n_towns = len(towns) if rules.no_skip_towns else min(allowance, len(towns))
    n_halts = 0 if rules.ignore_halts else min(halts, allowance - n_towns)
    revenue, subsidy = big_revenue + sum(towns[:n_towns]), rules.halt_subsidy * n_halts
    if leased:
        revenue = rules.leased_revenue(big, n_big + n_towns + n_halts, revenue)
        subsidy = 0 if first_only else subsidy
    kept = n_halts if halts and not first_only and not rules.ignore_halts else None
    return revenue * 1000 + subsidy, revenue, subsidy, kept


def _candidate(w: Walk, worth: Worth) -> Candidate:
    value, revenue, subsidy, halts = worth
    return Candidate(
        value, revenue, subsidy, w.sides, w.nodes, w.chains, w.passes_full, halts, w.node_bits
    )


# what the search reads of a route: its stations and its chains as bits, whether it passes a
# full station
Seen = tuple[int, int, bool]


class _Kind:
    """One train kind's routes, valued and indexed."""

    def __init__(
        self,
        found: Walks,
        ranked: Ranked,
        overlap: dict[int, int],
        home: int,
        arm_links: list[tuple[int, int]],
    ) -> None:
        runs, run_values, self.worth_of = ranked
        self.found = found
        self.order = order = list(chain.from_iterable(runs))
        values = list(chain.from_iterable([v] * len(run) for run, v in zip(runs, run_values)))
        rows = found.rows

        def rows_of(lo: int, hi: int) -> Iterator[int]:
            return map(rows.__getitem__, order[lo:hi])

        self.index = RouteIndex(values, overlap, rows_of, found.width, arm_links)

    def arms(self, at: int) -> tuple[int, ...]:
        return self.found.arms_of(self.order[at])

    def seen(self, at: int) -> Seen:
        return self.found.seen(self.order[at])

    def walk(self, at: int) -> Walk:
        return self.found.walk(self.order[at])

    def worth(self, at: int) -> Worth:
        worth = self.worth_of[self.found.stops[self.order[at]]]
        assert worth is not None  # ranked walks are the ones the train may run
        return worth


def best_runs(
    network: TrackNetwork,
    corp: str,
    trains: dict[str, tuple[int, int, bool]],
    home: int | None,
    phase_color: str,
    rules: RouteRules,
    flipped: set[str],
) -> tuple[int, int, list[tuple[str, Candidate]]]:
    """(revenue, subsidy, [(train, route)]) of the best legal set of routes for these trains."""
    if not trains or home is None:
        return 0, 0, []
    order = sorted(trains, key=lambda t: (-trains[t][0], -trains[t][1], t))
    # one train runs a walk through home (walks through later stations never pass it) and needs
    # no index; several are searched over rows of bits
    found = all_walks(
        network,
        corp,
        max(b for b, _, _ in trains.values()),
        rules,
        flipped,
        phase_color,
        last=home if len(trains) == 1 else None,
        home=home if len(trains) > 1 else None,
    )
    groups = found.by_stops()
    stops = {key: read_stops(key, found.town_sets) for key in groups}
    specs = list(dict.fromkeys(trains[t] for t in order))
    if len(order) == 1:
        return _alone(order[0], found, _ranked(groups, stops, *specs[0], rules), home)
    home_bit = 1 << home
    same_as_previous = [
        i > 0 and trains[order[i]] == trains[order[i - 1]] for i in range(len(order))
    ]
    overlap = overlaps(network, found.chains_used())
    links = found.arm_links()
    kinds = [
        _Kind(found, _ranked(groups, stops, *spec, rules), overlap, home, links) for spec in specs
    ]
    kind_of = [specs.index(trains[t]) for t in order]
    best: dict[str, Any] = {"value": 0, "chosen": ()}
    _search(order, kind_of, same_as_previous, kinds, home_bit, best)
    chosen = sorted(
        (
            (train, _candidate(kinds[k].walk(at), kinds[k].worth(at)))
            for train, k, at in best["chosen"]
        ),
        key=lambda tc: list(trains).index(tc[0]),
    )
    return sum(c.revenue for _, c in chosen), sum(c.subsidy for _, c in chosen), chosen


def _alone(
    train: str,
    found: Walks,
    ranked: Ranked,
    home: int,
) -> tuple[int, int, list[tuple[str, Candidate]]]:
    """One train: the first walk of its order that visits home, if it is worth anything."""
    runs, values, worths = ranked
    for run, value in zip(runs, values):
        if value <= 0:
            break
        w = next((w for w in run if found.visits(w, home)), None)
        if w is not None:
            worth = worths[found.stops[w]]
            assert worth is not None
            route = _candidate(found.walk(w), worth)
            return route.revenue, route.subsidy, [(train, route)]
    return 0, 0, []


def _search(
    order: list[str],
    kind_of: list[int],
    same_as_previous: list[bool],
    kinds: list[_Kind],
    home_bit: int,
    best: dict[str, Any],
) -> None:
    """Branch and bound over the trains (best first), improving `best` in place; a chosen set is
    a tuple of (train, kind, place in that kind's list)."""
    last = len(order) - 1
    alike_after = [0] * len(order)  # how many trains right after each are of its kind
    for i in range(len(order) - 2, -1, -1):
        alike_after[i] = alike_after[i + 1] + 1 if same_as_previous[i + 1] else 0

    def valid(walks: list[Seen]) -> bool:
        if sum(1 for w in walks if w[2]) > 1:
            return False
        if not any(w[0] & home_bit for w in walks):
            return False
        reached = walks[0][0]
        left = [w[0] for w in walks[1:]]
        while left:
            touching = [b for b in left if b & reached]
            if not touching:
                return False
            for b in touching:
                reached |= b
                left.remove(b)
        return True

    def search(
        i: int,
        used: int,
        value: int,
        chosen: tuple[tuple[str, int, int], ...],
        walks: list[Seen],
        arms: tuple[int, ...],
        start: int,
    ) -> None:
        """`arms`: the chosen routes' arms; `start`: the first place a train of the previous
        one's kind may take."""
        if value > best["value"] and chosen and valid(walks):
            best["value"], best["chosen"] = value, chosen
        if i == len(order):
            return
        kind = kinds[kind_of[i]]
        index = kind.index
        values = index.values
        first = start if same_as_previous[i] else 0
        if i == last:  # the last train: the first free route that keeps the set legal
            need_home = not any(w[0] & home_bit for w in walks)
            need_not_full = any(w[2] for w in walks)
            if (
                walks
                and value
                + index.partner_bound(arms, need_home, need_not_full, best["value"] - value)
                <= best["value"]
            ):
                return
            floor = best["value"] - value
            for at in index.free(used, first, need_home, need_not_full, floor):
                if values[at] <= floor:
                    break
                if valid(walks + [kind.seen(at)]):
                    best["value"], best["chosen"] = (
                        value + values[at],
                        chosen + ((order[i], kind_of[i], at),),
                    )
                    break
            return
        bounds = [kinds[kind_of[j]].index.best_free(used) for j in range(i, len(order))]
        if value + sum(bounds) <= best["value"]:
            return
        # trains of this kind that follow take routes after this one's in the list: no better
        alike = bounds[1 : 1 + alike_after[i]]
        rest = sum(bounds[1 + alike_after[i] :])
        # before the last train, a route is passed over when the last train could earn no
        # more than the best route clear of one of the arms chosen (see `RouteIndex.arms_bound`)
        partner = kinds[kind_of[last]].index if i + 1 == last else None
        for at in index.free(used, first):
            v = values[at]
            floor = best["value"] - value - v  # what the trains after must beat together
            if rest + (sum(b if b < v else v for b in alike) if alike else 0) <= floor:
                break  # the routes further down the list are worth no more
            more = arms + kind.arms(at)
            if partner is not None and partner.arms_bound(more, floor) <= floor:
                continue
            w = kind.seen(at)
            search(
                i + 1,
                used | w[1],
                value + v,
                chosen + ((order[i], kind_of[i], at),),
                walks + [w],
                more,
                at + 1,
            )
        search(i + 1, used, value, chosen, walks, arms, len(values))

    search(0, 0, 0, (), [], (), 0)
