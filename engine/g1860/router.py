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


@dataclass(frozen=True)
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
    entered: dict[tuple[int, int], tuple[str, ...]] = {}
    track_of = {c.id: track_bits(network, c) for c in network.chains}

    def hexes_entered(chain: Chain, start: int) -> tuple[str, ...]:
        key = (chain.id, start)
        if key not in entered:
            seq = chain.hexes if chain.a == start else chain.hexes[::-1]
            if seq and seq[0] == nodes[start].hex:
                seq = seq[1:]
            entered[key] = tuple(dict.fromkeys(seq))
        return entered[key]

    found: list[Walk] = []
    done: set[int] = set()
    for station in network.token_nodes(corp):
        arms: tuple[list[int], list[int]] = ([station], [station])
        arm_chains: tuple[list[Chain], list[Chain]] = ([], [])
        visited = set(done) | {station}
        hexes_in = {nodes[station].hex: 1}
        towns: list[int] = []
        counts = {"halts": 0, "revenue": value[station]}

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
            found.append(Walk(path, chs, sides, passed > 0, n_big, counts["revenue"],
                              tuple(sorted(towns, reverse=True)), counts["halts"]))

        def grow(arm: int, end: int, sides: int, n_big: int, passed: int) -> None:
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
                if nxt in visited or bits & sides:
                    continue
                k = kind[nxt]
                if k == 0 and n_big >= big:
                    continue
                new_hexes = hexes_entered(chain, end)
                if not rules.re_enter_hexes and any(hexes_in.get(h) for h in new_hexes):
                    continue
                visited.add(nxt)
                for h in new_hexes:
                    hexes_in[h] = hexes_in.get(h, 0) + 1
                arms[arm].append(nxt)
                arm_chains[arm].append(chain)
                if k == 0:
                    counts["revenue"] += value[nxt]
                elif k == 1:
                    towns.append(value[nxt])
                else:
                    counts["halts"] += 1
                grow(arm, nxt, sides | bits, n_big + (k == 0), inner)
                if k == 0:
                    counts["revenue"] -= value[nxt]
                elif k == 1:
                    towns.pop()
                else:
                    counts["halts"] -= 1
                arm_chains[arm].pop()
                arms[arm].pop()
                for h in new_hexes:
                    hexes_in[h] -= 1
                visited.discard(nxt)

        grow(0, station, 0, int(kind[station] == 0), 0)
        done.add(station)
    return found


def candidates(walks: list[Walk], big: int, small: int, leased: bool, rules: RouteRules) -> list[Candidate]:
    """Each walk this train may run, valued as `choose_stops` counts it (towns best first, then
    halts for their subsidy), best first."""
    out: list[Candidate] = []
    first_only = rules.leased_counts_first_number_only(leased)
    second = big if (first_only or rules.nationalization) else big + small
    for w in walks:
        if w.n_big > big:
            continue
        allowance = max(second - w.n_big, 0)
        if rules.no_skip_towns and len(w.towns) > allowance:
            continue
        n_towns = len(w.towns) if rules.no_skip_towns else min(allowance, len(w.towns))
        n_halts = 0 if rules.ignore_halts else min(w.halts, allowance - n_towns)
        revenue, subsidy = w.big_revenue + sum(w.towns[:n_towns]), rules.halt_subsidy * n_halts
        if leased:
            revenue = rules.leased_revenue(big, w.n_big + n_towns + n_halts, revenue)
            subsidy = 0 if first_only else subsidy
        halts = n_halts if w.halts and not first_only and not rules.ignore_halts else None
        bits = 0
        for n in w.nodes:
            bits |= 1 << n
        out.append(Candidate(revenue * 1000 + subsidy, revenue, subsidy, w.sides, w.nodes, w.chains,
                             w.passes_full, halts, bits))
    out.sort(key=lambda c: (-c.value, len(c.nodes)))     # stable: walks come in a fixed order
    return out


def best_runs(network: TrackNetwork, corp: str, trains: dict[str, tuple[int, int, bool]], home: int | None,
              phase_color: str, rules: RouteRules, flipped: set[str]) -> tuple[int, int, list[tuple[str, Candidate]]]:
    """(revenue, subsidy, [(train, route)]) of the best legal set of routes for these trains."""
    if not trains or home is None:
        return 0, 0, []
    order = sorted(trains, key=lambda t: (-trains[t][0], -trains[t][1], t))
    walks = _walks(network, corp, max(b for b, _, _ in trains.values()), rules, flipped, phase_color)
    by_kind: dict[tuple[int, int, bool], list[Candidate]] = {}
    for spec in trains.values():
        if spec not in by_kind:
            by_kind[spec] = candidates(walks, *spec, rules)
    lists = {t: by_kind[trains[t]] for t in order}
    best: dict[str, Any] = {"value": 0, "chosen": ()}
    home_bit = 1 << home
    same_as_previous = [i > 0 and trains[order[i]] == trains[order[i - 1]] for i in range(len(order))]

    def valid(chosen: tuple[tuple[str, Candidate], ...]) -> bool:
        if sum(1 for _, c in chosen if c.passes_full) > 1:
            return False
        if not any(c.node_bits & home_bit for _, c in chosen):
            return False
        reached = chosen[0][1].node_bits
        left = [c.node_bits for _, c in chosen[1:]]
        while left:
            touching = [b for b in left if b & reached]
            if not touching:
                return False
            for b in touching:
                reached |= b
                left.remove(b)
        return True

    def first_free(options: list[Candidate], used: int) -> int:
        return next((c.value for c in options if not c.sides & used), 0)

    def search(i: int, used: int, value: int, chosen: tuple[tuple[str, Candidate], ...], start: int) -> None:
        if value > best["value"] and chosen and valid(chosen):
            best["value"], best["chosen"] = value, chosen
        if i == len(order):
            return
        options = lists[order[i]]
        if i == len(order) - 1:     # the last train: the first free route that keeps the set legal
            for index in range(start if same_as_previous[i] else 0, len(options)):
                c = options[index]
                if value + c.value <= best["value"]:
                    break
                if not c.sides & used and valid(chosen + ((order[i], c),)):
                    best["value"], best["chosen"] = value + c.value, chosen + ((order[i], c),)
                    break
            return
        bounds = [first_free(lists[order[j]], used) for j in range(i, len(order))]
        if value + sum(bounds) <= best["value"]:
            return
        rest = sum(bounds[1:])
        for index in range(start if same_as_previous[i] else 0, len(options)):
            c = options[index]
            if value + c.value + rest <= best["value"]:
                break
            if c.sides & used:
                continue
            search(i + 1, used | c.sides, value + c.value, chosen + ((order[i], c),), index + 1)
        search(i + 1, used, value, chosen, len(options))

    search(0, 0, 0, (), 0)
    chosen = sorted(best["chosen"], key=lambda tc: list(trains).index(tc[0]))
    return sum(c.revenue for _, c in chosen), sum(c.subsidy for _, c in chosen), chosen
