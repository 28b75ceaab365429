"""1860: Railways on the Isle of Wight on the 18xx core: the rule hooks that differ from 1830."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from engine.eighteen import house_programs as house
from engine.eighteen import shares as sh
from engine.eighteen.entities import Company, Corporation, Player, Share, spend
from engine.eighteen.game import EighteenGame
from engine.eighteen.market import SharePrice
from engine.eighteen.stock import StockRound
from engine.eighteen.trains import Phase
from engine.errors import IllegalAction, InvalidAction
from engine.g1860.auction import Auction1860, BuyCert
from engine.g1860.data import RAW, title_data
from engine.g1860.host import Game1860Host
from engine.g1860.market import ZigZagMarket
from engine.g1860.operating import (
    BuyTrain1860,
    Discard1860,
    Dividend1860,
    Operating1860,
    Route1860,
    Token1860,
    Track1860,
)
from engine.g1860.route_hooks import RouteHooks1860
from engine.g1860.stock import BuySellPar, Exchange, HomeTrack, StockRound1860

FIRST_EDITION_OPTIONS = ("two_player_map", "original_game")
TRAIN_EVENTS = {"6+3": "fishbourne_to_bank", "8+4": "relax_cert_limit", "9+5": "southern_forms"}


class Game1860(RouteHooks1860, EighteenGame):
    title = "1860"
    full_name = "1860: Railways on the Isle of Wight"
    CURRENCY = "£"
    LEADER = "director"
    MARKET_PAYS_COMPANY = False  # spec 9.5: shares in the IPO or the market are paid nothing
    must_sell_in_blocks = True
    min_players = 2
    max_players = 4
    option_names = (
        "two_player_map",
        "original_game",
        "re_enter_hexes",
        "no_skip_towns",
        "original_insolvency",
        "simplified_insolvency",
        "non_operated_full_value",
    )
    flag_options = option_names
    data = title_data(False)
    seats_by_option = dict.fromkeys(FIRST_EDITION_OPTIONS, 3)  # the first edition's map: 2-3
    bank_cash = 20000  # player money and company credits in one bank, as 18xx.games keeps it
    PLAYER_MONEY = 10000  # the bank breaks when the players hold more than this
    market_share_limit = 100
    president_sales_to_market = True
    max_ownership_percent = 100
    COMPANY_SALE_FEE: ClassVar[int] = 30
    # no Buy Companies step in its operating rounds; its auction sells picks, not companies
    HOUSE_PROGRAMS = (house.AUCTION, house.AWAY)
    AUCTION_NAMES_COMPANIES = False
    HALT_SUBSIDY = 10
    # each zone of the market: its name for players and what it means (spec 1.6, 5.7, 12, 14)
    MARKET_ZONE_RULES: ClassVar[dict[str, tuple[str, str]]] = {
        "close": ("bankruptcy", "the company goes bankrupt"),
        "ignore_one_sale": (
            "red numbers",
            "the first share of each sale does not move the price",
        ),
        "repar": ("grey", "a par only for a company restarted after bankruptcy"),
        "par": ("yellow", "the par prices a company may start at (its layer's range)"),
        "white": ("plain", "no special rule"),
        "endgame": ("game end", "a company reaching it ends the game after this operating round"),
    }
    MARKET_MOVES: ClassVar[str] = (
        "each share sold: one step down-left (not before the company's first run, nor from "
        "the first 8+4-train on); withholding or no revenue: one column left; a payout below "
        "the share price: no move; a payout of at least 1, 2, 3 or 4 times the price: 1, 2, 3 "
        "or 4 columns right"
    )
    MIN_REPAR = 40
    # private -> corporation whose last (reserved) share it is exchanged for
    EXCHANGE: ClassVar[dict[str, str]] = {"BHC": "BHI&R", "YHC": "FYN", "CMH": "C&N", "RPSC": "IOW"}
    LAYERS: ClassVar[dict[str, int]] = {
        sym: int(layer) for layer, syms in RAW["layers"].items() if layer.isdigit() for sym in syms
    }

    market: ZigZagMarket

    def setup(self) -> None:
        if self.options.get("simplified_insolvency") and (
            self.options.get("original_insolvency") or self.options.get("original_game")
        ):
            raise InvalidAction("simplified_insolvency cannot be combined with original insolvency")
        self.data = title_data(self.first_edition)
        super().setup()
        self.market = ZigZagMarket(self.data["stock_market"]["grid"])
        self.reserved: set[str] = {f"{corp}_8" for corp in self.EXCHANGE.values()}
        self.bankrupt_corps: list[Corporation] = []
        self.insolvent_corps: list[Corporation] = []
        self.nationalized_corps: list[Corporation] = []
        self.no_price_drop_on_sale = False
        self.southern_formed = False
        self.sr_after_southern = False
        self.nationalization = False
        self.bank_broken = False
        self.fired_events: set[str] = set()
        self.ever_bankrupt: set[Corporation] = set()
        self.kept_token_answers: dict[str, bool] = {}
        for c in self.companies:
            if c.sym == "FFC":
                c.owner = None

    @property
    def first_edition(self) -> bool:
        return any(self.options.get(o) for o in FIRST_EDITION_OPTIONS)

    # -- data hooks ------------------------------------------------------------------------------
    def train_specs(self) -> list[dict[str, Any]]:
        return [
            {
                "name": t["name"],
                "distance": [t["big_stops"], t["small_stops"]],
                "price": t["price"],
                "count": t["count"],
                "rusts_on_first": t["rusts_on_first"],
                "event_key": TRAIN_EVENTS.get(t["name"]),
            }
            for t in RAW["trains"]
        ]

    def phase_specs(self) -> list[Phase]:
        out = []
        for p in RAW["phases"]:
            name = p["phase"]
            if not name.isdigit():
                continue
            on = (
                None
                if name == "2"
                else next(t["name"] for t in RAW["trains"] if t["phase_on_first_purchase"] == name)
            )
            out.append(
                Phase(name, on, p["tiles"], p["train_limit"], p["ors_per_set"], [], p["tiles"][-1])
            )
        return out

    @property
    def sell_buy_order(self) -> str:
        return "sell_buy"

    def sale_timing_ok(self) -> bool:
        return True

    # -- layers and par --------------------------------------------------------------------------
    def layer(self, corp: Corporation) -> int:
        return self.LAYERS[corp.sym]

    def current_layer(self) -> int:
        opened = [self.layer(c) for c in self.corporations if not c.shares_of(c) or c.operated]
        return min(max(opened) + 1, 4) if opened else 1

    def can_ipo(self, corp: Corporation) -> bool:
        """The layer rule (§5.3) as 18xx.games shows it. Like 18xx.games, whose games we replay,
        the engine does not refuse a par in a layer not yet open: this only informs players."""
        return self.layer(corp) <= self.current_layer()

    def par_prices(self, corp: Corporation) -> list[SharePrice]:
        """Legal pars: the layer's range, or the wider re-par range after a bankruptcy."""
        key = (
            "repar_ranges_by_layer_after_bankruptcy"
            if corp in self.bankrupt_corps
            else "par_ranges_by_layer"
        )
        lo, hi = RAW[key][str(self.layer(corp))]
        cells = self.market.repar_cells if corp in self.bankrupt_corps else self.market.par_prices
        return sorted((c for c in cells if lo <= c.price <= hi), key=lambda c: -c.price)

    def min_par(self, corp: Corporation) -> int:
        """The lowest price a director's certificate could be started at: the lowest par cell, or
        (once the company has been bankrupt) the lowest re-par value."""
        return (
            self.MIN_REPAR
            if corp in self.ever_bankrupt
            else min(p.price for p in self.market.par_prices)
        )

    def legal_par(self, corp: Corporation, ref: Any) -> SharePrice:
        parts = str(ref).split(",")
        for cell in self.par_prices(corp):
            if parts[0] == str(cell.price) and (
                len(parts) == 1 or parts[1:] == [str(cell.row), str(cell.col)]
            ):
                return cell
        choices = [self.money(c.price) for c in self.par_prices(corp)]
        prices = ", ".join(choices[:-1]) + f" or {choices[-1]}" if len(choices) > 1 else choices[0]
        why = (
            f"re-parring after its bankruptcy, within layer {self.layer(corp)}'s range"
            if corp in self.bankrupt_corps
            else f"the par range of layer {self.layer(corp)}"
        )
        given = "a par needs a price" if ref is None else f"'{ref}' is not one of them"
        raise IllegalAction(f"{corp.sym} is started at {prices} ({why}); {given}")

    # -- rounds ----------------------------------------------------------------------------------
    def new_auction_round(self) -> Any:
        return Auction1860(self, [BuyCert])

    def new_stock_round(self) -> Any:
        if self.southern_formed:
            self.sr_after_southern = True
        return StockRound1860(self, [HomeTrack, Exchange, BuySellPar])

    def new_operating_round(self, round_num: int) -> Any:
        return Operating1860(
            self,
            [Discard1860, Track1860, Token1860, Route1860, Dividend1860, BuyTrain1860],
            round_num,
        )

    def operating_order(self) -> list[Corporation]:
        return sorted(
            [c for c in self.corporations if c.floated and c not in self.nationalized_corps],
            key=self.operating_sort_key,
        )

    def next_round(self) -> None:
        r = self.round
        if isinstance(r, Auction1860):
            self.give_priority_after_auction()
            self.round = self.new_stock_round()
        elif isinstance(r, StockRound):
            self.operating_rounds = self.phases.current.operating_rounds
            self.reorder_players()
            self.check_nationalization()
            self.round = self.new_operating_round(1)
        elif r.round_num < self.operating_rounds or self.nationalize_now():
            self.check_nationalization()
            self.round = self.new_operating_round(r.round_num + 1)
        else:
            self.turn += 1
            self.round = self.new_stock_round()
        label = (
            f"{self.turn}.{self.round.round_num}"
            if isinstance(self.round, Operating1860)
            else str(self.turn)
        )
        self.note(f"{self.round.name} {label} begins.")
        self.round.setup()

    # -- Southern Railway, nationalisation and the end ---------------------------------------------
    def nationalize_now(self) -> bool:
        """After the Southern Railway: every company with a director owns a train."""
        if not self.southern_formed:
            return False
        return self.nationalization or all(
            c.trains for c in self.corporations if c.ipoed and not self.receivership(c)
        )

    def check_nationalization(self) -> None:
        if self.nationalize_now() and not self.nationalization:
            self.nationalization = True
            self.note("Every company with a director owns a train: nationalisation begins.")

    def nationalize_lowest(self) -> None:
        """After each OR of British Rail the lowest payers (withheld = 0) cease operating: all at
        the lowest revenue, and all at the next level too if only one was lowest."""
        live = [c for c in self.corporations if c.floated and c not in self.nationalized_corps]
        paid = {c.sym: (c.operating_history[-1][2] if c.operating_history else 0) for c in live}
        if len(live) < 3:
            ceasing = live
        else:
            levels = sorted(set(paid.values()))
            lowest = [c for c in live if paid[c.sym] == levels[0]]
            ceasing = lowest
            if len(lowest) == 1 and len(levels) > 1:
                ceasing = lowest + [c for c in live if paid[c.sym] == levels[1]]
        for c in ceasing:
            self.nationalized_corps.append(c)
            self.note(f"{c.sym} is nationalised and ceases to operate.")

    def game_end_check(self) -> tuple[str, str] | None:
        checks = [
            ("stock_market", self.market.max_reached, "current_or"),
            ("bank", self.bank_broken, "current_or"),
        ]
        if self.nationalization and self.round.finished():
            self.nationalize_lowest()
            checks.append(
                (
                    "nationalization",
                    all(c in self.nationalized_corps for c in self.corporations if c.floated),
                    "immediate",
                )
            )
        priority = ("immediate", "current_or")
        for reason, hit, timing in checks:
            if not hit:
                continue
            if self.end_trigger and priority.index(timing) >= priority.index(self.end_trigger[1]):
                continue
            self.end_trigger = (reason, timing)
        return self.end_trigger

    def end_now(self, timing: str | None) -> bool:
        return timing == "immediate" or (
            timing == "current_or" and isinstance(self.round, Operating1860)
        )

    def give_priority_after_auction(self) -> None:
        """Most cash; on a tie, the lowest face value of privates among all players holding any."""
        by_cash = sorted(self.player_list, key=lambda p: -p.cash)
        if by_cash[0].cash > by_cash[1].cash:
            first = by_cash[0]
        else:
            first = min(
                (p for p in self.player_list if p.companies),
                key=lambda p: sum(c.value for c in p.companies),
            )
        i = self.player_list.index(first)
        self.player_list = self.player_list[i:] + self.player_list[:i]

    # -- shares ----------------------------------------------------------------------------------
    def check_float(self, corp: Corporation, was_floated: bool) -> None:
        # 50% must have been sold from the IPO: shares now in the market do not count
        if (
            was_floated
            or corp.floated
            or corp.percent_of(corp) > 100 - corp.float_percent - self.pool.percent_of(corp)
        ):
            return
        if corp in self.bankrupt_corps:
            self.clear_bankrupt(corp)
        assert corp.par_price is not None
        self.market.to_bottom(corp)
        corp.floated = True
        spend(self.bank, corp, corp.par_price.price * 10)
        self.note(f"{corp.sym} floats and receives {self.money(corp.par_price.price * 10)}.")
        if self.sr_after_southern:
            return
        self.place_float_token(corp)
        if (
            isinstance(self.round, StockRound1860)
            and self.board.tile_on(corp.home).color == "white"
        ):
            self.round.pending_tracks.append(corp)

    def place_float_token(self, corp: Corporation) -> None:
        if corp.tokens_used > 0 or corp.home in corp.placed_tokens:
            return
        city = self.home_city_choice(corp)
        self.board.place_token(corp.sym, corp.home, city or 0, None)
        corp.tokens_used += 1
        corp.placed_tokens.append(corp.home)

    def place_home_token(self, corp: Corporation, round_: Any) -> None:
        """The home base is placed when the company floats, not when it first operates."""

    def sale_price(self, shares: list[Share], percent: int, corp: Corporation) -> int:
        return self.share_value(corp) * percent // 10

    def share_value(self, corp: Corporation) -> int:
        """One share's worth when sold: half (rounded down) while the company has no train."""
        assert corp.share_price is not None
        price = corp.share_price.price
        return price // 2 if self.halves_shares(corp) else price

    def halves_shares(self, corp: Corporation) -> bool:
        """A trainless company's shares count half, unless the option spares one that never ran."""
        if corp.trains:
            return False
        return not (self.options.get("non_operated_full_value") and not corp.operated)

    def move_price_on_sale(self, corp: Corporation, num_shares: int) -> None:
        if not corp.operated or self.no_price_drop_on_sale:
            return
        assert corp.share_price is not None
        if corp.share_price.zone == "ignore_one_sale":
            num_shares -= 1
        for _ in range(num_shares):
            self.market.move_down(corp)

    def exchange_shares(self, company: Company) -> list[Share]:
        """IPO shares this private may be exchanged for now (its corporation must be parred)."""
        sym = self.EXCHANGE.get(company.sym)
        if sym is None or company.closed or not isinstance(company.owner, Player):
            return []
        corp = self.corporation(sym)
        if not corp.ipoed:
            return []
        return [s for s in corp.shares_of(corp) if not s.president]

    def exchange_targets(self, company: Company) -> list[Share]:
        return self.exchange_shares(company)[:1]

    def exchange(self, company: Company, share: Share) -> None:
        corp = share.corp
        player = company.owner
        assert isinstance(player, Player)
        self.reserved.discard(f"{corp.sym}_8")  # all its shares become buyable
        sh.buy(self, player, [share], free=True)
        self.close_company(company)

    def close_other_companies(self, keep: Company) -> None:
        self.reserved.clear()
        for c in self.companies:
            if c is not keep and not c.closed:
                self.close_company(c)

    def close_company(self, company: Company) -> None:
        super().close_company(company)

    def take_pool_presidency(self, player: Player, corp: Corporation) -> None:
        """A holder of a share buys a second one by swapping it for the director's certificate
        in the market: paying one share's price, giving one 10% share back to the market."""
        cert = next(s for s in self.pool.shares_of(corp) if s.president)
        assert corp.share_price is not None
        price = corp.share_price.price
        if player.cash < price:
            raise IllegalAction(
                f"{player.name} has {self.money(player.cash)} and cannot pay £{price}"
            )
        was_floated = corp.floated
        sh.transfer(self, [cert], 10, player, spender=player, receiver=self.bank, price=price)
        self.check_float(corp, was_floated)  # the share given back to the market may float it
        self.note(f"{player.name} becomes director of {corp.sym}.")

    def check_bankruptcy(self, corp: Corporation) -> None:
        if corp.share_price is not None and corp.share_price.zone == "close":
            self.make_bankrupt(corp)

    def make_bankrupt(self, corp: Corporation) -> None:
        """Price 0: every share returns to the IPO unpaid, the company is un-parred and un-floated
        (it keeps treasury, trains and bases, which are flipped), the priority deal goes to the
        player with the fewest shares, and a stock round in progress starts afresh."""
        if corp in self.bankrupt_corps:
            return
        self.bankrupt_corps.append(corp)
        self.ever_bankrupt.add(corp)
        self.note(f"{corp.sym} is bankrupt.")
        self.market.remove(corp)
        corp.share_price = None
        corp.par_price = None
        corp.ipoed = False
        corp.floated = False
        for holder in [*self.player_list, self.pool]:
            for share in holder.shares_of(corp):
                sh.move_share(share, corp)
        corp.shares.sort(key=lambda s: s.index if s.corp is corp else -1)
        corp.owner = None
        fewest = min(self.player_list, key=lambda p: sum(s.percent for s in p.shares))
        i = self.player_list.index(fewest)
        self.player_list = self.player_list[i:] + self.player_list[:i]
        if isinstance(self.round, Operating1860):
            if self.round.entities and self.round.entities[self.round.entity_index] is corp:
                for step in self.round.steps:  # its turn ends; the round moves on as after any turn
                    step.pass_()
        elif isinstance(self.round, StockRound1860):
            for p in self.player_list:
                p.passed = False
            self.note("The stock round starts again.")
            for pid, program in self.programs.items():  # forgotten, as on 18xx.games
                self.stopped(pid, self.program_words(program), "the stock round starts again")
            self.programs.clear()
            self.round = StockRound1860(self, [HomeTrack, Exchange, BuySellPar])
            self.round.setup()

    def clear_bankrupt(self, corp: Corporation) -> None:
        self.bankrupt_corps.remove(corp)

    def action_fields(self) -> dict[str, frozenset[str]]:
        """1860 adds the sale of a private to the bank (from SR 2, at face value - £30)."""
        return {**super().action_fields(), "sell_company": frozenset(("company", "price"))}

    # -- operating ---------------------------------------------------------------------------------
    def receivership(self, corp: Corporation) -> bool:
        """The director's certificate is in the market: the company has no director. Floated or
        not, as 18xx.games counts it: such a company need not own a train for nationalisation
        to begin."""
        return any(s.president for s in self.pool.shares_of(corp))

    def insolvent(self, corp: Corporation) -> bool:
        return corp in self.insolvent_corps

    def make_insolvent(self, corp: Corporation) -> None:
        if corp not in self.insolvent_corps:
            self.insolvent_corps.append(corp)
            self.note(f"{corp.sym} is insolvent.")

    def clear_insolvent(self, corp: Corporation) -> None:
        if corp in self.insolvent_corps:
            self.insolvent_corps.remove(corp)
            self.note(f"{corp.sym} is no longer insolvent.")

    def tile_cost_problem(self, corp: Corporation, cost: int, hex_id: str) -> str | None:
        """An insolvent company pays for no terrain (it may still lay free track)."""
        if cost > 0 and self.insolvent(corp):
            return f"{corp.sym} is insolvent and cannot pay {self.money(cost)} terrain cost on {hex_id}"
        return super().tile_cost_problem(corp, cost, hex_id)

    def can_afford_depot_train(self, corp: Corporation) -> bool:
        price = self.depot.min_price(self.phases)
        return price > 0 and corp.cash >= price

    def check_insolvency_at_route(self, corp: Corporation) -> None:
        """A trainless company without a director is insolvent at once; an insolvent one that can
        now afford a train stops leasing (and must buy)."""
        if (
            self.receivership(corp)
            and not corp.trains
            and self.can_run_route(corp)
            and not self.can_afford_depot_train(corp)
        ):
            self.make_insolvent(corp)
        elif self.insolvent(corp) and self.can_afford_depot_train(corp):
            self.clear_insolvent(corp)

    def after_operating(self, corp: Corporation) -> None:
        self.check_bankruptcy(corp)
        if corp in self.bankrupt_corps:
            return
        if not corp.trains and self.can_run_route(corp):
            self.make_insolvent(corp)
        elif corp.trains:
            self.clear_insolvent(corp)

    def must_buy_train(self, corp: Corporation) -> bool:
        price = self.depot.min_price(self.phases)
        return (
            not corp.trains and corp not in self.bankrupt_corps and price > 0 and corp.cash > price
        )

    @property
    def insolvency_rule(self) -> str:
        if self.options.get("original_insolvency") or self.options.get("original_game"):
            return "original"
        return "simplified" if self.options.get("simplified_insolvency") else "new"

    def move_price_on_dividend(self, corp: Corporation, paid: int) -> None:
        assert corp.share_price is not None
        if paid <= 0:
            self.market.move_left(corp)
            return
        for _ in range(min(paid // corp.share_price.price, 4)):
            self.market.move_right(corp)

    def check_bank_broken(self) -> None:
        if (
            not self.nationalization
            and self.PLAYER_MONEY - sum(p.cash for p in self.player_list) < 0
        ):
            self.bank_broken = True

    def trigger_event(self, event: str) -> None:
        """Events happen on the first purchase of a train type only."""
        if event in self.fired_events:
            return
        self.fired_events.add(event)
        if event == "fishbourne_to_bank":
            ffc = self.company("FFC")
            ffc.owner = self.bank
            self.note("The Fishbourne Ferry Company is for sale from the bank.")
        elif event == "relax_cert_limit":
            self.no_price_drop_on_sale = True
            self.cert_limit = 999
            self.note("No certificate limit; selling no longer lowers share prices.")
        elif event == "southern_forms":
            self.southern_formed = True
            self.note("The Southern Railway forms: no track or bases after the next stock round.")

    # -- whether a company may place a token, as 18xx.games keeps the answer ----------------------
    def can_token_kept(self, corp: Corporation) -> bool:
        """The Token step's question, answered once and kept until a tile is laid or a token
        placed by a step, as 18xx.games keeps it: a home base placed when a company floats (or
        the bases a bankruptcy flips or lifts) leaves the kept answers as they were, even when a
        city they counted on is now full (the company then may only pass its Token step)."""
        if corp.sym not in self.kept_token_answers:
            self.kept_token_answers[corp.sym] = self.can_place_token_somewhere(corp)
        return self.kept_token_answers[corp.sym]

    def lay_tile(self, corp: Corporation, *args: Any, **kwargs: Any) -> None:
        self.kept_token_answers.clear()
        super().lay_tile(corp, *args, **kwargs)

    def place_token(self, corp: Corporation, *args: Any, **kwargs: Any) -> None:
        self.kept_token_answers.clear()
        super().place_token(corp, *args, **kwargs)

    # -- scoring ---------------------------------------------------------------------------------
    def certificate_value(self, share: Share) -> int:
        """A certificate scores whole and is then halved, so a trainless director's certificate
        at £31 scores £31, not twice £15."""
        assert share.corp.share_price is not None
        full = share.corp.share_price.price * share.percent // 10
        return full // 2 if self.halves_shares(share.corp) else full

    def player_value(self, p: Player) -> int:
        shares = sum(
            self.certificate_value(s) for s in p.shares if s.corp.ipoed and s.corp.share_price
        )
        return p.cash + shares + sum(c.value for c in p.companies)


if TYPE_CHECKING:  # mypy checks here that the game is what 1860's steps are given as their game
    _meets_host: type[Game1860Host] = Game1860
