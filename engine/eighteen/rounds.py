"""Rounds made of steps, as in 18xx.games: each action goes to the first active step that lists
its type; a blocking step that cannot take it refuses it; steps with nothing to do are skipped.

`EighteenHost` is what steps, rounds and the rule helpers may ask of the game they are given:
they reach the game only through it, so none of them imports the game's module (which imports
them all), as 18xx.games' steps reach everything through their `@game`."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, ClassVar, Protocol

from engine.checkpoint import Saved
from engine.eighteen import programs
from engine.eighteen.board import Board
from engine.eighteen.entities import Ability, Bank, Company, Corporation, Player, Pool, Share
from engine.eighteen.market import StockMarket
from engine.eighteen.pieces import SharePrice, Train
from engine.eighteen.trains import Depot, Phases
from engine.errors import IllegalAction, NotYourTurn
from engine.game import Action, Choice, PlayerId, PlayerInfo


class Step:
    description = "Act"
    blocks = True
    # The name private powers use for this part of a turn ('track', ...); None for the others.
    time_name: str | None = None

    def __init__(self, game: EighteenHost, round_: Round, **opts: Any) -> None:
        self.game = game
        self.round = round_
        self.opts = opts
        self.passed = False
        self.acted = False

    # -- queries -------------------------------------------------------------------------------
    def actions(self, entity: Any) -> list[str]:
        return []

    def active(self) -> bool:
        return not self.passed

    def active_entities(self) -> list[Any]:
        return [self.round.entities[self.round.entity_index]] if self.round.entities else []

    def current_entity(self) -> Any:
        ents = self.active_entities()
        return ents[0] if ents else None

    def current_actions(self) -> list[str]:
        entity = self.current_entity()
        if entity is None or getattr(entity, "closed", False):
            return []
        return self.actions(entity)

    def explain(self, entity: Any, action_type: str) -> str | None:
        """Why this entity cannot take this action in this step now (None: no specific reason)."""
        return None

    def can_act(self, entity: Any) -> bool:
        """Whether `entity` has any action here; steps whose full list is costly answer it
        without building the list (asked after every action, to find who must act)."""
        return bool(self.actions(entity))

    def allows(self, entity: Any, action_type: str) -> bool:
        """Whether `action_type` is among `actions(entity)`; steps whose full list is costly
        answer it without building the list (asked for every action processed)."""
        return action_type in self.actions(entity)

    def explain_choice(self, entity: Any, action_type: str, words: set[str]) -> str | None:
        """Why no legal action of this type is the one these typed words (casefolded) name,
        stating the rule (None: no specific reason)."""
        return None

    def blocking(self) -> bool:
        if not self.blocks:
            return False
        entity = self.current_entity()
        return entity is not None and not getattr(entity, "closed", False) and self.can_act(entity)

    # -- transitions ---------------------------------------------------------------------------
    def setup(self) -> None:
        pass

    def pass_(self) -> None:
        self.passed = True

    def unpass(self) -> None:
        self.passed = False
        self.acted = False
        self.round.forget_active_step()

    def skip(self) -> None:
        self.pass_()

    def process(self, action: dict[str, Any], entity: Any) -> None:
        handler = getattr(self, f"process_{action['type']}", None)
        if handler is None:
            raise IllegalAction(f"{action['type']} is not possible now")
        handler(action, entity)

    def process_pass(self, action: dict[str, Any], entity: Any) -> None:
        self.pass_()

    def auto_actions(self, entity: Any) -> list[dict[str, Any]]:
        """The moves the entity's player has programmed for it here, due now (programs.py)."""
        return []

    def house_actions(self, entity: Any) -> list[dict[str, Any]]:
        """The moves railchat's own programs of the entity's player make here, due now, when
        no 18xx.games program made one (house_programs.py)."""
        return []

    def auction_targets(self) -> list[tuple[Company, int | None]]:
        """The companies an auction step sells, each with its price when it can be bought
        outright now and that price falls while everyone passes (else None)."""
        return []


