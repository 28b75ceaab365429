"""1860's operating round: two yellow lays or one city or one upgrade; no tokens or track for
receiverships, insolvent companies (bases) or after the Southern Railway; routes with halts and
leased trains; dividends paid to players only; train purchases with the last-train rule;
insolvency decided at the end of each company's turn."""

from __future__ import annotations

from typing import Any

from engine.eighteen.board.graph import Goal
from engine.eighteen.entities import Corporation, spend
from engine.eighteen.operating import (
    BuyTrain,
    DiscardTrain,
    Dividend,
    OperatingRound,
    Route,
    Token,
    Track,
    routes_field,
)
from engine.errors import IllegalAction, InvalidAction
from engine.g1860 import upgrades
from engine.g1860.host import Game1860Host

TRAIN_PRICE_MIN = 10
TRAIN_PRICE_MULTIPLE = 10


class Discard1860(DiscardTrain):
    """Excess trains after a phase change go at the start of the company's next turn."""

    round: Operating1860

    def active(self) -> bool:
        return bool(self.round.crowded)

    def active_entities(self) -> list[Any]:
        return self.round.crowded[:1]

    def actions(self, entity: Any) -> list[str]:
        return ["discard_train"] if entity in self.round.crowded else []

    def process_discard_train(self, action: dict[str, Any], corp: Corporation) -> None:
        super().process_discard_train(action, corp)
        self.round.update_crowded(corp)


class Track1860(Track):
    game: Game1860Host
    round: Operating1860

    def allowance(self) -> tuple[bool, bool]:
        """(may lay yellow, may upgrade) for the next lay this turn."""
        r = self.round
        if r.num_laid_track == 0:
            return True, True
        if r.num_laid_track == 1:
            return not r.upgraded_track and not r.laid_city, False
        return False, False

    def lay_fully_checked(self, hex_id: str) -> bool:
        """A lay on an empty hex needs only the board's checks; an upgrade has 1860's own (train
        reach, new track or value), which the move itself applies."""
        return self.game.board.tile_def_on(hex_id)[0].color == "white"

    def tile_allowed(self, tile: Any) -> bool:
        """May this tile be the next lay of the turn (the allowance, and cities only first)?"""
        may_lay, may_upgrade = self.allowance()
        if tile.cities and self.round.num_laid_track > 0:
            return False
        return may_lay if tile.color == "yellow" else may_upgrade

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        if self.game.receivership(entity) or self.game.sr_after_southern:
            return []
        return ["lay_tile", "pass"] if any(self.allowance()) else []

    def explain(self, entity: Any, action_type: str) -> str | None:
        if action_type == "lay_tile" and isinstance(entity, Corporation):
            if self.game.sr_after_southern:
                return "no track is laid after the Southern Railway has formed"
            if self.game.receivership(entity):
                return f"{entity.sym} has no director and lays no track"
            return f"{entity.sym} has used its track allowance this turn"
        return None

    def process_lay_tile(self, action: dict[str, Any], corp: Corporation) -> None:
        game = self.game
        hex_id, tile_id, rotation = game.lay_fields(action)
        tile = game.board.tile_defs[tile_id.split("-")[0]]
        if not self.tile_allowed(tile):
            if tile.cities and self.round.num_laid_track > 0:
                raise IllegalAction("a city tile may only be the first lay of a turn")
            if tile.color != "yellow":
                raise IllegalAction(
                    f"{corp.sym} may not upgrade now: one upgrade replaces all lays of a turn"
                )
            raise IllegalAction(f"{corp.sym} may not lay more yellow track this turn")
        old, old_rotation = game.board.tile_def_on(hex_id)
        upgrade = old.color != "white"
        train = upgrades.biggest_train(game, corp) if upgrade else upgrades.NO_TRAIN
        before = game.board.network()  # a snapshot: the lay makes another
        game.lay_tile(corp, hex_id, tile_id, rotation, need_connection=True)
        if upgrade:
            problem = upgrades.upgrade_problem(
                game.board.network(),
                corp.sym,
                hex_id,
                train,
                lambda: upgrades.stop_values(before, corp.sym, hex_id, train),
                old,
                old_rotation,
                lambda path: game.board.reaches(corp.sym, Goal(paths=frozenset({path}))),
            )
            if problem:
                raise IllegalAction(f"{corp.sym} cannot upgrade {hex_id}: {problem}")
        if tile.color != "yellow":
            self.round.upgraded_track = True
        if tile.cities:
            self.round.laid_city = True
        self.round.num_laid_track += 1
        if not any(self.allowance()):
            self.pass_()


