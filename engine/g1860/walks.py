"""Every line of track an 1860 train may run for a company: simple walks through one of its
stations, grown as two arms from that station. A late-game island holds over 100,000 of them,
so a walk is kept as little as the search needs: which two arms it joins, what its stops are
(packed in one integer) and, for a search over several trains, one row of bits (its chains,
home, full station passed); its stops and chains in order are put together only when asked.
The arms (tens of thousands) are tuples of integers only, and the walks each arm joins are
found by filtering its shorter arm's list (see `_partners`)."""

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
    arms grown from one follow it. Only integers, so that tens of thousands of them stay small
    (the garbage collector still tracks them: about 4% of a route search); its stops and chains
    in order are made when asked."""

    station: int
    end: int  # its last stop
    last: int  # the id of its last chain
    sides: int
    node_bits: int  # its stops but the station
    chain_bits: int
    stops: int  # packed, the station included
    towns: tuple[int, ...]  # best first
    passed: int  # full stations passed inside it
    end_kind: int  # of its last stop: 0 big, 1 town, 2 halt
    first: int  # the id of its first chain
    parent: int  # the place of the arm one chain shorter (-1: the station alone)
    hexes: int  # the hexes it enters, as bits (its station's left out)


class Walks:
    """Every walk of a company, in the order found. Walk w is arm `pairs[w] >> PAIR` alone (low
    bits 0) or joined to arm `(pairs[w] & SECOND) - 1`; only its packed stops are kept beside,
    and the rest is read from its arms when the search asks (most walks it never looks at)."""

    def __init__(
        self,
        arms: list[_Arm],
        pairs: list[int],
        stops: list[int],
        town_sets: list[tuple[int, ...]],
        network_chains: list[Chain],
        rows: list[int],
    ) -> None:
        self.arms = arms
        # per walk, when asked for: visits home (bit width + 1), passes a full station (bit
        # width), the chains it runs along (bits of their ids), where width = the network's
        # chains
        self.rows = rows
        self.width = len(network_chains)
        self.network_chains = network_chains
        self._nodes: dict[int, tuple[int, ...]] = {}
        self._chains: dict[int, tuple[Chain, ...]] = {}
        self.pairs = pairs
        self.stops = stops
        self.town_sets = town_sets

    def __len__(self) -> int:
        return len(self.pairs)

    def nodes(self, arm: int) -> tuple[int, ...]:
        """An arm's stops in order from its station (made once)."""
        made = self._nodes.get(arm)
        if made is None:
            a = self.arms[arm]
            shorter = self.nodes(a.parent) if a.parent >= 0 else (a.station,)
            made = self._nodes[arm] = shorter + (a.end,)
        return made

    def chains(self, arm: int) -> tuple[Chain, ...]:
        """An arm's chains in order from its station (made once)."""
        made = self._chains.get(arm)
        if made is None:
            a = self.arms[arm]
            shorter = self.chains(a.parent) if a.parent >= 0 else ()
            made = self._chains[arm] = shorter + (self.network_chains[a.last],)
        return made

    def walk(self, w: int) -> Walk:
        pair = self.pairs[w]
        first = pair >> PAIR
        a = self.arms[first]
        second = (pair & SECOND) - 1
        if second < 0:
            return Walk(
                (a.station,),
                (),
                self.nodes(first),
                self.chains(first),
                a.sides,
                a.passed > 0,
                a.stops,
                a.node_bits | 1 << a.station,
                a.chain_bits,
            )
        b = self.arms[second]
        return Walk(
            self.nodes(first),
            self.chains(first),
            self.nodes(second),
            self.chains(second),
            a.sides | b.sides,
            a.passed + b.passed > 0,
            self.stops[w],
            a.node_bits | b.node_bits | 1 << a.station,
            a.chain_bits | b.chain_bits,
        )

    def seen(self, w: int) -> tuple[int, int, bool]:
        """(the stations it visits, the chains it runs along, as bits; whether it passes a full
        station) of walk w."""
        pair = self.pairs[w]
        a = self.arms[pair >> PAIR]
        second = (pair & SECOND) - 1
        if second < 0:
            return a.node_bits | 1 << a.station, a.chain_bits, a.passed > 0
        b = self.arms[second]
        return (
            a.node_bits | b.node_bits | 1 << a.station,
            a.chain_bits | b.chain_bits,
            a.passed + b.passed > 0,
        )

    def visits(self, w: int, node: int) -> bool:
        pair = self.pairs[w]
        a = self.arms[pair >> PAIR]
        second = (pair & SECOND) - 1
        bits = a.node_bits | 1 << a.station | (self.arms[second].node_bits if second >= 0 else 0)
        return bool(bits >> node & 1)

    def arms_of(self, w: int) -> tuple[int, ...]:
        """The arms walk w is made of: one, or two joined at their station."""
        pair = self.pairs[w]
        second = (pair & SECOND) - 1
        return (pair >> PAIR,) if second < 0 else (pair >> PAIR, second)

    def arm_links(self) -> list[tuple[int, int]]:
        """For each arm, (the arm one chain shorter or -1, the id of its last chain)."""
        return [(a.parent, a.last) for a in self.arms]

    def chains_used(self) -> int:
        """The chains some walk runs along, as bits of their ids."""
        used = 0
        for a in self.arms:
            if a.end_kind != 2:  # every arm but those ending at a halt is in a walk
                used |= a.chain_bits
        return used

    def by_stops(self) -> dict[int, list[int]]:
        """The walks of each kind of stops, each list in the order found."""
        groups: dict[int, list[int]] = {}
        for w, key in enumerate(self.stops):
            group = groups.get(key)
            if group is None:
                groups[key] = [w]
            else:
                group.append(w)
        return groups


