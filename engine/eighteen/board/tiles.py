"""Tile definitions read from a title's JSON: revenue centres, track paths, colour, label.

A path joins two ends; an end is a hex side (an int 0..5) or a revenue centre of the tile
(a `NodeEnd`). Revenue centres are numbered like 18xx.games numbers a tile's parts: cities
first, then towns, then offboards, so node `i` of a tile is what the site calls "<hex>-<i>" in
a route and a city's index is its token reference "<tile id>-<i>".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from engine.eighteen.board.frozen import FrozenDict

# Tile colours in upgrade order; "white" is an empty map hex.
COLORS = ("white", "yellow", "green", "brown", "gray")


class NodeKind(Enum):
    CITY = "city"
    TOWN = "town"
    HALT = "halt"  # 1860: a stop that pays a subsidy, not revenue; a town for upgrades
    OFFBOARD = "offboard"


@dataclass(frozen=True)
class Revenue:
    """A fixed value, or values by phase colour (offboards: {"yellow": 30, "brown": 50})."""

    by_color: tuple[tuple[str, int], ...]

    @classmethod
    def parse(cls, raw: int | Mapping[str, int]) -> Revenue:
        if isinstance(raw, Mapping):
            return cls(
                tuple(
                    sorted(
                        ((c, int(v)) for c, v in raw.items()), key=lambda cv: COLORS.index(cv[0])
                    )
                )
            )
        return cls((("fixed", int(raw)),))

    def value(self, phase_color: str) -> int:
        """The value in a phase whose newest tile colour is `phase_color` (latest listed colour not after it)."""
        if self.by_color[0][0] == "fixed":
            return self.by_color[0][1]
        limit = COLORS.index(phase_color)
        best = 0
        for color, value in self.by_color:
            if COLORS.index(color) <= limit:
                best = value
        return best

    @property
    def maximum(self) -> int:
        return max(v for _, v in self.by_color)

    def describe(self) -> str:
        if self.by_color[0][0] == "fixed":
            return str(self.by_color[0][1])
        return "/".join(str(v) for _, v in self.by_color)


@dataclass(frozen=True)
class NodeDef:
    kind: NodeKind
    revenue: Revenue
    slots: int = 0  # token circles (cities only)
    groups: tuple[str, ...] = ()  # offboard areas spread over several hexes share a group


@dataclass(frozen=True)
class NodeEnd:
    index: int  # into TileDef.nodes


End = int | NodeEnd  # a hex side 0..5 or a revenue centre


@dataclass(frozen=True)
class PathDef:
    a: End
    b: End

    def rotated(self, rotation: int) -> PathDef:
        return PathDef(_rotate_end(self.a, rotation), _rotate_end(self.b, rotation))

    @property
    def edges(self) -> tuple[int, ...]:
        return tuple(e for e in (self.a, self.b) if isinstance(e, int))

    @property
    def node_indexes(self) -> tuple[int, ...]:
        return tuple(e.index for e in (self.a, self.b) if isinstance(e, NodeEnd))


def _rotate_end(end: End, rotation: int) -> End:
    return (end + rotation) % 6 if isinstance(end, int) else end


@dataclass(frozen=True)
class TileDef:
    name: str
    color: str
    nodes: tuple[NodeDef, ...]
    paths: tuple[PathDef, ...]
    label: str | None = None
    upgrades: tuple[str, ...] = ()
    count: int = 0  # copies in the supply (0 for a map hex's own tile)
    fixed_rotation: bool = False  # laid only as printed (1860's Ryde, Newport, Merstone tiles)
    # rotated_paths answers, kept: the track graph is rebuilt from them after every lay
    _rotations: dict[int, tuple[PathDef, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    _ends: dict[int, tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    _exits: dict[int, frozenset[int]] = field(default_factory=dict, compare=False, repr=False)
    _node_edges: dict[int, Mapping[int, frozenset[int]]] = field(
        default_factory=dict, compare=False, repr=False
    )

    # node indexes of the cities and of the towns (halts included), asked at every token check
    cities: tuple[int, ...] = field(default=(), init=False, compare=False, repr=False)
    towns: tuple[int, ...] = field(default=(), init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "cities", tuple(i for i, n in enumerate(self.nodes) if n.kind is NodeKind.CITY)
        )
        object.__setattr__(
            self,
            "towns",
            tuple(i for i, n in enumerate(self.nodes) if n.kind in (NodeKind.TOWN, NodeKind.HALT)),
        )

    def path_ends(self, rotation: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
        """(hex sides, node indexes) of each rotated path, kept like `rotated_paths`."""
        ends = self._ends.get(rotation)
        if ends is None:
            ends = self._ends[rotation] = tuple(
                (p.edges, p.node_indexes) for p in self.rotated_paths(rotation)
            )
        return ends

    def rotated_paths(self, rotation: int) -> tuple[PathDef, ...]:
        paths = self._rotations.get(rotation)
        if paths is None:
            paths = self._rotations[rotation] = tuple(p.rotated(rotation) for p in self.paths)
        return paths

    def exits(self, rotation: int) -> frozenset[int]:
        exits = self._exits.get(rotation)
        if exits is None:
            exits = self._exits[rotation] = frozenset(
                e for p in self.rotated_paths(rotation) for e in p.edges
            )
        return exits

    def node_edges(self, rotation: int) -> Mapping[int, frozenset[int]]:
        """Sides joined directly to each city or town that has track (18xx `city_town_edges`);
        kept like `rotated_paths` (read-only)."""
        kept = self._node_edges.get(rotation)
        if kept is not None:
            return kept
        found: dict[int, set[int]] = {}
        for p in self.rotated_paths(rotation):
            if not p.edges:  # track joining two centres inside the hex reaches no side
                continue
            for i in p.node_indexes:
                if self.nodes[i].kind is not NodeKind.OFFBOARD:
                    found.setdefault(i, set()).update(p.edges)
        kept = self._node_edges[rotation] = FrozenDict({i: frozenset(e) for i, e in found.items()})
        return kept

    def kind_counts(self) -> tuple[int, int]:
        return len(self.cities), len(self.towns)


_END = re.compile(r"^(edge|city|town|halt|offboard)(\d+)$")


def _parse_end(text: str, offsets: Mapping[str, int], where: str) -> End:
    match = _END.match(text)
    if not match:
        raise ValueError(f"{where}: bad path end {text!r}")
    kind, number = match.group(1), int(match.group(2))
    if kind == "edge":
        return number
    if text not in offsets:
        raise ValueError(f"{where}: path end {text!r} names no revenue centre of the tile")
    return NodeEnd(offsets[text])


def _node_order(raw: Mapping[str, Any]) -> list[tuple[str, int]]:
    """(kind, number) of each revenue centre in tile-part order: cities, towns, halts, offboards,
    unless the data lists "node_order" (e.g. ["halt0", "town0"]) because 18xx.games numbers a
    tile's parts in the order its tile code writes them."""
    if "node_order" in raw:
        return [
            (m.group(1), int(m.group(2))) for m in (_END.match(t) for t in raw["node_order"]) if m
        ]
    counts = {
        "city": len(raw.get("cities", [])),
        "town": len(raw.get("towns", [])),
        "halt": int(raw.get("halts", 0)),
        "offboard": len(raw.get("offboards", [])),
    }
    return [(kind, n) for kind, count in counts.items() for n in range(count)]


