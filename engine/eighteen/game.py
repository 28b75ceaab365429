"""EighteenGame: the 18xx rules shared by 1830 and 1860; a title supplies data and small hooks."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.eighteen import house_programs as house
from engine.eighteen import ledger, orders, programs
from engine.eighteen import shares as sh
from engine.eighteen.auction import AuctionRound, CompanyPendingPar, WaterfallAuction
from engine.eighteen.company_rules import CompanyRules
from engine.eighteen.contract import GameContract
from engine.eighteen.describe import skip_sentence
from engine.eighteen.entities import Ability, Bank, Company, Corporation, Player, Pool, Share, spend
from engine.eighteen.market import (
    ABOVE_60_ZONES,
    MULTIPLE_BUY_ZONES,
    NO_CERT_LIMIT_ZONES,
    SharePrice,
    StockMarket,
)
from engine.eighteen.operating import (
    Bankrupt,
    BuyTrain,
    DiscardTrain,
    Dividend,
    HomeToken,
    OperatingRound,
    Route,
    Token,
    Track,
)
from engine.eighteen.private_steps import BuyCompany, Exchange, SpecialToken, SpecialTrack
from engine.eighteen.rounds import Round
from engine.eighteen.stock import BuySellParShares, StockRound
from engine.eighteen.track_rules import TrackRules
from engine.eighteen.train_rules import TrainRules
from engine.eighteen.trains import Depot, Phase, Phases, Train
from engine.errors import IllegalAction, InvalidAction
from engine.game import Action, Game, PlayerId


class EighteenGame(GameContract, TrackRules, TrainRules, CompanyRules, Game):
    """Title-neutral 18xx. Subclasses set `data` (the title JSON) and override hooks."""

    data: dict[str, Any]
    # `data` is read, never written, once set up (1860 sets its own per edition: ~800 lists and
    # dicts a checkpoint would otherwise copy before every move and legality probe)
    CHECKPOINT_SHARED = Game.CHECKPOINT_SHARED + ("_token_cache", "data")
    # A round that ends once this stock round number is reached ends the game ("dnf", did not
    # finish), as on 18xx.games: a game nobody can move on (everyone broke, no company left to
    # operate) would otherwise start empty rounds for ever.
    LAST_TURN: ClassVar[int] = 100
    full_name: ClassVar[str] = "18xx"
    CURRENCY: ClassVar[str] = "$"
    LEADER: ClassVar[str] = "president"  # who leads a company: 1860 says director
    MARKET_PAYS_COMPANY: ClassVar[bool] = True  # the market's shares' dividends (not 1860's)
    bank_cash: ClassVar[int] = 12000
    market_share_limit: ClassVar[int] = 50
    presidents_percent: ClassVar[int] = 20
    max_ownership_percent: ClassVar[int] = 60
    min_bid_increment: ClassVar[int] = 5
    # A director's certificate may be sold to the market, leaving the company without a director.
    president_sales_to_market: ClassVar[bool] = False
    # All shares of one company a player sells in a turn are one sale (no splitting to soften drops).
    must_sell_in_blocks: ClassVar[bool] = False
    tile_lays: ClassVar[int] = 1
    # Standing orders a player sets or clears at any time (programs.py), not moves of the game.
    PROGRAM_TYPES: ClassVar[frozenset[str]] = frozenset(
        {
            "program_buy_shares",
            "program_share_pass",
            "program_disable",
            "program_independent_mines",
            "program_merger_pass",
            "program_harzbahn_draft_pass",
            "program_auction_bid",
            "program_close_pass",
        }
    )
    # Railchat's own programs this title offers (house_programs.py), and whether its auction
    # sells named companies (an auction pass may then wait for one).
    HOUSE_PROGRAMS: ClassVar[tuple[str, ...]] = house.KINDS
    AUCTION_NAMES_COMPANIES: ClassVar[bool] = True

    # -- setup -----------------------------------------------------------------------------------
    def setup(self) -> None:
        d = self.data
        n = len(self.players)
        start = d["starting_cash"][str(n)]
        self.bank = Bank(self.bank_cash)
        self.pool = Pool()
        self.player_list: list[Player] = []
        for info in self.players:
            p = Player(info.id, info.name, 0)
            spend(self.bank, p, start)
            self.player_list.append(p)
        self.cert_limit = d["certificate_limit"][str(n)]
        self.market = StockMarket(d["stock_market"]["grid"])
        self.corporations: list[Corporation] = [
            Corporation(
                c["sym"],
                c["name"],
                c["home"],
                c.get("home_city_index"),
                list(c["token_costs"]),
                c["float_percent"],
                list(c["shares"]),
            )
            for c in d["corporations"]
        ]
        self.companies: list[Company] = [
            Company(
                c["sym"],
                c["name"],
                c["value"],
                c["revenue"],
                self.company_abilities(c["sym"]),
                c.get("ability", ""),
            )
            for c in d["private_companies"]
        ]
        self.depot = Depot(self.train_specs())
        self.phases = Phases(self.phase_specs())
        self.board = self.make_board()
        self.turn = 1
        self.operating_rounds = 1
        self.finished_flag = False
        self.game_end_reason: str | None = None
        self.end_trigger: tuple[str, str] | None = None
        self.last_effect: dict[str, Any] | None = None
        self.last_step_description: str | None = None
        self.last_route_revenues: list[int] = []
        self.events: list[str] = []  # what else happened during the last action, for the thread
        self.last_train_source: str | None = None
        self._token_cache: tuple[Any, dict[tuple[str, str], Any]] = (None, {})
        # each player's standing order, and where in the log the move being made is (see programs)
        self.programs: dict[Any, programs.Program] = {}
        self.log_position = programs.Moment(0)
        # the first action after the game was last reloaded (see programs.earlier)
        self.live_from = 0
        self.house_programs: dict[Any, dict[str, house.HouseProgram]] = {}
        # whether a player made a move by hand in this round, and in the last stock round (a
        # stock round without one: railchat's away leaves the next to the players)
        self.by_hand_this_round, self.idle_stock_round = False, False
        self.sets_this_round: dict[PlayerId, int] = {}  # standing orders set by hand, per player
        self.news: list[tuple[PlayerId, str]] = []  # what the last action did to orders
        # why a program made no move on its player's turn, or why it stopped (see programs)
        self.left_turns: list[tuple[PlayerId, str, str]] = []
        self.stop_details: dict[PlayerId, str] = {}
        self.round: Round = self.new_auction_round()
        self.round.setup()

    # hooks a title overrides ------------------------------------------------------------------
    def company_abilities(self, sym: str) -> list[Ability]:
        return []

    def train_specs(self) -> list[dict[str, Any]]:
        return list(self.data["trains"])

    def phase_specs(self) -> list[Phase]:
        raise NotImplementedError

    def make_board(self) -> Any:
        from engine.eighteen.board import Board
        from engine.eighteen.board.layout import layout_of

        return Board(self.data, layout_of(self.data))

    @property
    def multiple_buy_only_from_market(self) -> bool:
        return True

    @property
    def sell_buy_order(self) -> str:
        """sell_buy_sell (the rules as intended), or a rule-book variant named by an option."""
        for variant in ("sell_buy", "sell_buy_or_buy_sell"):
            if self.options.get(variant):
                return variant
        return "sell_buy_sell"

    def par_prices(self, corp: Corporation) -> list[SharePrice]:
        """The par values this corporation may start at (every par cell unless a title says otherwise)."""
        return list(self.market.par_prices)

    def par_restricted(self, corp: Corporation) -> bool:
        """True when a corporation cannot be parred by a stock-round purchase (e.g. B&O via BO)."""
        return False

    def sale_price(self, shares: list[Share], percent: int, corp: Corporation) -> int:
        """What the bank pays for `percent` of these certificates (1860 halves trainless shares)."""
        return sh.bundle_price(shares, percent, corp)

    def move_price_on_sale(self, corp: Corporation, num_shares: int) -> None:
        """The share price falls after a sale of `num_shares` shares (one row per share in 1830)."""
        for _ in range(num_shares):
            self.market.move_down(corp)

    def company_president_corporation(self, company: Company) -> Corporation:
        ability = company.ability("shares")
        if ability is None:
            raise IllegalAction(f"{company.name} carries no shares")
        return self.corporation(ability.get("shares")[0].split("_")[0])

    # -- lookups ----------------------------------------------------------------------------------
    def player(self, pid: Any) -> Player:
        for p in self.player_list:
            if p.id == pid or str(p.id) == str(pid):
                return p
        raise InvalidAction(f"unknown player {pid!r}")

    def corporation(self, sym: Any) -> Corporation:
        return _by_sym(self.corporations, sym, "corporation")

    def company(self, sym: Any) -> Company:
        return _by_sym(self.companies, sym, "private company")

    def train(self, train_id: Any) -> Train:
        t = self.depot.train(train_id) if isinstance(train_id, str) else None
        if t is None:
            raise InvalidAction(f"unknown train {train_id!r}")
        return t

    def entity_name(self, entity: Any) -> str:
        if isinstance(entity, Corporation):
            return entity.sym
        if isinstance(entity, Company):
            return entity.sym
        if isinstance(entity, Player):
            return entity.name
        return str(entity)

    def resolve_entity(self, action: Action) -> Player | Corporation | Company:
        ent = action.get("entity")
        etype = action.get("entity_type")
        if etype == "player" or (etype is None and isinstance(ent, int)):
            return self.player(ent)
        if etype == "corporation":
            return self.corporation(ent)
        if etype == "company":
            return self.company(ent)
        if etype is None:
            for c in self.corporations:
                if c.sym == ent:
                    return c
            for co in self.companies:
                if co.sym == ent:
                    return co
            return self.player(ent)
        raise InvalidAction(f"unknown entity_type {etype!r}")

    def shares_from_action(self, action: Action) -> list[Share]:
        ids = action.get("shares")
        if isinstance(ids, str):
            ids = [ids]
        if not ids or not all(isinstance(i, str) for i in ids):
            raise InvalidAction(f"{action['type']} needs a list of share ids like 'PRR_3'")
        if len(set(ids)) != len(ids):
            raise InvalidAction(f"{action['type']} names a share twice")
        out: list[Share] = []
        for sid in ids:
            corp_sym, _, idx = sid.rpartition("_")
            corp = self.corporation(corp_sym)
            try:
                share = corp.all_shares[int(idx)]
            except (ValueError, IndexError):
                raise InvalidAction(f"unknown share {sid!r}") from None
            out.append(share)
        owners = {id(s.owner) for s in out}
        if len(owners) != 1 or len({s.corp.sym for s in out}) != 1:
            raise InvalidAction("all shares in one action must be of one corporation and one owner")
        return out

    def sale_from_action(self, action: Action, player: Player) -> tuple[list[Share], int]:
        """The certificates and percent a sell_shares action offers, checked to be one sale."""
        shares = self.shares_from_action(action)
        percent = action.get("percent")
        if percent is None:
            percent = sum(s.percent for s in shares)
        elif not isinstance(percent, int) or isinstance(percent, bool):
            raise InvalidAction("'percent' must be a whole number")
        if any(s.owner is not player for s in shares):
            raise IllegalAction(f"{player.name} does not own all of those shares")
        problem = sh.bundle_problem(player, shares, percent)
        if problem:
            raise IllegalAction(problem)
        return shares, percent

    # -- money, shares, companies -----------------------------------------------------------------
    def note(self, text: str) -> None:
        self.events.append(text)

    def tell(self, pid: PlayerId, text: str) -> None:
        """Something about a player's standing orders, for that player alone (`order_news`)."""
        self.news.append((pid, text))

    def stopped(self, pid: PlayerId, words: str, reason: str | None) -> None:
        """A player's programmed move stopped: by their own choice (`reason` "user" or none),
        else for the reason given."""
        if reason in (None, "user"):
            self.tell(pid, f"Cancelled your programmed move: you {words}.")
        else:
            why = self.stop_details.pop(pid, None)
            detail = f" ({why})" if why else ""
            self.tell(
                pid, f"Your programmed move stopped: {reason}{detail}. (It was: you {words}.)"
            )

    def leaves_turn(self, pid: PlayerId, words: str, reason: str) -> None:
        """A player's program makes no move on their turn, for `reason`: they are told once the
        moves due are made (`programs.run_due`); it stays set."""
        self.left_turns.append((pid, words, reason))

    def program_words(self, program: programs.Program) -> str:
        return orders.program_stopped(self, program)

    def step_skipped(self, entity: Any, step: Any) -> None:
        """A part of a turn passed over because nothing can be done in it: the thread says why."""
        sentence = skip_sentence(self, entity, step)
        if sentence:
            self.note(sentence)

    def check_float(self, corp: Corporation, was_floated: bool) -> None:
        if was_floated or corp.floated:
            return
        if corp.percent_of(corp) <= 100 - corp.float_percent:
            corp.floated = True
            assert corp.par_price is not None
            spend(self.bank, corp, corp.par_price.price * 10)
            self.note(f"{corp.sym} floats and receives {self.money(corp.cash)}.")

    def par_cell(self, ref: Any, player: Player, *, check_cash: bool) -> SharePrice:
        cell = self.market.find_par(ref) if ref is not None else None
        if cell is None:
            pars = ", ".join(str(p.price) for p in self.market.par_prices)
            raise InvalidAction(f"{ref!r} is not a par value; choose one of {pars}")
        if check_cash and cell.price * 2 > player.cash:
            raise IllegalAction(
                f"{player.name} has {self.money(player.cash)}; parring at {self.money(cell.price)} costs "
                f"{self.money(cell.price * 2)}"
            )
        return cell

    def do_par(self, player: Player, corp: Corporation, cell: SharePrice, *, free: bool) -> None:
        self.market.set_par(corp, cell)
        sh.buy(self, player, [corp.all_shares[0]], free=free)

    # -- limits ------------------------------------------------------------------------------------
    def zone(self, corp: Corporation) -> str | None:
        return corp.share_price.zone if corp.share_price else None

    def counts_for_limit(self, corp: Corporation) -> bool:
        return self.zone(corp) not in NO_CERT_LIMIT_ZONES

    def zone_allows_multiple_buy(self, corp: Corporation) -> bool:
        return self.zone(corp) in MULTIPLE_BUY_ZONES

    def holding_ok(self, player: Player, corp: Corporation, extra: int) -> bool:
        if self.zone(corp) in ABOVE_60_ZONES:
            return True
        return player.percent_of(corp) + extra <= self.max_ownership_percent

    def num_certs(self, player: Player) -> int:
        n = sum(1 for s in player.shares if self.counts_for_limit(s.corp))
        return n + len(player.companies)

    def sale_timing_ok(self) -> bool:
        return self.turn > 1 or not isinstance(self.round, StockRound)

    def phase_allows(self, status: str) -> bool:
        return status in self.phases.current.status

    @property
    def train_limit(self) -> int:
        return self.phases.current.train_limit

    def sold_out(self, corp: Corporation) -> bool:
        return corp.percent_of(corp) == 0 and self.pool.percent_of(corp) == 0

    def player_distance(self, a: Player | None, b: Player) -> int:
        if a is None:
            return 0
        order = [p for p in self.player_list if not p.bankrupt]
        if a not in order:
            return 0
        ia, ib = order.index(a), order.index(b)
        return ib - ia if ia < ib else ib - (ia - len(order))

    def operating_sort_key(self, corp: Corporation) -> tuple:
        return self.market.operating_key(corp)

    def operating_order(self) -> list[Corporation]:
        return sorted(
            [c for c in self.corporations if c.floated and not c.closed],
            key=self.market.operating_key,
        )

    # -- rounds -------------------------------------------------------------------------------------
    def new_auction_round(self) -> Round:
        return AuctionRound(self, [CompanyPendingPar, WaterfallAuction])

    def new_stock_round(self) -> Round:
        return StockRound(self, [DiscardTrain, Exchange, SpecialTrack, BuySellParShares])

    def new_operating_round(self, round_num: int) -> Round:
        return OperatingRound(
            self,
            [
                Bankrupt,
                Exchange,
                SpecialTrack,
                SpecialToken,
                BuyCompany,
                HomeToken,
                Track,
                Token,
                Route,
                Dividend,
                DiscardTrain,
                BuyTrain,
                (BuyCompany, {"blocks": True}),
            ],
            round_num,
        )

    def reorder_players(self) -> None:
        live = [p for p in self.player_list if not p.bankrupt]
        first = live[self.round.entity_index % len(live)]
        i = self.player_list.index(first)
        self.player_list = self.player_list[i:] + self.player_list[:i]

    def next_round(self) -> None:
        r = self.round
        if isinstance(r, StockRound):
            self.operating_rounds = self.phases.current.operating_rounds
            self.reorder_players()
            self.round = self.new_operating_round(1)
        elif isinstance(r, OperatingRound):
            if r.round_num < self.operating_rounds:
                self.round = self.new_operating_round(r.round_num + 1)
            else:
                self.turn += 1
                self.round = self.new_stock_round()
        else:
            self.reorder_players()
            self.round = self.new_stock_round()
        label = (
            f"{self.turn}.{self.round.round_num}"
            if isinstance(self.round, OperatingRound)
            else str(self.turn)
        )
        self.note(f"{self.round.name} {label} begins.")
        self.round.setup()

    def game_end_check(self) -> tuple[str, str] | None:
        if any(p.bankrupt for p in self.player_list):
            self.end_trigger = ("bankrupt", "immediate")
        elif self.bank.broken and self.end_trigger is None:
            self.end_trigger = ("bank", "full_or")
        return self.end_trigger

    def end_now(self, timing: str | None) -> bool:
        if timing is None:
            return False
        if timing == "immediate":
            return True
        if not isinstance(self.round, OperatingRound):
            return False
        return self.round.round_num == self.operating_rounds

    def end_reason_text(self) -> str:
        reason = self.game_end_reason or ""
        said = {
            "bank": "the bank broke",
            "dnf": f"did not finish by stock round {self.LAST_TURN}",
            "stock_market": "a share price reached the market's end",
            "nationalization": "nationalisation completed",
        }
        return said.get(reason, reason)

    def end_game(self, reason: str) -> None:
        self.finished_flag = True
        self.game_end_reason = reason
        ranking = sorted(self.player_list, key=lambda p: -self.player_value(p))
        self.note(
            f"Game over ({self.end_reason_text()}): "
            + ", ".join(f"{p.name} {self.money(self.player_value(p))}" for p in ranking)
            + "."
        )

    # -- processing ---------------------------------------------------------------------------------
    def _apply(self, action: Action, *, story: bool = True) -> Action:
        self.events = []
        self.news, self.stop_details = [], {}
        self.ledger_before = ledger.take(self) if story else None  # the money story's "before"
        atype = action["type"]
        if atype == "message":
            return action
        if atype in ("undo", "redo"):
            raise InvalidAction("undo and redo are handled by the game's history, not as moves")
        number = len(self.actions) + 1
        recorded = action.get("_imported") or "auto_actions" in action
        if atype in self.PROGRAM_TYPES and not recorded:
            programs.check_fields(self, action)
        if atype in house.FIELDS and not recorded:
            house.check_fields(self, action)
        self.process_single(action, programs.Moment(number))
        if recorded:  # a replayed action: its programmed moves are made as recorded
            for n, auto in enumerate(action.get("auto_actions") or [], start=1):
                self.process_single(auto, programs.Moment(number, n))
            return action
        by_hand = None if atype in self.PROGRAM_TYPES or atype in house.FIELDS else action
        autos = programs.run_due(self, number, by_hand)
        return {**action, "auto_actions": autos} if autos else action

    def process_single(self, action: Action, at: programs.Moment | None = None) -> None:
        """Apply one move (`at`: its place in the log)."""
        if at is not None:
            self.log_position = at
        kind = action.get("type")
        if kind in self.PROGRAM_TYPES or kind in house.FIELDS:
            (programs if kind in self.PROGRAM_TYPES else house).process(self, action)
            if kind not in (programs.DISABLE, house.DISABLE) and (at is None or at.auto == 0):
                pid = self.resolve_entity(action).id
                self.sets_this_round[pid] = self.sets_this_round.get(pid, 0) + 1
            return
        entity = self.resolve_entity(action)
        if at is None or at.auto == 0:
            self.by_hand_this_round = True
        self.last_effect = None
        step = self.round.active_step()
        self.last_step_description = step.description if step else None
        broken_before = self.bank.broken
        self.round.process_action(action, entity)
        _, timing = self.game_end_check() or (None, None)
        if self.bank.broken and not broken_before:
            self.note("The bank has broken: the game ends after this set of operating rounds.")
        if timing == "immediate":
            self.end_game(self.end_trigger[0])  # type: ignore[index]
        while not self.finished_flag and self.round.finished():
            for e in self.round.entities:
                if isinstance(e, Player):
                    e.passed = False
            if self.end_now(self.end_trigger[1] if self.end_trigger else None):
                self.end_game(self.end_trigger[0])  # type: ignore[index]
            elif self.turn >= self.LAST_TURN:
                self.end_game("dnf")
            else:
                if self.round.kind == "stock":
                    self.idle_stock_round = not self.by_hand_this_round
                self.by_hand_this_round = False
                self.sets_this_round.clear()
                self.next_round()
                programs.round_changed(self)
                house.round_changed(self)

    def rewind_to(self, count: int) -> None:
        # as a reload on 18xx.games: what programs made before counts as replayed from the log
        super().rewind_to(count)
        self.live_from = len(self.actions) + 1


def _by_sym(items: list[Any], sym: Any, kind: str) -> Any:
    for item in items:
        if item.sym == sym:
            return item
    for item in items:  # typed in another case ("NGSTL" for NGStL)
        if isinstance(sym, str) and item.sym.casefold() == sym.casefold():
            return item
    known = ", ".join(i.sym for i in items)
    raise InvalidAction(f"unknown {kind} {sym!r} (known: {known})")