class Token1860(Token):
    game: Game1860Host

    def actions(self, entity: Any) -> list[str]:
        if isinstance(entity, Corporation) and (
            self.game.receivership(entity)
            or self.game.insolvent(entity)
            or self.game.sr_after_southern
        ):
            return []
        return super().actions(entity)

    def city_free_for(self, corp: Corporation) -> bool:
        return self.game.can_token_kept(corp)  # as 18xx.games keeps the answer


class Route1860(Route):
    game: Game1860Host
    round: Operating1860

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        self.game.check_insolvency_at_route(entity)
        if not entity.trains and not self.game.insolvent(entity):
            return []
        if not self.game.can_run_route(entity):
            return []
        return ["run_routes"]

    def process_run_routes(self, action: dict[str, Any], corp: Corporation) -> None:
        routes = routes_field(action)
        # Track may reach two stops that no legal route joins (only by re-entering a hex): the
        # company then runs nothing, where 18xx.games asks for a route it refuses and is stuck.
        if (
            not routes
            and self.game.can_run_route(corp)
            and (corp.trains or self.game.insolvent(corp))
            and not (self.game.receivership(corp) and self.game.nationalization)
            and self.game.best_routes(corp)[1]
        ):
            raise IllegalAction(f"{corp.sym} must run a route")
        revenue, subsidy = self.game.check_1860_routes(corp, routes)
        self.round.revenue = revenue
        self.round.subsidy = subsidy
        self.round.routes = routes
        self.pass_()


