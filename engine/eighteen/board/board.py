"""The 18xx map in play: which tile lies where, station tokens, and the rules for changing them.

Identifiers follow 18xx.games so that its game logs replay: tile copies are "<name>-<n>", a map
hex's printed tile is "<hex>-0", a city is "<tile id>-<city index>", a route stop "<hex>-<node>".
Rules that depend on the title's privates (which hexes are blocked, which lays need no
connection) are decided by the caller and passed in as parameters.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.eighteen.board.graph import Goal, Reach, TrackNetwork
from engine.eighteen.board.hexgrid import SIDES
from engine.eighteen.board.layout import Layout, MapHex
from engine.eighteen.board.router import best_runs
from engine.eighteen.board.routes import TrainsLike, check_runs, resolve_route, train_distances
from engine.eighteen.board.tiles import COLORS, NodeKind, TileDef, describe_path, path_covers
from engine.errors import IllegalAction, InvalidAction

Reservations = Mapping[str, list[tuple[int | None, str]]]


@dataclass
class City:
    """Token circles of one city on the tile now on a hex; reservations hold circles by position."""

    slots: list[str | None]
    reservations: list[str | None] = field(default_factory=list)

    def free_slot(self, corp: str) -> int | None:
        if corp in self.reservations:
            index = self.reservations.index(corp)
            if index < len(self.slots) and self.slots[index] is None:
                return index
        for i, token in enumerate(self.slots):
            if token is None and (i >= len(self.reservations) or self.reservations[i] is None):
                return i
        return None


@dataclass(frozen=True)
class CityView:
    index: int
    revenue: str
    slots: int
    tokens: tuple[str | None, ...]


@dataclass(frozen=True)
class Tile:
    """What lies on a hex now, for display and for the caller's rules."""

    hex: str
    name: str
    id: str
    rotation: int
    color: str
    label: str | None
    cities: tuple[CityView, ...]
    towns: tuple[str, ...]  # revenue of each town
    offboards: tuple[str, ...]  # "30/50"-style revenue of each offboard
    paths: tuple[str, ...]  # track as rotated, e.g. "edge1-city0", "edge0-edge3"
    preprinted: bool


