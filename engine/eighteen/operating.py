"""The operating round: each floated corporation in share-price order lays track, places a token,
runs trains, pays or withholds, and buys trains; privates' powers act between and within turns
(their steps are in `private_steps`)."""

from __future__ import annotations

from typing import Any

from engine.eighteen import shares as sh
from engine.eighteen.entities import Company, Corporation, Player, spend
from engine.eighteen.rounds import Round, Step
from engine.errors import IllegalAction, InvalidAction


def routes_field(action: dict[str, Any]) -> list[Any]:
    routes = action.get("routes")
    if not isinstance(routes, list):
        raise InvalidAction("run_routes needs a list of 'routes'")
    if not all(isinstance(r, dict) for r in routes):
        raise InvalidAction("each route is an object with a 'train' and its 'connections'")
    return routes


def int_field(action: dict[str, Any], key: str) -> int:
    value = action.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidAction(f"{action['type']} needs a whole number '{key}'")
    return value


class Bankrupt(Step):
    description = "Bankrupt"
    blocks = False

    def actions(self, entity: Any) -> list[str]:
        return ["bankrupt"] if entity is self.current_entity() else []

    def process_bankrupt(self, action: dict[str, Any], corp: Corporation) -> None:
        self.game.declare_bankrupt(corp)


class HomeToken(Step):
    """A token whose city must be chosen: a home token on a hex with several cities, or tokens
    lifted off a pathless multi-city tile (1830's OO hexes) when track is first laid there."""

    round: OperatingRound

    description = "Place Home Token"

    def active(self) -> bool:
        return bool(self.round.pending_tokens)

    def active_entities(self) -> list[Any]:
        return [self.round.pending_tokens[0]["entity"]] if self.round.pending_tokens else []

    def actions(self, entity: Any) -> list[str]:
        pending = self.round.pending_tokens
        return ["place_token"] if pending and entity is pending[0]["entity"] else []

    def process_place_token(self, action: dict[str, Any], entity: Any) -> None:
        pending = self.round.pending_tokens[0]
        corp, hex_id = pending["corp"], pending["hex"]
        got_hex, city = self.game.token_fields(action)
        if got_hex != hex_id:
            raise IllegalAction(f"{corp.sym}'s token must go back on {hex_id}")
        self.game.place_token(
            corp,
            hex_id,
            city,
            action.get("slot"),
            cost=0,
            need_connection=False,
            position=pending.get("position"),
        )
        self.round.pending_tokens.pop(0)


class Track(Step):
    round: OperatingRound

    description = "Lay/Upgrade Track"
    time_name = "track"

    def explain(self, entity: Any, action_type: str) -> str | None:
        if action_type == "lay_tile" and isinstance(entity, Corporation):
            return (
                f"{entity.sym} has already laid its track this turn (a company lays track "
                "once in its operating turn)"
            )
        return None

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        return ["lay_tile", "pass"] if self.round.num_laid_track < self.game.tile_lays else []

    def process_lay_tile(self, action: dict[str, Any], corp: Corporation) -> None:
        hex_id, tile_id, rotation = self.game.lay_fields(action)
        self.game.lay_tile(corp, hex_id, tile_id, rotation, need_connection=True)
        self.round.num_laid_track += 1
        if self.round.num_laid_track >= self.game.tile_lays:
            self.pass_()


class Token(Step):
    round: OperatingRound

    description = "Place a Token"
    time_name = "token"

    def explain(self, entity: Any, action_type: str) -> str | None:
        if action_type != "place_token" or not isinstance(entity, Corporation):
            return None
        cost = entity.next_token_cost
        if self.round.tokened:
            return f"{entity.sym} has already placed a token this turn"
        if cost is None:
            return f"{entity.sym} has no station tokens left"
        if cost > entity.cash:
            return f"{entity.sym} has {self.game.money(entity.cash)} and its next token costs {self.game.money(cost)}"
        return f"no city reachable by {entity.sym} has a free token circle"

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        return ["place_token", "pass"] if self.can_place_token(entity) else []

    def can_place_token(self, corp: Corporation) -> bool:
        cost = corp.next_token_cost
        return (
            not self.round.tokened
            and cost is not None
            and cost <= corp.cash
            and self.city_free_for(corp)
        )

    def city_free_for(self, corp: Corporation) -> bool:
        """Whether a city the company reaches has a free circle (asked last: the costly part)."""
        return self.game.can_place_token_somewhere(corp)

    def process_place_token(self, action: dict[str, Any], corp: Corporation) -> None:
        hex_id, city = self.game.token_fields(action)
        cost = corp.next_token_cost
        assert cost is not None
        if cost > corp.cash:
            raise IllegalAction(
                f"{corp.sym} has {self.game.money(corp.cash)} and its next token costs {self.game.money(cost)}"
            )
        self.game.place_token(
            corp, hex_id, city, action.get("slot"), cost=cost, need_connection=True
        )
        self.round.tokened = True
        self.pass_()


