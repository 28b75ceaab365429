"""The stock round: sell/buy/sell turns, par, private sales between players, sold-out rises."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.eighteen import programs
from engine.eighteen import shares as sh
from engine.eighteen.entities import Company, Corporation, Player, Share
from engine.eighteen.explain import par_price_problem
from engine.eighteen.rounds import Round, Step
from engine.errors import IllegalAction, InvalidAction


class BuySellParShares(Step):
    round: StockRound

    description = "Sell/Buy/Sell Shares"

    def setup(self) -> None:
        r = self.round
        for corps in r.players_sold.values():
            for c in corps:
                corps[c] = "prev"
        r.players_history.setdefault(self.current_entity(), {}).clear()  # a new turn of theirs
        r.current_actions = []
        r.bought_from_ipo = False

    # -- queries -------------------------------------------------------------------------------
    def _move_tests(self) -> dict[str, Callable[[Player], Any]]:
        """Each kind of move of a stock turn (in the order listed) and its test of whether the
        player has one: one table for `actions`, `can_act` and `allows`."""
        return {
            "buy_shares": self.can_buy_any,
            "par": self.can_ipo_any,
            "buy_company": self.purchasable_companies,
            "sell_shares": self.can_sell_any,
        }

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Player):
            return []
        if self.must_sell(entity):
            return ["sell_shares"]
        acts = [kind for kind, test in self._move_tests().items() if test(entity)]
        return acts + ["pass"] if acts else []

    def can_act(self, entity: Any) -> bool:
        # a player who must sell can sell, so selling need not be asked about twice
        return (
            entity is self.current_entity()
            and isinstance(entity, Player)
            and any(test(entity) for test in self._move_tests().values())
        )

    def allows(self, entity: Any, action_type: str) -> bool:
        # `actions` answered for one type: only that type's test is run
        if entity is not self.current_entity() or not isinstance(entity, Player):
            return False
        if self.must_sell(entity):
            return action_type == "sell_shares"
        if action_type == "pass":
            # the step found to block for this player (who is its current entity) can act
            return self.round.active_step() is self or self.can_act(entity)
        test = self._move_tests().get(action_type)
        return test is not None and bool(test(entity))

    def explain(self, entity: Any, action_type: str) -> str | None:
        if not isinstance(entity, Player):
            return None
        if action_type == "sell_shares":
            if not self.game.sale_timing_ok():
                return "no shares may be sold in the first stock round"
            return self.sell_order_problem() or "nothing they hold can be sold now"
        if action_type in ("buy_shares", "par", "buy_company"):
            if self.must_sell(entity):
                return "they are over a holding limit and must sell first"
            if self.bought():
                return "they have already bought this turn"
            if action_type == "buy_company" and self.game.turn == 1:
                return "privates cannot change hands in the first stock round"
        return None

    def explain_choice(self, entity: Any, action_type: str, words: set[str]) -> str | None:
        if not isinstance(entity, Player) or action_type not in ("buy_shares", "par"):
            return None
        for corp in self.game.corporations:
            if corp.sym.casefold() not in words:
                continue
            if action_type == "par":
                return self.par_problem(entity, corp, words)
            if not corp.ipoed:
                return (
                    f"{corp.sym} has not been parred yet: its shares are sold only after a "
                    "player starts it by choosing its par price"
                )
            offered = self.game.pool.shares_of(corp) + corp.shares_of(corp)
            if not offered:
                return (
                    f"no {corp.sym} share is for sale: its IPO is sold out and the bank pool "
                    "holds none"
                )
            return self.buy_problem(entity, [min(offered, key=lambda s: s.percent)])
        return None

    def par_problem(self, player: Player, corp: Corporation, words: set[str]) -> str | None:
        """Why the player cannot par `corp` (at the price among `words`, if any)."""
        if corp.ipoed:
            price = corp.par_price.price if corp.par_price else None
            at = f" at {self.game.money(price)}" if price else ""
            return f"{corp.sym} is already parred{at}; only a company not yet started is parred"
        if self.game.par_restricted(corp):
            return f"{corp.sym} cannot be parred now"
        wrong_price = par_price_problem(self.game, corp, words)
        if wrong_price:
            return wrong_price
        cheapest = min((cell.price for cell in self.game.par_prices(corp)), default=0)
        if player.cash < 2 * cheapest:
            return (
                f"parring buys the {self.game.LEADER}'s certificate (20%) at twice the par price, at "
                f"least {self.game.money(2 * cheapest)} for {corp.sym}; {player.name} has {self.game.money(player.cash)}"
            )
        if not self.can_gain(player, corp, 20):
            return (
                f"{player.name} is at the certificate limit ({self.game.cert_limit}); the "
                f"{self.game.LEADER}'s certificate would pass it"
            )
        return None

    def bought(self) -> bool:
        return any(
            a["type"] in ("buy_shares", "par", "buy_company") for a in self.round.current_actions
        )

    def sold_corp(self, player: Player, corp: Corporation) -> bool:
        return corp in self.round.players_sold.get(player, {})

    def can_buy_multiple(self, corp: Corporation, owner: Any) -> bool:
        if self.game.multiple_buy_only_from_market:
            if owner is not self.game.pool or self.round.bought_from_ipo:
                return False
        acts = self.round.current_actions
        return (
            self.game.zone_allows_multiple_buy(corp)
            and not any(a["type"] == "par" for a in acts)
            and not any(a["type"] == "buy_shares" and a["_corp"] is not corp for a in acts)
        )

    def can_gain(self, player: Player, corp: Corporation, percent: int) -> bool:
        return self.game.holding_ok(player, corp, percent) and (
            not self.game.counts_for_limit(corp)
            or self.game.num_certs(player) < self.game.cert_limit
        )

    def buy_problem(self, player: Player, shares: list[Share]) -> str | None:
        """Why this purchase is not allowed, or None."""
        corp = shares[0].corp
        owner = shares[0].owner
        if len(shares) != 1:
            return "certificates are bought one at a time: name one share"
        if owner is player:
            return f"{player.name} already owns {shares[0].id}"
        if owner is not corp and owner is not self.game.pool:
            return (
                f"{shares[0].id} belongs to {owner.name}: shares are bought from the IPO or "
                "the market, never from another holder"
            )
        if not corp.ipoed and owner is corp:
            return f"{corp.sym} has not been parred yet"
        percent = sum(s.percent for s in shares)
        price = sh.bundle_price(shares, percent, corp)
        if player.cash < price:
            return f"{player.name} has {self.game.money(player.cash)} and cannot pay {self.game.money(price)} for {percent}% of {corp.sym}"
        if self.sold_corp(player, corp):
            return (
                f"{player.name} sold {corp.sym} this round and cannot buy it again: shares "
                "of a company sold in a stock round may not be bought back in that round"
            )
        if self.bought() and not self.can_buy_multiple(corp, owner):
            return (
                f"{player.name} has already bought this turn (one purchase per stock "
                "turn, then pass or sell)"
            )
        if not self.game.holding_ok(player, corp, percent):
            limit = self.game.max_ownership_percent
            return (
                f"{player.name} holds {player.percent_of(corp)}% of {corp.sym}: no player may "
                f"hold more than {limit}% of one company (the {limit}% holding limit, lifted "
                "only while its share price is in the market's orange or brown zone)"
            )
        if self.game.counts_for_limit(corp) and self.game.num_certs(player) >= self.game.cert_limit:
            return (
                f"{player.name} holds {self.game.num_certs(player)} certificates, the "
                f"certificate limit for {len(self.game.player_list)} players "
                f"({self.game.cert_limit}); sell one first, or buy a share that does not "
                "count toward the limit"
            )
        return None

    def can_buy_any(self, player: Player) -> bool:
        for corp in self.game.corporations:
            for source in (self.game.pool, corp):
                if source is corp and not corp.ipoed:
                    continue
                avail = source.shares_of(corp)
                if not avail:
                    continue
                smallest = min(avail, key=lambda s: s.percent)
                if self.buy_problem(player, [smallest]) is None:
                    return True
        return False

    def can_ipo_any(self, player: Player) -> bool:
        if self.bought():
            return False
        cheapest = min(p.price for p in self.game.market.par_prices)
        return any(
            not c.ipoed
            and not self.game.par_restricted(c)
            and player.cash >= 2 * cheapest
            and self.can_gain(player, c, 20)
            for c in self.game.corporations
        )

    def can_sell(self, player: Player, shares: list[Share], percent: int) -> str | None:
        corp = shares[0].corp
        if any(s.owner is not player for s in shares):
            return f"{player.name} does not own all of those shares"
        if not self.game.sale_timing_ok():
            return "no shares may be sold in the first stock round"
        order_problem = self.sell_order_problem()
        if order_problem:
            return order_problem
        if not corp.ipoed or corp.share_price is None:
            return f"{corp.sym} shares cannot be sold before {corp.sym} is parred"
        if (
            self.game.must_sell_in_blocks
            and self.round.players_sold.get(player, {}).get(corp) == "now"
        ):
            return (
                f"{player.name} has already sold {corp.sym} this turn: a turn's sales of one company "
                "are one block"
            )
        if not sh.fits_pool(self.game, corp, percent):
            return f"the market may hold at most {self.game.market_share_limit}% of {corp.sym}"
        if not sh.can_dump(self.game, player, corp, shares, percent):
            return (
                f"{player.name} cannot sell the {corp.sym} {self.game.LEADER}'s certificate: nobody else "
                f"holds {self.game.presidents_percent}%"
            )
        return None

    def sell_order_problem(self) -> str | None:
        """The rule book's variants restrict when in a turn selling is allowed."""
        order = self.game.sell_buy_order
        acts = self.round.current_actions
        if order == "sell_buy" and self.bought():
            return "in this game shares are sold before buying, not after"
        if (
            order == "sell_buy_or_buy_sell"
            and acts
            and self.bought()
            and any(a["type"] == "sell_shares" for a in acts)
            and acts[-1]["type"] != "sell_shares"
        ):
            return "in this game a turn is sell-then-buy or buy-then-sell, not both"
        return None

    def can_sell_any(self, player: Player) -> bool:
        return any(
            self.can_sell(player, b, p) is None
            for c in self.game.corporations
            for b, p in sh.sellable_bundles(self.game, player, c)
        )

    def must_sell(self, player: Player) -> bool:
        """Over the certificate limit with something to sell, or over a holding limit with
        some of that company to sell (the limits are looked at first: they are cheap)."""
        if self.game.num_certs(player) > self.game.cert_limit:
            return self.can_sell_any(player)
        return any(
            not self.game.holding_ok(player, c, 0)
            and any(
                self.can_sell(player, b, p) is None
                for b, p in sh.sellable_bundles(self.game, player, c)
            )
            for c in self.game.corporations
        )

    def purchasable_companies(self, player: Player) -> list[Company]:
        if (
            self.bought()
            or player.cash <= 0
            or not self.game.phase_allows("can_buy_companies_from_other_players")
            or self.game.turn == 1
        ):
            return []
        return [
            c
            for c in self.game.companies
            if isinstance(c.owner, Player)
            and c.owner is not player
            and not c.closed
            and c.ability("no_buy") is None
        ]

    # -- processing ----------------------------------------------------------------------------
    def track(self, action: dict[str, Any], player: Player, target: Corporation | Company) -> None:
        """A move of the player's turn, on a company's shares or on a private (`target`)."""
        self.round.last_to_act = player
        self.round.current_actions.append(action)
        self.round.note_share_move(player, target, action["type"])

    def process_buy_shares(self, action: dict[str, Any], player: Player) -> None:
        shares = self.game.shares_from_action(action)
        corp = shares[0].corp
        problem = self.buy_problem(player, shares)
        if problem:
            raise IllegalAction(problem)
        if shares[0].owner is corp:
            self.round.bought_from_ipo = True
        sh.buy(self.game, player, shares)
        self.track({**action, "_corp": corp}, player, corp)

    def process_sell_shares(self, action: dict[str, Any], player: Player) -> None:
        shares, percent = self.game.sale_from_action(action, player)
        problem = self.can_sell(player, shares, percent)
        if problem:
            raise IllegalAction(problem)
        corp = shares[0].corp
        self.round.players_sold.setdefault(player, {})[corp] = "now"
        sh.sell(self.game, player, shares, percent)
        self.track(action, player, corp)

    def process_par(self, action: dict[str, Any], player: Player) -> None:
        corp = self.game.corporation(action.get("corporation"))
        if corp.ipoed:
            raise IllegalAction(f"{corp.sym} is already parred")
        if self.game.par_restricted(corp):
            raise IllegalAction(f"{corp.sym} cannot be parred now")
        if self.bought():
            raise IllegalAction(
                f"{player.name} has already bought this turn (one purchase "
                "per stock turn, then pass or sell)"
            )
        price = self.game.par_cell(action.get("share_price"), player, check_cash=True)
        if not self.can_gain(player, corp, 20):
            raise IllegalAction(
                f"{player.name} is at the certificate limit ({self.game.cert_limit})"
            )
        self.game.do_par(player, corp, price, free=False)
        self.track(action, player, corp)

    def process_buy_company(self, action: dict[str, Any], player: Player) -> None:
        company = self.game.company(action.get("company"))
        if company not in self.purchasable_companies(player):
            raise IllegalAction(f"{player.name} cannot buy {company.name} now")
        price = action.get("price")
        if not isinstance(price, int) or price < 1:
            raise InvalidAction("buying a private needs a positive whole-dollar 'price'")
        seller = company.owner
        assert isinstance(seller, Player)
        self.game.transfer_company(company, player, price, seller)
        self.round.current_actions.append(action)

    def auto_actions(self, entity: Any) -> list[dict[str, Any]]:
        return programs.due_moves(self.game, self, entity) if isinstance(entity, Player) else []

    def pass_(self) -> None:
        super().pass_()
        player = self.current_entity()
        if self.round.current_actions:
            if player in self.round.pass_order:
                self.round.pass_order.remove(player)
            player.passed = False
        else:
            if player not in self.round.pass_order:
                self.round.pass_order.append(player)
            player.passed = True