class Round:
    name = "Round"
    kind = ""  # "auction", "stock" or "operating", as programmed moves ask

    def __init__(self, game: EighteenHost, step_classes: list[Any], round_num: int = 1) -> None:
        self.game = game
        # Which step blocks, as found by the last skip_steps; valid until the state next changes
        # (asking every step what it allows is the costly part of processing an action).
        self._active: Step | None = None
        self._active_known = False
        self.round_num = round_num
        self.entity_index = 0
        self.last_to_act: Any = None
        self.pass_order: list[Any] = []
        self.entities: list[Any] = self.select_entities()
        self.steps: list[Step] = []
        for spec in step_classes:
            cls, opts = spec if isinstance(spec, tuple) else (spec, {})
            step = cls(game, self, **opts)
            step.setup()
            self.steps.append(step)

    def select_entities(self) -> list[Any]:
        return []

    def setup(self) -> None:
        pass

    def active_step(self, entity: Any = None) -> Step | None:
        if self._active_known:
            return self._active
        for step in self.steps:
            if step.active() and step.blocking():
                return step
        return None

    def forget_active_step(self) -> None:
        self._active_known = False

    def active_entities(self) -> list[Any]:
        step = self.active_step()
        return step.active_entities() if step else []

    def turn_step(self) -> Step | None:
        """The part of the turn under way, as private powers see it: the first named step not done."""
        for step in self.steps:
            if step.time_name and not step.passed and step.active() and step.blocks:
                return step
        return None

    def current_entity(self) -> Any:
        ents = self.active_entities()
        return ents[0] if ents else None

    def auto_actions(self) -> list[dict[str, Any]]:
        """The programmed moves due now, for whoever must act (none: they act themselves)."""
        step = self.active_step()
        entity = self.current_entity()
        if step is None or entity is None:
            return []
        return step.auto_actions(entity) or step.house_actions(entity)

    def auction_targets(self) -> list[tuple[Company, int | None]]:
        return [target for step in self.steps for target in step.auction_targets()]

    def actions_for(self, entity: Any) -> list[str]:
        out: list[str] = []
        if entity is None:
            return out
        for step in self.steps:
            if not step.active():
                continue
            for a in step.actions(entity):
                if a not in out:
                    out.append(a)
            if step.blocking():
                break
        return out

    def step_for(self, entity: Any, action_type: str) -> Step:
        blocking = self.active_step()
        for step in self.steps:
            if not step.active():
                continue
            can = step.allows(entity, action_type)
            if step is blocking and not can:
                who = self.game.entity_name(entity)
                acting = self.active_entities()
                if acting and entity not in acting:
                    names = ", ".join(self.game.entity_name(e) for e in acting)
                    raise NotYourTurn(
                        f"it is not {who}'s turn: {names} must act ({step.description})"
                    )
                reason = step.explain(entity, action_type)
                if reason:
                    raise IllegalAction(f"{who} cannot {action_type.replace('_', ' ')}: {reason}")
                allowed = ", ".join(step.actions(entity)) or "nothing"
                raise IllegalAction(
                    f"{who} cannot {action_type.replace('_', ' ')} now: "
                    f"the current step is {step.description} (allowed: {allowed})"
                )
            if can:
                return step
        raise IllegalAction(
            f"{self.game.entity_name(entity)} cannot {action_type.replace('_', ' ')} now"
        )

    def process_action(self, action: dict[str, Any], entity: Any) -> None:
        step = self.step_for(entity, action["type"])
        self.forget_active_step()
        step.acted = True
        step.process(action, entity)
        self.skip_steps()
        self.after_process(action, entity)

    def skip_steps(self) -> None:
        self.forget_active_step()
        found: Step | None = None
        for step in self.steps:
            if not step.active() or not step.blocks:
                continue
            ent = self.entities[self.entity_index] if self.entities else None
            if ent is not None and getattr(ent, "closed", False):
                continue
            if step.blocking():
                found = step
                break
            self.game.step_skipped(ent, step)
            step.skip()
        self._active, self._active_known = found, True

    def after_process(self, action: dict[str, Any], entity: Any) -> None:
        pass

    def note_share_move(self, player: Any, target: Any, kind: str) -> None:
        """A player's move on a company's shares (or a private): stock rounds keep it for the
        programmed moves of the others (programs.py); other rounds need not."""

    def next_entity_index(self) -> None:
        self.forget_active_step()
        self.entity_index = (self.entity_index + 1) % len(self.entities)

    def finished(self) -> bool:
        return self.active_step() is None