class Route(Step):
    round: OperatingRound

    description = "Run Routes"
    time_name = "route"

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        if not entity.trains or not self.game.can_run_route(entity):
            return []
        return ["run_routes"]

    def process_run_routes(self, action: dict[str, Any], corp: Corporation) -> None:
        routes = routes_field(action)
        self.round.revenue = self.game.check_routes(corp, routes)
        self.round.routes = routes
        self.pass_()


class Dividend(Step):
    round: OperatingRound

    description = "Pay or Withhold Dividends"
    time_name = "dividend"

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        return ["dividend"] if self.round.revenue > 0 else []

    def skip(self) -> None:
        self.pay(self.current_entity(), "withhold")

    def process_dividend(self, action: dict[str, Any], corp: Corporation) -> None:
        kind = action.get("kind")
        if kind not in ("payout", "withhold"):
            raise InvalidAction("dividend 'kind' must be payout or withhold")
        self.pay(corp, kind)

    def pay(self, corp: Corporation, kind: str) -> None:
        revenue = self.round.revenue
        corp.operating_history.append(
            (self.game.turn, self.round.round_num, revenue if kind == "payout" else 0, revenue)
        )
        corp.last_revenue = revenue
        corp.last_payout = kind
        for t in corp.trains:
            t.operated = True
        self.round.routes = []
        self.round.revenue = 0
        self.distribute(corp, kind, revenue)
        self.pass_()

    def distribute(self, corp: Corporation, kind: str, revenue: int) -> None:
        """The title's hook: where the run's money goes and how the share price moves."""
        game = self.game
        if kind == "withhold" or revenue == 0:
            spend(game.bank, corp, revenue)
            game.market.move_left(corp)
        else:
            per_share = revenue / 10
            for player in game.player_list:
                amount = int(-(-player.percent_of(corp) // 10 * per_share // 1))
                spend(game.bank, player, amount)
            pool_amount = int(game.pool.percent_of(corp) // 10 * per_share)
            spend(game.bank, corp, pool_amount)
            game.market.move_right(corp)


class DiscardTrain(Step):
    description = "Discard Trains"

    def active(self) -> bool:
        return bool(self.game.crowded_corps())

    def active_entities(self) -> list[Any]:
        return self.game.crowded_corps()[:1]

    def actions(self, entity: Any) -> list[str]:
        return ["discard_train"] if entity in self.game.crowded_corps() else []

    def process_discard_train(self, action: dict[str, Any], corp: Corporation) -> None:
        train = self.game.train(action.get("train"))
        if train.owner is not corp:
            raise IllegalAction(f"{corp.sym} does not own train {train.id}")
        self.game.depot.reclaim(train)


class BuyTrain(Step):
    round: OperatingRound

    description = "Buy Trains"
    time_name = "buy_train"

    def setup(self) -> None:
        self.last_share_sold_price: int | None = None

    def pass_(self) -> None:
        self.last_share_sold_price = None
        super().pass_()

    def actions(self, entity: Any) -> list[str]:
        current = self.current_entity()
        if isinstance(entity, Player) and current is not None and entity is current.owner:
            return ["sell_shares"]
        if entity is not current or not isinstance(entity, Corporation):
            return []
        if self.game.must_buy_train(entity):
            return ["sell_shares", "buy_train"]
        if self.can_buy_train(entity):
            return ["buy_train", "pass"]
        return []

    def explain(self, entity: Any, action_type: str) -> str | None:
        if (
            action_type == "pass"
            and isinstance(entity, Corporation)
            and self.game.must_buy_train(entity)
        ):
            return self.compulsory(entity)
        if action_type == "buy_train" and isinstance(entity, Corporation):
            if not self.room(entity):
                return f"{entity.sym} is at its train limit ({self.game.train_limit})"
            return f"{entity.sym} cannot afford any train (it has {self.game.money(entity.cash)})"
        return None

    def compulsory(self, corp: Corporation) -> str:
        """The rule that makes a company buy a train now, and how it pays for one."""
        cheapest = min(self.game.depot.available(self.game.phases), key=lambda t: t.price)
        text = (
            f"a train is compulsory: {corp.sym} owns no train and has a route, so it must "
            f"buy one before its turn ends (from the bank the cheapest is a {cheapest.name}-"
            f"train for {self.game.money(cheapest.price)})"
        )
        if corp.cash < cheapest.price:
            text += (
                f". {corp.sym} has {self.game.money(corp.cash)}: its president pays the other "
                f"{self.game.money(cheapest.price - corp.cash)}, and if short of that too, must first sell "
                "shares to raise it (emergency money raising)"
            )
        return text

    def explain_choice(self, entity: Any, action_type: str, words: set[str]) -> str | None:
        if action_type != "buy_train" or not isinstance(entity, Corporation):
            return None
        names = {t.name for t in self.game.depot.all_trains.values()}
        named = [n for n in names if n.casefold() in words or f"{n}-train".casefold() in words]
        if not named:
            return None
        name = named[0]
        available = self.game.depot.available(self.game.phases)
        if any(t.name == name for t in available):
            price = min(t.price for t in available if t.name == name)
            if not self.room(entity):
                return f"{entity.sym} is at its train limit ({self.game.train_limit})"
            return (
                f"a {name}-train costs {self.game.money(price)} and {entity.sym} has {self.game.money(entity.cash)}; only a "
                "company that must buy a train may have its president pay part"
            )
        upcoming = [t for t in self.game.depot.upcoming if t.name == name]
        if not upcoming:
            return f"the bank has no {name}-train left"
        first = self.game.depot.upcoming[0]
        left = sum(1 for t in self.game.depot.upcoming if t.name == first.name)
        return (
            f"no {name}-train is for sale yet: the bank sells its trains in order, and "
            f"{left} {first.name}-train{'s' if left > 1 else ''} must be bought first"
        )

    def room(self, corp: Corporation) -> bool:
        return len(corp.trains) < self.game.train_limit

    def can_buy_train(self, corp: Corporation) -> bool:
        """Room and money for some train, or money for a trade-in (which needs no room: as on
        18xx.games, a purchase may exceed the limit and the discard step then trims it)."""
        prices = [t.price for t in self.game.depot.available(self.game.phases)]
        prices += [1 for t in self.game.other_corp_trains(corp)]
        can_normal = self.room(corp) and bool(prices) and min(prices) <= corp.cash
        can_trade = any(p <= corp.cash for _, _, p in self.game.trade_ins(corp))
        return can_normal or can_trade

    def process_buy_train(self, action: dict[str, Any], corp: Corporation) -> None:
        game = self.game
        train = game.train(action.get("train"))
        price = int_field(action, "price")
        exchange = game.train(action["exchange"]) if action.get("exchange") else None
        depot_trains = game.depot.available(game.phases)
        from_depot = train in depot_trains
        if not from_depot and train not in game.other_corp_trains(corp):
            raise IllegalAction(f"train {train.id} is not for sale")
        if train.owner is corp:
            raise IllegalAction(f"{corp.sym} cannot buy a train from itself")
        if exchange is not None:
            if exchange.owner is not corp:
                raise IllegalAction(f"{corp.sym} does not own train {exchange.id}")
            if not from_depot or exchange.name not in train.discount:
                raise IllegalAction(f"a {exchange.name} cannot be traded in for a {train.name}")
        must_buy = game.must_buy_train(corp)
        if from_depot:
            face = train.price_with_trade_in(exchange)
            if price != face:
                raise IllegalAction(f"a {train.name} from the bank costs {self.game.money(face)}")
        else:
            lo, hi = self.spend_range(corp, train)
            if lo > hi:
                raise IllegalAction(
                    f"{corp.sym} cannot buy {train.owner.sym}'s {train.name}-train now: after "
                    f"the shares sold this turn it would have to pay at least {self.game.money(lo)}, "
                    f"more than the {self.game.money(hi)} it may pay for it"
                )
            if not lo <= price <= hi:
                raise IllegalAction(
                    f"{corp.sym} may only spend between {self.game.money(lo)} and {self.game.money(hi)} on "
                    f"{train.owner.sym}'s {train.name} train"
                )
        remaining = price - corp.cash
        if remaining > 0:
            if not must_buy:
                raise IllegalAction(
                    f"{corp.sym} has {self.game.money(corp.cash)} and cannot pay {self.game.money(price)}"
                )
            if exchange is not None:
                raise IllegalAction("the president cannot contribute when trading in a train")
            cheapest = min(depot_trains, key=lambda t: t.price)
            if from_depot and train.price > cheapest.price:
                raise IllegalAction(
                    f"{corp.sym} must buy the cheapest train from the bank (a "
                    f"{cheapest.name} for {self.game.money(cheapest.price)}) when its president pays part"
                )
            president = corp.owner
            assert president is not None
            if president.cash < remaining:
                raise IllegalAction(
                    f"{president.name} must raise {self.game.money(remaining - president.cash)} more "
                    f"(sell shares) before {corp.sym} can buy this train"
                )
            spend(president, corp, remaining)
        if exchange is not None:
            game.depot.reclaim(exchange)
        game.buy_train(corp, train, price)
        if not self.can_buy_train(corp):
            self.pass_()

    def spend_range(self, corp: Corporation, train: Any) -> tuple[int, int]:
        """What `corp` may pay for another company's train. Short of its price, the range counts
        the president's cash, and after a share sold this turn starts where that sale was still
        needed (as on 18xx.games, even once a train was bought and none is compulsory)."""
        if corp.cash < train.price and corp.owner is not None:
            max_possible = corp.cash + corp.owner.cash
            lo = max_possible - self.last_share_sold_price + 1 if self.last_share_sold_price else 1
            return lo, min(train.price, max_possible)
        return 1, corp.cash

    def process_sell_shares(self, action: dict[str, Any], player: Player) -> None:
        game = self.game
        corp_buying = self.current_entity()
        if player is not corp_buying.owner:
            raise IllegalAction(f"only {corp_buying.sym}'s president may sell shares now")
        shares, percent = game.sale_from_action(action, player)
        corp = shares[0].corp
        if not game.must_buy_train(corp_buying):
            raise IllegalAction(
                f"{corp_buying.sym} does not have to buy a train; shares are sold in stock rounds"
            )
        if not sh.fits_pool(game, corp, percent):
            raise IllegalAction(
                f"the market may hold at most {game.market_share_limit}% of {corp.sym}"
            )
        if not sh.can_dump(game, player, corp, shares, percent):
            raise IllegalAction(
                f"{player.name} cannot sell the {corp.sym} president's certificate: "
                f"it is sold only when another player holds "
                f"{game.presidents_percent}% to take the presidency"
            )
        if corp is corp_buying and corp.owner is player:
            others = max(
                (p.percent_of(corp) for p in game.player_list if p is not player), default=0
            )
            if player.percent_of(corp) - percent < others:
                raise IllegalAction(
                    f"{player.name} may not give up the presidency of {corp.sym} "
                    f"to raise money for its train"
                )
        needed = game.depot.min_price(game.phases) - (player.cash + corp_buying.cash)
        price = sh.bundle_price(shares, percent, corp)
        per_share = price * 10 // percent
        if price - per_share >= needed:
            raise IllegalAction(
                f"{player.name} may not sell more than needed: {self.game.money(needed)} is missing"
            )
        self.last_share_sold_price = per_share
        sh.sell(game, player, shares, percent)
        self.round.recalculate_order()


class OperatingRound(Round):
    name = "Operating Round"
    kind = "operating"

    def __init__(self, game: Any, steps: list[Any], round_num: int) -> None:
        self.num_laid_track = 0
        self.tokened = False
        self.routes: list[dict[str, Any]] = []
        self.revenue = 0
        self.teleported: Company | None = None
        self.pending_tokens: list[dict[str, Any]] = []
        self.current_operator: Corporation | None = None
        super().__init__(game, steps, round_num)

    def select_entities(self) -> list[Any]:
        return self.game.operating_order()

    def setup(self) -> None:
        self.game.payout_companies()
        for corp in self.entities:
            for t in corp.trains:
                t.operated = False
        if self.any_to_act():
            self.start_operating()

    def any_to_act(self) -> bool:
        return any(not c.closed for c in self.entities)

    def finished(self) -> bool:
        return self.active_step() is None or not self.any_to_act()

    def reset_turn(self) -> None:
        self.num_laid_track = 0
        self.tokened = False
        self.routes = []
        self.revenue = 0

    def after_process(self, action: dict[str, Any], entity: Any) -> None:
        if action["type"] == "message":
            return
        if self.active_step() is not None:
            return
        self.next_entity()

    def next_entity(self) -> None:
        if self.game.finished or self.entity_index == len(self.entities) - 1:
            return
        self.next_entity_index()
        if self.entities[self.entity_index].closed:
            self.next_entity()
            return
        for step in self.steps:
            step.unpass()
        for step in self.steps:
            step.setup()
        self.start_operating()

    def start_operating(self) -> None:
        corp = self.entities[self.entity_index]
        if corp.closed:
            self.next_entity()
            return
        self.current_operator = corp
        self.reset_turn()
        self.game.place_home_token(corp, self)
        self.skip_steps()
        if self.finished():
            self.next_entity()

    def recalculate_order(self) -> None:
        done = self.entities[: self.entity_index + 1]
        rest = self.entities[self.entity_index + 1 :]
        self.entities = done + [c for c in self.game.operating_order() if c in rest]

    def force_next_entity(self) -> None:
        for step in self.steps:
            step.pass_()
        self.next_entity()
