"""The board as the renderer sees it: hexes, preprinted art and tile manifest read from a title's
data file (engine/data/<title>.json), plus the hex grid's pixel geometry.

Everything here is static per title and map variant, so it is parsed once and cached.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from engine.eighteen.board.hexgrid import Orientation as HexOrientation
from engine.eighteen.board.hexgrid import neighbour_id, split_coordinate

DATA_DIR = Path(__file__).resolve().parent.parent / "engine" / "data"

Orientation = Literal["pointy", "flat"]
NodeKind = Literal["city", "town", "halt", "offboard"]

SQRT3 = math.sqrt(3.0)
APOTHEM = SQRT3 / 2  # centre-to-edge distance of a hex whose circumradius is 1

# Optional rules under which 1860 is played on its first-edition (smaller) board.
FIRST_EDITION_OPTIONS = frozenset({"two_player_map", "original_game"})


class BoardDataError(ValueError):
    """The title's data file does not describe a board the renderer can draw."""


@dataclass(frozen=True)
class End:
    """One end of a track path: an edge number or a node (city, town, halt, offboard) index."""

    kind: Literal["edge", "city", "town", "halt", "offboard"]
    index: int

    @property
    def is_edge(self) -> bool:
        return self.kind == "edge"


@dataclass(frozen=True)
class Art:
    """Track and stations of a tile or of a hex's preprinted face (unrotated)."""

    color: str
    cities: tuple[tuple[int, int], ...] = ()  # (revenue, slots) per city
    towns: tuple[int, ...] = ()  # revenue per town
    halts: int = 0
    offboards: tuple[tuple[tuple[str, int], ...], ...] = ()  # per offboard: (phase colour, revenue)
    paths: tuple[tuple[End, End], ...] = ()
    label: str | None = None

    def rotated(self, rotation: int) -> Art:
        if rotation % 6 == 0:
            return self
        return Art(
            self.color,
            self.cities,
            self.towns,
            self.halts,
            self.offboards,
            tuple((_rotate(a, rotation), _rotate(b, rotation)) for a, b in self.paths),
            self.label,
        )


def _rotate(end: End, rotation: int) -> End:
    return End("edge", (end.index + rotation) % 6) if end.is_edge else end


@dataclass(frozen=True)
class Hex:
    coord: str
    x: float  # centre in hex-radius units, before the board's offset and scale
    y: float
    name: str | None
    art: Art  # the preprinted face
    terrain: tuple[tuple[str, int], ...]  # (kind, cost)
    impassable: tuple[int, ...]
    cosmetic: tuple[int, ...]  # edges drawn without an outline (joined offboard areas)


@dataclass(frozen=True)
class Corporation:
    sym: str
    name: str
    home: str | None
    home_city: int | None


@dataclass(frozen=True, eq=False)  # identity-hashed: one parsed board per title and variant
class Board:
    title: str
    orientation: Orientation
    hexes: dict[str, Hex]
    tiles: dict[str, Art]
    corporations: dict[str, Corporation]
    market: dict[str, Any]

    # -- geometry in hex-radius units -------------------------------------------------------
    def neighbour(self, coord: str, edge: int) -> str | None:
        """The hex across `edge`, if the board has one."""
        other = neighbour_id(HexOrientation(self.orientation), coord, edge)
        return other if other in self.hexes else None

    def bounds(self) -> tuple[float, float, float, float]:
        xs = [h.x for h in self.hexes.values()]
        ys = [h.y for h in self.hexes.values()]
        half_w, half_h = (APOTHEM, 1.0) if self.orientation == "pointy" else (1.0, APOTHEM)
        return min(xs) - half_w, min(ys) - half_h, max(xs) + half_w, max(ys) + half_h


def edge_angle(orientation: Orientation, edge: float) -> float:
    """Direction (radians, screen y down) from a hex centre to the middle of `edge`; edges are
    numbered clockwise from SW (pointy) or S (flat), as in the title data."""
    return math.radians((120.0 if orientation == "pointy" else 90.0) + 60.0 * edge)