class Dividend1860(Dividend):
    game: Game1860Host
    round: Operating1860

    def pay(self, corp: Corporation, kind: str) -> None:
        super().pay(corp, kind)
        self.game.check_bankruptcy(corp)  # may end the company's turn: after this step is done

    def distribute(self, corp: Corporation, kind: str, revenue: int) -> None:
        """§9.4–9.5: the subsidy always goes to the company; a payout is rounded up per holder and
        the price moves by the bands of what was paid."""
        game = self.game
        subsidy, self.round.subsidy = self.round.subsidy, 0
        if kind == "withhold":
            spend(game.bank, corp, revenue + subsidy)
        else:
            spend(game.bank, corp, subsidy)
            for player in game.player_list:
                amount = -(-player.percent_of(corp) * revenue // 100)
                spend(game.bank, player, amount)
        game.move_price_on_dividend(corp, revenue if kind == "payout" else 0)
        game.check_bank_broken()


class BuyTrain1860(BuyTrain):
    game: Game1860Host

    def actions(self, entity: Any) -> list[str]:
        game = self.game
        if entity is not self.current_entity() or not isinstance(entity, Corporation):
            return []
        if game.receivership(entity) and entity.trains:
            return []
        if not self.buyable_trains(entity) or entity in game.bankrupt_corps:
            return []
        if game.must_buy_train(entity):
            return ["buy_train"]
        return ["buy_train", "pass"] if self.room(entity) else []

    def compulsory(self, corp: Corporation) -> str:
        """1860: a company without a train that can pay for one must buy it (its president
        never pays a part; a company that cannot pay becomes insolvent instead)."""
        price = self.game.depot.min_price(self.game.phases)
        return (
            f"a train is compulsory: {corp.sym} owns no train and has the {self.game.money(corp.cash)} to "
            f"buy one (the cheapest from the bank costs {self.game.money(price)}), so it must buy one before "
            "its turn ends"
        )

    def buyable_trains(self, corp: Corporation) -> list[Any]:
        game = self.game
        depot = game.depot.available(game.phases)
        if corp.cash < game.depot.min_price(game.phases):
            depot = []
        others = (
            []
            if corp.cash < TRAIN_PRICE_MIN or game.nationalization
            else [t for t in game.other_corp_trains(corp) if not self.illegal_from(corp, t.owner)]
        )
        return depot + others

    def illegal_from(self, corp: Corporation, seller: Corporation) -> bool:
        game = self.game
        return (
            seller in game.bankrupt_corps
            or game.receivership(corp)
            or game.receivership(seller)
            or (bool(corp.trains) and len(seller.trains) < 2)
        )

    def can_buy_train(self, corp: Corporation) -> bool:
        return self.room(corp) and bool(self.buyable_trains(corp))

    def process_buy_train(self, action: dict[str, Any], corp: Corporation) -> None:
        game = self.game
        train = game.train(action.get("train"))
        price = action.get("price")
        if not isinstance(price, int) or isinstance(price, bool):
            raise InvalidAction("buy_train needs a whole number 'price'")
        if train not in self.buyable_trains(corp):
            raise IllegalAction(f"{corp.sym} cannot buy train {train.id} now")
        if not self.room(corp):
            raise IllegalAction(f"{corp.sym} is at its train limit ({game.train_limit})")
        if isinstance(train.owner, Corporation):
            if not TRAIN_PRICE_MIN <= price <= corp.cash:
                raise IllegalAction(
                    f"{corp.sym} may spend between {TRAIN_PRICE_MIN} and {corp.cash} credits "
                    f"on {train.owner.sym}'s {train.name}"
                )
            if price % TRAIN_PRICE_MULTIPLE:
                raise IllegalAction(
                    f"a price between companies must be a multiple of {TRAIN_PRICE_MULTIPLE}"
                )
        elif price != train.price:
            raise IllegalAction(f"a {train.name} from the bank costs {train.price} credits")
        if price > corp.cash:
            raise IllegalAction(f"{corp.sym} has {corp.cash} credits and cannot pay {price}")
        game.buy_train(corp, train, price)
        game.clear_insolvent(corp)
        if not self.can_buy_train(corp):
            self.pass_()


class Operating1860(OperatingRound):
    game: Game1860Host

    def __init__(self, game: Any, steps: list[Any], round_num: int) -> None:
        self.upgraded_track = False
        self.laid_city = False
        self.subsidy = 0
        self.crowded: list[Corporation] = []
        super().__init__(game, steps, round_num)

    def reset_turn(self) -> None:
        super().reset_turn()
        self.upgraded_track = False
        self.laid_city = False
        self.subsidy = 0

    def update_crowded(self, corp: Corporation) -> None:
        self.crowded = [corp] if len(corp.trains) > self.game.train_limit else []

    def start_operating(self) -> None:
        corp = self.entities[self.entity_index]
        if not corp.closed:
            self.update_crowded(corp)
        super().start_operating()

    def after_process(self, action: dict[str, Any], entity: Any) -> None:
        corp = self.entities[self.entity_index] if self.entities else None
        if action["type"] == "run_routes" and isinstance(corp, Corporation):
            game = self.game
            dividend = next(s for s in self.steps if isinstance(s, Dividend1860))
            if dividend.passed:
                pass
            elif game.receivership(corp) or game.insolvent(corp):
                if action.get("routes"):
                    dividend.pay(corp, "withhold")
                    self.skip_steps()
            elif game.nationalization:
                dividend.pay(corp, "payout")
                self.skip_steps()
        super().after_process(action, entity)

    def next_entity(self) -> None:
        if self.entities and not self.game.finished:
            self.game.after_operating(self.entities[self.entity_index])
        super().next_entity()