class Board:
    """The map of one game: tiles laid, tokens placed, home reservations; checks and applies lays
    and tokens, and checks, values and finds train routes. Built from a title's JSON data."""

    # the map, the tile manifest and what follows from them never change
    CHECKPOINT_SHARED = ("hexes", "tile_defs", "_copies", "_neighbours", "_sides")

    def __init__(self, title_data: Mapping[str, Any], layout: Layout | None = None) -> None:
        """`layout`: the parsed `title_data` when the caller keeps it (see `layout_of`)."""
        layout = layout or Layout.parse(title_data)
        self.orientation = layout.orientation
        self.hexes = layout.hexes
        self.tile_defs = layout.tile_defs
        self._copies = layout.copies
        self._neighbours = layout.neighbours
        self._sides = layout.sides
        self._laid: dict[str, tuple[str, int]] = {}  # hex -> (tile id, rotation) when not printed
        self._where: dict[str, str] = {}  # tile id -> hex
        self._cities: dict[tuple[str, int], City] = {}
        self._hex_reservations: dict[
            str, list[str]
        ] = {}  # corporations holding "some city" of a hex
        for hex_id, hx in self.hexes.items():
            for i in hx.printed.cities:
                self._cities[(hex_id, i)] = City([None] * hx.printed.nodes[i].slots)
        for corp, home, city_index in layout.homes:
            self._reserve_home(corp, home, city_index)
        self._version = 0  # any change of tiles or tokens
        self._track_version = 0  # changes of track only
        self._network_cache: tuple[int, TrackNetwork, int] | None = None
        self._last_lay: str | None = None
        # Corporations whose stations were ever seen to reach a route when their reach was
        # worked out (18xx.games' track graph keeps that for the rest of the game).
        self.routes_found: set[str] = set()
        self._reach_cache: dict[str, tuple[int, Reach]] = {}
        self._route_cache: dict[str, tuple[int, bool]] = {}  # route_available's answers

    def _reserve_home(self, corp: str, hex_id: str, city_index: int | None) -> None:
        tile = self.hexes[hex_id].printed
        if city_index is None and len(tile.cities) == 1:
            city_index = tile.cities[0]
        if city_index is None:
            self._hex_reservations.setdefault(hex_id, []).append(corp)
        else:
            self._cities[(hex_id, city_index)].reservations.append(corp)

    # -- what is where -----------------------------------------------------------------------
    def _hex(self, hex_id: str) -> MapHex:
        try:
            return self.hexes[hex_id]
        except KeyError:
            raise InvalidAction(f"there is no hex {hex_id} on the map") from None

    def _current(self, hex_id: str) -> tuple[TileDef, int, str]:
        """(definition, rotation, tile id) of the tile now on a hex."""
        if hex_id in self._laid:
            tile_id, rotation = self._laid[hex_id]
            return self.tile_defs[self._copies[tile_id]], rotation, tile_id
        return self.hexes[hex_id].printed, 0, f"{hex_id}-0"

    def tile_on(self, hex_id: str) -> Tile:
        self._hex(hex_id)
        tile, rotation, tile_id = self._current(hex_id)
        cities = tuple(
            CityView(
                i,
                tile.nodes[i].revenue.describe(),
                len(self._cities[(hex_id, i)].slots),
                tuple(self._cities[(hex_id, i)].slots),
            )
            for i in tile.cities
        )
        kinds = {
            kind: tuple(n.revenue.describe() for n in tile.nodes if n.kind is kind)
            for kind in NodeKind
        }
        return Tile(
            hex_id,
            tile.name,
            tile_id,
            rotation,
            tile.color,
            tile.label,
            cities,
            kinds[NodeKind.TOWN],
            kinds[NodeKind.OFFBOARD],
            tuple(describe_path(tile, p) for p in tile.rotated_paths(rotation)),
            hex_id not in self._laid,
        )

    def tile_def_on(self, hex_id: str) -> tuple[TileDef, int]:
        """(definition, rotation) of the tile now on a hex (its printed one until a lay)."""
        self._hex(hex_id)
        tile, rotation, _ = self._current(hex_id)
        return tile, rotation

    def laid_tiles(self) -> dict[str, tuple[str, int]]:
        return {
            hex_id: (self._copies[tile_id], rotation)
            for hex_id, (tile_id, rotation) in sorted(self._laid.items())
        }

    def tokens(self) -> dict[str, list[tuple[int, int, str]]]:
        found: dict[str, list[tuple[int, int, str]]] = {}
        for (hex_id, index), city in sorted(self._cities.items()):
            for slot, corp in enumerate(city.slots):
                if corp is not None:
                    found.setdefault(hex_id, []).append((index, slot, corp))
        return found

    def available_tile_ids(self, name: str) -> list[str]:
        count = self.tile_defs[name].count if name in self.tile_defs else 0
        return [f"{name}-{n}" for n in range(count) if f"{name}-{n}" not in self._where]

    def city_ref(self, hex_id: str, city_index: int) -> str:
        return f"{self._current(hex_id)[2]}-{city_index}"

    def network(self) -> TrackNetwork:
        """The track graph of the board as it is now: rebuilt when track changes, and only its
        stations renewed when tokens change."""
        cached = self._network_cache
        if cached is None or cached[0] != self._version:
            tokens = {key: tuple(city.slots) for key, city in self._cities.items()}
            network = None
            if cached is not None and cached[2] == self._track_version:
                network = cached[1].with_tokens(tokens)
            elif cached is not None and cached[2] == self._track_version - 1 and self._last_lay:
                network = cached[1].with_tile(
                    self._last_lay, *self._current(self._last_lay)[:2], tokens
                )
            if network is None:
                tiles = {h: self._current(h)[:2] for h in self.hexes}
                network = TrackNetwork(tiles, self._neighbours, tokens, self._sides)
            self._network_cache = cached = (self._version, network, self._track_version)
        return cached[1]

    def reach(self, corp: str) -> Reach:
        cached = self._reach_cache.get(corp)
        if cached is None or cached[0] != self._version:
            cached = (self._version, self.network().reach(corp))
            self._reach_cache[corp] = cached
            self._note_route(corp)
        return cached[1]

    def reaches(self, corp: str, goal: Goal) -> bool:
        """Whether `corp`'s reach includes one of the goal's hex sides, revenue centres or paths: the
        walk stops at the first found (or the whole reach answers, when already worked out)."""
        cached = self._reach_cache.get(corp)
        if cached is not None and cached[0] == self._version:
            edges, nodes = cached[1].edges, cached[1].nodes
            return (
                not goal.nodes.isdisjoint(nodes)
                or not goal.paths.isdisjoint(cached[1].paths)
                or any(side in edges.get(hex_id, ()) for hex_id, side in goal.sides)
            )
        self._note_route(corp)
        return self.network().reach(corp, goal=goal).hit

    def _note_route(self, corp: str) -> None:
        """Working out a reach also notes a route found (as 18xx.games' graph does)."""
        if corp not in self.routes_found and self.route_available(corp):
            self.routes_found.add(corp)

    def route_available(self, corp: str) -> bool:
        cached = self._route_cache.get(corp)
        if cached is None or cached[0] != self._version:
            cached = (self._version, self.network().route_available(corp))
            self._route_cache[corp] = cached
        return cached[1]

    # -- laying track ------------------------------------------------------------------------
    def _resolve_tile(self, tile_id: str) -> tuple[str, TileDef]:
        if tile_id in self._copies:
            return tile_id, self.tile_defs[self._copies[tile_id]]
        if tile_id in self.tile_defs:
            free = self.available_tile_ids(tile_id)
            if not free:
                raise IllegalAction(f"all tiles {tile_id} are on the map")
            return free[0], self.tile_defs[tile_id]
        raise InvalidAction(f"there is no tile {tile_id}")

    def check_lay(
        self,
        corp: str,
        hex_id: str,
        tile_id: str,
        rotation: int,
        *,
        colors: set[str],
        need_connection: bool = True,
        blocked_hexes: Iterable[str] = frozenset(),
    ) -> int:
        """Raise if `corp` may not lay `tile_id` on `hex_id` this way; else return the terrain cost."""
        hx = self._hex(hex_id)
        copy_id, new = self._resolve_tile(tile_id)
        if not isinstance(rotation, int) or isinstance(rotation, bool) or rotation not in SIDES:
            raise InvalidAction(f"rotation must be 0 to 5, not {rotation!r}")
        if copy_id in self._where:
            raise IllegalAction(f"tile {copy_id} is already on {self._where[copy_id]}")
        problem = (
            self._hex_problem(hx, blocked_hexes)
            or self._tile_problem(hx, new, colors)
            or self._rotation_problem(hx, new, rotation)
            or (need_connection and self._connection_problem(corp, hx, new, rotation))
        )
        if problem:
            raise IllegalAction(f"{corp} cannot lay tile {new.name} on {hex_id}: {problem}")
        return self._lay_cost(hex_id)

    def _lay_cost(self, hex_id: str) -> int:
        return 0 if hex_id in self._laid else self.hexes[hex_id].terrain_cost

    def _hex_problem(self, hx: MapHex, blocked_hexes: Iterable[str]) -> str | None:
        if hx.id in blocked_hexes:
            return "the hex is blocked by a private company"
        if not hx.buildable:
            return f"{hx.printed.color} hexes cannot be built on"
        return None

    def _tile_problem(self, hx: MapHex, new: TileDef, colors: set[str]) -> str | None:
        old, _, _ = self._current(hx.id)
        if new.color not in colors:
            return f"{new.color} tiles are not available now"
        if new.name in old.upgrades:
            return None
        if COLORS.index(new.color) != COLORS.index(old.color) + 1:
            return f"a {new.color} tile cannot replace a {old.color} one"
        if new.label != old.label:
            return (
                f"the hex needs a tile labelled {old.label}"
                if old.label
                else "the hex needs an unlabelled tile"
            )
        want = old.kind_counts()
        if new.kind_counts() != want:
            return f"the hex needs {_describe_kinds(*want)}"
        return f"tile {old.name} cannot be upgraded to {new.name}"

    def _rotation_problem(self, hx: MapHex, new: TileDef, rotation: int) -> str | None:
        old, old_rotation, _ = self._current(hx.id)
        if new.fixed_rotation and rotation != 0:
            return f"tile {new.name} is laid only as printed, never turned"
        exits = new.exits(rotation)
        dead = sorted(e for e in exits if e not in hx.neighbours)
        if dead:
            return (
                f"with rotation {rotation} track would run off the map or into a blocked side "
                f"(side {', '.join(map(str, dead))})"
            )
        new_paths = new.rotated_paths(rotation)
        for old_path in old.rotated_paths(old_rotation):
            if not any(path_covers(old, old_path, new, p) for p in new_paths):
                return f"rotation {rotation} does not keep the existing track"
        old_ct = old.node_edges(old_rotation)
        new_ct = new.node_edges(rotation)
        added = max(0, len(new_ct) - len(old_ct))
        if added < sum(1 for ne in new_ct.values() if all(not ne & oe for oe in old_ct.values())):
            return f"rotation {rotation} does not keep the existing cities connected"
        if len(new.cities) > 1 and len(old.cities) > 1:
            for oe in old_ct.values():
                if sum(1 for ne in new_ct.values() if oe <= ne) != 1:
                    return f"rotation {rotation} does not keep each city's track on one city"
        return None

    def _connection_problem(self, corp: str, hx: MapHex, new: TileDef, rotation: int) -> str | None:
        if self.reaches(corp, Goal(sides=frozenset((hx.id, side) for side in new.exits(rotation)))):
            return None
        reached = self.reach(corp).edges.get(hx.id, set())
        if not self.network().token_nodes(corp):
            return f"{corp} has no station on the map"
        if reached:
            return f"with rotation {rotation} the new track does not connect to {corp}'s track"
        return f"{corp}'s track does not reach the hex"

    def legal_lays(
        self,
        corp: str,
        *,
        colors: set[str],
        need_connection: bool = True,
        blocked_hexes: Iterable[str] = frozenset(),
        hexes: Iterable[str] | None = None,
    ) -> list[tuple[str, str, int]]:
        """Every (hex, tile name, rotation) `corp` may lay now, for autocomplete."""
        blocked = frozenset(blocked_hexes)
        reached = self.reach(corp).edges if need_connection else None
        candidates = sorted(hexes) if hexes is not None else sorted(self.hexes)
        found = []
        for hex_id in candidates:
            hx = self._hex(hex_id)
            if self._hex_problem(hx, blocked) or (reached is not None and not reached.get(hex_id)):
                continue
            old, _, _ = self._current(hex_id)
            for name in old.upgrades:
                new = self.tile_defs.get(name)
                if (
                    new is None
                    or not self.available_tile_ids(name)
                    or self._tile_problem(hx, new, colors)
                ):
                    continue
                for rotation in SIDES:
                    if self._rotation_problem(hx, new, rotation):
                        continue
                    if reached is not None and not new.exits(rotation) & reached[hex_id]:
                        continue
                    found.append((hex_id, name, rotation))
        return found

    def lay(self, corp: str, hex_id: str, tile_id: str, rotation: int) -> list[str]:
        """Put a tile on the map (checked by `check_lay` before). The replaced tile goes back to the
        supply; tokens and home reservations move to the new city joined to the same sides, or by
        city number when the old tile had no track (18xx.games `Hex#lay`). Returns the companies
        whose tokens were lifted because a trackless hex with several cities got track: as on
        18xx.games, each must choose its city again (a `place_token` needing no connection)."""
        self._hex(hex_id)
        copy_id, new = self._resolve_tile(tile_id)
        old, old_rotation, _ = self._current(hex_id)
        old_cities = {i: self._cities.pop((hex_id, i)) for i in old.cities}
        new_cities = {i: City([None] * new.nodes[i].slots) for i in new.cities}
        for old_index, new_index in self._city_map(old, old_rotation, new, rotation).items():
            target, source = new_cities[new_index], old_cities[old_index]
            target.reservations.extend(source.reservations)
            for corp_here in source.slots:
                if corp_here is not None:
                    slot = target.free_slot(corp_here)
                    if slot is None:  # more tokens than circles: keep them all
                        target.slots.append(None)
                        slot = len(target.slots) - 1
                    target.slots[slot] = corp_here
        for index, city in new_cities.items():
            self._cities[(hex_id, index)] = city
        if hex_id in self._laid:
            del self._where[self._laid[hex_id][0]]
        self._laid[hex_id] = (copy_id, rotation)
        self._where[copy_id] = hex_id
        self._version += 1
        self._track_version += 1
        self._last_lay = hex_id  # the network of the track before it needs only this hex renewed
        lifted: list[str] = []
        if not old.paths and new.paths and len(new.cities) > 1:
            # 18xx.games checks the new track for the laying company while the tokens still
            # stand on the new tile, and its graph remembers a route seen then (routes_found).
            self._note_route(corp)
            for city in new_cities.values():
                lifted.extend(c for c in city.slots if c is not None)
                city.slots = [None] * len(city.slots)
            self._version += 1
        return lifted

    @staticmethod
    def _city_map(old: TileDef, old_rotation: int, new: TileDef, rotation: int) -> dict[int, int]:
        """Old city index -> new city index, as 18xx.games `Hex#lay` pairs them."""
        old_edges = old.node_edges(old_rotation)
        new_edges = new.node_edges(rotation)
        if not any(old_edges.get(i) for i in old.cities) and len(old.cities) == len(new.cities):
            return dict(zip(old.cities, new.cities))
        mapping: dict[int, int | None] = {}
        for i in old.cities:
            mine = old_edges.get(i, frozenset())
            mapping[i] = next(
                (j for j in new.cities if mine and mine <= new_edges.get(j, frozenset())), None
            )
        used = [j for j in mapping.values() if j is not None]
        for position, i in enumerate(old.cities):
            if mapping[i] is not None or position >= len(new.cities):
                continue
            j = new.cities[position]
            if j in used:
                j = next(k for k in new.cities if k not in used)
            mapping[i] = j
            used.append(j)
        return {i: j for i, j in mapping.items() if j is not None}

    # -- station tokens ----------------------------------------------------------------------
    def locate_city(self, city_ref: str) -> tuple[str, int]:
        """(hex, city index) of a city reference like "57-1-0" or "D14-0-0"."""
        tile_id, _, index = city_ref.rpartition("-")
        if not tile_id or not index.isdigit():
            raise InvalidAction(f"{city_ref!r} is not a city reference like 57-1-0")
        if tile_id in self._where:
            hex_id = self._where[tile_id]
        elif (
            tile_id.endswith("-0") and tile_id[:-2] in self.hexes and tile_id[:-2] not in self._laid
        ):
            hex_id = tile_id[:-2]
        else:
            raise InvalidAction(f"tile {tile_id} is not on the map")
        city_index = int(index)
        if city_index not in self._current(hex_id)[0].cities:
            raise InvalidAction(f"tile {tile_id} on {hex_id} has no city {city_index}")
        return hex_id, city_index

    def reserved_city(self, corp: str, hex_id: str) -> int | None:
        """The city of `hex_id` holding a circle for `corp`'s home station (it follows upgrades:
        NYNH's New York city is city 1 of tile 54 at rotation 0), or None if none does."""
        for i in self._current(hex_id)[0].cities:
            if corp in self._cities[(hex_id, i)].reservations:
                return i
        return None

    def _reservations(
        self, reserved: Reservations | None
    ) -> tuple[dict[tuple[str, int], list[str]], dict[str, list[str]]]:
        """(city reservations, hex reservations): the board's own, or the caller's override
        ({hex: [(city index, corp)]}, a city index of None or -1 meaning any city of the hex)."""
        if reserved is None:
            return (
                {key: [c for c in city.reservations if c] for key, city in self._cities.items()},
                self._hex_reservations,
            )
        by_city: dict[tuple[str, int], list[str]] = {}
        by_hex: dict[str, list[str]] = {}
        for hex_id, entries in reserved.items():
            for index, corp in entries:
                if index is None or index < 0:
                    by_hex.setdefault(hex_id, []).append(corp)
                else:
                    by_city.setdefault((hex_id, index), []).append(corp)
        return by_city, by_hex

    def _token_problem(
        self,
        corp: str,
        hex_id: str,
        city_index: int,
        slot: int | None,
        reservations: tuple[dict[tuple[str, int], list[str]], Mapping[str, list[str]]],
    ) -> str | None:
        """`reservations`: what `_reservations` makes of the caller's `reserved`."""
        tile = self._current(hex_id)[0]
        if any(corp in self._cities[(hex_id, i)].slots for i in tile.cities):
            return f"{corp} already has a token on {hex_id}"
        by_city, by_hex = reservations
        city = self._cities[(hex_id, city_index)]
        others_here = [c for c in by_hex.get(hex_id, []) if c != corp]
        if others_here and corp not in by_hex.get(hex_id, []):
            return f"{hex_id} is reserved for {', '.join(others_here)}'s home station"
        held = [c for c in by_city.get((hex_id, city_index), []) if c != corp]
        free = [i for i, t in enumerate(city.slots) if t is None]
        if not free:
            return "the city has no free circle"
        own = corp in by_city.get((hex_id, city_index), [])
        if not own and len(free) <= len(held):
            return f"the last free circle is reserved for {', '.join(held)}'s home station"
        if slot is not None and (not isinstance(slot, int) or slot not in free):
            return f"circle {slot} is not free"
        return None

    def check_token(
        self,
        corp: str,
        city_ref: str,
        slot: int | None = None,
        *,
        need_connection: bool = True,
        reserved: Reservations | None = None,
    ) -> tuple[str, int]:
        """Raise if `corp` may not place a token in that city now; else return (hex, city index).

        Home reservations are tracked by the board (from the title's corporations, following
        upgrades); `reserved` replaces them for this check when given."""
        hex_id, city_index = self.locate_city(city_ref)
        problem = self._token_problem(corp, hex_id, city_index, slot, self._reservations(reserved))
        if not problem and need_connection:
            nid = self.network().node_at[(hex_id, city_index)]
            if not self.reaches(corp, Goal(nodes=frozenset({nid}))):
                problem = f"{corp}'s track does not reach it"
        if problem:
            raise IllegalAction(
                f"{corp} cannot place a token in {hex_id} (city {city_ref}): {problem}"
            )
        return hex_id, city_index

    def place_token(self, corp: str, hex_id: str, city_index: int, slot: int | None = None) -> None:
        city = self._cities[(hex_id, city_index)]
        if slot is None or city.slots[slot] is not None:
            slot = city.free_slot(corp)
            if slot is None:
                raise IllegalAction(
                    f"{corp} cannot place a token in {hex_id}: the city has no free circle"
                )
        city.slots[slot] = corp
        for i in self._current(hex_id)[0].cities:
            other = self._cities[(hex_id, i)]
            other.reservations = [None if c == corp else c for c in other.reservations]
        if corp in self._hex_reservations.get(hex_id, []):
            self._hex_reservations[hex_id].remove(corp)
        self._version += 1

    def remove_tokens(self, corp: str) -> None:
        """Take a closing corporation's tokens and home reservation off the map."""
        for city in self._cities.values():
            city.slots = [None if c == corp else c for c in city.slots]
            city.reservations = [None if c == corp else c for c in city.reservations]
        for holders in self._hex_reservations.values():
            if corp in holders:
                holders.remove(corp)
        self._version += 1

    def legal_token_cities(
        self, corp: str, *, need_connection: bool = True, reserved: Reservations | None = None
    ) -> list[str]:
        """City references where `corp` may place a token now."""
        network = self.network()
        reached = self.reach(corp).nodes if need_connection else None
        return [
            self.city_ref(network.nodes[nid].hex, network.nodes[nid].index)
            for nid in self._open_cities(corp, reserved)
            if reached is None or nid in reached
        ]

    def can_place_token(
        self, corp: str, *, need_connection: bool = True, reserved: Reservations | None = None
    ) -> bool:
        """Whether `legal_token_cities` lists any: the walk stops at the first open city."""
        open_cities = self._open_cities(corp, reserved)
        if not need_connection:
            return bool(open_cities)
        if not open_cities:
            self._note_route(corp)  # as working out its reach would have
            return False
        return self.reaches(corp, Goal(nodes=frozenset(open_cities)))

    def _open_cities(self, corp: str, reserved: Reservations | None) -> list[int]:
        """Network ids of the cities where `corp` may place a token, reach aside, in map order."""
        reservations = self._reservations(reserved)
        return [
            node.id
            for node in self.network().nodes
            if node.kind is NodeKind.CITY
            and None in node.tokens
            and not self._token_problem(corp, node.hex, node.index, None, reservations)
        ]

    # -- routes ------------------------------------------------------------------------------
    def route_revenues(
        self, corp: str, routes: list[dict[str, Any]], trains: TrainsLike, *, phase_color: str
    ) -> list[int]:
        """Check a run_routes list against the rules and return our revenue for each route.

        `trains`: {train id: distance} or [(train id, distance)], distance an int n, None for a
        diesel, a (big, small) pair or a `Distance`. `phase_color`: the newest tile colour of the
        phase ("yellow" before the first 5-train in 1830, "brown" after), which prices offboards."""
        if not isinstance(routes, list):
            raise InvalidAction("routes must be a list of route objects")
        network = self.network()
        runs = [resolve_route(network, route) for route in routes]
        check_runs(network, corp, runs, train_distances(trains))
        return [run.revenue(network, phase_color) for run in runs]

    def best_routes(
        self, corp: str, trains: TrainsLike, *, phase_color: str
    ) -> tuple[int, list[dict[str, Any]]]:
        """The exact best total revenue for `corp`'s trains and routes achieving it (run_routes format)."""
        network = self.network()
        total, runs = best_runs(network, corp, train_distances(trains), phase_color)
        return total, [run.to_dict(network, phase_color) for run in runs]


def _describe_kinds(cities: int, towns: int) -> str:
    if cities:
        return "a city tile" if cities == 1 else f"a tile with {cities} cities"
    if towns:
        return "a town tile" if towns == 1 else f"a tile with {towns} towns"
    return "a plain track tile"
