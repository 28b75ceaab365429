"""Every line of track an 1860 train may run for a company: simple walks through one of its
stations, grown as two arms from that station. A late-game island holds over 100,000 of them,
so a walk is kept as little as the search needs (what its stops are, its track and stations as
bits, its two arms as shared tuples); its stops in order are put together only when asked."""

from __future__ import annotations

from typing import Any, NamedTuple

from engine.eighteen.board.graph import Chain, TrackNetwork
from engine.eighteen.board.tiles import NodeKind
from engine.g1860.routes import RouteRules, full_for, track_bits

Stops = tuple[
    int, int, tuple[int, ...], int
]  # big stations, their revenue, towns best first, halts
# a walk's stops packed in one integer, grown by addition as the walk grows: big stations in
# bits 0-7, halts in 8-15, the place of its towns (best first) in the walk's list of town
# sets in 16-35, the big stations' revenue above
ONE_BIG, ONE_HALT, TOWNS_AT, REVENUE_AT = 1, 1 << 8, 16, 36


class Walk(NamedTuple):
    """A simple line of track through a station, as two arms out from that station (a tuple:
    over 100,000 of them are made in one search)."""

    back: tuple[int, ...]  # one arm's stops, from the station out (the station first)
    back_chains: tuple[Chain, ...]
    ahead: tuple[int, ...]  # the other arm's (the station first)
    ahead_chains: tuple[Chain, ...]
    sides: int  # its track, as bits
    passes_full: bool
    stops: int  # what its stops are, packed (see `read_stops`)
    node_bits: int  # the stations it visits, as bits
    chain_bits: int  # the chains it runs along, as bits of their ids

    @property
    def nodes(self) -> tuple[int, ...]:
        return self.back[::-1] + self.ahead[1:]

    @property
    def chains(self) -> tuple[Chain, ...]:
        return self.back_chains[::-1] + self.ahead_chains

    @property
    def length(self) -> int:
        return len(self.back) + len(self.ahead) - 1


class _Arm(NamedTuple):
    """A line of track out from a station (its first stop); arms are listed depth first, so the
    arms grown from one follow it (how many: `_arms`' list of sizes)."""

    nodes: tuple[int, ...]
    chains: tuple[Chain, ...]
    sides: int
    node_bits: int  # its stops but the station
    chain_bits: int
    stops: int  # packed, the station included
    towns: tuple[int, ...]  # best first
    passed: int  # full stations passed inside it
    end_kind: int  # of its last stop: 0 big, 1 town, 2 halt
    first: int  # the id of its first chain
    parent: int  # its place less its last chain (-1: the station alone)
    entered: int  # the hexes its last chain enters, as bits


