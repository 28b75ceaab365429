"""Private companies in the shared 18xx rules: buying one, the shares it comes with, selling it
between owners, exchanging it for a share, its revenue, closing it, and when its special power
may be used. A mixin of `EighteenGame`."""

from __future__ import annotations

import math
from typing import Any

from engine.eighteen import shares as sh
from engine.eighteen.auction import AuctionRound
from engine.eighteen.entities import Ability, Company, Corporation, Player, Share, spend
from engine.eighteen.operating import OperatingRound
from engine.eighteen.rounds import EighteenHost


class CompanyRules:
    def give_company(self: EighteenHost, player: Player, company: Company, price: int) -> None:
        company.owner = player
        player.companies.append(company)
        if price > 0:
            spend(player, self.bank, price)
        self.note(f"{player.name} buys {company.sym} for {self.money(price)}.")
        self.after_buy_company(player, company)

    def after_buy_company(self: EighteenHost, player: Player, company: Company) -> None:
        ability = company.ability("shares")
        if ability is None:
            return
        for sid in ability.get("shares"):
            corp = self.corporation(sid.split("_")[0])
            share = corp.all_shares[int(sid.split("_")[1])]
            if share.president:
                assert isinstance(self.round, AuctionRound)
                self.round.companies_pending_par.append(company)
            else:
                sh.buy(self, player, [share], free=True)
                self.note(
                    f"{player.name} receives a {share.percent}% {corp.sym} share with {company.sym}."
                )

    def transfer_company(
        self: EighteenHost,
        company: Company,
        buyer: Player | Corporation,
        price: int,
        seller: Player,
    ) -> None:
        spend(buyer, seller, price)
        seller.companies.remove(company)
        company.owner = buyer
        buyer.companies.append(company)

    def close_company(self: EighteenHost, company: Company) -> None:
        self.note(f"{company.sym} closes.")
        company.closed = True
        owner = company.owner
        held: list[Company] = getattr(owner, "companies", [])  # the bank (1860) lists none
        if company in held:
            held.remove(company)
        company.owner = None
        company.abilities = []

    def payout_companies(self: EighteenHost) -> None:
        for company in self.companies:
            if company.closed or company.owner is None:
                continue
            spend(self.bank, company.owner, company.revenue)

    def company_min_price(self: EighteenHost, company: Company) -> int:
        return math.ceil(company.value / 2)

    def company_max_price(self: EighteenHost, company: Company) -> int:
        return company.value * 2

    def purchasable_companies(self: EighteenHost, corp: Corporation) -> list[Company]:
        return [
            c
            for c in self.companies
            if isinstance(c.owner, Player) and not c.closed and c.ability("no_buy") is None
        ]

    def exchange_targets(self: EighteenHost, company: Company) -> list[Share]:
        ability = company.ability("exchange")
        if ability is None or not isinstance(company.owner, Player):
            return []
        player = company.owner
        out: list[Share] = []
        for sym in ability.get("corporations", []):
            corp = self.corporation(sym)
            ipo = [s for s in corp.shares_of(corp) if not s.president]
            if "ipo" in ability.get("from", []) and ipo:
                out.append(ipo[0])
            if "market" in ability.get("from", []) and self.pool.shares_of(corp):
                out.append(self.pool.shares_of(corp)[0])
        return [s for s in out if self.holding_ok(player, s.corp, s.percent)]

    def track_ability(self: EighteenHost, company: Company, round_: Any) -> Ability | None:
        """The tile-lay power the company can use now, if any (owning corporation's turn only)."""
        if not isinstance(company.owner, Corporation):
            return None
        for kind in ("tile_lay", "teleport"):
            ability = company.ability(kind)
            if ability is not None and self.ability_time_now(ability, company):
                return ability
        return None

    def ability_time_now(self: EighteenHost, ability: Ability, company: Company) -> bool:
        """Whether an active power may be used at this moment by its holder: 'any' time, during
        the owning corporation's turn ('owning_corp_or_turn'), or only while that corporation is
        in the named step of its turn ('track'). Powers without a time are passive."""
        times = ability.get("when", [])
        owner_type = ability.get("owner_type")
        if owner_type == "player" and not isinstance(company.owner, Player):
            return False
        if owner_type == "corporation" and not isinstance(company.owner, Corporation):
            return False
        if "any" in times:
            return True
        round_ = self.round
        if not isinstance(round_, OperatingRound) or round_.current_operator is None:
            return False
        if round_.current_operator is not company.owner:
            return False
        if "owning_corp_or_turn" in times:
            return True
        step = round_.turn_step()
        return step is not None and step.time_name in times

    def operator_has_usable_ability(self: EighteenHost, corp: Corporation) -> bool:
        """The corporation owns a private whose active power it could still use now (18xx.games
        then keeps its turn open, offering only 'pass', at the end of the operating turn)."""
        return any(self.ability_time_now(a, c) for c in corp.companies for a in c.abilities)
