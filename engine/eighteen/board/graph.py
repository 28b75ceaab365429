"""The track on the map as a graph: revenue centres, track paths, hex sides and chains.

A `TrackNetwork` is a read-only snapshot of the board (tiles, rotations, tokens). Trains and
reach follow track without reversing: a walk enters a path at one end and leaves by the other;
at a revenue centre it may continue on any other path of that centre unless the centre blocks
the corporation (a city whose circles are all filled by others, or any offboard).

A *chain* is track between two revenue centres with none in between: what a route is made of.
Hex sides are the unit of track use: one route, or two routes of one corporation, may not use
the same side twice (18xx.games `check_overlap`).
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from engine.eighteen.board.hexgrid import opposite
from engine.eighteen.board.tiles import NodeKind, Revenue, TileDef


@dataclass(frozen=True)
class Node:
    id: int
    hex: str
    index: int  # revenue-centre number on its tile
    kind: NodeKind
    revenue: Revenue
    groups: tuple[str, ...]
    tokens: tuple[str | None, ...]  # cities: token circles, None = empty

    @property
    def signature(self) -> str:
        """How 18xx.games names a stop in a route: "<hex>-<index>"."""
        return f"{self.hex}-{self.index}"

    def blocks(self, corp: str) -> bool:
        """Can `corp`'s trains and reach not pass through here?"""
        if self.kind is NodeKind.OFFBOARD:
            return True
        if self.kind is NodeKind.CITY:
            return bool(self.tokens) and None not in self.tokens and corp not in self.tokens
        return False

    def tokened_by(self, corp: str) -> bool:
        return corp in self.tokens

    def with_tokens(self, city_tokens: Mapping[tuple[str, int], Sequence[str | None]]) -> Node:
        """This centre with the stations `city_tokens` gives it (itself when they are the same)."""
        if self.kind is not NodeKind.CITY:
            return self
        tokens = tuple(city_tokens.get((self.hex, self.index), ()))
        return (
            self
            if tokens == self.tokens
            else Node(self.id, self.hex, self.index, self.kind, self.revenue, self.groups, tokens)
        )


class TrackPath(NamedTuple):  # a tuple: thousands are made each time track changes
    id: int
    hex: str
    edges: tuple[int, ...]
    nodes: tuple[int, ...]  # network node ids at the ends that are revenue centres
    ends: tuple[
        tuple[str, int], ...
    ]  # both ends as ("edge", side) / ("node", node id): edges first


@dataclass(frozen=True)
class Chain:
    """Track between two revenue centres; `paths` and `hexes` run from `a` to `b`."""

    id: int
    a: int
    b: int
    paths: tuple[int, ...]
    hexes: tuple[str, ...]
    sides: int  # bit set of the hex sides it uses

    def other(self, node: int) -> int:
        return self.b if node == self.a else self.a


class _Move(NamedTuple):
    """Leaving a path by one end: a revenue centre (`node`), or a hex side (`side`, toward
    `other`'s side `back`, `side_bit` its bit in the used sides) and the states entered next."""

    nodes: tuple[int, ...]
    node: int
    hex: str
    side: int
    other: str | None
    back: int
    side_bit: int
    next: tuple[int, ...]


@dataclass
class Reach:
    """What a corporation's stations reach: sides per hex (for laying track) and revenue centres."""

    CHECKPOINT_SKIP = True  # a cached answer, never changed once computed

    edges: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))
    nodes: set[int] = field(default_factory=set)
    paths: set[int] = field(default_factory=set)
    hit: bool = False  # a walk with a goal reached it (and stopped there)
    work: int = 0  # walk states taken and earlier walks compared: what finding it cost


class Goal(NamedTuple):
    """What a walk looks for, to stop at the first found: hex sides (hex, side), centres or
    paths (ids)."""

    sides: frozenset[tuple[str, int]] = frozenset()
    nodes: frozenset[int] = frozenset()
    paths: frozenset[int] = frozenset()