class StockRound(Round):
    name = "Stock Round"
    kind = "stock"

    def __init__(self, game: Any, steps: list[Any]) -> None:
        self.players_sold: dict[Player, dict[Corporation, str]] = {}
        # per player (in the order of their first turn this round), per company: the moves of
        # their latest turn, for the other players' programs
        self.players_history: dict[Any, dict[Corporation | Company, list[programs.SeenMove]]] = {}
        self.current_actions: list[dict[str, Any]] = []
        self.bought_from_ipo = False
        super().__init__(game, steps)

    def select_entities(self) -> list[Any]:
        return [p for p in self.game.player_list if not p.bankrupt]

    def note_share_move(self, player: Any, target: Any, kind: str) -> None:
        moves = self.players_history.setdefault(player, {}).setdefault(target, [])
        moves.append(programs.SeenMove(kind, self.game.log_position))

    def setup(self) -> None:
        self.skip_steps()
        if self.active_step() is None:
            self.next_entity()

    def after_process(self, action: dict[str, Any], entity: Any) -> None:
        if self.active_step() is None:
            self.next_entity()

    def next_entity(self) -> None:
        if self.finished():
            self.next_entity_index()
            self.finish_round()
            return
        self.next_entity_index()
        self.start_entity()

    def start_entity(self) -> None:
        for step in self.steps:
            step.unpass()
        for step in self.steps:
            step.setup()
        self.skip_steps()
        if self.active_step() is None:
            self.next_entity()

    def finished(self) -> bool:
        return self.game.finished or all(p.passed for p in self.entities)

    def finish_round(self) -> None:
        corps = sorted(
            [c for c in self.game.corporations if c.floated], key=self.game.operating_sort_key
        )
        for corp in corps:
            if corp.share_price and self.game.sold_out(corp):
                self.game.market.move_up(corp)
