"""Train routes in the 18xx.games `run_routes` format: reading, checking, valuing, writing.

A route dict looks like {"train": "2-1", "connections": [["I15", "I17", "I19"]], "hexes": [...],
"revenue": 40, "nodes": ["I15-0", "I19-0"]}: each connection lists the hexes of one chain of
track between two stops. Checks follow 1830 §10 as 18xx.games applies them: a continuous line
of unused track with a station of the company, at least two stops, no stop twice, no running
through an offboard or a city filled by other companies, no offboard area twice, no hex side
used twice by the company's trains, and no more stops than the train may count.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.eighteen.board.graph import Chain, Node, TrackNetwork
from engine.eighteen.board.tiles import NodeKind
from engine.errors import IllegalAction, InvalidAction


@dataclass(frozen=True)
class Distance:
    """How far a train runs: up to `big` stops (None: unlimited), plus `small` more that may
    only be towns. Unused big allowance may be spent on towns. An 1830 n-train is
    Distance(n): towns count like cities; an 1860 2+1 is Distance(2, 1); a diesel Distance(None)."""

    big: int | None
    small: int = 0

    @classmethod
    def of(cls, raw: DistanceLike) -> Distance:
        if isinstance(raw, Distance):
            return raw
        if raw is None or isinstance(raw, int):
            return cls(raw)
        big, small = raw
        return cls(big, small)

    def allows(self, big: int, small: int) -> bool:
        if self.big is None:
            return True
        return big <= self.big and big + small <= self.big + self.small

    @property
    def max_stops(self) -> int | None:
        return None if self.big is None else self.big + self.small

    def describe(self) -> str:
        if self.big is None:
            return "unlimited"
        return f"{self.big}+{self.small}" if self.small else str(self.big)


DistanceLike = Distance | int | None | Sequence[int]
TrainsLike = Mapping[str, DistanceLike] | Iterable[tuple[str, DistanceLike]]


def train_distances(trains: TrainsLike) -> dict[str, Distance]:
    """{train id: Distance} from a mapping or a list of (train id, distance) pairs."""
    items = trains.items() if isinstance(trains, Mapping) else trains
    return {str(tid): Distance.of(d) for tid, d in items}


def is_big(node: Node) -> bool:
    return node.kind in (NodeKind.CITY, NodeKind.OFFBOARD)


@dataclass(frozen=True)
class Run:
    """One train's route resolved on the network: stops in order and the chains between them."""

    train: str
    nodes: tuple[int, ...]
    chains: tuple[Chain, ...]

    @property
    def sides(self) -> int:
        mask = 0
        for chain in self.chains:
            mask |= chain.sides
        return mask

    def revenue(self, network: TrackNetwork, phase_color: str) -> int:
        return sum(network.nodes[n].revenue.value(phase_color) for n in self.nodes)

    def to_dict(self, network: TrackNetwork, phase_color: str) -> dict[str, Any]:
        stops = [network.nodes[n] for n in self.nodes]
        connections = []
        for i, chain in enumerate(self.chains):
            if len(chain.hexes) == 1 and _ambiguous(network, chain.hexes[0]):
                ends = sorted((network.nodes[chain.a].index, network.nodes[chain.b].index))
                connections.append([f"{chain.hexes[0]} {ends[0]}.{ends[1]}"])
                continue
            connections.append(
                list(chain.hexes) if chain.a == self.nodes[i] else list(reversed(chain.hexes))
            )
        hexes: list[str] = []
        for node in stops:
            if not hexes or hexes[-1] != node.hex:
                hexes.append(node.hex)
        return {
            "train": self.train,
            "connections": connections,
            "hexes": hexes,
            "revenue": self.revenue(network, phase_color),
            "revenue_str": "-".join(hexes),
            "nodes": [n.signature for n in stops],
        }


def _ambiguous(network: TrackNetwork, hex_id: str) -> bool:
    """Does the tile join more than one pair of stops inside the hex? Then a connection inside it
    is named "<hex> <node>.<node>", as 18xx.games names it."""
    return (
        sum(1 for p in network.paths if p is not None and p.hex == hex_id and len(p.nodes) == 2) > 1
    )