def walks(
    network: TrackNetwork,
    corp: str,
    big: int,
    rules: RouteRules,
    flipped: set[str],
    phase_color: str,
    *,
    last: int | None = None,
    home: int | None = None,
) -> Walks:
    """Every simple walk through one of the company's stations (through `last` at the latest, when
    given): no stop or hex side twice, no hex re-entered (unless allowed), at most `big` big
    stations, not through Ryde Pier, passing at most one full station, not ending at a halt; each
    walk is listed once, in one direction (the second arm starts with a higher-numbered chain
    than the first; walks through an earlier station are not grown again from a later one).
    A walk is two arms out of its station: the arms are listed once, and each arm is joined to
    the later-starting arms that share no stop, track or hex with it (see `_partners`). With
    `home`, each walk's row of bits is kept too (see `Walks.rows`)."""
    nodes = network.nodes
    value = [n.revenue.value(phase_color) for n in nodes]
    hex_bit = {
        h: 1 << i
        for i, h in enumerate(
            sorted({n.hex for n in nodes} | {h for c in network.chains for h in c.hexes})
        )
    }
    moves = _moves(network, hex_bit, rules.re_enter_hexes)
    track_width = max((m[2].bit_length() for row in moves for m in row), default=0)
    shifts = (len(nodes), len(nodes) + track_width, len(nodes) + track_width + len(hex_bit))
    all_arms: list[_Arm] = []
    rows: list[int] = []
    width = len(network.chains)
    pairs: list[int] = []
    stops: list[int] = []
    town_sets: dict[tuple[int, ...], int] = {(): 0}
    joined = _Joined(pairs, stops, rows, town_sets, {})
    done = 0
    full = [full_for(n, corp, flipped) for n in nodes]
    offboard = [n.kind is NodeKind.OFFBOARD for n in nodes]
    for station in network.token_nodes(corp):
        home_hex = hex_bit[nodes[station].hex]
        home_stops = (value[station] << REVENUE_AT) + (ONE_BIG if _kind(nodes[station]) == 0 else 0)
        offset = len(all_arms)
        arms = _arms(
            station,
            offset,
            done,
            home_stops,
            big,
            home_hex,
            moves,
            value,
            full,
            offboard,
            town_sets,
        )
        partners = _partners(arms, offset, big + (home_stops & 255), shifts)
        all_arms.extend(arms)
        joined.add(arms, offset, partners, home_stops, None if home is None else (home, width))
        done |= 1 << station
        if station == last:
            break
    return Walks(all_arms, pairs, stops, list(town_sets), network.chains, rows)