class EighteenHost(Protocol):
    """The 18xx game as its rounds, steps and rule helpers see it (`EighteenGame` and its rule
    mixins implement it; a title's steps that need more declare a wider protocol)."""

    title: ClassVar[str]
    LEADER: ClassVar[str]
    presidents_percent: ClassVar[int]
    market_share_limit: ClassVar[int]
    max_ownership_percent: ClassVar[int]
    min_bid_increment: ClassVar[int]
    tile_lays: ClassVar[int]
    president_sales_to_market: ClassVar[bool]
    must_sell_in_blocks: ClassVar[bool]
    # what an action just did, for the renderer and the thread (set by the rules that act)
    last_effect: dict[str, Any] | None
    last_route_revenues: list[int]
    last_train_source: str | None
    log_position: programs.Moment  # where the move being made is in the log
    CURRENCY: ClassVar[str]
    PROGRAM_TYPES: ClassVar[frozenset[str]]
    finished_flag: bool
    news: list[tuple[PlayerId, str]]  # what the last action did to standing orders
    sets_this_round: dict[PlayerId, int]  # standing orders each player set by hand this round
    players: list[PlayerInfo]
    actions: list[Action]

    # -- the state, read here and changed only by the game ------------------------------------
    @property
    def data(self) -> dict[str, Any]: ...
    @property
    def bank(self) -> Bank: ...
    @property
    def pool(self) -> Pool: ...
    @property
    def player_list(self) -> list[Player]: ...
    @property
    def corporations(self) -> list[Corporation]: ...
    @property
    def companies(self) -> list[Company]: ...
    @property
    def market(self) -> StockMarket: ...
    @property
    def depot(self) -> Depot: ...
    @property
    def phases(self) -> Phases: ...
    @property
    def board(self) -> Board: ...
    @property
    def round(self) -> Round: ...
    @property
    def turn(self) -> int: ...
    @property
    def cert_limit(self) -> int: ...
    @property
    def finished(self) -> bool: ...
    @property
    def train_limit(self) -> int: ...
    @property
    def multiple_buy_only_from_market(self) -> bool: ...
    @property
    def sell_buy_order(self) -> str: ...

    # -- lookups and words ----------------------------------------------------------------------
    def corporation(self, sym: Any) -> Corporation: ...
    def company(self, sym: Any) -> Company: ...
    def train(self, train_id: Any) -> Train: ...
    def entity_name(self, entity: Any) -> str: ...
    def money(self, amount: Any) -> str: ...
    def note(self, text: str) -> None: ...
    def step_skipped(self, entity: Any, step: Any) -> None: ...
    def hex_names(self) -> dict[str, str]: ...
    def shares_from_action(self, action: Action) -> list[Share]: ...
    def sale_from_action(self, action: Action, player: Player) -> tuple[list[Share], int]: ...
    def resolve_entity(self, action: Action) -> Player | Corporation | Company: ...
    def lay_fields(self, action: Action) -> tuple[str, str, int]: ...
    def token_fields(self, action: Action) -> tuple[str, int]: ...

    # -- the Game contract, as the helpers use it ------------------------------------------------
    def active_entities(self) -> list[Any]: ...
    def actors(self, entity: Any) -> list[Player]: ...
    def result(self) -> dict[PlayerId, int]: ...
    def player_value(self, p: Player) -> int: ...
    def round_name(self) -> str: ...
    def train_specs(self) -> list[dict[str, Any]]: ...
    def legal_actions(
        self, player: PlayerId, kinds: Collection[str] | None = None
    ) -> list[Choice]: ...
    def legality_probe(self) -> Callable[[Action], bool]: ...
    def ranking(self) -> tuple[tuple[str, int], ...]: ...
    def replayed(self, watch: Callable[[Any], None]) -> Any: ...
    def saved_state(self) -> Saved: ...
    def process_single(self, action: Action) -> None: ...
    def snapshot(self) -> dict[str, Any]: ...
    def best_routes(self, corp: Corporation) -> tuple[int, list[dict[str, Any]]]: ...

    # -- shares, pars and limits -------------------------------------------------------------------
    def par_cell(self, ref: Any, player: Player, *, check_cash: bool) -> SharePrice: ...
    def par_prices(self, corp: Corporation) -> list[SharePrice]: ...
    def par_restricted(self, corp: Corporation) -> bool: ...
    def do_par(
        self, player: Player, corp: Corporation, cell: SharePrice, *, free: bool
    ) -> None: ...
    def check_float(self, corp: Corporation, was_floated: bool) -> None: ...
    def sale_price(self, shares: list[Share], percent: int, corp: Corporation) -> int: ...
    def move_price_on_sale(self, corp: Corporation, num_shares: int) -> None: ...
    def sale_timing_ok(self) -> bool: ...
    def counts_for_limit(self, corp: Corporation) -> bool: ...
    def zone_allows_multiple_buy(self, corp: Corporation) -> bool: ...
    def holding_ok(self, player: Player, corp: Corporation, extra: int) -> bool: ...
    def num_certs(self, player: Player) -> int: ...
    def sold_out(self, corp: Corporation) -> bool: ...
    def player_distance(self, a: Player | None, b: Player) -> int: ...
    def phase_allows(self, status: str) -> bool: ...
    def operating_sort_key(self, corp: Corporation) -> tuple[Any, ...]: ...
    def operating_order(self) -> list[Corporation]: ...

    # -- private companies (company_rules.py) ------------------------------------------------------
    def give_company(self, player: Player, company: Company, price: int) -> None: ...
    def after_buy_company(self, player: Player, company: Company) -> None: ...
    def company_president_corporation(self, company: Company) -> Corporation: ...
    def transfer_company(
        self, company: Company, buyer: Player | Corporation, price: int, seller: Player
    ) -> None: ...
    def close_company(self, company: Company) -> None: ...
    def payout_companies(self) -> None: ...
    def company_min_price(self, company: Company) -> int: ...
    def company_max_price(self, company: Company) -> int: ...
    def purchasable_companies(self, corp: Corporation) -> list[Company]: ...
    def exchange_targets(self, company: Company) -> list[Share]: ...
    def track_ability(self, company: Company, round_: Any) -> Ability | None: ...
    def ability_time_now(self, ability: Ability, company: Company) -> bool: ...
    def operator_has_usable_ability(self, corp: Corporation) -> bool: ...

    # -- track and tokens (track_rules.py) ---------------------------------------------------------
    def token_cities(self, corp: Corporation) -> list[str]: ...
    def can_place_token_somewhere(self, corp: Corporation) -> bool: ...
    def blocked_hexes(self) -> set[str]: ...
    def lay_tile(
        self, corp: Corporation, hex_id: str, tile_id: str, rotation: int, *, need_connection: bool
    ) -> None: ...
    def tile_cost_problem(self, corp: Corporation, cost: int, hex_id: str) -> str | None: ...
    def lift_token(self, actor: Corporation, owner: Corporation, hex_id: str) -> None: ...
    def hex_has_track(self, hex_id: str) -> bool: ...
    def place_token(
        self,
        corp: Corporation,
        hex_id: str,
        city: int,
        slot: Any,
        *,
        cost: int,
        need_connection: bool,
        extra: bool = False,
        position: int | None = None,
    ) -> None: ...
    def place_home_token(self, corp: Corporation, round_: Any) -> None: ...
    def home_city_choice(self, corp: Corporation) -> int | None: ...
    def can_run_route(self, corp: Corporation) -> bool: ...
    def check_routes(self, corp: Corporation, routes: list[dict[str, Any]]) -> int: ...

    # -- trains, emergencies and bankruptcy (train_rules.py) ------------------------------------
    def must_buy_train(self, corp: Corporation) -> bool: ...
    def buy_train(self, corp: Corporation, train: Train, price: int) -> None: ...
    def after_buy_train_event(self, corp: Corporation) -> None: ...
    def trigger_event(self, event: str) -> None: ...
    def on_phase_change(self) -> None: ...
    def rust_trains(self, bought: Train) -> None: ...
    def crowded_corps(self) -> list[Corporation]: ...
    def other_corp_trains(self, corp: Corporation) -> list[Train]: ...
    def trade_ins(self, corp: Corporation) -> list[tuple[Train, Train, int]]: ...
    def emergency_sale_ok(
        self,
        player: Player,
        corp: Corporation,
        buying: Corporation,
        shares: list[Share],
        percent: int,
    ) -> bool: ...
    def max_emergency_sale(self, player: Player, corp: Corporation, buying: Corporation) -> int: ...
    def bankruptcy_problem(self, corp: Corporation) -> str | None: ...
    def declare_bankrupt(self, corp: Corporation) -> None: ...