def walks(
    network: TrackNetwork,
    corp: str,
    big: int,
    rules: RouteRules,
    flipped: set[str],
    phase_color: str,
) -> tuple[list[Walk], list[tuple[int, ...]]]:
    """Every simple walk through one of the company's stations: no stop or hex side twice, no hex
    re-entered (unless allowed), at most `big` big stations, not through Ryde Pier, passing at
    most one full station, not ending at a halt; each walk is listed once, in one direction
    (the second arm starts with a higher-numbered chain than the first; walks through an earlier
    station are not grown again from a later one). A walk is two arms out of its station: the
    arms are listed once, and each arm is joined to the later-starting arms that share no stop,
    track or hex with it, found as bit masks over the arms. The second list holds the sets of
    towns the walks' packed stops point to."""
    nodes = network.nodes
    value = [n.revenue.value(phase_color) for n in nodes]
    hex_bit = {
        h: 1 << i
        for i, h in enumerate(
            sorted({n.hex for n in nodes} | {h for c in network.chains for h in c.hexes})
        )
    }
    moves = _moves(network, hex_bit, rules.re_enter_hexes)
    overlap = overlaps(network, (1 << len(network.chains)) - 1 if network.chains else 0)
    found: list[Walk] = []
    town_sets: dict[tuple[int, ...], int] = {(): 0}
    merged: dict[tuple[int, int], int] = {}
    new = tuple.__new__
    done = 0
    full = [full_for(n, corp, flipped) for n in nodes]
    for station in network.token_nodes(corp):
        home_stops = (value[station] << REVENUE_AT) + (ONE_BIG if _kind(nodes[station]) == 0 else 0)
        arms, sizes = _arms(
            station,
            done,
            home_stops,
            big,
            hex_bit[nodes[station].hex],
            moves,
            value,
            full,
            [n.kind is NodeKind.OFFBOARD for n in nodes],
            town_sets,
        )
        blocked, eligible = _arm_masks(arms, sizes, overlap, big + (home_stops & 255))
        station_bit, lone, count = 1 << station, (station,), len(arms)
        # what a join reads of its second arm, unpacked once per arm rather than once per join
        seconds = [(*a[:6], a.towns, a.passed, a.stops >> TOWNS_AT & 0xFFFFF) for a in arms]
        add = found.append
        for i, a in enumerate(arms):
            if a.end_kind == 2:
                continue
            a_nodes, a_chains, a_sides, a_node_bits, a_chain_bits, a_stops, a_towns, a_passed = a[
                :8
            ]
            a_node_bits |= station_bit
            add(
                new(
                    Walk,
                    (
                        lone,
                        (),
                        a_nodes,
                        a_chains,
                        a_sides,
                        a_passed > 0,
                        a_stops,
                        a_node_bits,
                        a_chain_bits,
                    ),
                )
            )
            free = eligible(a)
            free ^= free & blocked[i]
            if not free:
                continue
            base = a_stops - home_stops
            a_towns_at = a_stops >> TOWNS_AT & 0xFFFFF
            row = format(free, f"0{count}b")  # the arms it may be joined to, as '1's in order
            j = row.find("1")
            while j >= 0:
                (
                    b_nodes,
                    b_chains,
                    b_sides,
                    b_node_bits,
                    b_chain_bits,
                    b_stops,
                    b_towns,
                    b_passed,
                    b_towns_at,
                ) = seconds[j]
                stops = base + b_stops
                if a_towns and b_towns:
                    ids = (a_towns_at, b_towns_at)
                    both = merged.get(ids)
                    if both is None:
                        both = merged[ids] = town_sets.setdefault(
                            tuple(sorted(a_towns + b_towns, reverse=True)), len(town_sets)
                        )
                    stops += (both - a_towns_at - b_towns_at) << TOWNS_AT
                add(
                    new(
                        Walk,
                        (
                            a_nodes,
                            a_chains,
                            b_nodes,
                            b_chains,
                            a_sides | b_sides,
                            a_passed + b_passed > 0,
                            stops,
                            a_node_bits | b_node_bits,
                            a_chain_bits | b_chain_bits,
                        ),
                    )
                )
                j = row.find("1", j + 1)
        done |= 1 << station
    return found, list(town_sets)


def _kind(node: Any) -> int:
    return (
        0
        if node.kind in (NodeKind.CITY, NodeKind.OFFBOARD)
        else (2 if node.kind is NodeKind.HALT else 1)
    )


def _arms(
    station: int,
    done: int,
    home_stops: int,
    big: int,
    home_hex: int,
    moves: list[list[_Move]],
    value: list[int],
    full: list[bool],
    stop_here: list[bool],
    town_sets: dict[tuple[int, ...], int],
) -> tuple[list[_Arm], list[int]]:
    """Every arm out of `station`, depth first: no stop, track or hex twice, not through an
    earlier station, at most `big` big stations with the station, not beyond Ryde Pier, past at
    most one full station; and for each, how many arms from its place on are it and those grown
    from it."""
    out: list[_Arm] = []
    sizes: list[int] = []
    path = [station]
    chains: list[Chain] = []
    towns: list[int] = []
    new = tuple.__new__

    def grow(
        end: int,
        sides: int,
        seen: int,
        hexes_in: int,
        chain_bits: int,
        stops: int,
        passed: int,
        parent: int,
        entered: int,
        town_list: tuple[int, ...],
        end_kind: int,
    ) -> None:
        me = parent
        if chains:
            me = len(out)
            out.append(
                new(
                    _Arm,
                    (
                        tuple(path),
                        tuple(chains),
                        sides,
                        seen,
                        chain_bits,
                        stops,
                        town_list,
                        passed,
                        end_kind,
                        chains[0].id,
                        parent,
                        entered,
                    ),
                )
            )
            sizes.append(1)
            if stop_here[end] or (full[end] and passed):
                return
            if full[end]:
                passed += 1
        for chain, nxt, bits, k, new_hexes in moves[end]:
            if (seen | done | 1 << station) >> nxt & 1 or bits & sides or new_hexes & hexes_in:
                continue
            grown_towns = town_list
            if k == 0:
                if stops & 255 >= big:
                    continue
                grown = stops + ONE_BIG + (value[nxt] << REVENUE_AT)
            elif k == 1:
                towns.append(value[nxt])
                grown_towns = tuple(sorted(towns, reverse=True))
                town_set = town_sets.setdefault(grown_towns, len(town_sets))
                grown = stops + ((town_set - (stops >> TOWNS_AT & 0xFFFFF)) << TOWNS_AT)
            else:
                grown = stops + ONE_HALT
            path.append(nxt)
            chains.append(chain)
            grow(
                nxt,
                sides | bits,
                seen | 1 << nxt,
                hexes_in | new_hexes,
                chain_bits | 1 << chain.id,
                grown,
                passed,
                me,
                new_hexes,
                grown_towns,
                k,
            )
            chains.pop()
            path.pop()
            if k == 1:
                towns.pop()
        if chains:
            sizes[me] = len(out) - me

    grow(station, 0, 0, home_hex, 0, home_stops, 0, -1, 0, (), 0)
    return out, sizes


