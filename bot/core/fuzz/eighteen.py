"""18xx bookkeeping invariants for the fuzzer: money is conserved (the bank included), each
company's shares add up to 100%, and each certificate, private and train has exactly one
holder that agrees it holds it. Applies to every title built on engine/eighteen."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.core.fuzz.invariants import register
from engine.eighteen.game import EighteenGame
from engine.game import Game


def _money(game: EighteenGame) -> int:
    return (
        game.bank.cash
        + sum(p.cash for p in game.player_list)
        + sum(c.cash for c in game.corporations)
    )


def _share_holders(game: EighteenGame) -> list[Any]:
    return [*game.player_list, *game.corporations, game.pool]


def problems(game: Game, money_at_start: Any) -> list[str]:
    assert isinstance(game, EighteenGame)
    out: list[str] = []
    money = _money(game)
    if money != money_at_start:
        out.append(
            f"money is not conserved: {money} in play (bank {game.bank.cash}), "
            f"{money_at_start} at the start"
        )
    for who in [*game.player_list, *game.corporations]:
        if who.cash < 0:
            out.append(f"{who.name} has negative cash {who.cash}")
    held: Counter[int] = Counter()
    counted: Counter[tuple[int, int]] = Counter()  # (holder, company): percent of its certificates
    holders = _share_holders(game)
    for holder in holders:
        for share in holder.shares:
            held[id(share)] += 1
            counted[id(holder), id(share.corp)] += share.percent
            if share.owner is not holder:
                out.append(
                    f"share {share.id} is in {holder.name}'s hands but names "
                    f"{share.owner.name} as its owner"
                )
    for corp in game.corporations:
        for share in corp.all_shares:
            if held[id(share)] != 1:
                out.append(f"share {share.id} has {held[id(share)]} holders")
        if corp.closed:
            continue
        total = sum(counted[id(h), id(corp)] for h in holders)
        if total != 100:
            out.append(f"{corp.sym}'s shares add up to {total}%")
        for h in holders:  # the holdings kept for speed agree with the certificates
            pct = counted[id(h), id(corp)]
            if h.percent_of(corp) != pct:
                out.append(
                    f"{h.name} is counted with {h.percent_of(corp)}% of {corp.sym} but holds {pct}%"
                )
        presidents = [s for s in corp.all_shares if s.president]
        if corp.owner is not None and (
            len(presidents) != 1 or presidents[0].owner is not corp.owner
        ):
            out.append(
                f"{corp.sym}'s president {corp.owner.name} does not hold its "
                "president's certificate"
            )
    out += _company_problems(game)
    out += _train_problems(game)
    return out


def _company_problems(game: EighteenGame) -> list[str]:
    out = []
    for company in game.companies:
        everyone: list[Any] = [*game.player_list, *game.corporations]
        holders = [h for h in everyone if company in h.companies]
        if company.closed:
            if holders:
                out.append(f"closed private {company.sym} is still held by {holders[0].name}")
            continue
        # unsold, or the bank's (1860: sold to it, or Fishbourne Ferry on offer): no holder's list
        if (
            len(holders) > 1
            or (holders and holders[0] is not company.owner)
            or (not holders and company.owner not in (None, game.bank))
        ):
            out.append(
                f"private {company.sym} is held by {[h.name for h in holders]} but "
                f"names {getattr(company.owner, 'name', None)} as its owner"
            )
    return out


def _train_problems(game: EighteenGame) -> list[str]:
    out = []
    places: Counter[int] = Counter()
    for corp in game.corporations:
        for t in corp.trains:
            places[id(t)] += 1
            if t.owner is not corp or t.rusted:
                out.append(
                    f"train {t.id} is in {corp.sym}'s hands but names "
                    f"{getattr(t.owner, 'name', t.owner)} (rusted: {t.rusted})"
                )
    for t in [*game.depot.upcoming, *game.depot.discarded]:
        places[id(t)] += 1
        if t.owner is not game.depot:
            out.append(f"train {t.id} is in the depot but names {t.owner} as its owner")
    for t in game.depot.all_trains.values():
        where = places[id(t)]
        if where > 1 or (where == 0 and not t.rusted):
            out.append(f"train {t.id} has {where} holders (rusted: {t.rusted})")
        if t.rusted and where:
            out.append(f"rusted train {t.id} is still held")
    return out


def _applies(game: Game) -> bool:
    return isinstance(game, EighteenGame)


register(_applies, lambda game: _money(game), problems)  # type: ignore[arg-type]
