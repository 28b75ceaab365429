"""Every line of track an 1860 train may run for a company: simple walks through one of its
stations, grown as two arms from that station. A late-game island holds over 100,000 of them,
so a walk is kept as little as the search needs (what its stops are, its track and stations as
bits, its two arms as shared tuples); its stops in order are put together only when asked."""
from __future__ import annotations

from typing import NamedTuple

from engine.eighteen.board.graph import Chain, TrackNetwork
from engine.eighteen.board.tiles import NodeKind
from engine.g1860.routes import RouteRules, full_for, track_bits

Stops = tuple[int, int, tuple[int, ...], int]    # big stations, their revenue, towns best first, halts
# a walk's stops packed in one integer, grown by addition as the walk grows: big stations in
# bits 0-7, halts in 8-15, the place of its towns (best first) in the walk's list of town
# sets in 16-35, the big stations' revenue above
ONE_BIG, ONE_HALT, TOWNS_AT, REVENUE_AT = 1, 1 << 8, 16, 36


class Walk(NamedTuple):
    """A simple line of track through a station, as two arms out from that station (a tuple:
    over 100,000 of them are made in one search)."""

    back: tuple[int, ...]            # one arm's stops, from the station out (the station first)
    back_chains: tuple[Chain, ...]
    ahead: tuple[int, ...]           # the other arm's (the station first)
    ahead_chains: tuple[Chain, ...]
    sides: int                       # its track, as bits
    passes_full: bool
    stops: int                       # what its stops are, packed (see `read_stops`)
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
          phase_color: str) -> tuple[list[Walk], list[tuple[int, ...]]]:
    """Every simple walk through one of the company's stations: no stop or hex side twice, no hex
    re-entered (unless allowed), at most `big` big stations, not through Ryde Pier, passing at
    most one full station, not ending at a halt; each walk is listed once, in one direction
    (the second arm starts with a higher-numbered chain than the first; walks through an earlier
    station are not grown again from a later one). The second list holds the sets of towns
    the walks' packed stops point to."""
    nodes = network.nodes
    kind = [0 if n.kind in (NodeKind.CITY, NodeKind.OFFBOARD) else (2 if n.kind is NodeKind.HALT else 1)
            for n in nodes]
    value = [n.revenue.value(phase_color) for n in nodes]
    stop_here = [n.kind is NodeKind.OFFBOARD for n in nodes]
    full = [full_for(n, corp, flipped) for n in nodes]
    hex_bit = {h: 1 << i for i, h in enumerate(sorted({n.hex for n in nodes} | {h for c in network.chains for h in c.hexes}))}
    moves = _moves(network, hex_bit, rules.re_enter_hexes)
    found: list[Walk] = []
    town_sets: dict[tuple[int, ...], int] = {(): 0}
    new = tuple.__new__
    done = 0
    for station in network.token_nodes(corp):
        arms: tuple[list[int], list[int]] = ([station], [station])
        arm_chains: tuple[list[Chain], list[Chain]] = ([], [])
        lone = (station,)
        towns: list[int] = []
        seen = done | 1 << station                  # stations visited (and those done before)
        hexes_in = hex_bit[nodes[station].hex]
        chain_bits = 0

        def grow(arm: int, end: int, sides: int, stops: int, passed: int, back: tuple[tuple[int, ...], tuple[Chain, ...]]) -> None:
            nonlocal seen, hexes_in, chain_bits
            own = arm_chains[arm]
            if own:
                if arm == 0:
                    back = (tuple(arms[0]), tuple(own))
                    if kind[end] != 2:
                        found.append(new(Walk, (lone, (), back[0], back[1], sides, passed > 0, stops,
                                                seen & ~done, chain_bits)))
                    grow(1, station, sides, stops, passed, back)
                elif kind[end] != 2 and kind[back[0][-1]] != 2:
                    found.append(new(Walk, (back[0], back[1], tuple(arms[1]), tuple(own), sides, passed > 0, stops,
                                            seen & ~done, chain_bits)))
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
                    if stops & 255 >= big:
                        continue
                    grown = stops + ONE_BIG + (value[nxt] << REVENUE_AT)
                elif k == 1:
                    towns.append(value[nxt])
                    town_set = town_sets.setdefault(tuple(sorted(towns, reverse=True)), len(town_sets))
                    grown = stops + ((town_set - (stops >> TOWNS_AT & 0xFFFFF)) << TOWNS_AT)
                else:
                    grown = stops + ONE_HALT
                seen |= 1 << nxt
                hexes_in |= new_hexes
                chain_bits |= 1 << chain.id
                path.append(nxt)
                own.append(chain)
                grow(arm, nxt, sides | bits, grown, passed, back)
                own.pop()
                path.pop()
                chain_bits ^= 1 << chain.id
                hexes_in ^= new_hexes
                seen ^= 1 << nxt
                if k == 1:
                    towns.pop()

        grow(0, station, 0, (value[station] << REVENUE_AT) + (ONE_BIG if kind[station] == 0 else 0), 0, ((), ()))
        done |= 1 << station
    return found, list(town_sets)


def read_stops(stops: int, town_sets: list[tuple[int, ...]]) -> Stops:
    """A walk's packed stops, unpacked."""
    return stops & 255, stops >> REVENUE_AT, town_sets[stops >> TOWNS_AT & 0xFFFFF], stops >> 8 & 255


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
