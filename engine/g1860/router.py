"""The best routes for an 1860 company: exact search over every legal route, then branch and
bound over trains. Differs from the core finder where 1860 does: a+b trains whose towns and halts
may be skipped (the best ones are kept), halts paying a subsidy, no hex entered twice, one full
station passed per company, every route touching another and one of them the home station."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.eighteen.board.graph import Chain, TrackNetwork
from engine.eighteen.board.routes import Run
from engine.eighteen.board.tiles import NodeKind
from engine.g1860.routes import LEASE_BASE, LEASE_PER_STOP, RouteRules, choose_stops, full_for


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


def _walks(network: TrackNetwork, corp: str, big: int, rules: RouteRules, flipped: set[str]) -> list[tuple[tuple[int, ...], tuple[Chain, ...], bool]]:
    """Every simple walk through one of the company's stations: no stop or hex side twice, no hex
    re-entered (unless allowed), at most `big` big stations, not through Ryde Pier, passing at
    most one full station; each walk is listed once, in one direction."""
    nodes = network.nodes
    is_big = [n.kind in (NodeKind.CITY, NodeKind.OFFBOARD) for n in nodes]
    offboard = [n.kind is NodeKind.OFFBOARD for n in nodes]
    full = [full_for(n, corp, flipped) for n in nodes]
    by_node = network.node_chains
    found: list[tuple[tuple[int, ...], tuple[Chain, ...], bool]] = []
    done: set[int] = set()
    for station in network.token_nodes(corp):
        arms: tuple[list[int], list[int]] = ([station], [station])
        arm_chains: tuple[list[Chain], list[Chain]] = ([], [])
        visited = set(done) | {station}
        hexes_in = {nodes[station].hex: 1}

        def enter(chain: Chain, start: int) -> list[str]:
            seq = list(chain.hexes if chain.a == start else chain.hexes[::-1])
            return seq[1:] if seq and seq[0] == nodes[start].hex else seq

        def grow(arm: int, end: int, sides: int, n_big: int, passed: int) -> None:
            if arm_chains[arm]:
                if arm_chains[1]:
                    path = arms[0][::-1] + arms[1][1:]
                    chs = arm_chains[0][::-1] + arm_chains[1]
                else:
                    path, chs = list(arms[0]), list(arm_chains[0])
                found.append((tuple(path), tuple(chs), passed > 0))
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
                if nxt in visited or chain.sides & sides or n_big + is_big[nxt] > big:
                    continue
                if arm_chains[arm] and offboard[end]:
                    continue
                new_hexes = enter(chain, end)
                if not rules.re_enter_hexes and any(hexes_in.get(h) for h in dict.fromkeys(new_hexes)):
                    continue
                visited.add(nxt)
                for h in dict.fromkeys(new_hexes):
                    hexes_in[h] = hexes_in.get(h, 0) + 1
                arms[arm].append(nxt)
                arm_chains[arm].append(chain)
                grow(arm, nxt, sides | chain.sides, n_big + is_big[nxt], inner)
                arm_chains[arm].pop()
                arms[arm].pop()
                for h in dict.fromkeys(new_hexes):
                    hexes_in[h] -= 1
                visited.discard(nxt)

        grow(0, station, 0, int(is_big[station]), 0)
        done.add(station)
    return found


def candidates(network: TrackNetwork, corp: str, big: int, small: int, leased: bool, phase_color: str,
               rules: RouteRules, flipped: set[str]) -> list[Candidate]:
    out: list[Candidate] = []
    for path, chains, passes in _walks(network, corp, big, rules, flipped):
        ends = (network.nodes[path[0]], network.nodes[path[-1]])
        if any(e.kind is NodeKind.HALT for e in ends):
            continue
        run = Run("", path, chains)
        if rules.no_skip_towns:
            towns = sum(1 for n in path if network.nodes[n].kind is NodeKind.TOWN)
            cities = sum(1 for n in path if network.nodes[n].kind in (NodeKind.CITY, NodeKind.OFFBOARD))
            if towns > max((big if (leased or rules.nationalization) else big + small) - cities, 0):
                continue
        stops, halts = choose_stops(network, run, big, small, None, rules, leased)
        if leased:
            revenue, subsidy = LEASE_BASE + LEASE_PER_STOP * len(stops), 0
        else:
            revenue = sum(network.nodes[n].revenue.value(phase_color) for n in stops)
            subsidy = rules.halt_subsidy * sum(1 for n in stops if network.nodes[n].kind is NodeKind.HALT)
        sides = 0
        for ch in chains:
            sides |= ch.sides
        out.append(Candidate(revenue * 1000 + subsidy, revenue, subsidy, sides, path, chains, passes, halts))
    out.sort(key=lambda c: (-c.value, len(c.nodes), c.nodes))
    return out


def best_runs(network: TrackNetwork, corp: str, trains: dict[str, tuple[int, int, bool]], home: int | None,
              phase_color: str, rules: RouteRules, flipped: set[str]) -> tuple[int, int, list[tuple[str, Candidate]]]:
    """(revenue, subsidy, [(train, route)]) of the best legal set of routes for these trains."""
    if not trains or home is None:
        return 0, 0, []
    order = sorted(trains, key=lambda t: (-trains[t][0], -trains[t][1], t))
    lists = {t: candidates(network, corp, *trains[t], phase_color, rules, flipped) for t in order}
    best: dict[str, Any] = {"value": 0, "chosen": ()}

    def valid(chosen: tuple[tuple[str, Candidate], ...]) -> bool:
        if sum(1 for _, c in chosen if c.passes_full) > 1:
            return False
        if not any(home in c.nodes for _, c in chosen):
            return False
        sets = [set(c.nodes) for _, c in chosen]
        reached, frontier = {0}, [0]
        while frontier:
            i = frontier.pop()
            for j, s in enumerate(sets):
                if j not in reached and sets[i] & s:
                    reached.add(j)
                    frontier.append(j)
        return len(reached) == len(sets)

    def first_free(options: list[Candidate], used: int) -> int:
        return next((c.value for c in options if not c.sides & used), 0)

    def search(i: int, used: int, value: int, chosen: tuple[tuple[str, Candidate], ...]) -> None:
        if value > best["value"] and valid(chosen):
            best["value"], best["chosen"] = value, chosen
        if i == len(order):
            return
        bounds = [first_free(lists[order[j]], used) for j in range(i, len(order))]
        if value + sum(bounds) <= best["value"]:
            return
        rest = sum(bounds[1:])
        for c in lists[order[i]]:
            if value + c.value + rest <= best["value"]:
                break
            if c.sides & used:
                continue
            search(i + 1, used | c.sides, value + c.value, chosen + ((order[i], c),))
        search(i + 1, used, value, chosen)

    search(0, 0, 0, ())
    chosen = sorted(best["chosen"], key=lambda tc: list(trains).index(tc[0]))
    return sum(c.revenue for _, c in chosen), sum(c.subsidy for _, c in chosen), chosen
