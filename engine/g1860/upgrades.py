"""1860's limits on upgrades (rules §7.3): the upgraded hex must lie within reach of the
company's biggest train, and the new tile must either add track a train of the company can use
or change the value of a stop it can reach ("semi-restrictive").

Reach here is a distance: how many big stations (cities) and small ones (towns; halts cost
nothing) a train passes from one of the company's bases before a stop or a piece of track, the
way 18xx.games' distance graph counts them — walking track without crossing the same hex side
twice in a direction, stopping at stations full of other companies' bases and at Ryde Pier.
These checks apply to the lay itself, so they are made on the board with the new tile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.eighteen.board.graph import PATH_SLOTS, TrackNetwork
from engine.eighteen.board.hexgrid import opposite
from engine.eighteen.board.tiles import NodeKind, PathDef, TileDef
from engine.g1860.host import Game1860Host

if TYPE_CHECKING:
    from engine.eighteen.entities import Corporation

Distance = tuple[int, int]  # (cities, towns) passed
NO_TRAIN: Distance = (0, 0)


def biggest_train(game: Game1860Host, corp: Corporation) -> Distance:
    """(cities, towns) the company's longest train may count: its first number, and its second
    one when towns may not be skipped (otherwise towns are unlimited)."""
    if not corp.trains:
        return NO_TRAIN
    big, small = max((t.distance for t in corp.trains), key=lambda d: d[0])  # type: ignore[index,misc]
    return big, small if game.route_rules().no_skip_towns else 9999


def distances(network: TrackNetwork, corp: str) -> tuple[dict[int, Distance], dict[int, Distance]]:
    """The fewest (cities, towns) passed to reach each revenue centre and each path (worked
    out once per network: every lay a listing tries asks it of the position before)."""
    memo = network.memo()
    found = memo.get(("1860 distances", corp))
    if found is None:
        nodes: dict[int, Distance] = {}
        paths: dict[int, Distance] = {}
        steps = _steps(network)
        for start in network.token_nodes(corp):
            _walk(network, corp, steps, nodes, paths, start)
        found = memo[("1860 distances", corp)] = (nodes, paths)
    return found


# per path: the hex sides it leaves by (bits, see `_side_bit`), its revenue centres, whether it
# touches an offboard, and each way on: (its side, that side's bit, the side entered beyond,
# the paths entered there)
_Step = tuple[int, tuple[int, ...], bool, list[tuple[int, int, int, list[int]]]]


def _steps(network: TrackNetwork) -> dict[int, _Step]:
    nodes = network.nodes
    steps: dict[int, _Step] = {}
    for path in network.paths:
        if path is None:
            continue
        sides = network.neighbours.get(path.hex, {})
        ways = []
        for side in path.edges:
            other = sides.get(side)
            if other is not None:
                back = opposite(side)
                beyond = [state >> 1 for state in network.edge_states.get((other, back), ())]
                ways.append((side, _side_bit(network, path.hex, side), back, beyond))
        leaves = 0
        for side in path.edges:
            leaves |= _side_bit(network, path.hex, side)
        terminus = any(nodes[n].kind is NodeKind.OFFBOARD for n in path.nodes)
        steps[path.id] = (leaves, path.nodes, terminus, ways)
    return steps


def _side_bit(network: TrackNetwork, hex_id: str, side: int) -> int:
    """The bit of leaving `hex_id` by `side` (a direction: the way back is another bit)."""
    return 1 << 6 * network.hex_slot[hex_id] + side


def _walk(
    network: TrackNetwork,
    corp: str,
    steps: dict[int, _Step],
    nodes: dict[int, Distance],
    paths: dict[int, Distance],
    start: int,
) -> None:
    """Walk the track from `start` the way 18xx.games' distance graph does, keeping the fewest
    (cities, towns) passed to each centre and path: from a centre, along paths joined by hex
    sides (a path once a leg, a hex side left at most once a walk), entering every centre of a
    path reached, unless it was entered from that path at no more distance already. Visited
    paths and sides left are bits of integers handed down, so nothing is undone on return."""
    node_states = network.node_states
    entered: dict[tuple[int, int], Distance] = {}  # (path, centre) -> distance seen
    # per centre: None where walks stop, else what passing it adds (cities, towns)
    adds = [
        None if n.blocks(corp) else (n.kind is NodeKind.CITY, n.kind is NodeKind.TOWN)
        for n in network.nodes
    ]

    def node(nid: int, distance: Distance, exited: int) -> None:
        had = nodes.get(nid)
        if had is None:
            nodes[nid] = distance
        elif distance[0] < had[0] or distance[1] < had[1]:
            nodes[nid] = (min(had[0], distance[0]), min(had[1], distance[1]))
        add = adds[nid]
        if add is None:
            return
        if add[0] or add[1]:
            distance = (distance[0] + add[0], distance[1] + add[1])
        for state in node_states.get(nid, ()):
            track(state >> 1, -1, 0, exited, nid, distance)

    def track(
        pid: int, skip: int, visited: int, exited: int, came_from: int, distance: Distance
    ) -> None:
        """Follow track from a path through hex sides (not through revenue centres), reaching
        every path on the way from centre `came_from` at `distance`."""
        if visited >> pid & 1:
            return
        leaves, ends, terminus, ways = steps[pid]
        if exited & leaves:
            return
        visited |= 1 << pid
        had = paths.get(pid)
        if had is None:
            paths[pid] = distance
        elif distance[0] < had[0] or distance[1] < had[1]:
            paths[pid] = (min(had[0], distance[0]), min(had[1], distance[1]))
        if not terminus:  # nothing is reached through a path to an offboard
            for nid in ends:
                if nid == came_from:
                    continue
                seen = entered.get((pid, nid))
                if seen is not None and seen[0] <= distance[0] and seen[1] <= distance[1]:
                    continue
                entered[(pid, nid)] = (
                    distance
                    if seen is None
                    else (min(seen[0], distance[0]), min(seen[1], distance[1]))
                )
                node(nid, distance, exited)
        for side, bit, back, beyond in ways:
            if side != skip:
                for nxt in beyond:
                    track(nxt, back, visited, exited | bit, came_from, distance)

    node(start, (0, 0), 0)


def _city_ok(d: Distance, train: Distance) -> bool:
    unused = train[0] - d[0] - 1
    return d[0] < train[0] and d[1] <= train[1] + unused


def _town_ok(d: Distance, train: Distance) -> bool:
    unused = train[0] - d[0]
    return d[0] <= train[0] and d[1] < train[1] + unused


def _halt_ok(d: Distance, train: Distance) -> bool:
    unused = train[0] - d[0]
    return d[0] <= train[0] and d[1] <= train[1] + unused


def node_in_reach(
    network: TrackNetwork,
    nid: int,
    found: dict[int, Distance],
    train: Distance,
    *,
    offboard_as_city: bool = False,
) -> bool:
    """Can the train stop there? (An offboard counts like a halt, except when judging whether
    a hex is in reach, where it counts like a city: 18xx.games' two tests differ so.)"""
    if train[0] == 0 or nid not in found:
        return False
    kind = network.nodes[nid].kind
    if kind is NodeKind.CITY or (kind is NodeKind.OFFBOARD and offboard_as_city):
        return _city_ok(found[nid], train)
    return (_town_ok if kind is NodeKind.TOWN else _halt_ok)(found[nid], train)


def hex_paths(network: TrackNetwork, hex_id: str) -> list[int]:
    base = PATH_SLOTS * network.hex_slot[hex_id]
    return [pid for pid in range(base, base + PATH_SLOTS) if network.paths[pid] is not None]


def hex_nodes(network: TrackNetwork, hex_id: str) -> list[int]:
    return [n.id for n in network.nodes if n.hex == hex_id]


def stop_values(network: TrackNetwork, corp: str, hex_id: str, train: Distance) -> list[int]:
    """The best values of the hex's stops the biggest train reaches, in order."""
    nodes, _ = distances(network, corp)
    return sorted(
        network.nodes[n].revenue.maximum
        for n in hex_nodes(network, hex_id)
        if node_in_reach(network, n, nodes, train)
    )


def upgrade_problem(
    network: TrackNetwork,
    corp: str,
    hex_id: str,
    train: Distance,
    values_before: Callable[[], list[int]],
    old: TileDef,
    old_rotation: int,
    reached: Callable[[int], bool],
) -> str | None:
    """Why this upgrade (already on `network`) breaks §7.3, or None. `values_before()`: the
    stops' values the train reached before the lay (asked only when the new track decides
    nothing: a walk of the network before the lay); `reached(path)`: is that path of the
    company's connected track (asked of the few paths that need it: a walk of its own each)."""
    if train[0] == 0:
        return f"{corp} has no train, and only a company with a train may upgrade"
    nodes, paths = distances(network, corp)
    on_hex = hex_paths(network, hex_id)
    if not any(pid in paths for pid in on_hex) or not _hex_in_reach(
        network, hex_id, on_hex, nodes, paths, train
    ):
        return f"{hex_id} is beyond the reach of {corp}'s biggest train"
    old_ends = [_ends_of_old(old, p) for p in old.rotated_paths(old_rotation)]
    for pid in on_hex:
        d = paths.get(pid)
        if d is None or d[0] > train[0] or d[1] > train[1]:
            continue
        if not any(_kept(_ends_of_new(network, pid), ends) for ends in old_ends) and reached(pid):
            return None  # new track a train can use
    if values_before() != stop_values(network, corp, hex_id, train):
        return None
    return (
        f"the new tile on {hex_id} adds no track {corp}'s trains can use and changes no value of a "
        "stop they reach"
    )


def _hex_in_reach(
    network: TrackNetwork,
    hex_id: str,
    on_hex: list[int],
    nodes: dict[int, Distance],
    paths: dict[int, Distance],
    train: Distance,
) -> bool:
    here = hex_nodes(network, hex_id)
    if here:
        return any(node_in_reach(network, n, nodes, train, offboard_as_city=True) for n in here)
    return any(pid in paths and _halt_ok(paths[pid], train) for pid in on_hex)


def _ends_of_old(tile: TileDef, path: PathDef) -> set[tuple[str, object]]:
    ends: set[tuple[str, object]] = set()
    for end in (path.a, path.b):
        ends.add(("edge", end) if isinstance(end, int) else ("node", tile.nodes[end.index].kind))
    return ends


def _ends_of_new(network: TrackNetwork, pid: int) -> list[tuple[str, object]]:
    path = network.paths[pid]
    assert path is not None
    return [("edge", e) for e in path.edges] + [("node", network.nodes[n].kind) for n in path.nodes]


def _kept(new: list[tuple[str, object]], old: set[tuple[str, object]]) -> bool:
    """Is the new path's track all old track (18xx `Path#<=`: same sides, same kind of stop; a
    halt may stand where a town stood)?"""
    return all(
        end in old or (end == ("node", NodeKind.HALT) and ("node", NodeKind.TOWN) in old)
        for end in new
    )