PATH_SLOTS = 8  # path numbers per hex: more than any tile has paths
_DERIVED = ("chains", "node_chains", "chains_by_hexes", "_moves", "_along")  # cached from the track


class TrackNetwork:
    CHECKPOINT_SKIP = True  # a read-only snapshot of the board
    _memo: tuple[list[Node], dict[Any, Any]]  # see `memo`

    def __init__(
        self,
        tiles: Mapping[str, tuple[TileDef, int]],
        neighbours: Mapping[str, Mapping[int, str]],
        city_tokens: Mapping[tuple[str, int], Sequence[str | None]],
        sides: tuple[Mapping[tuple[str, int], int], int] | None = None,
    ) -> None:
        """`sides` (side ids and their count) may be passed in: they depend only on the map.

        Revenue centres are numbered in hex order. Each hex owns PATH_SLOTS path numbers (unused
        ones are None), so a tile laid renumbers nothing elsewhere: see `with_tile`."""
        self.neighbours = neighbours
        self.nodes: list[Node] = []
        self.node_at: dict[tuple[str, int], int] = {}
        order = sorted(tiles)
        self.hex_slot = {hex_id: i for i, hex_id in enumerate(order)}
        self.paths: list[TrackPath | None] = [None] * (PATH_SLOTS * len(order))
        # walk states (see `reach`: 2 * path id + end) that enter a path by this side / from
        # this revenue centre; `state >> 1` is the path
        self.edge_states: dict[tuple[str, int], list[int]] = defaultdict(list)
        self.node_states: dict[int, list[int]] = defaultdict(list)
        for hex_id in order:
            tile, rotation = tiles[hex_id]
            for index, node in enumerate(tile.nodes):
                nid = len(self.nodes)
                self.nodes.append(
                    Node(
                        nid,
                        hex_id,
                        index,
                        node.kind,
                        node.revenue,
                        node.groups,
                        tuple(city_tokens.get((hex_id, index), ())),
                    )
                )
                self.node_at[(hex_id, index)] = nid
            self._add_paths(hex_id, tile, rotation)
        self.side_id, self.side_count = sides if sides is not None else side_ids(neighbours)

    def _add_paths(self, hex_id: str, tile: TileDef, rotation: int) -> None:
        first = self.node_at.get((hex_id, 0), 0)  # a tile's nodes are numbered in order
        pid = PATH_SLOTS * self.hex_slot[hex_id]
        for edges, indexes in tile.path_ends(rotation):
            nodes = tuple(first + i for i in indexes)
            ends = tuple(("edge", e) for e in edges) + tuple(("node", n) for n in nodes)
            self.paths[pid] = TrackPath(pid, hex_id, edges, nodes, ends)
            for k, (kind, value) in enumerate(ends):
                if kind == "edge":
                    self.edge_states[(hex_id, value)].append(2 * pid + k)
                else:
                    self.node_states[value].append(2 * pid + k)
            pid += 1

    def with_tile(
        self,
        hex_id: str,
        tile: TileDef,
        rotation: int,
        city_tokens: Mapping[tuple[str, int], Sequence[str | None]],
    ) -> TrackNetwork | None:
        """This network with one hex's tile replaced, numbered as a full build would number it;
        None when the tile has another number of revenue centres (then build anew)."""
        old = [
            self.node_at[(hex_id, i)] for i in range(len(tile.nodes)) if (hex_id, i) in self.node_at
        ]
        if (
            len(old) != len(tile.nodes)
            or (hex_id, len(tile.nodes)) in self.node_at
            or len(tile.paths) > PATH_SLOTS
        ):
            return None
        near_hexes = (hex_id, *self._sides_into(hex_id))  # (the index is made before the copy)
        other = object.__new__(TrackNetwork)
        other.__dict__.update({k: v for k, v in self.__dict__.items() if k not in _DERIVED})
        other.nodes = [n.with_tokens(city_tokens) for n in self.nodes]
        for nid in old:
            n, kind = self.nodes[nid], tile.nodes[self.nodes[nid].index]
            other.nodes[nid] = Node(
                nid,
                hex_id,
                n.index,
                kind.kind,
                kind.revenue,
                kind.groups,
                tuple(city_tokens.get((hex_id, n.index), ())),
            )
        base = PATH_SLOTS * self.hex_slot[hex_id]
        other.paths = list(self.paths)
        other.paths[base : base + PATH_SLOTS] = [None] * PATH_SLOTS
        # copies that share the state lists of other hexes; the hex's own lists are made anew
        other.edge_states = self.edge_states.copy()
        for side in range(6):
            other.edge_states.pop((hex_id, side), None)
        other.node_states = self.node_states.copy()
        for nid in old:
            other.node_states.pop(nid, None)
        other._add_paths(hex_id, tile, rotation)
        if "_moves" in self.__dict__:  # path numbers are kept: walks that never touch the hex too
            other._moves = self._moves.copy()
            for near in near_hexes:
                first = 2 * PATH_SLOTS * self.hex_slot[near]
                for state in range(first, first + 2 * PATH_SLOTS):
                    other._moves.pop(state, None)
        if "_along" in self.__dict__:  # and chains along other hexes
            other._along = {
                hexes: chains for hexes, chains in self._along.items() if hex_id not in hexes
            }
        return other

    def _sides_into(self, hex_id: str) -> tuple[str, ...]:
        """The hexes whose track may cross into `hex_id` (the map's, shared by every variant)."""
        index = self.__dict__.get("_into")
        if index is None:
            into: dict[str, list[str]] = defaultdict(list)
            for near, sides in self.neighbours.items():
                for beyond in sides.values():
                    into[beyond].append(near)
            index = self._into = {h: tuple(hs) for h, hs in into.items()}
        return index.get(hex_id, ())

    def memo(self) -> dict[Any, Any]:
        """Answers a title's rules work out about this snapshot (its track and tokens), kept
        with it: the probes of a listing ask them again of the same position. The variants
        made by `with_tile` and `with_tokens` have centres of their own, so a memo of their own."""
        kept = self.__dict__.get("_memo")
        if kept is None or kept[0] is not self.nodes:
            kept = self._memo = (self.nodes, {})
        return kept[1]

    def paths_at_node(self, nid: int) -> list[int]:
        return [s >> 1 for s in self.node_states.get(nid, ())]

    def paths_at_side(self, hex_id: str, side: int) -> list[int]:
        return [s >> 1 for s in self.edge_states.get((hex_id, side), ())]

    def with_tokens(
        self, city_tokens: Mapping[tuple[str, int], Sequence[str | None]]
    ) -> TrackNetwork:
        """The same track with other station tokens: the track and its chains are shared, only
        the revenue centres are made again (a token placed needs no rebuild of the graph)."""
        other = object.__new__(TrackNetwork)
        other.__dict__.update(self.__dict__)
        other.nodes = [n.with_tokens(city_tokens) for n in self.nodes]
        return other

    # -- reach ---------------------------------------------------------------------------
    def token_nodes(self, corp: str) -> list[int]:
        return list(self._stations()[0].get(corp, ()))

    def _stations(
        self,
    ) -> tuple[dict[str, list[int]], tuple[tuple[int, tuple[str | None, ...] | None], ...]]:
        """(cities holding each corporation's stations, in node order; the centres that may
        block a walk: offboards (None) and full cities (their tokens)), worked out once for
        these nodes: every reach asks, and the token variants of a network share its fields."""
        kept = self.__dict__.get("_station_index")
        if kept is not None and kept[0] is self.nodes:
            return kept[1]
        stations: dict[str, list[int]] = {}
        blockers: list[tuple[int, tuple[str | None, ...] | None]] = []
        for n in self.nodes:
            if n.kind is NodeKind.OFFBOARD:
                blockers.append((n.id, None))
            elif n.kind is NodeKind.CITY:
                for corp in dict.fromkeys(n.tokens):
                    if corp is not None:
                        stations.setdefault(corp, []).append(n.id)
                if n.tokens and None not in n.tokens:
                    blockers.append((n.id, n.tokens))
        index = (stations, tuple(blockers))
        self._station_index = (self.nodes, index)
        return index

    def blocked(self, corp: str) -> set[int]:
        """The centres `corp`'s walks may not pass through (`Node.blocks`)."""
        return {nid for nid, tokens in self._stations()[1] if tokens is None or corp not in tokens}

    def reach(
        self,
        corp: str,
        starts: Sequence[int] | None = None,
        *,
        first_stop: bool = False,
        goal: Goal | None = None,
    ) -> Reach:
        """Everything `corp` reaches from its stations along a walk a train could run (1830 §8-9:
        "an unblocked route of any length"): no reversing, not even at a stop; no hex side crossed
        twice and no stop passed twice, so a walk cannot go round a loop and come back along its
        own track; no passing a blocking centre. As on 18xx.games, a path whose other end
        crosses a side the walk already crossed is not entered.

        Walks are explored shortest first, each carrying the sides and stops it used. A walk
        that enters a path from the same end as an earlier walk, having used all the earlier one
        used, can find nothing new and is dropped (so the order changes only how soon things are
        found, never what). `starts` limits the walk to some of the stations; `first_stop` ends
        it as soon as a second revenue centre is found, `goal` as soon as one of its sides,
        centres or paths is (then `hit` is set): a yes-or-no question seldom needs the whole reach.
        What a walk finds depends only on the states it enters, so the walk also ends once it has
        entered every state a walk forgetting where it has been could enter: in a late network
        rich in junctions the walks that are left would only find the same things again."""
        found = Reach()
        moves = self._moves
        queue: deque[tuple[int, int]] = deque()  # (walk state, used bits)
        walked: dict[int, list[int]] = {}
        base = self.side_count
        blocked = self.blocked(corp)
        goal_sides = goal.sides if goal is not None else frozenset()
        goal_nodes = goal.nodes if goal is not None else frozenset()
        goal_paths = goal.paths if goal is not None else frozenset()
        for nid in self.token_nodes(corp) if starts is None else starts:
            found.nodes.add(nid)
            hex_id = self.nodes[nid].hex
            sides = self.neighbours.get(hex_id, {}).keys()
            found.edges[hex_id].update(sides)
            if nid in goal_nodes or any((hex_id, side) in goal_sides for side in sides):
                found.hit = True
                return found
            bit = 1 << (base + nid)
            queue.extend((state, bit) for state in self.node_states.get(nid, ()))
        at_most, done = self._loose_states(corp, starts), False
        while queue and not done:
            state, used = queue.popleft()
            found.work += 1
            move = moves.get(state) or self._move(state)
            if move.side_bit and used & move.side_bit:
                continue
            earlier = walked.get(state)
            if earlier is None:
                walked[state] = [used]
                done = len(walked) == at_most  # after this state, nothing is left to find
            else:
                found.work += len(earlier)
                if any(not mask & ~used for mask in earlier):
                    continue
                earlier[:] = [mask for mask in earlier if used & ~mask]
                earlier.append(used)
            found.paths.add(state >> 1)
            if goal_paths and state >> 1 in goal_paths:
                found.hit = True
                break
            found.nodes.update(move.nodes)
            if first_stop and len(found.nodes) > 1:
                break
            if goal_nodes and not goal_nodes.isdisjoint(move.nodes):
                found.hit = True
                break
            if move.node >= 0:
                bit = 1 << (base + move.node)
                if not used & bit and move.node not in blocked:
                    queue.extend((nxt, used | bit) for nxt in move.next)
                continue
            found.edges[move.hex].add(move.side)
            if move.other is not None:
                found.edges[move.other].add(move.back)
                if goal_sides and (
                    (move.hex, move.side) in goal_sides or (move.other, move.back) in goal_sides
                ):
                    found.hit = True
                    break
                crossed = used | move.side_bit
                queue.extend((nxt, crossed) for nxt in move.next)
            elif goal_sides and (move.hex, move.side) in goal_sides:
                found.hit = True
                break
        return found

    def _loose_states(self, corp: str, starts: Sequence[int] | None) -> int:
        """How many walk states `reach` could enter at most: those a walk enters when only
        blocking centres stop it (no side or centre is remembered)."""
        key = ("loose states", corp, None if starts is None else tuple(starts))
        memo = self.memo()
        count = memo.get(key)
        if count is None:
            blocked = self.blocked(corp)
            seen: set[int] = set()
            pending = [
                state
                for nid in (self.token_nodes(corp) if starts is None else starts)
                for state in self.node_states.get(nid, ())
            ]
            while pending:
                state = pending.pop()
                if state in seen:
                    continue
                seen.add(state)
                move = self._moves.get(state) or self._move(state)
                if (move.node not in blocked) if move.node >= 0 else move.other is not None:
                    pending.extend(move.next)
            count = memo[key] = len(seen)
        return count

    @cached_property
    def _moves(self) -> dict[int, _Move]:
        """Walk states already worked out by `_move`; shared by the network's token variants."""
        return {}

    def _move(self, state: int) -> _Move:
        """A walk state is a path entered by one of its two ends (state = 2 * path id + end):
        where the walk leaves it and the states it may go on to."""
        path = self.paths[state >> 1]
        assert path is not None  # a state is a path's, and its slot holds it
        kind, value = path.ends[1 - (state & 1)]
        if kind == "node":
            move = _Move(
                path.nodes,
                value,
                path.hex,
                -1,
                None,
                -1,
                0,
                tuple(s for s in self.node_states.get(value, ()) if s >> 1 != path.id),
            )
        else:
            other = self.neighbours.get(path.hex, {}).get(value)
            back = opposite(value)
            move = (
                _Move(path.nodes, -1, path.hex, value, None, -1, 0, ())
                if other is None
                else _Move(
                    path.nodes,
                    -1,
                    path.hex,
                    value,
                    other,
                    back,
                    1 << self.side_id[(path.hex, value)],
                    tuple(self.edge_states.get((other, back), ())),
                )
            )
        self._moves[state] = move
        return move

    def route_available(self, corp: str) -> bool:
        """Some single station of `corp` reaches a second revenue centre (18xx.games judges each
        station on its own: two stations with no track between them make no route)."""
        return any(
            len(self.reach(corp, [nid], first_stop=True).nodes) > 1
            for nid in self.token_nodes(corp)
        )

    # -- chains --------------------------------------------------------------------------
    @cached_property
    def chains(self) -> list[Chain]:
        """Every chain of the network, each once, in a deterministic order."""
        found: dict[tuple[int, int, int], Chain] = {}
        for node in self.nodes:
            for pid in self.paths_at_node(node.id):
                path = self.paths[pid]
                assert path is not None  # paths_at_node lists laid paths
                self._extend_chain(node.id, pid, ("node", node.id), [pid], [path.hex], 0, found)
        ordered = sorted(found.values(), key=lambda c: (c.a, c.b, c.sides, c.paths))
        return [Chain(i, c.a, c.b, c.paths, c.hexes, c.sides) for i, c in enumerate(ordered)]

    def _extend_chain(
        self,
        start: int,
        pid: int,
        entry: tuple[str, int],
        paths: list[int],
        hexes: list[str],
        sides: int,
        found: dict[tuple[int, int, int], Chain],
    ) -> None:
        path = self.paths[pid]
        assert path is not None  # a chain goes on only along laid paths
        for kind, value in path.ends:
            if (kind, value) == entry:
                continue
            if kind == "node":
                if value == start:
                    continue
                a, b = (start, value) if start < value else (value, start)
                key = (a, b, sides)
                if key not in found:
                    ps, hs = (paths, hexes) if start < value else (paths[::-1], hexes[::-1])
                    found[key] = Chain(-1, a, b, tuple(ps), tuple(hs), sides)
                continue
            sid = self.side_id.get((path.hex, value))
            if sid is None or sides >> sid & 1:
                continue
            other = self.neighbours[path.hex][value]
            back = opposite(value)
            for npid in self.paths_at_side(other, back):
                self._extend_chain(
                    start,
                    npid,
                    ("edge", back),
                    paths + [npid],
                    hexes + [other],
                    sides | 1 << sid,
                    found,
                )

    def chains_along(self, hexes: Sequence[str]) -> list[Chain]:
        """The chains crossing exactly these hexes, read in either direction, in the order of
        `chains`. Checking a submitted route needs only these: they are walked for along the
        named hexes instead of listing every chain of the network (unless that list exists)."""
        listed = self.__dict__.get("chains_by_hexes")
        if listed is not None:
            return listed.get(tuple(hexes), [])
        key = tuple(hexes)
        kept = self._along.get(key)
        if kept is not None:
            return kept
        found: dict[tuple[int, int, int], Chain] = {}
        for index in range(len(self.nodes)):
            nid = self.node_at.get((hexes[0], index))
            if nid is None:
                break
            for pid in self.paths_at_node(nid):
                self._walk_along(nid, pid, ("node", nid), [pid], 0, key, found)
        kept = self._along[key] = sorted(found.values(), key=lambda c: (c.a, c.b, c.sides, c.paths))
        return kept

    @cached_property
    def _along(self) -> dict[tuple[str, ...], list[Chain]]:
        """`chains_along` answers (read-only lists): the same runs are checked turn after turn.
        Chains join centres by number, so the token variants of a network share them."""
        return {}

    def _walk_along(
        self,
        start: int,
        pid: int,
        entry: tuple[str, int],
        paths: list[int],
        sides: int,
        hexes: tuple[str, ...],
        found: dict[tuple[int, int, int], Chain],
    ) -> None:
        path = self.paths[pid]
        assert path is not None  # a chain goes on only along laid paths
        depth = len(paths)
        for kind, value in path.ends:
            if (kind, value) == entry:
                continue
            if kind == "node":
                if value != start and depth == len(hexes):
                    a, b = (start, value) if start < value else (value, start)
                    ps, hs = (paths, hexes) if start < value else (paths[::-1], hexes[::-1])
                    found.setdefault((a, b, sides), Chain(-1, a, b, tuple(ps), tuple(hs), sides))
                continue
            sid = self.side_id.get((path.hex, value))
            if sid is None or sides >> sid & 1 or depth == len(hexes):
                continue
            other = self.neighbours[path.hex][value]
            if other != hexes[depth]:
                continue
            back = opposite(value)
            for npid in self.paths_at_side(other, back):
                self._walk_along(
                    start, npid, ("edge", back), paths + [npid], sides | 1 << sid, hexes, found
                )

    @cached_property
    def node_chains(self) -> dict[int, list[Chain]]:
        by_node: dict[int, list[Chain]] = defaultdict(list)
        for chain in self.chains:
            by_node[chain.a].append(chain)
            by_node[chain.b].append(chain)
        return by_node

    @cached_property
    def chains_by_hexes(self) -> dict[tuple[str, ...], list[Chain]]:
        """Chains by the hexes they cross, read in either direction (how run_routes names them)."""
        index: dict[tuple[str, ...], list[Chain]] = defaultdict(list)
        for chain in self.chains:
            index[chain.hexes].append(chain)
            if chain.hexes[::-1] != chain.hexes:
                index[chain.hexes[::-1]].append(chain)
        return index


def side_ids(neighbours: Mapping[str, Mapping[int, str]]) -> tuple[dict[tuple[str, int], int], int]:
    """A number for every hex side track may cross (both hexes' names for it share one)."""
    ids: dict[tuple[str, int], int] = {}
    count = 0
    for hex_id in sorted(neighbours):
        for side, other in sorted(neighbours.get(hex_id, {}).items()):
            if (hex_id, side) not in ids:
                ids[(hex_id, side)] = ids[(other, opposite(side))] = count
                count += 1
    return ids, count