def edge_dir(orientation: Orientation, edge: float) -> tuple[float, float]:
    a = edge_angle(orientation, edge)
    return math.cos(a), math.sin(a)


# -- parsing -----------------------------------------------------------------------------------
_END = re.compile(r"^(edge|city|town|halt|offboard)(\d+)$")


def hex_centre(coord: str, orientation: Orientation) -> tuple[float, float]:
    letter, number = split_coordinate(coord)
    if orientation == "pointy":  # letter = row, number = column (half-hex steps)
        return number * APOTHEM, letter * 1.5
    return letter * 1.5, number * APOTHEM  # flat: letter = column, number = row


def _parse_end(text: str) -> End:
    m = _END.match(text)
    if not m:
        raise BoardDataError(f"bad path end {text!r}")
    return End(m.group(1), int(m.group(2)))  # type: ignore[arg-type]


def _parse_art(entry: dict[str, Any], color: str) -> Art:
    paths = []
    for p in entry.get("paths", []):
        a, b = p.split("-")
        paths.append((_parse_end(a), _parse_end(b)))
    return Art(
        color=color,
        cities=tuple(
            (int(c.get("revenue", 0)), int(c.get("slots", 1))) for c in entry.get("cities", [])
        ),
        towns=tuple(int(t.get("revenue", 0)) for t in entry.get("towns", [])),
        halts=int(entry.get("halts", 0)),
        offboards=tuple(
            tuple((k, int(v)) for k, v in o.get("revenue", {}).items())
            for o in entry.get("offboards", [])
        ),
        paths=tuple(paths),
        label=entry.get("label"),
    )


def _map_hexes(data: dict[str, Any], first_edition: bool) -> list[dict[str, Any]]:
    m = data["map"]
    if "hexes" in m:
        return m["hexes"]
    hexes = m["hexes_second_edition"]
    if first_edition:
        hexes = [h for h in hexes if not h.get("second_edition_only")]
    return hexes


@lru_cache(maxsize=8)
def load_board(title: str, first_edition: bool = False) -> Board:
    path = DATA_DIR / f"{title}.json"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in DATA_DIR.glob("*.json")))
        raise BoardDataError(f"no board data for title {title!r} (known: {known})")
    data = json.loads(path.read_text(encoding="utf-8"))
    layout = data["map"]["layout"]
    orientation: Orientation = "pointy" if layout.startswith("pointy") else "flat"
    hexes: dict[str, Hex] = {}
    for h in _map_hexes(data, first_edition):
        x, y = hex_centre(h["hex"], orientation)
        terrain = tuple((t["terrain"][0], int(t["cost"])) for t in h.get("terrain", []))
        hexes[h["hex"]] = Hex(
            h["hex"],
            x,
            y,
            h.get("name"),
            _parse_art(h, h.get("preprinted_color", "white")),
            terrain,
            tuple(h.get("impassable_borders", [])),
            tuple(h.get("cosmetic_borders", [])),
        )
    tiles = {t["name"]: _parse_art(t, t["color"]) for t in data["tiles"]}
    corporations = {
        c["sym"]: Corporation(c["sym"], c["name"], c.get("home"), c.get("home_city_index"))
        for c in data["corporations"]
    }
    board = Board(title, orientation, hexes, tiles, corporations, data["stock_market"])
    if first_edition:  # borders facing hexes the smaller board does not have are not drawn
        board = _drop_dangling_borders(board)
    return board


def _drop_dangling_borders(board: Board) -> Board:
    hexes = {}
    for c, h in board.hexes.items():
        kept = tuple(e for e in h.impassable if board.neighbour(c, e) is not None)
        hexes[c] = (
            h
            if kept == h.impassable
            else Hex(h.coord, h.x, h.y, h.name, h.art, h.terrain, kept, h.cosmetic)
        )
    return Board(
        board.title, board.orientation, hexes, board.tiles, board.corporations, board.market
    )


def board_for(title: str, options: Collection[str] = ()) -> Board:
    """The board a game of `title` with these optional rules is played on."""
    return load_board(
        title, first_edition=title == "1860" and bool(FIRST_EDITION_OPTIONS & set(options))
    )