PAIR = 32  # a walk's first arm is kept above this bit, its second arm (plus one) below
SECOND = (1 << PAIR) - 1


class _Joined:
    """The lists of `Walks` being filled, station by station."""

    def __init__(
        self,
        pairs: list[int],
        stops: list[int],
        rows: list[int],
        town_sets: dict[tuple[int, ...], int],
        merges: dict[int, _Merges],
    ) -> None:
        self.pairs, self.stops, self.rows = pairs, stops, rows
        self.town_sets, self.merges = town_sets, merges

    def add(
        self,
        arms: list[_Arm],
        offset: int,
        partners: list[list[int]],
        home_stops: int,
        rows_for: tuple[int, int] | None,
    ) -> None:
        """Each arm of one station (kept from place `offset` on) alone, then joined to each of
        its partners; with `rows_for` (home, width), each walk's row of bits too."""
        pairs, stops, rows = self.pairs, self.stops, self.rows
        second_stops = [a.stops for a in arms]
        second_towns = [a.stops >> TOWNS_AT & 0xFFFFF for a in arms]
        if rows_for is not None:
            home, width = rows_for
            second_rows = [
                (a.node_bits >> home & 1) << width + 1 | (a.passed > 0) << width | a.chain_bits
                for a in arms
            ]
            first_rows = [
                row | (a.station == home) << width + 1 for a, row in zip(arms, second_rows)
            ]
        for i, a in enumerate(arms):
            if a.end_kind == 2:
                continue
            me = (offset + i) << PAIR
            pairs.append(me)
            stops.append(a.stops)
            joined = partners[i]
            if rows_for is not None:
                row = first_rows[i]
                rows.append(row)
                rows.extend([row | second_rows[j] for j in joined])
            if not joined:
                continue
            pairs.extend([me | offset + 1 + j for j in joined])
            base = a.stops - home_stops
            if a.towns:
                towns_at = a.stops >> TOWNS_AT & 0xFFFFF
                merged = self.merges.get(towns_at)
                if merged is None:
                    merged = self.merges[towns_at] = _Merges(towns_at, a.towns, self.town_sets)
                stops.extend([base + second_stops[j] + merged[second_towns[j]] for j in joined])
            else:
                stops.extend([base + second_stops[j] for j in joined])


class _Merges(dict[int, int]):
    """What joining an arm with towns to another arm adds to its packed stops, by the other
    arm's set of towns: the place of the merged set less the places of the two."""

    def __init__(
        self, towns_at: int, towns: tuple[int, ...], town_sets: dict[tuple[int, ...], int]
    ) -> None:
        super().__init__({0: 0})
        self.towns_at = towns_at
        self.towns = towns
        self.town_sets = town_sets
        self.listed = list(town_sets)

    def __missing__(self, other: int) -> int:
        if other >= len(self.listed):
            self.listed = list(self.town_sets)
        both = tuple(sorted(self.towns + self.listed[other], reverse=True))
        at = self.town_sets.setdefault(both, len(self.town_sets))
        self[other] = added = (at - self.towns_at - other) << TOWNS_AT
        return added


def _kind(node: Any) -> int:
    return (
        0
        if node.kind in (NodeKind.CITY, NodeKind.OFFBOARD)
        else (2 if node.kind is NodeKind.HALT else 1)
    )


