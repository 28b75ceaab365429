"""1860: Railways on the Isle of Wight on the 18xx core: the rule hooks that differ from 1830."""
from __future__ import annotations

from typing import Any, ClassVar

from engine.eighteen import shares as sh
from engine.eighteen.entities import Ability, Company, Corporation, Player, Share, spend
from engine.eighteen.game import EighteenGame
from engine.eighteen.market import SharePrice
from engine.eighteen.stock import StockRound
from engine.eighteen.trains import Phase
from engine.errors import IllegalAction, InvalidAction
from engine.g1860.auction import Auction1860, BuyCert
from engine.g1860.data import RAW, title_data
from engine.g1860.market import ZigZagMarket
from engine.g1860.stock import BuySellPar, Exchange, HomeTrack, StockRound1860
from engine.titles import register_title

FIRST_EDITION_OPTIONS = ("two_player_map", "original_game")
TRAIN_EVENTS = {"6+3": "fishbourne_to_bank", "8+4": "relax_cert_limit", "9+5": "southern_forms"}


@register_title
class Game1860(EighteenGame):
    title = "1860"
    full_name = "1860: Railways on the Isle of Wight"
    min_players = 2
    max_players = 4
    option_names = ("two_player_map", "original_game", "re_enter_hexes", "no_skip_towns",
                    "original_insolvency", "simplified_insolvency", "non_operated_full_value")
    data: ClassVar[dict[str, Any]] = title_data(False)
    bank_cash = 20000            # player money and company credits in one bank, as 18xx.games keeps it
    PLAYER_MONEY = 10000         # the bank breaks when the players hold more than this
    market_share_limit = 100
    max_ownership_percent = 100
    COMPANY_SALE_FEE = 30
    HALT_SUBSIDY = 10
    # private -> corporation whose last (reserved) share it is exchanged for
    EXCHANGE: ClassVar[dict[str, str]] = {"BHC": "BHI&R", "YHC": "FYN", "CMH": "C&N", "RPSC": "IOW"}
    LAYERS: ClassVar[dict[str, int]] = {sym: int(layer) for layer, syms in RAW["layers"].items()
                                        if layer.isdigit() for sym in syms}

    def setup(self) -> None:
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
        for c in self.companies:
            if c.sym == "FFC":
                c.owner = None

    @property
    def first_edition(self) -> bool:
        return any(self.options.get(o) for o in FIRST_EDITION_OPTIONS)

    # -- data hooks ------------------------------------------------------------------------------
    def train_specs(self) -> list[dict[str, Any]]:
        return [{"name": t["name"], "distance": [t["big_stops"], t["small_stops"]], "price": t["price"],
                 "count": t["count"], "rusts_on_first": t["rusts_on_first"],
                 "event_key": TRAIN_EVENTS.get(t["name"])} for t in RAW["trains"]]

    def phase_specs(self) -> list[Phase]:
        out = []
        for p in RAW["phases"]:
            name = p["phase"]
            if not name.isdigit():
                continue
            on = None if name == "2" else next(t["name"] for t in RAW["trains"]
                                               if t["phase_on_first_purchase"] == name)
            out.append(Phase(name, on, p["tiles"], p["train_limit"], p["ors_per_set"], [], p["tiles"][-1]))
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
        return self.layer(corp) <= self.current_layer()

    def par_restricted(self, corp: Corporation) -> bool:
        return not self.can_ipo(corp)

    def par_prices(self, corp: Corporation) -> list[SharePrice]:
        """Legal pars: the layer's range, or the wider re-par range after a bankruptcy."""
        key = "repar_ranges_by_layer_after_bankruptcy" if corp in self.bankrupt_corps else "par_ranges_by_layer"
        lo, hi = RAW[key][str(self.layer(corp))]
        cells = self.market.repar_cells if corp in self.bankrupt_corps else self.market.par_prices
        return sorted((c for c in cells if lo <= c.price <= hi), key=lambda c: -c.price)

    def legal_par(self, corp: Corporation, ref: Any) -> SharePrice:
        parts = str(ref).split(",")
        for cell in self.par_prices(corp):
            if parts[0] == str(cell.price) and (len(parts) == 1 or parts[1:] == [str(cell.row), str(cell.col)]):
                return cell
        prices = ", ".join(str(c.price) for c in self.par_prices(corp))
        raise IllegalAction(f"{ref!r} is not a legal par for {corp.sym}; choose one of {prices}")

    # -- rounds ----------------------------------------------------------------------------------
    def new_auction_round(self) -> Any:
        return Auction1860(self, [BuyCert])

    def new_stock_round(self) -> Any:
        if self.southern_formed:
            self.sr_after_southern = True
        return StockRound1860(self, [HomeTrack, Exchange, BuySellPar])

    def next_round(self) -> None:
        if isinstance(self.round, Auction1860):
            self.give_priority_after_auction()
            self.round = self.new_stock_round()
            self.note(f"{self.round.name} {self.turn} begins.")
            self.round.setup()
            return
        super().next_round()

    def give_priority_after_auction(self) -> None:
        """Most cash; on a tie, the lowest face value of privates among all players holding any."""
        by_cash = sorted(self.player_list, key=lambda p: -p.cash)
        if by_cash[0].cash > by_cash[1].cash:
            first = by_cash[0]
        else:
            first = min((p for p in self.player_list if p.companies),
                        key=lambda p: sum(c.value for c in p.companies))
        i = self.player_list.index(first)
        self.player_list = self.player_list[i:] + self.player_list[:i]

    # -- shares ----------------------------------------------------------------------------------
    def check_float(self, corp: Corporation, was_floated: bool) -> None:
        if was_floated or corp.floated or corp.percent_of(corp) > 100 - corp.float_percent:
            return
        if corp in self.bankrupt_corps:
            self.clear_bankrupt(corp)
        assert corp.par_price is not None
        self.market.to_bottom(corp)
        corp.floated = True
        spend(self.bank, corp, corp.par_price.price * 10)
        self.note(f"{corp.sym} floats and receives £{corp.par_price.price * 10}.")
        if self.sr_after_southern:
            return
        self.place_float_token(corp)
        if isinstance(self.round, StockRound1860) and self.board.tile_on(corp.home).color == "white":
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
        """One share's worth when sold or scored: half (rounded down) while the company has no train."""
        assert corp.share_price is not None
        price = corp.share_price.price
        if corp.trains:
            return price
        if self.options.get("non_operated_full_value") and not corp.operated:
            return price
        return price // 2

    def move_price_on_sale(self, corp: Corporation, num_shares: int) -> None:
        if not corp.operated or self.no_price_drop_on_sale:
            return
        assert corp.share_price is not None
        if corp.share_price.zone == "ignore_one_sale":
            num_shares -= 1
        for _ in range(num_shares):
            self.market.move_down(corp)

    def exchange_share(self, company: Company) -> Share | None:
        """The reserved share this private may be exchanged for now, if any."""
        sym = self.EXCHANGE.get(company.sym)
        if sym is None or company.closed or not isinstance(company.owner, Player):
            return None
        corp = self.corporation(sym)
        if not corp.ipoed:
            return None
        share = corp.all_shares[8]
        if share.owner is not corp:
            share = next(iter(corp.shares_of(corp)), None) or next(iter(self.pool.shares_of(corp)), None)
        if share is None or share.president or self.num_certs(company.owner) > self.cert_limit:
            return None
        return share

    def exchange(self, company: Company, share: Share) -> None:
        corp = share.corp
        player = company.owner
        assert isinstance(player, Player)
        self.reserved.discard(f"{corp.sym}_8")
        sh.buy(self, player, [share], free=True)
        self.note(f"{player.name} exchanges {company.sym} for a {corp.sym} share.")
        self.close_company(company)

    def close_other_companies(self, keep: Company) -> None:
        self.reserved.clear()
        for c in self.companies:
            if c is not keep and not c.closed:
                self.close_company(c)

    def close_company(self, company: Company) -> None:
        super().close_company(company)

    def take_pool_presidency(self, player: Player, corp: Corporation) -> None:
        raise IllegalAction("taking over a company in receivership is not supported yet")

    def check_bankruptcy(self, corp: Corporation) -> None:
        if corp.share_price is not None and corp.share_price.zone == "close":
            raise IllegalAction("company bankruptcy is not supported yet")

    def clear_bankrupt(self, corp: Corporation) -> None:
        self.bankrupt_corps.remove(corp)

    # -- scoring ---------------------------------------------------------------------------------
    def player_value(self, p: Player) -> int:
        shares = sum(self.share_value(s.corp) * s.percent // 10 for s in p.shares
                     if s.corp.ipoed and s.corp.share_price)
        return p.cash + shares + sum(c.value for c in p.companies)
