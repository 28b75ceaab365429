"""1860's stock round: sell then buy one certificate; layers and par ranges; reserved shares;
privates exchanged, sold to and bought from the bank; a floating company lays its home track."""

from __future__ import annotations

from typing import Any

from engine.eighteen.describe import exits_text
from engine.eighteen.entities import Company, Corporation, Player, Share, spend
from engine.eighteen.rounds import Step
from engine.eighteen.stock import BuySellParShares, StockRound
from engine.errors import IllegalAction
from engine.g1860.host import Game1860Host


class HomeTrack(Step):
    """A company floated on a blank home hex: its director lays the first (free) tile there, or
    passes when no tile fits (as on 18xx.games: the home hex may already carry a tile)."""

    description = "Lay home track"
    game: Game1860Host
    round: StockRound1860

    def active(self) -> bool:
        return bool(self.round.pending_tracks)

    def active_entities(self) -> list[Any]:
        return [self.round.pending_tracks[0]] if self.round.pending_tracks else []

    def actions(self, entity: Any) -> list[str]:
        if not self.round.pending_tracks or entity is not self.round.pending_tracks[0]:
            return []
        return ["lay_tile"] if self._lays(entity) else ["pass", "lay_tile"]

    def _lays(self, corp: Corporation) -> list[tuple[str, str, int, str]]:
        """(hex, tile name, rotation, the id of a tile of that name left) of each home lay."""
        board = self.game.board
        lays = board.legal_lays(
            corp.sym,
            colors=set(self.game.phases.current.tiles),
            need_connection=False,
            hexes=[corp.home],
        )
        return [
            (hex_id, name, rot, ids[0])
            for hex_id, name, rot in lays
            if (ids := board.available_tile_ids(name))
        ]

    def choices(
        self, corp: Corporation, action_type: str
    ) -> list[tuple[str, dict[str, Any]]] | None:
        if action_type != "lay_tile":
            return None
        return [
            (
                f"Lay home tile {name} on {hex_id}: track "
                + exits_text(self.game, hex_id, name, rot, short=True),
                {"hex": hex_id, "tile": tile_id, "rotation": rot},
            )
            for hex_id, name, rot, tile_id in self._lays(corp)
        ]

    def process_lay_tile(self, action: dict[str, Any], corp: Corporation) -> None:
        hex_id, tile_id, rotation = self.game.lay_fields(action)
        if hex_id != corp.home:
            raise IllegalAction(f"{corp.sym}'s home track goes on {corp.home}, not {hex_id}")
        self.game.lay_tile(corp, hex_id, tile_id, rotation, need_connection=False)
        self.round.pending_tracks.pop(0)

    def process_pass(self, action: dict[str, Any], corp: Corporation) -> None:
        if self._lays(corp):
            raise IllegalAction(
                f"{corp.sym} must lay its home track on {corp.home}: a tile fits there"
            )
        self.round.pending_tracks.pop(0)


class Exchange(Step):
    """A private is swapped for its corporation's reserved share (once that one is parred)."""

    description = "Exchange a private"
    blocks = False
    game: Game1860Host

    def actions(self, entity: Any) -> list[str]:
        return (
            ["buy_shares"]
            if isinstance(entity, Company) and self.game.exchange_shares(entity)
            else []
        )

    def process_buy_shares(self, action: dict[str, Any], company: Company) -> None:
        shares = self.game.shares_from_action(action)
        if len(shares) != 1 or shares[0] not in self.game.exchange_shares(company):
            raise IllegalAction(
                f"{company.name} cannot be exchanged for {', '.join(s.id for s in shares)}"
            )
        self.game.exchange(company, shares[0])


