"""Track and station tokens in the shared 18xx rules: where a company may lay and place, what
the lay or token costs, home tokens, and whether a company has a route at all. A mixin of
`EighteenGame`, which supplies the board, the phases and the round."""

from __future__ import annotations

from typing import Any, Protocol

from engine.eighteen.entities import Corporation, Player, spend
from engine.eighteen.operating import OperatingRound
from engine.eighteen.rounds import EighteenHost
from engine.eighteen.trains import Train
from engine.errors import IllegalAction, InvalidAction
from engine.game import Action


class _TokenHost(EighteenHost, Protocol):
    """The game with the cache of token answers kept for its current track network."""

    _token_cache: tuple[Any, dict[tuple[str, str], Any]]

    def _token_answers(self) -> dict[tuple[str, str], Any]: ...


class TrackRules:
    # fields of the game that these rules set, with the game's types
    last_effect: dict[str, Any] | None
    last_route_revenues: list[int]
    _token_cache: tuple[Any, dict[tuple[str, str], Any]]

    def token_cities(self: _TokenHost, corp: Corporation) -> list[str]:
        """Cities where the corporation may place a token now (cached while the board is unchanged)."""
        cache = self._token_answers()
        if ("cities", corp.sym) not in cache:
            cache[("cities", corp.sym)] = self.board.legal_token_cities(corp.sym)
        return cache[("cities", corp.sym)]

    def can_place_token_somewhere(self: _TokenHost, corp: Corporation) -> bool:
        """Whether `token_cities` lists any city, found without listing them all."""
        cache = self._token_answers()
        if ("any", corp.sym) not in cache:
            listed = cache.get(("cities", corp.sym))
            cache[("any", corp.sym)] = (
                bool(listed) if listed is not None else self.board.can_place_token(corp.sym)
            )
        return cache[("any", corp.sym)]

    def _token_answers(self: _TokenHost) -> dict[tuple[str, str], Any]:
        network = self.board.network()
        if self._token_cache[0] is not network:
            self._token_cache = (network, {})
        return self._token_cache[1]

    def hex_names(self: EighteenHost) -> dict[str, str]:
        return {h["hex"]: h["name"] for h in self.data["map"]["hexes"] if h.get("name")}

    def blocked_hexes(self: EighteenHost) -> set[str]:
        out: set[str] = set()
        for c in self.companies:
            ability = c.ability("blocks_hexes")
            if ability is not None and isinstance(c.owner, Player):
                out.update(ability.get("hexes", []))
        return out

    def lay_fields(self: EighteenHost, action: Action) -> tuple[str, str, int]:
        hex_id, tile_id, rotation = action.get("hex"), action.get("tile"), action.get("rotation")
        if (
            not isinstance(hex_id, str)
            or not isinstance(tile_id, str)
            or not isinstance(rotation, int)
        ):
            raise InvalidAction(
                "lay_tile needs 'hex' (e.g. E19), 'tile' (e.g. 57-0) and 'rotation' (0-5)"
            )
        if "-" not in tile_id:
            ids = self.board.available_tile_ids(tile_id)
            if not ids:
                raise IllegalAction(f"no tile {tile_id} is left in the supply")
            tile_id = ids[0]
        return hex_id, tile_id, rotation

    def lay_tile(
        self: EighteenHost,
        corp: Corporation,
        hex_id: str,
        tile_id: str,
        rotation: int,
        *,
        need_connection: bool,
    ) -> None:
        cost = self.board.check_lay(
            corp.sym,
            hex_id,
            tile_id,
            rotation,
            colors=set(self.phases.current.tiles),
            need_connection=need_connection,
            blocked_hexes=self.blocked_hexes(),
        )
        problem = self.tile_cost_problem(corp, cost, hex_id)
        if problem:
            raise IllegalAction(problem)
        spend(corp, self.bank, cost)
        lifted = self.board.lay(corp.sym, hex_id, tile_id, rotation)
        self.last_effect = {"type": "lay_tile", "hex": hex_id}
        for sym in lifted:
            self.lift_token(corp, self.corporation(sym), hex_id)

    def tile_cost_problem(
        self: EighteenHost, corp: Corporation, cost: int, hex_id: str
    ) -> str | None:
        """Why the company cannot pay this lay's terrain cost, or None."""
        if cost > corp.cash:
            return f"{corp.sym} has {self.money(corp.cash)} and cannot pay {self.money(cost)} terrain cost on {hex_id}"
        return None

    def lift_token(self: EighteenHost, actor: Corporation, owner: Corporation, hex_id: str) -> None:
        """A token on a multi-city tile that had no track is lifted when track arrives; which city
        it belongs to is chosen again (by the company laying the tile, as 18xx.games does)."""
        owner.tokens_used -= 1
        position = owner.placed_tokens.index(hex_id)
        owner.placed_tokens.pop(position)
        assert isinstance(self.round, OperatingRound)
        self.round.pending_tokens.append(
            {"entity": actor, "corp": owner, "hex": hex_id, "position": position}
        )

    def hex_has_track(self: EighteenHost, hex_id: str) -> bool:
        if hex_id in self.board.laid_tiles():
            return True
        return any(h["hex"] == hex_id and h.get("paths") for h in self.data["map"]["hexes"])

    def token_fields(self: EighteenHost, action: Action) -> tuple[str, int]:
        city = action.get("city")
        if not isinstance(city, str):
            raise InvalidAction("place_token needs 'city' like '57-0-0' (or a hex like 'E19')")
        if "-" not in city:  # a hex name: its only city
            cities = self.board.tile_on(city).cities
            if len(cities) != 1:
                raise InvalidAction(
                    f"{city} has {len(cities)} cities: name one, like {self.board.city_ref(city, 0)}"
                )
            return city, cities[0].index
        return self.board.locate_city(city)

    def place_token(
        self: EighteenHost,
        corp: Corporation,
        hex_id: str,
        city: int,
        slot: Any,
        *,
        cost: int,
        need_connection: bool,
        extra: bool = False,
        position: int | None = None,
    ) -> None:
        """`position`: where a lifted token goes back in the corporation's list of stations (it
        is the same token, so it keeps its place)."""
        if not extra and corp.next_token_cost is None:
            raise IllegalAction(f"{corp.sym} has no station tokens left")
        ref = self.board.city_ref(hex_id, city)
        self.board.check_token(corp.sym, ref, slot, need_connection=need_connection)
        spend(corp, self.bank, cost)
        self.board.place_token(corp.sym, hex_id, city, slot)
        if extra:
            corp.extra_tokens += 1
        else:
            corp.tokens_used += 1
        corp.placed_tokens.insert(len(corp.placed_tokens) if position is None else position, hex_id)
        self.last_effect = {"type": "place_token", "hex": hex_id, "city": city}

    def place_home_token(self: EighteenHost, corp: Corporation, round_: OperatingRound) -> None:
        if corp.tokens_used > 0 or corp.next_token_cost is None:
            return
        city = self.home_city_choice(corp)
        if city is None:
            round_.pending_tokens.append({"entity": corp, "corp": corp, "hex": corp.home})
            return
        self.board.place_token(corp.sym, corp.home, city, None)
        corp.tokens_used += 1
        corp.placed_tokens.append(corp.home)

    def home_city_choice(self: EighteenHost, corp: Corporation) -> int | None:
        """Which city of the home hex gets the home token, or None if the president must choose
        (a home hex with several cities, none reserved for it, that already carries track)."""
        reserved = self.board.reserved_city(corp.sym, corp.home)
        if reserved is not None:
            return reserved
        if len(self.board.tile_on(corp.home).cities) > 1 and self.hex_has_track(corp.home):
            return None
        return 0

    def can_run_route(self: EighteenHost, corp: Corporation) -> bool:
        """Some station reaches another revenue centre (18xx.games' route_available). As there,
        a company once found to have a route (whenever its reach was worked out, for a lay, a
        token or a run) keeps it for the rest of the game, even when track or tokens later cut
        it off: its turn still offers a run (of nothing) and it must still own a train."""
        found = self.board.routes_found
        if corp.sym not in found and self.board.route_available(corp.sym):
            found.add(corp.sym)
        return corp.sym in found

    def check_routes(self: EighteenHost, corp: Corporation, routes: list[dict[str, Any]]) -> int:
        trains: dict[str, Train] = {}
        for r in routes:
            if not isinstance(r, dict) or not isinstance(r.get("train"), str):
                raise InvalidAction("each route needs a 'train' id like '2-0'")
            t = self.train(r["train"])
            if t.owner is not corp:
                raise IllegalAction(f"{corp.sym} does not own train {t.id}")
            if t.id in trains:
                raise IllegalAction(f"train {t.id} cannot run twice")
            trains[t.id] = t
        revenues = self.board.route_revenues(
            corp.sym,
            routes,
            {i: t.distance for i, t in trains.items()},
            phase_color=self.phases.current.offboard_color,
        )
        for r, rev in zip(routes, revenues):
            claimed = r.get("revenue")
            if claimed is not None and claimed != rev:
                raise IllegalAction(
                    f"the {r['train']} train's route earns {self.money(rev)}, not {self.money(claimed)}"
                )
        self.last_route_revenues = list(revenues)
        return sum(revenues)