def parse_nodes(raw: Mapping[str, Any]) -> tuple[NodeDef, ...]:
    nodes: list[NodeDef] = []
    for kind, n in _node_order(raw):
        if kind == "halt":
            nodes.append(NodeDef(NodeKind.HALT, Revenue.parse(0)))
            continue
        part = raw[{"city": "cities", "town": "towns", "offboard": "offboards"}[kind]][n]
        nodes.append(
            NodeDef(
                NodeKind(kind),
                Revenue.parse(part["revenue"]),
                int(part.get("slots", 1)) if kind == "city" else 0,
                tuple(part.get("groups", ())),
            )
        )
    return tuple(nodes)


def parse_paths(raw: Mapping[str, Any], where: str) -> tuple[PathDef, ...]:
    offsets = {f"{kind}{n}": i for i, (kind, n) in enumerate(_node_order(raw))}
    paths = []
    for text in raw.get("paths", []):
        a, b = text.split("-")
        paths.append(PathDef(_parse_end(a, offsets, where), _parse_end(b, offsets, where)))
    return tuple(paths)


def tile_from_manifest(raw: Mapping[str, Any]) -> TileDef:
    name = str(raw["name"])
    return TileDef(
        name=name,
        color=raw["color"],
        nodes=parse_nodes(raw),
        paths=parse_paths(raw, f"tile {name}"),
        label=raw.get("label"),
        upgrades=tuple(str(u) for u in raw.get("upgrades_to", ())),
        count=int(raw.get("count", 0)),
        fixed_rotation=bool(raw.get("fixed_rotation")),
    )


def tile_from_hex(raw: Mapping[str, Any]) -> TileDef:
    """The tile printed on a map hex; its name is the hex coordinate, as on 18xx.games."""
    name = raw["hex"]
    return TileDef(
        name=name,
        color=raw["preprinted_color"],
        nodes=parse_nodes(raw),
        paths=parse_paths(raw, f"hex {name}"),
        label=raw.get("label"),
        upgrades=tuple(str(t) for t in raw.get("layable_tiles", ())),
    )


def path_covers(old_tile: TileDef, old: PathDef, new_tile: TileDef, new: PathDef) -> bool:
    """Does `new` keep the track of `old`? Same sides, same kind of revenue centre (18xx `Path#<=`)."""

    def same(x: End, y: End) -> bool:
        if isinstance(x, int) or isinstance(y, int):
            return x == y
        was, now = old_tile.nodes[x.index].kind, new_tile.nodes[y.index].kind
        return was is now or (
            was is NodeKind.HALT and now is NodeKind.TOWN
        )  # a halt may grow into a town

    return (same(old.a, new.a) and same(old.b, new.b)) or (
        same(old.a, new.b) and same(old.b, new.a)
    )


def describe_path(tile: TileDef, path: PathDef) -> str:
    """A path as the title data writes it: "edge1-city0", "edge0-edge3", "edge5-offboard0"."""

    def end(e: End) -> str:
        if isinstance(e, int):
            return f"edge{e}"
        kind = tile.nodes[e.index].kind
        return f"{kind.value}{sum(1 for n in tile.nodes[: e.index] if n.kind is kind)}"

    return f"{end(path.a)}-{end(path.b)}"
