"""What a turn prompt tells the player who must act: for whom, in which step, with what cash and
trains, and what the rules make compulsory now."""

from __future__ import annotations

from typing import Any

from engine.eighteen.entities import Company, Corporation, Player
from engine.eighteen.rounds import EighteenHost
from engine.game import TurnInfo


def _player_of(entity: Any) -> Player | None:
    if isinstance(entity, Player):
        return entity
    owner = getattr(entity, "owner", None)
    if isinstance(owner, Corporation):
        owner = owner.owner
    return owner if isinstance(owner, Player) else None


def turn_info(game: EighteenHost) -> list[TurnInfo]:
    if game.finished:
        return []
    step = game.round.active_step()
    description = step.description if step else ""
    out = []
    for entity in game.active_entities():
        player = _player_of(entity)
        if isinstance(entity, Corporation):
            out.append(
                TurnInfo(
                    player.id if player else None,
                    entity.sym,
                    description,
                    _corporation_facts(game, entity, player),
                    _corporation_duty(game, entity, step),
                )
            )
        elif isinstance(entity, Company):
            out.append(
                TurnInfo(
                    player.id if player else None,
                    entity.sym,
                    description,
                    (f"{entity.name}",),
                    None,
                )
            )
        elif isinstance(entity, Player):
            out.append(
                TurnInfo(
                    entity.id,
                    None,
                    description,
                    _player_facts(game, entity),
                    _player_duty(game, entity, step),
                )
            )
    return out


def _corporation_facts(
    game: EighteenHost, corp: Corporation, president: Player | None
) -> tuple[str, ...]:
    trains = ", ".join(t.name for t in corp.trains) or "none"
    facts = [f"treasury {game.money(corp.cash)}", f"trains {trains} (limit {game.train_limit})"]
    if corp.next_token_cost is not None:
        facts.append(f"next token {game.money(corp.next_token_cost)} ({corp.tokens_unused} left)")
    if president is not None:
        facts.append(f"{president.name} has {game.money(president.cash)}")
    return tuple(facts)


def _corporation_duty(game: EighteenHost, corp: Corporation, step: Any) -> str | None:
    if step is None:
        return None
    if step.description == "Buy Trains" and game.must_buy_train(corp):
        available = game.depot.available(game.phases)
        cheapest = min((t.price for t in available), default=None)
        if cheapest is None:
            return f"{corp.sym} must buy a train"
        short = cheapest - corp.cash
        help_ = f"; its president pays the {game.money(short)} it lacks" if short > 0 else ""
        return f"{corp.sym} must buy a train (it has none; the cheapest costs {game.money(cheapest)}{help_})"
    if step.description == "Discard Trains":
        return f"{corp.sym} must discard down to {game.train_limit} trains"
    if step.description == "Pay or Withhold Dividends":
        return f"{corp.sym} must pay out or withhold its run"
    if step.description == "Run Routes":
        return f"{corp.sym} must run its trains"
    return None


def _player_facts(game: EighteenHost, player: Player) -> tuple[str, ...]:
    return (
        f"cash {game.money(player.cash)}",
        f"certificates {game.num_certs(player)}/{game.cert_limit}",
    )


def _player_duty(game: EighteenHost, player: Player, step: Any) -> str | None:
    must_sell = getattr(step, "must_sell", None)
    if callable(must_sell) and must_sell(player):
        return f"{player.name} must sell: over the certificate limit or a holding limit"
    auction = getattr(step, "active_auction", None)
    if callable(auction) and auction():
        company, bids = auction()
        top = max(price for _, price in bids)
        return f"{player.name} must outbid {game.money(top)} for {company.sym} or pass"
    title_duty = getattr(step, "player_duty", None)
    return title_duty(player) if callable(title_duty) else None
