"""The private companies' steps of an operating round: exchanging a private for a share,
its special track lay or token, and a corporation buying a private from its owner."""

from __future__ import annotations

from typing import Any

from engine.eighteen import house_programs as house
from engine.eighteen import shares as sh
from engine.eighteen.entities import Company, Corporation, Player
from engine.eighteen.operating import OperatingRound, int_field
from engine.eighteen.rounds import Step
from engine.errors import IllegalAction


class Exchange(Step):
    """A private that may be exchanged for a share (1830: MH for an NYC share)."""

    description = "Exchange"
    blocks = False

    def actions(self, entity: Any) -> list[str]:
        return (
            ["buy_shares"]
            if isinstance(entity, Company) and self.game.exchange_targets(entity)
            else []
        )

    def process_buy_shares(self, action: dict[str, Any], company: Company) -> None:
        shares = self.game.shares_from_action(action)
        if len(shares) != 1:
            raise IllegalAction(f"{company.name} is exchanged for one share, not {len(shares)}")
        if not any(shares[0] is s for s in self.game.exchange_targets(company)):
            raise IllegalAction(f"{company.name} cannot be exchanged for {shares[0].id}")
        player = company.owner
        assert isinstance(player, Player)
        sh.buy(self.game, player, shares, free=True)
        self.round.note_share_move(player, shares[0].corp, "buy_shares")
        self.game.close_company(company)


class SpecialTrack(Step):
    """Tile lays granted by privates: an extra lay (CS) or a lay anywhere that uses the turn's lay (DH)."""

    description = "Lay Track for a private company"

    @property
    def blocks(self) -> bool:  # type: ignore[override]
        return False

    def actions(self, entity: Any) -> list[str]:
        if not isinstance(entity, Company):
            return []
        return ["lay_tile"] if self.game.track_ability(entity, self.round) else []

    def process_lay_tile(self, action: dict[str, Any], company: Company) -> None:
        ability = self.game.track_ability(company, self.round)
        assert ability is not None
        corp = company.owner
        assert isinstance(corp, Corporation)
        hex_id, tile_id, rotation = self.game.lay_fields(action)
        tile_name = tile_id.split("-")[0]
        if hex_id not in ability.get("hexes", []):
            raise IllegalAction(
                f"{company.name} can only lay track on {', '.join(ability.get('hexes'))}"
            )
        if tile_name not in ability.get("tiles", []):
            raise IllegalAction(
                f"{company.name} can only lay tile {', '.join(ability.get('tiles'))}"
            )
        if ability.type == "teleport":
            assert isinstance(self.round, OperatingRound)  # a teleport is made in the track step
            if self.round.num_laid_track >= self.game.tile_lays:
                raise IllegalAction(
                    f"{corp.sym} has already laid its track this turn (a "
                    "company lays track once in its operating turn)"
                )
            self.game.lay_tile(corp, hex_id, tile_id, rotation, need_connection=False)
            self.round.num_laid_track += 1
            if corp.next_token_cost is None:
                company.abilities.remove(ability)
            else:
                self.round.teleported = company
        else:
            self.game.lay_tile(corp, hex_id, tile_id, rotation, need_connection=False)
            ability.data["count"] = ability.get("count", 1) - 1
        if ability.type != "teleport" and ability.get("count", 0) <= 0:
            company.abilities.remove(ability)


class SpecialToken(Step):
    """The station token that follows a teleport lay (DH on F16)."""

    round: OperatingRound

    description = "Place teleport token"

    @property
    def blocks(self) -> bool:  # type: ignore[override]
        return self.round.teleported is not None

    def active_entities(self) -> list[Any]:
        return [self.round.teleported] if self.round.teleported else super().active_entities()

    def actions(self, entity: Any) -> list[str]:
        if entity is not None and entity is self.round.teleported:
            return ["place_token", "pass"]
        return []

    def process_place_token(self, action: dict[str, Any], company: Company) -> None:
        corp = company.owner
        assert isinstance(corp, Corporation)
        ability = company.ability("teleport")
        hex_id, city = self.game.token_fields(action)
        if ability is None or hex_id not in ability.get("hexes", []):
            raise IllegalAction(
                f"{company.name} can only place a token on "
                f"{', '.join(ability.get('hexes', [])) if ability else 'its hex'}"
            )
        # The teleport station is the corporation's next token, free, and its token of the turn.
        self.game.place_token(corp, hex_id, city, action.get("slot"), cost=0, need_connection=False)
        self.round.tokened = True
        self.finish()

    def process_pass(self, action: dict[str, Any], company: Company) -> None:
        self.finish()

    def finish(self) -> None:
        company = self.round.teleported
        assert company is not None  # the step acts only while a teleport is under way
        ability = company.ability("teleport")
        if ability:
            company.abilities.remove(ability)
        self.round.teleported = None


class BuyCompany(Step):
    description = "Buy Companies"

    @property
    def blocks(self) -> bool:  # type: ignore[override]
        return bool(self.opts.get("blocks"))

    def actions(self, entity: Any) -> list[str]:
        if self.can_buy_company(entity):
            return ["buy_company", "pass"] if self.blocks else ["buy_company"]
        if (
            self.blocks
            and isinstance(entity, Corporation)
            and entity is self.current_entity()
            and self.game.operator_has_usable_ability(entity)
        ):
            return ["pass"]
        return []

    def house_actions(self, entity: Any) -> list[dict[str, Any]]:
        if not self.blocks or not isinstance(entity, Corporation):
            return []
        return house.private_moves(self.game, entity, self.actions(entity))

    def can_buy_company(self, entity: Any) -> bool:
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return False
        if not self.game.phase_allows("can_buy_companies"):
            return False
        comps = self.game.purchasable_companies(entity)
        return bool(comps) and min(self.game.company_min_price(c) for c in comps) <= entity.cash

    def process_buy_company(self, action: dict[str, Any], corp: Corporation) -> None:
        company = self.game.company(action.get("company"))
        if company not in self.game.purchasable_companies(corp):
            raise IllegalAction(f"{corp.sym} cannot buy {company.name}")
        price = int_field(action, "price")
        lo, hi = self.game.company_min_price(company), self.game.company_max_price(company)
        if not lo <= price <= hi:
            raise IllegalAction(
                f"a company buys a private for a price agreed with its owner "
                f"within the title's range: {company.name} (face value "
                f"{self.game.money(company.value)}) for between {self.game.money(lo)} and {self.game.money(hi)}"
            )
        seller = company.owner
        assert isinstance(seller, Player)
        self.game.transfer_company(company, corp, price, seller)