def resolve_route(network: TrackNetwork, route: Mapping[str, Any]) -> Run:
    """Turn a run_routes route into stops and chains; raise InvalidAction if the track is not there."""
    train = route.get("train")
    connections = route.get("connections")
    if not isinstance(train, str) or not isinstance(connections, list) or not connections:
        raise InvalidAction("a route needs a 'train' id and a non-empty list of 'connections'")
    hint = set(route.get("nodes") or ())
    chains = [_find_chain(network, train, conn, hint) for conn in connections]
    first = chains[0]
    start = first.a if first.hexes == tuple(connections[0]) else first.b
    if len(chains) > 1:
        shared = {first.a, first.b} & {chains[1].a, chains[1].b}
        if not shared:
            raise IllegalAction(f"train {train}: the route is not one continuous line")
        if len(shared) == 1:
            start = first.other(shared.pop())
        # else both chains join the same two stops: a loop back to a stop, read as written
    nodes = [start]
    for chain in chains:
        if nodes[-1] not in (chain.a, chain.b):
            raise IllegalAction(f"train {train}: the route is not one continuous line")
        nodes.append(chain.other(nodes[-1]))
    run = Run(train, tuple(nodes), tuple(chains))
    if hint and hint != {network.nodes[n].signature for n in run.nodes}:
        raise InvalidAction(
            f"train {train}: the listed stops {sorted(hint)} are not the ones its track joins"
        )
    return run


def _find_chain(network: TrackNetwork, train: str, hexes: Any, hint: set[str]) -> Chain:
    """The chain a connection names: its hexes in order, or for track inside one hex, that hex
    alone or (where the tile joins several pairs of stops) "<hex> <node>.<node>"."""
    if not isinstance(hexes, list) or not hexes or not all(isinstance(h, str) for h in hexes):
        raise InvalidAction(f"train {train}: a connection is a list of hexes, not {hexes!r}")
    if len(hexes) == 1 and " " in hexes[0]:
        hex_id, _, pair = hexes[0].partition(" ")
        ends = pair.split(".")
        if len(ends) != 2 or not all(e.isdigit() for e in ends):
            raise InvalidAction(f"train {train}: {hexes[0]!r} should look like 'F2 0.1'")
        wanted = {network.node_at.get((hex_id, int(e))) for e in ends}
        matches = [c for c in network.chains_along((hex_id,)) if {c.a, c.b} == wanted]
    else:
        matches = network.chains_along(hexes)
    if not matches:
        raise IllegalAction(
            f"train {train}: there is no track joining stops along {'-'.join(hexes)}"
        )
    for chain in matches:
        if {network.nodes[chain.a].signature, network.nodes[chain.b].signature} <= hint:
            return chain
    return matches[0]


def check_runs(
    network: TrackNetwork, corp: str, runs: Sequence[Run], trains: Mapping[str, Distance]
) -> None:
    """Raise IllegalAction naming the train and the broken rule, if any run is not allowed."""
    used_trains: set[str] = set()
    used_sides = 0
    for run in runs:
        label = f"train {run.train}"
        if run.train not in trains:
            raise InvalidAction(f"{corp} has no train {run.train}")
        if run.train in used_trains:
            raise IllegalAction(f"{label} can run only once")
        used_trains.add(run.train)
        stops = [network.nodes[n] for n in run.nodes]
        problem = run_problem(stops, corp)
        if problem:
            raise IllegalAction(f"{label}: {problem}")
        big = sum(1 for s in stops if is_big(s))
        distance = trains[run.train]
        if not distance.allows(big, len(stops) - big):
            raise IllegalAction(
                f"{label}: {len(stops)} stops are too many for a {distance.describe()}-train"
            )
        for chain in run.chains:
            if chain.sides & used_sides:
                where = sorted({h for h in chain.hexes})
                raise IllegalAction(
                    f"{label}: track near {', '.join(where)} is already used by {corp}'s trains"
                )
            used_sides |= chain.sides


def run_problem(stops: Sequence[Node], corp: str) -> str | None:
    """What is wrong with running through these stops in this order (None if nothing)."""
    if len(stops) < 2:
        return "a route needs at least two stops"
    seen: set[int] = set()
    for stop in stops:
        if stop.id in seen:
            return f"the route stops at {stop.signature} twice"
        seen.add(stop.id)
    for stop in stops[1:-1]:
        if stop.kind is NodeKind.OFFBOARD:
            return f"a route cannot run through the offboard area {stop.hex}; it must end there"
        if stop.blocks(corp):
            return f"a route cannot run through {stop.hex}: its circles are all taken by other companies"
    if not any(s.tokened_by(corp) for s in stops):
        return f"the route must include a station of {corp}"
    groups = [g for s in stops for g in s.groups]
    for g in groups:
        if groups.count(g) > 1:
            return f"the route may visit the {g} area only once"
    return None
