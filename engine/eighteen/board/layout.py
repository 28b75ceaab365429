"""What a title's map and tile manifest say, parsed once per process for each title's data.

Every game of a title starts from the same map: its hexes, their printed tiles, the sides track
may cross, the tile supply and the home reservations. Parsing them took longer than the first
dozen moves of a replay, so `layout_of` keeps the parsed form for a title's data (titles keep
their data as constants). It is read-only: its mappings are `FrozenDict`s and its parts frozen
dataclasses (whose only mutable parts are the tiles' memos of rotated track, the same in every
game), so no game can change what another one sees; a copy of a game shares it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.eighteen.board.frozen import FrozenDict
from engine.eighteen.board.graph import side_ids
from engine.eighteen.board.hexgrid import SIDES, Orientation, neighbour_id, opposite
from engine.eighteen.board.tiles import TileDef, tile_from_hex, tile_from_manifest

# Map hexes that are never built on; track may only meet them where their own track runs.
FIXED_COLORS = ("blue", "gray", "red")


@dataclass(frozen=True)
class MapHex:
    id: str
    name: str | None
    printed: TileDef
    terrain_cost: int
    neighbours: Mapping[int, str]  # sides track may cross, to the hex beyond

    @property
    def buildable(self) -> bool:
        return self.printed.color not in FIXED_COLORS


@dataclass(frozen=True)
class Layout:
    orientation: Orientation
    hexes: Mapping[str, MapHex]
    tile_defs: Mapping[str, TileDef]
    copies: Mapping[str, str]  # tile id -> name, every copy in the game
    neighbours: Mapping[str, Mapping[int, str]]  # hex -> its crossable sides
    sides: tuple[Mapping[tuple[str, int], int], int]  # `graph.side_ids` of the map
    homes: tuple[tuple[str, str, int | None], ...]  # (corporation, home hex, city index)

    @classmethod
    def parse(cls, title_data: Mapping[str, Any]) -> Layout:
        game_map = title_data["map"]
        orientation = Orientation.from_layout(game_map["layout"])
        raw_hexes = {h["hex"]: h for h in game_map["hexes"]}
        printed = {hex_id: tile_from_hex(raw) for hex_id, raw in raw_hexes.items()}
        tile_defs: dict[str, TileDef] = {}
        copies: dict[str, str] = {}
        for raw in title_data["tiles"]:
            tile = tile_from_manifest(raw)
            tile_defs[tile.name] = tile
            for n in range(tile.count):
                copies[f"{tile.name}-{n}"] = tile.name
        hexes = {
            hex_id: MapHex(
                hex_id,
                raw.get("name"),
                printed[hex_id],
                sum(t["cost"] for t in raw.get("terrain", ())),
                FrozenDict(_crossable_sides(orientation, hex_id, raw_hexes, printed)),
            )
            for hex_id, raw in raw_hexes.items()
        }
        neighbours = {h: hx.neighbours for h, hx in hexes.items()}
        side_map, side_count = side_ids(neighbours)
        homes = tuple(
            (c["sym"], c["home"], c.get("home_city_index"))
            for c in title_data.get("corporations", ())
        )
        return cls(
            orientation,
            FrozenDict(hexes),
            FrozenDict(tile_defs),
            FrozenDict(copies),
            FrozenDict(neighbours),
            (FrozenDict(side_map), side_count),
            homes,
        )


def _crossable_sides(
    orientation: Orientation,
    hex_id: str,
    raw_hexes: Mapping[str, Any],
    printed: Mapping[str, TileDef],
) -> dict[int, str]:
    """Sides across which track may run (18xx `connect_hexes`): a map hex beyond, no impassable
    border on either side, and no fixed (gray, red, blue) hex turning its blank side to us."""
    sides: dict[int, str] = {}
    mine = raw_hexes[hex_id]
    for side in SIDES:
        other = neighbour_id(orientation, hex_id, side)
        if other is None or other not in raw_hexes:
            continue
        theirs = raw_hexes[other]
        if side in mine.get("impassable_borders", ()) or opposite(side) in theirs.get(
            "impassable_borders", ()
        ):
            continue
        if printed[other].color in FIXED_COLORS and opposite(side) not in printed[other].exits(0):
            continue
        sides[side] = other
    return sides


_PARSED: dict[int, tuple[Mapping[str, Any], Layout]] = {}
_KEPT = 8  # titles (and editions) whose layouts are kept


def layout_of(title_data: Mapping[str, Any]) -> Layout:
    """The parsed layout of a title's data, made once per process. The entry holds the data
    itself, so its id cannot be reused by another object while the entry lives."""
    entry = _PARSED.get(id(title_data))
    if entry is None or entry[0] is not title_data:
        if len(_PARSED) >= _KEPT:
            _PARSED.clear()
        entry = _PARSED[id(title_data)] = (title_data, Layout.parse(title_data))
    return entry[1]