def _arm_masks(
    arms: list[_Arm], sizes: list[int], overlap: dict[int, int], most_big: int
) -> tuple[list[int], Any]:
    """For each arm, the arms sharing a stop, track or hex with it (bits: the first arm the
    highest); and a function giving the arms an arm may be joined to otherwise (starting with a
    higher-numbered chain, not ending at a halt, big stations and full stations within bounds)."""
    count = len(arms)
    by_node: dict[int, int] = {}
    by_chain: dict[int, int] = {}
    by_hex: dict[int, int] = {}
    for i, (a, size) in enumerate(zip(arms, sizes)):
        span = ((1 << size) - 1) << (count - i - size)  # the arm and those grown from it
        by_node[a.nodes[-1]] = by_node.get(a.nodes[-1], 0) | span
        by_chain[a.chains[-1].id] = by_chain.get(a.chains[-1].id, 0) | span
        rest = a.entered
        while rest:
            low = rest & -rest
            by_hex[low] = by_hex.get(low, 0) | span
            rest ^= low
    track: dict[int, int] = {}
    blocked: list[int] = []
    for a in arms:
        last = a.chains[-1].id
        if last not in track:
            mask = 0
            for other, arms_on in by_chain.items():
                if overlap[last] >> other & 1:
                    mask |= arms_on
            track[last] = mask
        mask = (blocked[a.parent] if a.parent >= 0 else 0) | by_node[a.nodes[-1]] | track[last]
        rest = a.entered
        while rest:
            low = rest & -rest
            mask |= by_hex[low]
            rest ^= low
        blocked.append(mask)

    def column(flags: list[bool]) -> int:
        return int("".join(["1" if f else "0" for f in flags]) or "0", 2)

    n_big = [a.stops & 255 for a in arms]
    ends = column([a.end_kind != 2 for a in arms])
    unpassed = column([a.passed == 0 for a in arms])
    bigs = [column([b <= n for b in n_big]) for n in range(most_big + 1)]
    later = {f: column([a.first > f for a in arms]) & ends for f in {a.first for a in arms}}

    def eligible(a: _Arm) -> int:
        room = most_big - (a.stops & 255)
        free = later[a.first] & bigs[room] if room >= 0 else 0
        return free & unpassed if a.passed else free

    return blocked, eligible


def overlaps(network: TrackNetwork, used: int) -> dict[int, int]:
    """For each chain in `used` (bits of chain ids), the chains of `used` sharing track with it
    (itself included), as bits."""
    bits = {c.id: track_bits(network, c) for c in network.chains if used >> c.id & 1}
    out: dict[int, int] = {}
    for cid, b in bits.items():
        mask = 0
        for other, ob in bits.items():
            if ob & b:
                mask |= 1 << other
        out[cid] = mask
    return out


def read_stops(stops: int, town_sets: list[tuple[int, ...]]) -> Stops:
    """A walk's packed stops, unpacked."""
    return (
        stops & 255,
        stops >> REVENUE_AT,
        town_sets[stops >> TOWNS_AT & 0xFFFFF],
        stops >> 8 & 255,
    )


_Move = tuple[Chain, int, int, int, int]


def _moves(network: TrackNetwork, hex_bit: dict[str, int], re_enter: bool) -> list[list[_Move]]:
    """For each stop, the chains leaving it: (chain, the stop it leads to, its track as bits, that
    stop's kind (0 big, 1 town, 2 halt), the hexes it enters as bits, its start hex left out)."""
    nodes = network.nodes
    out: list[list[_Move]] = []
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
            row.append((chain, nxt, track_bits(network, chain), _kind(nodes[nxt]), entered))
        out.append(row)
    return out
