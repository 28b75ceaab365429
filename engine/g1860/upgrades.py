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
        for start in network.token_nodes(corp):
            _Walk(network, corp, nodes, paths).node(start, (0, 0), {})
        found = memo[("1860 distances", corp)] = (nodes, paths)
    return found


def _merge(found: dict[int, Distance], key: int, distance: Distance) -> None:
    had = found.get(key)
    if had is None:
        found[key] = distance
    elif distance[0] < had[0] or distance[1] < had[1]:
        found[key] = (min(had[0], distance[0]), min(had[1], distance[1]))


class _Walk:
    def __init__(
        self,
        network: TrackNetwork,
        corp: str,
        nodes: dict[int, Distance],
        paths: dict[int, Distance],
    ) -> None:
        self.network, self.corp, self.nodes, self.paths = network, corp, nodes, paths
        self.entered: dict[tuple[int, int], Distance] = {}  # (path, centre) -> distance seen
        self.terminus: dict[int, bool] = {}  # path -> does it touch an offboard

    def node(self, nid: int, distance: Distance, exited: dict[tuple[str, int], int]) -> None:
        _merge(self.nodes, nid, distance)
        node = self.network.nodes[nid]
        if node.blocks(self.corp):
            return
        if node.kind is NodeKind.CITY:
            distance = (distance[0] + 1, distance[1])
        elif node.kind is NodeKind.TOWN:
            distance = (distance[0], distance[1] + 1)
        for state in self.network.node_states.get(nid, ()):
            self.track(state >> 1, None, set(), exited, nid, distance)

    def reached(
        self, pid: int, came_from: int, distance: Distance, exited: dict[tuple[str, int], int]
    ) -> None:
        _merge(self.paths, pid, distance)
        path = self.network.paths[pid]
        assert path is not None
        terminus = self.terminus.get(pid)
        if terminus is None:
            nodes = self.network.nodes
            terminus = self.terminus[pid] = any(
                nodes[n].kind is NodeKind.OFFBOARD for n in path.nodes
            )
        if terminus:
            return  # nothing is reached through it
        for nid in path.nodes:
            if nid == came_from:
                continue
            seen = self.entered.get((pid, nid))
            if seen is not None and seen[0] <= distance[0] and seen[1] <= distance[1]:
                continue
            self.entered[(pid, nid)] = (
                distance if seen is None else (min(seen[0], distance[0]), min(seen[1], distance[1]))
            )
            self.node(nid, distance, exited)

    def track(
        self,
        pid: int,
        skip: int | None,
        visited: set[int],
        exited: dict[tuple[str, int], int],
        came_from: int,
        distance: Distance,
    ) -> None:
        """Follow track from a path through hex sides (not through revenue centres), reaching
        every path on the way from centre `came_from` at `distance`."""
        path = self.network.paths[pid]
        assert path is not None
        if pid in visited:
            return
        hex_id = path.hex
        for side in path.edges:
            if exited.get((hex_id, side)):
                return
        visited.add(pid)
        self.reached(pid, came_from, distance, exited)
        sides = self.network.neighbours.get(hex_id, {})
        for side in path.edges:
            if side == skip:
                continue
            other = sides.get(side)
            if other is None:
                continue
            exited[(hex_id, side)] = exited.get((hex_id, side), 0) + 1
            back = opposite(side)
            for state in self.network.edge_states.get((other, back), ()):
                self.track(state >> 1, back, visited, exited, came_from, distance)
            exited[(hex_id, side)] -= 1
        visited.discard(pid)


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
    values_before: list[int],
    old: TileDef,
    old_rotation: int,
    reached: Callable[[int], bool],
) -> str | None:
    """Why this upgrade (already on `network`) breaks §7.3, or None. `values_before`: the stops'
    values the train reached before the lay; `reached(path)`: is that path of the company's
    connected track (asked last, of the few paths that need it: a walk of its own each)."""
    if train[0] == 0:
        return f"{corp} has no train, and only a company with a train may upgrade"
    nodes, paths = distances(network, corp)
    on_hex = hex_paths(network, hex_id)
    if not any(pid in paths for pid in on_hex) or not _hex_in_reach(
        network, hex_id, on_hex, nodes, paths, train
    ):
        return f"{hex_id} is beyond the reach of {corp}'s biggest train"
    changed_value = values_before != sorted(
        network.nodes[n].revenue.maximum
        for n in hex_nodes(network, hex_id)
        if node_in_reach(network, n, nodes, train)
    )
    old_ends = [_ends_of_old(old, p) for p in old.rotated_paths(old_rotation)]
    for pid in on_hex:
        d = paths.get(pid)
        if d is None or d[0] > train[0] or d[1] > train[1]:
            continue
        if not any(_kept(_ends_of_new(network, pid), ends) for ends in old_ends) and reached(pid):
            return None  # new track a train can use
    if changed_value:
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
