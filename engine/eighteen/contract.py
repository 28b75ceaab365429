"""What an 18xx game answers the front ends (the Game contract): who may act, the legal moves
and why others are refused, words, pictures, charts and standing orders. Each answer comes
from the module that knows it; a mixin of `EighteenGame`."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from engine.eighteen import explain, history, orders, programs
from engine.eighteen import house_programs as house
from engine.eighteen.choices import legal_actions
from engine.eighteen.describe import describe_action, status
from engine.eighteen.entities import Corporation, Player
from engine.eighteen.operating import OperatingRound
from engine.eighteen.preview import LayOption, lay_options
from engine.eighteen.prompt import turn_info
from engine.eighteen.reference import TOPICS as REFERENCE_TOPICS
from engine.eighteen.reference import reference
from engine.eighteen.rounds import EighteenHost
from engine.eighteen.snapshot import snapshot
from engine.eighteen.submissions import ACTION_FIELDS, controller
from engine.errors import GameError
from engine.game import Action, Choice, PlayerId, Standing, TurnInfo
from engine.money import format_money
from engine.series import ChartSeries


class GameContract:
    @property
    def finished(self: EighteenHost) -> bool:
        return self.finished_flag

    def active_entities(self: EighteenHost) -> list[Any]:
        return self.round.active_entities()

    def active_players(self: EighteenHost) -> list[PlayerId]:
        out: list[PlayerId] = []
        if self.finished_flag:
            return out
        for e in self.active_entities():
            for p in self.actors(e):
                if p.id not in out:
                    out.append(p.id)
        return out

    def actors(self: EighteenHost, entity: Any) -> list[Player]:
        """Who may act for an entity now: its controller; for a company nobody presides (1860's
        receivership), every player, since its moves are the rules' and anyone may make them."""
        p = controller(entity)
        if p is not None:
            return [p]
        return (
            [q for q in self.player_list if not q.bankrupt]
            if isinstance(entity, Corporation)
            else []
        )

    def action_fields(self: EighteenHost) -> dict[str, frozenset[str]]:
        return ACTION_FIELDS

    def any_time(self: EighteenHost, action: Action) -> bool:
        # programs, and a private's power, which its owner may use in another player's turn
        kind = action.get("type")
        return (
            kind in self.PROGRAM_TYPES
            or kind in house.FIELDS
            or action.get("entity_type") == "company"
        )

    # -- standing orders (orders.py) -------------------------------------------------------------
    def order_choices(self: EighteenHost, player: PlayerId) -> list[Choice]:
        return orders.choices(self, player)

    def standing_orders(self: EighteenHost, player: PlayerId) -> list[Standing]:
        return orders.standing(self, player)

    def order_text(self: EighteenHost, action: Action) -> str | None:
        return orders.order_text(self, action)

    def cancels_order(self: EighteenHost, action: Action) -> bool:
        return action.get("type") in (programs.DISABLE, house.DISABLE)

    def orders_set(self: EighteenHost, player: PlayerId) -> int:
        return self.sets_this_round.get(player, 0)

    def order_news(self: EighteenHost) -> list[tuple[PlayerId, str]]:
        return list(self.news)

    def public_orders(self: EighteenHost) -> list[tuple[PlayerId, str]]:
        return orders.public(self)

    def file_actions(self: EighteenHost) -> list[Action]:
        return house.file_actions(self.actions)

    def acting_player(self: EighteenHost, action: Action) -> PlayerId | None:
        owner = controller(self.resolve_entity(action))
        return None if owner is None else owner.id

    def money(self: EighteenHost, amount: Any) -> str:
        """An amount in the game's currency ($ by default, £ in 1860), as players write it."""
        if not isinstance(amount, (int, float)):  # as a move typed it (shown, not computed)
            return f"{self.CURRENCY}{amount}"
        return format_money(self.CURRENCY, amount)

    def player_value(self: EighteenHost, p: Player) -> int:
        shares = sum(
            s.corp.share_price.price * s.percent // 10
            for s in p.shares
            if s.corp.ipoed and s.corp.share_price
        )
        return p.cash + shares + sum(c.value for c in p.companies)

    def result(self: EighteenHost) -> dict[PlayerId, int]:
        return {p.id: self.player_value(p) for p in self.player_list}

    def score_text(self: EighteenHost, score: int) -> str:
        return self.money(score)

    def views(self: EighteenHost) -> tuple[str, ...]:
        return ("map", "market", "sheet")

    def explain(self: EighteenHost, action_type: str) -> str | None:
        step = self.round.active_step()
        if step is None:
            return None
        for entity in self.active_entities():
            reason = step.explain(entity, action_type)
            if reason:
                return reason
        return explain.timing(self, step, action_type)

    def explain_choice(self: EighteenHost, action_type: str, text: str) -> str | None:
        return explain.explain_choice(self, action_type, text)

    def counterparty(self: EighteenHost, action: Action) -> PlayerId | None:
        """The other player whose property an action would take at a negotiated price (a private
        bought from them, their company's train), who must agree first; None when there is none."""
        try:
            entity = self.resolve_entity(action)
            actor = entity if isinstance(entity, Player) else getattr(entity, "owner", None)
            if action["type"] == "buy_company":
                seller = self.company(action.get("company")).owner
            elif action["type"] == "buy_train":
                train = self.train(action.get("train"))
                seller = train.owner.owner if isinstance(train.owner, Corporation) else None
            else:
                return None
        except GameError:
            return None
        if isinstance(seller, Player) and seller is not actor:
            return seller.id
        return None

    def legal_actions(
        self: EighteenHost, player: PlayerId, kinds: Collection[str] | None = None
    ) -> list[Choice]:
        return legal_actions(self, player, kinds)

    def best_routes(self: EighteenHost, corp: Corporation) -> tuple[int, list[dict[str, Any]]]:
        trains = {t.id: t.distance for t in corp.trains}
        return self.board.best_routes(
            corp.sym, trains, phase_color=self.phases.current.offboard_color
        )

    def snapshot(self: EighteenHost) -> dict[str, Any]:
        return snapshot(self)

    def describe(self: EighteenHost, action: Action) -> str:
        return describe_action(self, action)

    def status_text(self: EighteenHost) -> str:
        return status(self)

    def turn_info(self: EighteenHost) -> list[TurnInfo]:
        return turn_info(self)

    def reference_topics(self: EighteenHost) -> tuple[str, ...]:
        return REFERENCE_TOPICS

    def reference(self: EighteenHost, topic: str | None = None) -> str:
        return reference(self, topic)

    def round_name(self: EighteenHost) -> str:
        r = self.round
        return f"{r.name} {self.turn}" + (
            f".{r.round_num}" if isinstance(r, OperatingRound) else ""
        )

    def changed_places(self: EighteenHost) -> tuple[str, ...]:
        hex_id = (self.last_effect or {}).get("hex")
        return (hex_id,) if hex_id else ()

    def chart_names(self: EighteenHost) -> tuple[tuple[str, str], ...]:
        return tuple(history.CHARTS.items())

    def chart_series(self: EighteenHost) -> ChartSeries:
        samples = history.Samples(list(self.players))
        samples.end(self.replayed(samples.watch))
        return samples.series(
            self.title,
            [c.sym for c in self.corporations],
            self.CURRENCY,
            self.finished,
            self.ranking(),
        )

    def lay_options(
        self: EighteenHost, pid: Any, hex_id: str, tile: str | None = None
    ) -> list[LayOption]:
        """The legal lays on one hex, each with the position it leads to (lay by picture)."""
        return lay_options(self, pid, hex_id, tile)
