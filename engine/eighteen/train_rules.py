"""Trains and the bankruptcy they can force in the shared 18xx rules: buying, trading in,
rusting, phase changes and events, the train a company must own, and a president's emergency
sales and bankruptcy. A mixin of `EighteenGame`."""

from __future__ import annotations

from engine.eighteen import shares as sh
from engine.eighteen.entities import Corporation, Player, Share, spend
from engine.eighteen.operating import BuyTrain, OperatingRound
from engine.eighteen.rounds import EighteenHost
from engine.eighteen.trains import Train
from engine.errors import IllegalAction


class TrainRules:
    last_train_source: str | None  # a field of the game that these rules set

    def crowded_corps(self: EighteenHost) -> list[Corporation]:
        limit = self.train_limit
        return [c for c in self.corporations if len(c.trains) > limit and not c.closed]

    def must_buy_train(self: EighteenHost, corp: Corporation) -> bool:
        return not corp.trains and not self.depot.empty and self.can_run_route(corp)

    def other_corp_trains(self: EighteenHost, corp: Corporation) -> list[Train]:
        return [t for c in self.corporations if c is not corp and not c.closed for t in c.trains]

    def trade_ins(self: EighteenHost, corp: Corporation) -> list[tuple[Train, Train, int]]:
        out = []
        for new in self.depot.available(self.phases):
            for old in corp.trains:
                if old.name in new.discount:
                    out.append((old, new, new.price_with_trade_in(old)))
        return out

    def buy_train(self: EighteenHost, corp: Corporation, train: Train, price: int) -> None:
        source = train.owner
        self.last_train_source = source.sym if isinstance(source, Corporation) else None
        receiver = source if isinstance(source, Corporation) else self.bank
        spend(corp, receiver, price)
        if isinstance(source, Corporation):
            source.trains.remove(train)
        else:
            self.depot.remove(train)
        train.owner = corp
        corp.trains.append(train)
        self.after_buy_train_event(corp)
        if self.phases.advance_for(train.name):
            phase = self.phases.current
            self.note(
                f"Phase {phase.name} begins: train limit {phase.train_limit}, "
                f"{', '.join(phase.tiles)} tiles."
            )
            self.on_phase_change()
        self.rust_trains(train)
        for event in list(train.events):
            self.trigger_event(event)
        train.events.clear()

    def after_buy_train_event(self: EighteenHost, corp: Corporation) -> None:
        for company in self.companies:
            ability = company.ability("close")
            if (
                ability is not None
                and "bought_train" in ability.get("when", [])
                and ability.get("corporation") == corp.sym
            ):
                self.close_company(company)

    def rust_trains(self: EighteenHost, bought: Train) -> None:
        rusted: list[str] = []
        for corp in self.corporations:
            for t in list(corp.trains):
                if t.rusts_on == bought.name:
                    corp.trains.remove(t)
                    t.owner = None
                    t.rusted = True
                    rusted.append(corp.sym)
        for t in list(self.depot.discarded):
            if t.rusts_on == bought.name:
                self.depot.discarded.remove(t)
                t.owner = None
                t.rusted = True
                rusted.append("the market")
        if rusted:
            name = next(
                s["name"] for s in self.train_specs() if s.get("rusts_on_first") == bought.name
            )
            self.note(f"{name}-trains rust ({', '.join(rusted)}).")

    def on_phase_change(self: EighteenHost) -> None:
        pass

    def trigger_event(self: EighteenHost, event: str) -> None:
        if event == "close_companies":
            for c in self.companies:
                if not c.closed:
                    self.close_company(c)

    # -- bankruptcy
    def bankruptcy_problem(self: EighteenHost, corp: Corporation) -> str | None:
        """Why `corp`'s president may not declare bankruptcy now (None: they may)."""
        player = corp.owner
        if player is None:
            return f"{corp.sym} has no president"
        if not self.must_buy_train(corp):
            return f"{corp.sym} does not have to buy a train, so its president cannot go bankrupt"
        needed = self.depot.min_price(self.phases)
        sellable = sum(self.max_emergency_sale(player, c, corp) for c in self.corporations)
        if player.cash + corp.cash + sellable >= needed:
            return (
                f"{player.name} cannot go bankrupt: {corp.sym}'s cash plus "
                f"{player.name}'s cash and sellable shares reach {self.money(needed)}"
            )
        return None

    def declare_bankrupt(self: EighteenHost, corp: Corporation) -> None:
        problem = self.bankruptcy_problem(corp)
        if problem:
            raise IllegalAction(problem)
        player = corp.owner
        assert player is not None
        # Shares are sold as the step under way allows sales: declared in the train step they go
        # to the market; declared earlier in the company's turn (before its track) none is sold,
        # as on 18xx.games, whose bankruptcy sells what the active step would let be sold.
        selling = isinstance(self.round.active_step(), BuyTrain)
        for c in sorted(
            [c for c in self.corporations if selling and player.shares_of(c) and c.share_price],
            key=self.market.operating_key,
        ):
            while True:
                bundles = [
                    b
                    for b in sh.sellable_bundles(self, player, c)
                    if self.emergency_sale_ok(player, c, corp, b[0], b[1])
                ]
                if not bundles:
                    break
                shares, percent = max(bundles, key=lambda b: sh.bundle_price(b[0], b[1], c))
                sh.sell(self, player, shares, percent)
        if isinstance(self.round, OperatingRound):
            self.round.recalculate_order()
        spend(player, self.bank, player.cash)
        player.bankrupt = True
        self.note(f"{player.name} is bankrupt.")

    def emergency_sale_ok(
        self: EighteenHost,
        player: Player,
        corp: Corporation,
        buying: Corporation,
        shares: list[Share],
        percent: int,
    ) -> bool:
        if not sh.fits_pool(self, corp, percent) or not sh.can_dump(
            self, player, corp, shares, percent
        ):
            return False
        if corp is buying and corp.owner is player:
            others = max(
                (p.percent_of(corp) for p in self.player_list if p is not player), default=0
            )
            if player.percent_of(corp) - percent < others:
                return False
        return True

    def max_emergency_sale(
        self: EighteenHost, player: Player, corp: Corporation, buying: Corporation
    ) -> int:
        prices = [
            sh.bundle_price(b, p, corp)
            for b, p in sh.sellable_bundles(self, player, corp)
            if corp.share_price and self.emergency_sale_ok(player, corp, buying, b, p)
        ]
        return max(prices, default=0)
