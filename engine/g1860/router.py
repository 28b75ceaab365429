"""The best routes for an 1860 company: exact search over every legal route, then branch and
bound over trains. Differs from the core finder where 1860 does: a+b trains whose towns and halts
may be skipped (the best ones are kept), halts paying a subsidy, no hex entered twice, one full
station passed per company, every route touching another and one of them the home station."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.eighteen.board.graph import Chain, TrackNetwork
from engine.eighteen.board.tiles import NodeKind
from engine.g1860.routes import RouteRules, full_for, track_bits


@dataclass(frozen=True)
class Candidate:
    value: int                 # revenue × 1000 + subsidy: revenue first, subsidy breaks ties
    revenue: int
    subsidy: int
    sides: int
    nodes: tuple[int, ...]
    chains: tuple[Chain, ...]
    passes_full: bool
    halts: int | None
    node_bits: int = 0         # the stations it visits, as bits: for touching and home checks


@dataclass(slots=True)
class Walk:
    """A simple line of track through a station, with what its stops are worth."""

    nodes: tuple[int, ...]
    chains: tuple[Chain, ...]
    sides: int
    passes_full: bool
    n_big: int
    big_revenue: int
    towns: tuple[int, ...]     # revenues of the towns passed, best first
    halts: int
    node_bits: int             # the stations it visits, as bits


def _walks(network: TrackNetwork, corp: str, big: int, rules: RouteRules, flipped: set[str],
           phase_color: str) -> list[Walk]:
    """Every simple walk through one of the company's stations: no stop or hex side twice, no hex
    re-entered (unless allowed), at most `big` big stations, not through Ryde Pier, passing at
    most one full station, not ending at a halt; each walk is listed once, in one direction."""
    nodes = network.nodes
    kind = [0 if n.kind in (NodeKind.CITY, NodeKind.OFFBOARD) else (2 if n.kind is NodeKind.HALT else 1)
            for n in nodes]
    value = [n.revenue.value(phase_color) for n in nodes]
    offboard = [n.kind is NodeKind.OFFBOARD for n in nodes]
    full = [full_for(n, corp, flipped) for n in nodes]
    by_node = network.node_chains
    hex_bit = {h: 1 << i for i, h in enumerate(sorted({n.hex for n in nodes}))}
    entered: dict[tuple[int, int], int] = {}
    track_of = {c.id: track_bits(network, c) for c in network.chains}
    re_enter = rules.re_enter_hexes

    def hexes_entered(chain: Chain, start: int) -> int:
        """The hexes a chain enters leaving `start`, as bits (its start hex left out)."""
        key = (chain.id, start)
        if key not in entered:
            seq = chain.hexes if chain.a == start else chain.hexes[::-1]
            if seq and seq[0] == nodes[start].hex:
                seq = seq[1:]
            bits = 0
            for h in seq:
                bits |= hex_bit.setdefault(h, 1 << len(hex_bit))
            entered[key] = bits
        return entered[key]

    found: list[Walk] = []
    done = 0
    for station in network.token_nodes(corp):
        arms: tuple[list[int], list[int]] = ([station], [station])
        arm_chains: tuple[list[Chain], list[Chain]] = ([], [])
        towns: list[int] = []
        halts = 0
        revenue = value[station]
        seen = done | 1 << station                  # stations visited (and those done before)
        hexes_in = hex_bit[nodes[station].hex]

        def record(sides: int, n_big: int, passed: int) -> None:
            if arm_chains[1]:
                if kind[arms[0][-1]] == 2 or kind[arms[1][-1]] == 2:
                    return
                path = tuple(arms[0][::-1] + arms[1][1:])
                chs = tuple(arm_chains[0][::-1] + arm_chains[1])
            else:
                if kind[arms[0][-1]] == 2:
                    return
                path, chs = tuple(arms[0]), tuple(arm_chains[0])
            found.append(Walk(path, chs, sides, passed > 0, n_big, revenue,
                              tuple(sorted(towns, reverse=True)), halts, (seen & ~done)))

        def grow(arm: int, end: int, sides: int, n_big: int, passed: int) -> None:
            nonlocal halts, revenue, seen, hexes_in
            if arm_chains[arm]:
                record(sides, n_big, passed)
                if arm == 0:
                    grow(1, station, sides, n_big, passed)
                if offboard[end] or (full[end] and passed):
                    return
            inner = passed + (1 if arm_chains[arm] and full[end] else 0)
            if inner > 1:
                return
            for chain in by_node[end]:
                if arm == 1 and not arm_chains[1] and chain.id <= arm_chains[0][0].id:
                    continue
                nxt = chain.b if chain.a == end else chain.a
                bits = track_of[chain.id]
                if seen >> nxt & 1 or bits & sides:
                    continue
                k = kind[nxt]
                if k == 0 and n_big >= big:
                    continue
                new_hexes = 0 if re_enter else hexes_entered(chain, end)
                if new_hexes & hexes_in:
                    continue
                seen |= 1 << nxt
                hexes_in |= new_hexes
                arms[arm].append(nxt)
                arm_chains[arm].append(chain)
                if k == 0:
                    revenue += value[nxt]
                elif k == 1:
                    towns.append(value[nxt])
                else:
                    halts += 1
                grow(arm, nxt, sides | bits, n_big + (k == 0), inner)
                if k == 0:
                    revenue -= value[nxt]
                elif k == 1:
                    towns.pop()
                else:
                    halts -= 1
                arm_chains[arm].pop()
                arms[arm].pop()
                hexes_in ^= new_hexes
                seen ^= 1 << nxt

        grow(0, station, 0, int(kind[station] == 0), 0)
        done |= 1 << station
    return found


def candidates(walks: list[Walk], big: int, small: int, leased: bool, rules: RouteRules) -> list[Candidate]:
    """Each walk this train may run, valued as `choose_stops` counts it (towns best first, then
    halts for their subsidy), best first."""
    return [_candidate(v) for v in _valued(walks, big, small, leased, rules)]


Valued = tuple[int, int, int, int, "int | None", Walk]   # value, -len, revenue, subsidy, halts, walk


def _valued(walks: list[Walk], big: int, small: int, leased: bool, rules: RouteRules) -> list[Valued]:
    out: list[Valued] = []
    first_only = rules.leased_counts_first_number_only(leased)
    second = big if (first_only or rules.nationalization) else big + small
    seen: dict[tuple[int, int, tuple[int, ...], int], tuple[int, int, int, int | None] | None] = {}
    for w in walks:
        key = (w.n_big, w.big_revenue, w.towns, w.halts)     # walks alike in stops are valued alike
        worth = seen.get(key, False)
        if worth is False:
            worth = seen[key] = _worth(w, big, second, leased, first_only, rules)
        if worth is not None:
            out.append((worth[0], -len(w.nodes), worth[1], worth[2], worth[3], w))
    out.sort(key=lambda v: (-v[0], -v[1]))     # stable: walks come in a fixed order
    return out


def _worth(w: Walk, big: int, second: int, leased: bool, first_only: bool,
           rules: RouteRules) -> tuple[int, int, int, int | None] | None:
    """(value, revenue, subsidy, halts counted) of a walk for this train; None if it may not run it."""
    if w.n_big > big:
        return None
    allowance = max(second - w.n_big, 0)
    if rules.no_skip_towns and len(w.towns) > allowance:
        return None
    n_towns = len(w.towns) if rules.no_skip_towns else min(allowance, len(w.towns))
    n_halts = 0 if rules.ignore_halts else min(w.halts, allowance - n_towns)
    revenue, subsidy = w.big_revenue + sum(w.towns[:n_towns]), rules.halt_subsidy * n_halts
    if leased:
        revenue = rules.leased_revenue(big, w.n_big + n_towns + n_halts, revenue)
        subsidy = 0 if first_only else subsidy
    halts = n_halts if w.halts and not first_only and not rules.ignore_halts else None
    return revenue * 1000 + subsidy, revenue, subsidy, halts


def _candidate(v: Valued) -> Candidate:
    value, _, revenue, subsidy, halts, w = v
    return Candidate(value, revenue, subsidy, w.sides, w.nodes, w.chains, w.passes_full, halts, w.node_bits)


class _Index:
    """One train kind's routes (best first) as bit masks: which use each chain of track and which
    stop at each station. The routes still free beside a chosen set, and the first of them, are
    then a few integer operations instead of a scan of thousands of conflicting routes."""

    def __init__(self, valued: list[Valued], home_bit: int, overlap: dict[int, tuple[int, ...]]) -> None:
        self.valued = valued
        self.values = [v[0] for v in valued]
        self.walks = [v[5] for v in valued]
        self.all = (1 << len(valued)) - 1
        self.overlap = overlap
        size = len(valued) // 8 + 1
        by_chain: dict[int, bytearray] = {}
        by_node: dict[int, bytearray] = {}
        home = bytearray(size)
        not_full = bytearray(size)
        for i, w in enumerate(self.walks):
            byte, bit = i >> 3, 1 << (i & 7)
            for chain in w.chains:
                row = by_chain.get(chain.id)
                if row is None:
                    row = by_chain[chain.id] = bytearray(size)
                row[byte] |= bit
            for node in w.nodes:
                row = by_node.get(node)
                if row is None:
                    row = by_node[node] = bytearray(size)
                row[byte] |= bit
            if w.node_bits & home_bit:
                home[byte] |= bit
            if not w.passes_full:
                not_full[byte] |= bit
        self.by_chain = {k: int.from_bytes(v, "little") for k, v in by_chain.items()}
        self.by_node = {k: int.from_bytes(v, "little") for k, v in by_node.items()}
        self.home = int.from_bytes(home, "little")
        self.not_full = int.from_bytes(not_full, "little")
        self._chain_blocks: dict[int, int] = {}
        self._blocks: dict[tuple[int, int], int] = {}
        self._touching: dict[int, int] = {}

    def chain_blocks(self, chain: int) -> int:
        """The routes using track that this chain uses."""
        found = self._chain_blocks.get(chain)
        if found is None:
            found = 0
            for other in self.overlap[chain]:
                found |= self.by_chain.get(other, 0)
            self._chain_blocks[chain] = found
        return found

    def blocked_by(self, key: tuple[int, int], other: Walk) -> int:
        """The routes sharing track with `other` (cached by its kind and place)."""
        found = self._blocks.get(key)
        if found is None:
            found = 0
            for chain in other.chains:
                found |= self.chain_blocks(chain.id)
            self._blocks[key] = found
        return found

    def touching(self, nodes: int) -> int:
        """The routes stopping at one of these stations (bits)."""
        found = self._touching.get(nodes)
        if found is None:
            found = 0
            by_node = self.by_node
            rest = nodes
            while rest:
                low = rest & -rest
                found |= by_node.get(low.bit_length() - 1, 0)
                rest ^= low
            self._touching[nodes] = found
        return found


def _overlaps(network: TrackNetwork, walks: list[Walk]) -> dict[int, tuple[int, ...]]:
    """For each chain the walks use, the chains sharing track with it (itself included)."""
    used = {c.id: c for w in walks for c in w.chains}
    bits = {cid: track_bits(network, c) for cid, c in used.items()}
    return {cid: tuple(o for o, ob in bits.items() if ob & b) for cid, b in bits.items()}


def _first(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def best_runs(network: TrackNetwork, corp: str, trains: dict[str, tuple[int, int, bool]], home: int | None,
              phase_color: str, rules: RouteRules, flipped: set[str]) -> tuple[int, int, list[tuple[str, Candidate]]]:
    """(revenue, subsidy, [(train, route)]) of the best legal set of routes for these trains."""
    if not trains or home is None:
        return 0, 0, []
    order = sorted(trains, key=lambda t: (-trains[t][0], -trains[t][1], t))
    walks = _walks(network, corp, max(b for b, _, _ in trains.values()), rules, flipped, phase_color)
    home_bit = 1 << home
    same_as_previous = [i > 0 and trains[order[i]] == trains[order[i - 1]] for i in range(len(order))]
    kinds = list(dict.fromkeys(trains[t] for t in order))
    overlap = _overlaps(network, walks)
    indexes = [_Index(_valued(walks, *spec, rules), home_bit, overlap) for spec in kinds]
    kind_of = [kinds.index(trains[t]) for t in order]
    best: dict[str, Any] = {"value": 0, "chosen": ()}
    _search(order, kind_of, same_as_previous, indexes, home_bit, best)
    chosen = sorted(((train, _candidate(indexes[k].valued[at])) for train, k, at in best["chosen"]),
                    key=lambda tc: list(trains).index(tc[0]))
    return sum(c.revenue for _, c in chosen), sum(c.subsidy for _, c in chosen), chosen


def _search(order: list[str], kind_of: list[int], same_as_previous: list[bool], indexes: list[_Index],
            home_bit: int, best: dict[str, Any]) -> None:
    """Branch and bound over the trains (best first), improving `best` in place; a chosen set is
    a tuple of (train, kind, place in that kind's list)."""
    last = len(order) - 1
    later = [{kind_of[j] for j in range(i + 1, len(order))} for i in range(len(order))]
    alike_after = [0] * len(order)      # how many trains right after each are of its kind
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

    def search(i: int, blocked: tuple[int, ...], value: int, chosen: tuple[tuple[str, int, int], ...],
               walks: list[Walk], start: int) -> None:
        if value > best["value"] and chosen and valid(walks):
            best["value"], best["chosen"] = value, chosen
        if i == len(order):
            return
        kind = kind_of[i]
        index = indexes[kind]
        values = index.values
        free = index.all & ~blocked[kind]
        if same_as_previous[i]:
            free &= ~((1 << start) - 1)
        if i == last:     # the last train: the first free route that keeps the set legal
            if walks:
                nodes = 0
                for w in walks:
                    nodes |= w.node_bits
                free &= index.touching(nodes)
                if not any(w.node_bits & home_bit for w in walks):
                    free &= index.home
                if any(w.passes_full for w in walks):
                    free &= index.not_full
            while free:
                at = _first(free)
                if value + values[at] <= best["value"]:
                    break
                if valid(walks + [index.walks[at]]):
                    best["value"], best["chosen"] = value + values[at], chosen + ((order[i], kind, at),)
                    break
                free &= free - 1
            return
        bounds = []
        for j in range(i, len(order)):
            k = kind_of[j]
            rest_free = indexes[k].all & ~blocked[k]
            bounds.append(indexes[k].values[_first(rest_free)] if rest_free else 0)
        if value + sum(bounds) <= best["value"]:
            return
        # trains of this kind that follow take routes after this one's in the list: no better
        alike = bounds[1:1 + alike_after[i]]
        rest = sum(bounds[1 + alike_after[i]:])
        while free:
            at = _first(free)
            free &= free - 1
            v = values[at]
            if value + v + rest + sum(b if b < v else v for b in alike) <= best["value"]:
                break       # the routes further down the list are worth no more
            w = index.walks[at]
            grown = tuple(b | indexes[k].blocked_by((kind, at), w) if k in later[i] else b
                          for k, b in enumerate(blocked))
            search(i + 1, grown, value + values[at], chosen + ((order[i], kind, at),), walks + [w], at + 1)
        search(i + 1, blocked, value, chosen, walks, len(values))

    search(0, tuple(0 for _ in indexes), 0, (), [], 0)
