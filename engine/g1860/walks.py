"""Every line of track an 1860 train may run for a company: simple walks through one of its
stations, grown as two arms from that station. A late-game island holds over 100,000 of them,
so a walk is kept as little as the search needs (what its stops are, its track and stations as
bits, its two arms as shared tuples); its stops in order are put together only when asked."""
from __future__ import annotations

from dataclasses import dataclass

from engine.eighteen.board.graph import Chain, TrackNetwork
from engine.eighteen.board.tiles import NodeKind
from engine.g1860.routes import RouteRules, full_for, track_bits

Stops = tuple[int, int, tuple[int, ...], int]    # big stations, their revenue, towns best first, halts


@dataclass(slots=True)
class Walk:
    """A simple line of track through a station, as two arms out from that station."""

    back: tuple[int, ...]            # one arm's stops, from the station out (the station first)
    back_chains: tuple[Chain, ...]
    ahead: tuple[int, ...]           # the other arm's (the station first)
    ahead_chains: tuple[Chain, ...]
    sides: int                       # its track, as bits
    passes_full: bool
    stops: int                       # its stops' place in the list of kinds of stops
    node_bits: int                   # the stations it visits, as bits
    chain_bits: int                  # the chains it runs along, as bits of their ids

    @property
    def nodes(self) -> tuple[int, ...]:
        return self.back[::-1] + self.ahead[1:]

    @property
    def chains(self) -> tuple[Chain, ...]:
        return self.back_chains[::-1] + self.ahead_chains

    @property
    def length(self) -> int:
        return len(self.back) + len(self.ahead) - 1


def walks(network: TrackNetwork, corp: str, big: int, rules: RouteRules, flipped: set[str],
          phase_color: str) -> tuple[list[Walk], list[Stops]]:
    """Every simple walk through one of the company's stations: no stop or hex side twice, no hex
    re-entered (unless allowed), at most `big` big stations, not through Ryde Pier, passing at
    most one full station, not ending at a halt; each walk is listed once, in one direction
    (the second arm starts with a higher-numbered chain than the first; walks through an earlier
    station are not grown again from a later one). Walks alike in stops are valued alike: the
    second list holds each kind of stops once, and a walk its place there."""
    nodes = network.nodes
    kind = [0 if n.kind in (NodeKind.CITY, NodeKind.OFFBOARD) else (2 if n.kind is NodeKind.HALT else 1)
            for n in nodes]
    value = [n.revenue.value(phase_color) for n in nodes]
    stop_here = [n.kind is NodeKind.OFFBOARD for n in nodes]
    full = [full_for(n, corp, flipped) for n in nodes]
    hex_bit = {h: 1 << i for i, h in enumerate(sorted({n.hex for n in nodes} | {h for c in network.chains for h in c.hexes}))}
    moves = _moves(network, hex_bit, rules.re_enter_hexes)
    found: list[Walk] = []
    kinds_of_stops: dict[Stops, int] = {}
    done = 0
    for station in network.token_nodes(corp):
        arms: tuple[list[int], list[int]] = ([station], [station])
        arm_chains: tuple[list[Chain], list[Chain]] = ([], [])
        lone = (station,)
        towns: list[int] = []
        town_keys: list[tuple[int, ...]] = [()]     # the towns passed, best first, as they grow
        halts = 0
        revenue = value[station]
        seen = done | 1 << station                  # stations visited (and those done before)
        hexes_in = hex_bit[nodes[station].hex]
        chain_bits = 0

        def grow(arm: int, end: int, sides: int, n_big: int, passed: int, back: tuple[tuple[int, ...], tuple[Chain, ...]]) -> None:
            nonlocal halts, revenue, seen, hexes_in, chain_bits
            own = arm_chains[arm]
            if own:
                key = (n_big, revenue, town_keys[-1], halts)
                stops = kinds_of_stops.setdefault(key, len(kinds_of_stops))
                if arm == 0:
                    back = (tuple(arms[0]), tuple(own))
                    if kind[end] != 2:
                        found.append(Walk(lone, (), back[0], back[1], sides, passed > 0, stops,
                                          seen & ~done, chain_bits))
                    grow(1, station, sides, n_big, passed, back)
                elif kind[end] != 2 and kind[back[0][-1]] != 2:
                    found.append(Walk(back[0], back[1], tuple(arms[1]), tuple(own), sides, passed > 0, stops,
                                      seen & ~done, chain_bits))
                if stop_here[end] or (full[end] and passed):
                    return
                if full[end]:
                    passed += 1
            lowest = arm_chains[0][0].id if arm == 1 and not own else -1
            path = arms[arm]
            for chain, nxt, bits, k, new_hexes in moves[end]:
                if chain.id <= lowest or seen >> nxt & 1 or bits & sides or new_hexes & hexes_in:
                    continue
                if k == 0:
                    if n_big >= big:
                        continue
                    revenue += value[nxt]
                elif k == 1:
                    towns.append(value[nxt])
                    town_keys.append(tuple(sorted(towns, reverse=True)))
                else:
                    halts += 1
                seen |= 1 << nxt
                hexes_in |= new_hexes
                chain_bits |= 1 << chain.id
                path.append(nxt)
                own.append(chain)
                grow(arm, nxt, sides | bits, n_big + (k == 0), passed, back)
                own.pop()
                path.pop()
                chain_bits ^= 1 << chain.id
                hexes_in ^= new_hexes
                seen ^= 1 << nxt
                if k == 0:
                    revenue -= value[nxt]
                elif k == 1:
                    towns.pop()
                    town_keys.pop()
                else:
                    halts -= 1

        grow(0, station, 0, int(kind[station] == 0), 0, ((), ()))
        done |= 1 << station
    return found, list(kinds_of_stops)


def _moves(network: TrackNetwork, hex_bit: dict[str, int], re_enter: bool) -> list[list[tuple[Chain, int, int, int, int]]]:
    """For each stop, the chains leaving it: (chain, the stop it leads to, its track as bits, that
    stop's kind (0 big, 1 town, 2 halt), the hexes it enters as bits, its start hex left out)."""
    nodes = network.nodes
    out: list[list[tuple[Chain, int, int, int, int]]] = []
    for node in nodes:
        row = []
        for chain in network.node_chains[node.id]:
            nxt = chain.b if chain.a == node.id else chain.a
            seq = chain.hexes if chain.a == node.id else chain.hexes[::-1]
            if seq and seq[0] == node.hex:
                seq = seq[1:]
            entered = 0
            if not re_enter:
                for h in seq:
                    entered |= hex_bit[h]
            n = nodes[nxt]
            k = 0 if n.kind in (NodeKind.CITY, NodeKind.OFFBOARD) else (2 if n.kind is NodeKind.HALT else 1)
            row.append((chain, nxt, track_bits(network, chain), k, entered))
        out.append(row)
    return out