class BuySellPar(BuySellParShares):
    description = "Sell then buy a certificate"
    game: Game1860Host
    round: StockRound1860

    def _move_tests(self) -> dict[str, Any]:
        """The generic moves and, last, the sale of a private to the bank: offered alone too
        (as on 18xx.games, a player whose only move is that sale is asked to act)."""
        return {**super()._move_tests(), "sell_company": self.sellable_companies}

    def actions(self, entity: Any) -> list[str]:
        acts = super().actions(entity)
        return ["pass"] if not acts and self.last_chance_to_exchange(entity) else acts

    def can_act(self, entity: Any) -> bool:
        return super().can_act(entity) or self.last_chance_to_exchange(entity)

    def last_chance_to_exchange(self, player: Any) -> bool:
        """From phase 6, a player who has just bought a private from the bank, or parred the
        company their private is exchanged into, keeps the turn (and passes to end it) so as to
        exchange first: 18xx.games asks them to act."""
        if (
            player is not self.current_entity()
            or not isinstance(player, Player)
            or not self.game.phases.reached("6")
        ):
            return False
        for act in self.round.current_actions:
            if act["type"] == "buy_company":
                return act.get("company") != "FFC"
            if act["type"] == "par":
                return any(
                    self.game.EXCHANGE.get(c.sym) == act.get("corporation")
                    for c in player.companies
                )
        return False

    def player_duty(self, player: Player) -> str | None:
        """Why a player who has bought still holds the turn (see `last_chance_to_exchange`)."""
        if super().can_act(player) or not self.last_chance_to_exchange(player):
            return None
        swaps = [
            f"{c.sym} for a {self.game.EXCHANGE[c.sym]} share"
            for c in player.companies
            if self.game.exchange_shares(c)
        ]
        ended = f"{player.name} has bought and must pass to end the turn"
        return f"{ended}, or first exchange {' or '.join(swaps)}" if swaps else ended

    # -- buying ----------------------------------------------------------------------------------
    def buy_problem(self, player: Player, shares: list[Share]) -> str | None:
        corp = shares[0].corp
        owner = shares[0].owner
        if owner is corp and any(s.id in self.game.reserved for s in shares):
            return f"{shares[0].id} is reserved for a private company"
        if (
            owner is self.game.pool
            and any(s.president for s in shares)
            and player.percent_of(corp) < 10
        ):
            return f"only a holder of a {corp.sym} share may take its director's certificate from the market"
        problem = super().buy_problem(player, shares)
        return problem

    def can_buy_any(self, player: Player) -> bool:
        # asked after every move: what rules out a whole company or place is checked first, once,
        # so that `buy_problem` (which words its reason) runs only for the few cases left
        at_limit = self.game.num_certs(player) >= self.game.cert_limit
        bought = self.bought()
        for corp in self.game.corporations:
            if self.sold_corp(player, corp) or (at_limit and self.game.counts_for_limit(corp)):
                continue
            for source in (self.game.pool, corp):
                if (source is corp and not corp.ipoed) or not source.percent_of(corp):
                    continue
                if bought and not self.can_buy_multiple(corp, source):
                    continue
                # `buy_problem` refuses a certificate the player cannot pay for, as it is priced
                # here: telling so costs no sentence (broke players are asked after every move)
                cell = corp.par_price if source is corp else corp.share_price
                tried = set()  # alike certificates of one place get one answer
                for share in source.shares_of(corp):
                    kind = (share.president, share.percent, share.id in self.game.reserved)
                    if kind in tried:
                        continue
                    tried.add(kind)
                    if cell is not None and player.cash < cell.price * share.percent // 10:
                        continue
                    if share.president and source is self.game.pool:
                        # 18xx.games asks the player to act when they could pay for the whole
                        # certificate, though only a holder of a share may take it (and pays one
                        # share's price): the player's turn comes, as there, with Pass to choose
                        if BuySellParShares.buy_problem(self, player, [share]) is None:
                            return True
                    elif self.buy_problem(player, [share]) is None:
                        return True
        return False

    def process_buy_shares(self, action: dict[str, Any], player: Player) -> None:
        shares = self.game.shares_from_action(action)
        corp = shares[0].corp
        if shares[0].owner is self.game.pool and shares[0].president:
            problem = self.buy_problem(player, shares)
            if problem:
                raise IllegalAction(problem)
            self.game.take_pool_presidency(player, corp)
            self.track({**action, "_corp": corp}, player, corp)
            return
        super().process_buy_shares(action, player)

    def can_ipo_any(self, player: Player) -> bool:
        if self.bought():
            return False
        return any(
            not c.ipoed and self.can_gain(player, c, 20) and player.cash >= 2 * self.game.min_par(c)
            for c in self.game.corporations
        )

    def process_par(self, action: dict[str, Any], player: Player) -> None:
        corp = self.game.corporation(action.get("corporation"))
        if corp.ipoed:
            raise IllegalAction(f"{corp.sym} is already parred")
        if self.bought():
            raise IllegalAction(
                f"{player.name} has already bought this turn (one purchase "
                "per stock turn, then pass or sell)"
            )
        cell = self.game.legal_par(corp, action.get("share_price"))
        if cell.price * 2 > player.cash:
            raise IllegalAction(
                f"{player.name} has {self.game.money(player.cash)}; par £{cell.price} costs £{cell.price * 2}"
            )
        if not self.can_gain(player, corp, 20):
            raise IllegalAction(
                f"{player.name} is at the certificate limit ({self.game.cert_limit})"
            )
        self.game.do_par(player, corp, cell, free=False)
        self.track(action, player, corp)

    def choices(self, player: Player, action_type: str) -> list[tuple[str, dict[str, Any]]] | None:
        if action_type == "sell_company":
            return [
                (
                    f"Sell {c.sym} to the bank for £{c.value - self.game.COMPANY_SALE_FEE}",
                    {"company": c.sym, "price": c.value - self.game.COMPANY_SALE_FEE},
                )
                for c in self.sellable_companies(player)
            ]
        if action_type == "buy_company":
            return [
                (
                    f"Buy {c.sym} ({c.name}) from the bank for £{c.value}",
                    {"company": c.sym, "price": c.value},
                )
                for c in self.purchasable_companies(player)
                if c.value <= player.cash
            ]
        return None

    # -- privates with the bank ------------------------------------------------------------------
    def purchasable_companies(self, player: Player) -> list[Company]:
        """Privates the bank offers this player. As on 18xx.games the offer stands (so the player
        is asked to act) whenever they have any cash; the purchase itself needs the full price."""
        if self.bought() or player.cash <= 0 or self.game.num_certs(player) >= self.game.cert_limit:
            return []
        return [
            c
            for c in self.game.companies
            if c.owner is self.game.bank and not c.closed and not self.sold_company(player, c)
        ]

    def sold_company(self, player: Player, company: Company) -> bool:
        return company.sym in self.round.companies_sold.get(player, set())

    def process_buy_company(self, action: dict[str, Any], player: Player) -> None:
        company = self.game.company(action.get("company"))
        if company not in self.purchasable_companies(player):
            raise IllegalAction(f"{player.name} cannot buy {company.name} now")
        if player.cash < company.value:
            raise IllegalAction(
                f"{player.name} has {self.game.money(player.cash)}; {company.name} costs £{company.value}"
            )
        company.owner = player
        player.companies.append(company)
        spend(player, self.game.bank, company.value)
        self.game.note(f"{player.name} buys {company.sym} from the bank for £{company.value}.")
        if company.sym == "FFC":
            self.game.close_other_companies(company)
        self.track(action, player, company)

    def sellable_companies(self, player: Player) -> list[Company]:
        if self.game.turn <= 1 or self.bought():
            return []
        return [c for c in player.companies if not c.closed]

    def process_sell_company(self, action: dict[str, Any], player: Player) -> None:
        company = self.game.company(action.get("company"))
        if company not in self.sellable_companies(player):
            raise IllegalAction(f"{player.name} cannot sell {company.name} now")
        price = company.value - self.game.COMPANY_SALE_FEE
        if action.get("price") is not None and action.get("price") != price:
            raise IllegalAction(
                f"the bank pays {self.game.money(price)} for {company.sym} "
                f"(its face value less {self.game.money(self.game.COMPANY_SALE_FEE)})"
            )
        action["price"] = price  # 18xx.games pays what the file says
        player.companies.remove(company)
        company.owner = self.game.bank
        spend(self.game.bank, player, price)
        self.round.companies_sold.setdefault(player, set()).add(company.sym)
        self.game.note(f"{player.name} sells {company.sym} to the bank for £{price}.")
        self.track(action, player, company)
        self.game.check_bank_broken()

    def process_sell_shares(self, action: dict[str, Any], player: Player) -> None:
        corp = self.game.shares_from_action(action)[0].corp  # the sale is checked by super()
        market, value = (
            (corp.share_price.price, self.game.share_value(corp)) if corp.share_price else (0, 0)
        )
        super().process_sell_shares(action, player)
        self.record_sale_price(action, corp.sym, market, value)
        self.game.check_bankruptcy(corp)
        self.game.check_bank_broken()  # players' cash is what breaks 1860's bank

    @staticmethod
    def record_sale_price(action: dict[str, Any], sym: str, market: int, value: int) -> None:
        """A half-value sale (no train) names its price per share in the recorded move, as an
        18xx.games file does: that engine pays what the file says (the full price without it)."""
        recorded = action.get("share_price")
        if recorded is not None and recorded != value:
            raise IllegalAction(f"{sym} shares sell for £{value} each now, not £{recorded}")
        if value != market or recorded is not None:
            action["share_price"] = value


class StockRound1860(StockRound):
    def __init__(self, game: Any, steps: list[Any]) -> None:
        self.pending_tracks: list[Corporation] = []
        self.companies_sold: dict[Player, set[str]] = {}
        super().__init__(game, steps)

    def finish_round(self) -> None:
        """No price rise for sold-out companies in 1860."""
