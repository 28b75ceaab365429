"""The best routes for a company's trains: an exact search, no time limit, no guessing.

1. Enumerate every legal route through one of the company's stations (a simple line of chains:
   no stop twice, no hex side twice, not through offboards or full cities, each offboard area
   once, at most as many stops as the longest train counts). A route through station T is
   grown as two arms from T; the second arm must start with a higher-numbered chain than the
   first so each route is met once, and routes through an earlier station are not grown again
   from a later one.
2. Give each train the routes it may run, best first, and branch and bound over trains: a
   train takes a route whose sides are still free, or runs nowhere; a branch is cut when its
   revenue plus, for every train left, the best route still free for it cannot beat the best
   total found. Identical trains take routes in list order, so their permutations are skipped.
Ties are broken by the fixed enumeration order, so the answer is deterministic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.eighteen.board.graph import Chain, TrackNetwork
from engine.eighteen.board.routes import Distance, Run
from engine.eighteen.board.tiles import NodeKind


@dataclass(frozen=True)
class Candidate:
    revenue: int
    big: int
    small: int
    sides: int
    nodes: tuple[int, ...]
    chains: tuple[Chain, ...]


def enumerate_routes(
    network: TrackNetwork, corp: str, max_stops: int | None, phase_color: str
) -> list[Candidate]:
    """Every legal route of `corp` with at most `max_stops` stops (None: any), best first."""
    nodes = network.nodes
    value = [n.revenue.value(phase_color) for n in nodes]
    big = [n.kind in (NodeKind.CITY, NodeKind.OFFBOARD) for n in nodes]
    terminal = [n.blocks(corp) for n in nodes]
    group_bits: dict[str, int] = {}
    groups = [0] * len(nodes)
    for n in nodes:
        for g in n.groups:
            groups[n.id] |= group_bits.setdefault(g, 1 << len(group_bits))
    by_node = network.node_chains
    limit = max_stops if max_stops is not None else len(nodes)
    found: list[Candidate] = []
    done: set[int] = set()

    for station in network.token_nodes(corp):
        arm_nodes: tuple[list[int], list[int]] = ([station], [station])
        arm_chains: tuple[list[Chain], list[Chain]] = ([], [])
        visited = set(done)
        visited.add(station)

        def record(sides: int, revenue: int, n_big: int, count: int) -> None:
            if arm_chains[1]:  # the station in the middle
                nodes = arm_nodes[0][::-1] + arm_nodes[1][1:]
                chains = arm_chains[0][::-1] + arm_chains[1]
            else:  # the station at the start
                nodes, chains = arm_nodes[0], arm_chains[0]
            found.append(
                Candidate(revenue, n_big, count - n_big, sides, tuple(nodes), tuple(chains))
            )

        def grow(
            arm: int, end: int, sides: int, used_groups: int, revenue: int, n_big: int, count: int
        ) -> None:
            if arm_chains[arm]:
                record(sides, revenue, n_big, count)
                if arm == 0:  # every first arm also gets each possible second arm
                    grow(1, station, sides, used_groups, revenue, n_big, count)
                if terminal[end]:
                    return
            if count >= limit:
                return
            for chain in by_node[end]:
                if arm == 1 and not arm_chains[1] and chain.id <= arm_chains[0][0].id:
                    continue
                nxt = chain.b if chain.a == end else chain.a
                if nxt in visited or chain.sides & sides or groups[nxt] & used_groups:
                    continue
                visited.add(nxt)
                arm_nodes[arm].append(nxt)
                arm_chains[arm].append(chain)
                grow(
                    arm,
                    nxt,
                    sides | chain.sides,
                    used_groups | groups[nxt],
                    revenue + value[nxt],
                    n_big + big[nxt],
                    count + 1,
                )
                arm_chains[arm].pop()
                arm_nodes[arm].pop()
                visited.discard(nxt)

        grow(0, station, 0, groups[station], value[station], int(big[station]), 1)
        done.add(station)
    found.sort(key=lambda c: (-c.revenue, len(c.nodes), c.nodes, tuple(ch.id for ch in c.chains)))
    return found


def best_runs(
    network: TrackNetwork, corp: str, trains: dict[str, Distance], phase_color: str
) -> tuple[int, list[Run]]:
    """The highest total revenue over all assignments of routes to `trains`, and those routes
    (in the order of `trains`; trains that cannot run are left out)."""
    if not trains:
        return 0, []
    stops = [d.max_stops for d in trains.values()]
    max_stops = None if None in stops else max(s for s in stops if s is not None)
    candidates = enumerate_routes(network, corp, max_stops, phase_color)
    order = sorted(trains, key=lambda t: _length_key(trains[t]))
    allowed = [
        _mask(k for k, c in enumerate(candidates) if trains[t].allows(c.big, c.small))
        for t in order
    ]
    same_as_previous = [
        i > 0 and trains[order[i]] == trains[order[i - 1]] for i in range(len(order))
    ]
    blocks = _blocking(candidates)
    best: dict[str, Any] = {"total": 0, "chosen": ()}

    def first_revenue(free: int) -> int:
        return candidates[(free & -free).bit_length() - 1].revenue if free else 0

    def search(
        i: int, free: int, total: int, chosen: tuple[tuple[int, Candidate], ...], start: int
    ) -> None:
        """`free`: the candidates that share no side with a route already chosen; `start`:
        the first candidate an identical train may take (their permutations are skipped)."""
        if total > best["total"]:
            best["total"], best["chosen"] = total, chosen
        if i == len(order):
            return
        bounds = [first_revenue(allowed[j] & free) for j in range(i, len(order))]
        if total + sum(bounds) <= best["total"]:
            return
        rest = sum(bounds[1:])
        options = allowed[i] & free
        if same_as_previous[i]:
            options &= ~((1 << start) - 1)
        while options:
            low = options & -options
            options ^= low
            index = low.bit_length() - 1
            c = candidates[index]
            if total + c.revenue + rest <= best["total"]:
                break
            left = free & ~blocks(index) if i + 1 < len(order) else free  # the last train: unused
            search(i + 1, left, total + c.revenue, chosen + ((i, c),), index + 1)
        search(i + 1, free, total, chosen, len(candidates))

    search(0, (1 << len(candidates)) - 1, 0, (), 0)
    by_train = {order[i]: c for i, c in best["chosen"]}
    runs = [Run(t, by_train[t].nodes, by_train[t].chains) for t in trains if t in by_train]
    return best["total"], runs


def _mask(indices: Any) -> int:
    """The int whose bit k is set for each k in `indices` (written as binary digits: one
    parse instead of an int built up bit by bit)."""
    digits = bytearray(b"0")
    for k in indices:
        if k >= len(digits):
            digits.extend(b"0" * (k + 1 - len(digits)))
        digits[k] = 49  # "1"
    digits.reverse()
    return int(digits, 2)


def _blocking(candidates: list[Candidate]) -> Callable[[int], int]:
    """For candidate k, the mask of the candidates sharing a hex side with it (itself too if it
    has a side), made when the search first takes k from masks per side made when first needed:
    most searches take only a few of hundreds of candidates."""
    sides = [c.sides for c in candidates]
    side_masks: dict[int, int] = {}
    made: dict[int, int] = {}

    def blocks(k: int) -> int:
        mask = made.get(k)
        if mask is None:
            mask, left = 0, sides[k]
            while left:
                low = left & -left
                left ^= low
                side = side_masks.get(low)
                if side is None:
                    side = side_masks[low] = _mask(j for j, s in enumerate(sides) if s & low)
                mask |= side
            made[k] = mask
        return mask

    return blocks


def _length_key(distance: Distance) -> tuple[int, int, int]:
    """Longest trains first: they have the most routes to choose from and the highest bounds."""
    if distance.big is None:
        return (0, 0, 0)
    return (1, -(distance.big + distance.small), -distance.big)