def _arms(
    station: int,
    offset: int,
    done: int,
    home_stops: int,
    big: int,
    home_hex: int,
    moves: list[list[_Move]],
    value: list[int],
    full: list[bool],
    stop_here: list[bool],
    town_sets: dict[tuple[int, ...], int],
) -> list[_Arm]:
    """Every arm out of `station`, depth first (an arm's longer arms follow it): no stop, track or
    hex twice, not through an earlier station, at most `big` big stations with the station, not
    beyond Ryde Pier, past at most one full station. They will be kept from place `offset` on."""
    out: list[_Arm] = []
    towns: list[int] = []
    new = tuple.__new__
    blocked = done | 1 << station

    def grow(
        end: int,
        sides: int,
        seen: int,
        hexes_in: int,
        chain_bits: int,
        stops: int,
        passed: int,
        me: int,
        town_list: tuple[int, ...],
        first: int,
    ) -> None:
        """List the arms one chain longer than the one ending at `end` (place `me`, -1 for the
        station alone), each followed by those grown from it."""
        for chain, nxt, bits, k, new_hexes in moves[end]:
            if (seen | blocked) >> nxt & 1 or bits & sides or new_hexes & hexes_in:
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
            cid = chain.id
            start = cid if first < 0 else first
            arm_sides = sides | bits
            arm_seen = seen | 1 << nxt
            arm_hexes = hexes_in | new_hexes
            arm_chains = chain_bits | 1 << cid
            place = offset + len(out)
            out.append(
                new(
                    _Arm,
                    (
                        station,
                        nxt,
                        cid,
                        arm_sides,
                        arm_seen,
                        arm_chains,
                        grown,
                        grown_towns,
                        passed,
                        k,
                        start,
                        me,
                        arm_hexes ^ home_hex,
                    ),
                )
            )
            if not stop_here[nxt] and not (full[nxt] and passed):
                grow(
                    nxt,
                    arm_sides,
                    arm_seen,
                    arm_hexes,
                    arm_chains,
                    grown,
                    passed + full[nxt],
                    place,
                    grown_towns,
                    start,
                )
            if k == 1:
                towns.pop()

    grow(station, 0, 0, home_hex, 0, home_stops, 0, -1, (), -1)
    return out


def _partners(
    arms: list[_Arm], offset: int, most_big: int, shifts: tuple[int, int, int]
) -> list[list[int]]:
    """For each arm, the arms it may be joined to, in order: starting with a higher-numbered
    chain, not ending at a halt, sharing no stop, track or hex with it, within `most_big` big
    stations (the station counted in both) and one full station passed between them. The lists
    hold places among `arms`, whose first is kept at place `offset`.

    An arm's list is its shorter arm's list less the arms its last chain rules out, so each
    list is one filtering of a shorter one. An arm is one integer of what it takes (its stops,
    its track, its hexes, its big stations counted in unary, a full station passed) and one of
    what it rules out in another (the same, with the unary counts the room left cannot hold):
    two arms may be joined when those share no bit."""
    track_at, hexes_at, bigs_at = shifts
    passes = 1 << bigs_at + most_big + 1
    every_count = (1 << most_big + 1) - 1
    takes: list[int] = []
    rules_out: list[int] = []
    for a in arms:
        used = a.node_bits | a.sides << track_at | a.hexes << hexes_at | (passes if a.passed else 0)
        n_big = a.stops & 255
        takes.append(used | ((1 << n_big) - 1) << bigs_at)
        room = most_big - n_big
        rules_out.append(used | (every_count ^ ((1 << room) - 1)) << bigs_at if room >= 0 else -1)
    firsts = {a.first for a in arms}
    later = {f: [j for j, a in enumerate(arms) if a.first > f and a.end_kind != 2] for f in firsts}
    out: list[list[int]] = []
    for i, a in enumerate(arms):
        ruled = rules_out[i]
        shorter = out[a.parent - offset] if a.parent >= 0 else later[a.first]
        out.append([j for j in shorter if not takes[j] & ruled] if ruled >= 0 else [])
    return out


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
