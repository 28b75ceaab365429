"""The best routes for an 1860 company: exact search over every legal route, then branch and
bound over trains. Differs from the core finder where 1860 does: a+b trains whose towns and halts
may be skipped (the best ones are kept), halts paying a subsidy, no hex entered twice, one full
station passed per company, every route touching another and one of them the home station."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.eighteen.board.graph import Chain, TrackNetwork
from engine.g1860.route_index import RouteIndex
from engine.g1860.routes import RouteRules
from engine.g1860.walks import Stops, Walk, overlaps, read_stops
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
LONGEST = 1 << 16  # no walk has this many stops


def _valued(
    walks: list[Walk],
    stops: dict[int, Stops],
    big: int,
    small: int,
    leased: bool,
    rules: RouteRules,
) -> tuple[list[Walk], list[Worth]]:
    """The walks this train may run and their worth, best first (then shortest, then in the
    order they were found). `stops`: each packed kind of stops the walks have, unpacked."""
    first_only = rules.leased_counts_first_number_only(leased)
    second = big if (first_only or rules.nationalization) else big + small
    worths = {key: _worth(s, big, second, leased, first_only, rules) for key, s in stops.items()}
    rank = {key: None if w is None else -w[0] * LONGEST for key, w in worths.items()}
    shift = len(walks).bit_length()
    keys = [
        (rank[w.stops] + len(w.back) + len(w.ahead)) << shift | i  # type: ignore[operator]
        for i, w in enumerate(walks)
        if rank[w.stops] is not None
    ]
    keys.sort()
    low = (1 << shift) - 1
    chosen = [walks[k & low] for k in keys]
    return chosen, [worths[w.stops] for w in chosen]  # type: ignore[misc]


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


def _overlaps(network: TrackNetwork, walks: list[Walk]) -> dict[int, int]:
    """For each chain the walks use, the chains sharing track with it (itself included), as bits."""
    used = 0
    for w in walks:
        used |= w.chain_bits
    return overlaps(network, used)


class _Kind:
    """One train kind's routes, valued and indexed."""

    def __init__(
        self, valued: tuple[list[Walk], list[Worth]], overlap: dict[int, int], home: int
    ) -> None:
        self.walks, self.worths = valued
        self.values = [worth[0] for worth in self.worths]
        self.index = RouteIndex(self.walks, self.values, overlap, home)


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
    walks, town_sets = all_walks(
        network, corp, max(b for b, _, _ in trains.values()), rules, flipped, phase_color
    )
    stops = {key: read_stops(key, town_sets) for key in {w.stops for w in walks}}
    home_bit = 1 << home
    same_as_previous = [
        i > 0 and trains[order[i]] == trains[order[i - 1]] for i in range(len(order))
    ]
    specs = list(dict.fromkeys(trains[t] for t in order))
    overlap = _overlaps(network, walks)
    kinds = [_Kind(_valued(walks, stops, *spec, rules), overlap, home) for spec in specs]
    kind_of = [specs.index(trains[t]) for t in order]
    best: dict[str, Any] = {"value": 0, "chosen": ()}
    _search(order, kind_of, same_as_previous, kinds, home_bit, best)
    chosen = sorted(
        (
            (train, _candidate(kinds[k].walks[at], kinds[k].worths[at]))
            for train, k, at in best["chosen"]
        ),
        key=lambda tc: list(trains).index(tc[0]),
    )
    return sum(c.revenue for _, c in chosen), sum(c.subsidy for _, c in chosen), chosen


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

    def valid(walks: list[Walk]) -> bool:
        if sum(1 for w in walks if w.passes_full) > 1:
            return False
        if not any(w.node_bits & home_bit for w in walks):
            return False
        reached = walks[0].node_bits
        left = [w.node_bits for w in walks[1:]]
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
        walks: list[Walk],
        start: int,
    ) -> None:
        if value > best["value"] and chosen and valid(walks):
            best["value"], best["chosen"] = value, chosen
        if i == len(order):
            return
        kind = kind_of[i]
        index = kinds[kind].index
        values = index.values
        first = start if same_as_previous[i] else 0
        if i == last:  # the last train: the first free route that keeps the set legal
            need_home = not any(w.node_bits & home_bit for w in walks)
            need_not_full = any(w.passes_full for w in walks)
            if (
                walks
                and value
                + index.partner_bound(walks, need_home, need_not_full, best["value"] - value)
                <= best["value"]
            ):
                return
            for at in index.free(used, first, need_home, need_not_full):
                if value + values[at] <= best["value"]:
                    break
                if valid(walks + [index.routes[at]]):
                    best["value"], best["chosen"] = (
                        value + values[at],
                        chosen + ((order[i], kind, at),),
                    )
                    break
            return
        bounds = [kinds[kind_of[j]].index.best_free(used) for j in range(i, len(order))]
        if value + sum(bounds) <= best["value"]:
            return
        # trains of this kind that follow take routes after this one's in the list: no better
        alike = bounds[1 : 1 + alike_after[i]]
        rest = sum(bounds[1 + alike_after[i] :])
        for at in index.free(used, first):
            v = values[at]
            if value + v + rest + sum(b if b < v else v for b in alike) <= best["value"]:
                break  # the routes further down the list are worth no more
            w = index.routes[at]
            search(
                i + 1,
                used | w.chain_bits,
                value + v,
                chosen + ((order[i], kind, at),),
                walks + [w],
                at + 1,
            )
        search(i + 1, used, value, chosen, walks, len(values))

    search(0, 0, 0, (), [], 0)
