"""The initial private auction (18xx "waterfall" auction, as 1830 plays it)."""

from __future__ import annotations

from typing import Any

from engine.eighteen.entities import Company, Player
from engine.eighteen.explain import par_price_problem
from engine.eighteen.rounds import Round, Step
from engine.errors import IllegalAction, InvalidAction


class CompanyPendingPar(Step):
    """After buying a private that carries a president's certificate, its buyer sets the par."""

    round: AuctionRound

    description = "Choose Corporation Par Value"

    def active(self) -> bool:
        return bool(self.round.companies_pending_par)

    def active_entities(self) -> list[Any]:
        pending = self.round.companies_pending_par
        return [pending[0].owner] if pending and pending[0].owner else []

    def actions(self, entity: Any) -> list[str]:
        return ["par"] if entity is self.current_entity() else []

    def explain_choice(self, entity: Any, action_type: str, words: set[str]) -> str | None:
        if action_type != "par" or entity is not self.current_entity():
            return None
        company = self.round.companies_pending_par[0]
        corp = self.game.company_president_corporation(company)
        if corp.sym.casefold() not in words and any(
            c.sym.casefold() in words for c in self.game.corporations
        ):
            return (
                f"{company.name} came with the {corp.sym} president's certificate, so "
                f"{corp.sym} is the company to par now"
            )
        return par_price_problem(self.game, corp, words)

    def process_par(self, action: dict[str, Any], entity: Player) -> None:
        company = self.round.companies_pending_par[0]
        corp = self.game.corporation(action.get("corporation"))
        expected = self.game.company_president_corporation(company)
        if corp is not expected:
            raise IllegalAction(
                f"{company.name} gives the {expected.name} president's certificate; "
                f"par {expected.sym}, not {corp.sym}"
            )
        price = self.game.par_cell(action.get("share_price"), entity, check_cash=False)
        self.game.do_par(entity, corp, price, free=True)
        self.round.companies_pending_par.pop(0)


class WaterfallAuction(Step):
    description = "Bid on Companies"

    def setup(self) -> None:
        self.companies: list[Company] = sorted(
            self.game.companies, key=lambda c: (c.min_bid, c.name)
        )
        self.cheapest = self.companies[0]
        self.bids: dict[Company, list[tuple[Player, int]]] = {}
        self.auctioning: Company | None = None

    # -- queries -------------------------------------------------------------------------------
    def active_auction(self) -> tuple[Company, list[tuple[Player, int]]] | None:
        c = self.auctioning
        if c is not None and len(self.bids.get(c, [])) > 1:
            return c, self.bids[c]
        return None

    def active_entities(self) -> list[Any]:
        auc = self.active_auction()
        if auc:
            return [min(auc[1], key=lambda b: b[1])[0]]
        return super().active_entities()

    def actions(self, entity: Any) -> list[str]:
        if not self.companies:
            return []
        auc = self.active_auction()
        if auc:
            return ["bid", "pass"] if min(auc[1], key=lambda b: b[1])[0] is entity else []
        return ["bid", "pass"] if entity is self.round.entities[self.round.entity_index] else []

    def may_purchase(self, company: Company) -> bool:
        return (
            self.active_auction() is None and bool(self.companies) and company is self.companies[0]
        )

    def highest_bid(self, company: Company) -> int | None:
        bids = self.bids.get(company, [])
        return max(b[1] for b in bids) if bids else None

    def min_bid(self, company: Company) -> int:
        if self.may_purchase(company):
            return company.min_bid
        high = self.highest_bid(company)
        return (high if high is not None else company.min_bid) + self.game.min_bid_increment

    def committed(self, player: Player) -> int:
        return sum(p for bids in self.bids.values() for (pl, p) in bids if pl is player)

    def current_bid(self, player: Player, company: Company) -> int:
        return next((p for pl, p in self.bids.get(company, []) if pl is player), 0)

    def max_bid(self, player: Player, company: Company) -> int:
        return player.cash - self.committed(player) + self.current_bid(player, company)

    # -- processing ----------------------------------------------------------------------------
    def process_pass(self, action: dict[str, Any], entity: Player) -> None:
        if self.active_auction():
            assert self.auctioning is not None
            self.bids[self.auctioning] = [
                b for b in self.bids[self.auctioning] if b[0] is not entity
            ]
            self.resolve_bids()
        else:
            entity.passed = True
            if all(p.passed for p in self.round.entities):
                self.all_passed()
            self.round.next_entity_index()

    def process_bid(self, action: dict[str, Any], entity: Player) -> None:
        company = self.game.company(action.get("company"))
        if company not in self.companies:
            raise IllegalAction(f"{company.name} has already been sold")
        price = action.get("price")
        if not isinstance(price, int):
            raise InvalidAction("a bid needs a whole-dollar 'price'")
        entity.passed = False
        if self.active_auction():
            if company is not self.auctioning:
                raise IllegalAction(f"only {self.auctioning.name} is being auctioned now")  # type: ignore[union-attr]
            self.add_bid(entity, company, price)
        else:
            if self.may_purchase(company):
                if price < company.min_bid:
                    raise IllegalAction(f"{company.name} costs {self.game.money(company.min_bid)}")
                self.round.last_to_act = entity
                self.bids.pop(company, None)
                self.buy_company(entity, company, price)
                self.resolve_bids()
            else:
                self.add_bid(entity, company, price)
            self.round.next_entity_index()

    def add_bid(self, player: Player, company: Company, price: int) -> None:
        low = self.min_bid(company)
        if price < low:
            raise IllegalAction(f"the minimum bid for {company.name} is {self.game.money(low)}")
        high = self.max_bid(player, company)
        if price > high:
            raise IllegalAction(
                f"{player.name} cannot afford a {self.game.money(price)} bid; the most they can bid "
                f"on {company.name} is {self.game.money(high)}"
            )
        bids = [b for b in self.bids.get(company, []) if b[0] is not player]
        bids.append((player, price))
        self.bids[company] = bids

    def resolve_bids(self) -> None:
        while self.companies:
            company = self.companies[0]
            self.auctioning = None
            bids = self.bids.get(company, [])
            if len(bids) == 1:
                player, price = bids[0]
                del self.bids[company]
                self.buy_company(player, company, price)
                continue
            if len(bids) > 1:
                self.auctioning = company
            break

    def buy_company(self, player: Player, company: Company, price: int) -> None:
        available = self.max_bid(player, company)
        if available < price:
            raise IllegalAction(
                f"{player.name} has {self.game.money(available)} available and cannot spend {self.game.money(price)}"
            )
        self.game.give_company(player, company, price)
        self.companies.remove(company)

    def all_passed(self) -> None:
        if self.cheapest in self.companies:
            self.cheapest.discount += 5
            if self.cheapest.min_bid <= 0:
                self.round.next_entity_index()
                player = self.round.entities[self.round.entity_index]
                self.buy_company(player, self.cheapest, 0)
                self.resolve_bids()
        else:
            self.game.payout_companies()
        for p in self.round.entities:
            p.passed = False


class AuctionRound(Round):
    name = "Auction Round"
    kind = "auction"

    def __init__(self, game: Any, steps: list[Any]) -> None:
        self.companies_pending_par: list[Company] = []
        super().__init__(game, steps)

    def select_entities(self) -> list[Any]:
        return list(self.game.player_list)
