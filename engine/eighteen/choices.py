"""Every complete legal action for whoever must act: the source of autocomplete and buttons.

Each choice is checked by processing it on a scratch copy of the game, so the list can never
offer what the rules refuse.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from typing import Any

from engine.eighteen import shares as sh
from engine.eighteen.auction import CompanyPendingPar, WaterfallAuction
from engine.eighteen.describe import a_or_an, exits_text
from engine.eighteen.entities import Company, Corporation, Player
from engine.eighteen.operating import BuyTrain, HomeToken, OperatingRound, Token
from engine.eighteen.private_steps import SpecialToken
from engine.eighteen.rounds import EighteenHost, Step
from engine.eighteen.stock import BuySellParShares
from engine.eighteen.submissions import controller
from engine.game import Choice

TRUSTED = "_checked_by_board"


def _base(entity: Any, type_: str) -> dict[str, Any]:
    if isinstance(entity, Player):
        return {"type": type_, "entity": entity.id, "entity_type": "player"}
    if isinstance(entity, Corporation):
        return {"type": type_, "entity": entity.sym, "entity_type": "corporation"}
    return {"type": type_, "entity": entity.sym, "entity_type": "company"}


def city_label(game: EighteenHost, ref: str) -> str:
    """'H10 (Pittsburgh)', or 'E11 (Dunkirk & Buffalo) city 1 [59-0-1]' where a hex has several."""
    hex_id, city = game.board.locate_city(ref)
    name = game.hex_names().get(hex_id)
    text = f"{hex_id} ({name})" if name else hex_id
    if len(game.board.tile_on(hex_id).cities) > 1:
        text += f" city {city} [{ref}]"
    return text


def controlled_entities(game: EighteenHost, pid: Any) -> list[Any]:
    """Entities the player may act for now: the active ones they control, plus their privates
    and (in an emergency train purchase) themselves."""
    out: list[Any] = []
    for e in game.active_entities():
        owner = controller(e)
        if any(p.id == pid for p in game.actors(e)):
            out.append(e)
            if (
                owner is not None
                and isinstance(e, Corporation)
                and isinstance(game.round.active_step(), BuyTrain)
            ):
                out.append(owner)
    for company in game.companies:
        owner = company.owner
        boss = owner.owner if isinstance(owner, Corporation) else owner
        if (
            not company.closed
            and isinstance(boss, Player)
            and boss.id == pid
            and company not in out
        ):
            if game.round.actions_for(company):
                out.append(company)
    return out


def candidates(
    game: EighteenHost, entity: Any, kinds: Collection[str] | None = None
) -> Iterator[tuple[str, dict[str, Any]]]:
    types = game.round.actions_for(entity)
    step = game.round.active_step()
    for t in types:
        if kinds is not None and t not in kinds:
            continue
        base = _base(entity, t)
        own = _title_choices(game, entity, t)
        if own is not None:
            for label, fields in own:
                yield label, {**base, **fields}
        elif t == "pass":
            yield f"Pass ({step.description if step else 'done'})", base
        elif t == "bid" and step is not None and isinstance(step, WaterfallAuction):
            for company in step.companies:
                price = step.min_bid(company)
                verb = "Buy" if step.may_purchase(company) else "Bid"
                yield (
                    f"{verb} {company.sym} ({company.name}) for {game.money(price)}",
                    {**base, "company": company.sym, "price": price},
                )
        elif t == "par":
            corps = (
                [game.company_president_corporation(step.round.companies_pending_par[0])]
                if isinstance(step, CompanyPendingPar)
                else [c for c in game.corporations if not c.ipoed]
            )
            for corp in corps:
                for cell in game.par_prices(corp):
                    yield (
                        f"Par {corp.sym} at {game.money(cell.price)}",
                        {**base, "corporation": corp.sym, "share_price": cell.id},
                    )
        elif t == "buy_shares":
            if isinstance(entity, Company):
                for share in game.exchange_targets(entity):
                    yield (
                        f"Exchange {entity.sym} for a {share.percent}% {share.corp.sym} share",
                        {**base, "shares": [share.id], "percent": share.percent},
                    )
                continue
            for corp in game.corporations:
                for source, where in ((corp, "IPO"), (game.pool, "market")):
                    if source is corp and not corp.ipoed:
                        continue
                    avail = [s for s in source.shares_of(corp) if not s.president]
                    if (
                        game.president_sales_to_market
                        and source is game.pool
                        and any(s.president for s in source.shares_of(corp))
                    ):
                        price = corp.share_price.price if corp.share_price else 0
                        yield (
                            f"Take the {corp.sym} director's certificate from the market for {game.money(price)} "
                            f"(one of your shares goes back)",
                            {**base, "shares": [corp.all_shares[0].id], "percent": 10},
                        )
                    if avail:
                        share = avail[0]
                        price = sh.bundle_price([share], share.percent, corp)
                        checked = _stock_step_checks(
                            step, "process_buy_shares", lambda s: s.buy_problem(entity, [share])
                        )
                        yield (
                            f"Buy {share.percent}% of {corp.sym} from the {where} for {game.money(price)}",
                            {**base, "shares": [share.id], "percent": share.percent, **checked},
                        )
        elif t == "sell_shares" and isinstance(entity, Player):
            for corp in game.corporations:
                for shares, percent in sh.sellable_bundles(game, entity, corp):
                    if corp.share_price is None:
                        continue
                    price = game.sale_price(shares, percent, corp)
                    checked = _stock_step_checks(
                        step, "process_sell_shares", lambda s: s.can_sell(entity, shares, percent)
                    )
                    yield (
                        f"Sell {percent}% of {corp.sym} for {game.money(price)}",
                        {**base, "shares": [s.id for s in shares], "percent": percent, **checked},
                    )
        elif t == "buy_company":
            comps = (
                step.purchasable_companies(entity)
                if isinstance(step, BuySellParShares)
                else game.purchasable_companies(entity)
            )
            for company in comps:
                if isinstance(entity, Corporation):
                    prices = sorted(
                        {
                            game.company_min_price(company),
                            company.value,
                            game.company_max_price(company),
                        }
                    )
                else:
                    prices = [company.value]
                seller = company.owner
                sold_by = (
                    f" from {seller.name}" if isinstance(seller, (Player, Corporation)) else ""
                )
                for price in prices:
                    yield (
                        f"Buy {company.sym}{sold_by} for {game.money(price)}",
                        {**base, "company": company.sym, "price": price},
                    )
        elif t == "lay_tile":
            corp = _corporation_of(entity)
            ability = (
                game.track_ability(entity, game.round) if isinstance(entity, Company) else None
            )
            lays = game.board.legal_lays(
                corp.sym,
                colors=set(game.phases.current.tiles),
                need_connection=ability is None,
                blocked_hexes=game.blocked_hexes(),
                hexes=ability.get("hexes") if ability else None,
            )
            for hex_id, tile_name, rotation in lays:
                if ability and tile_name not in ability.get("tiles", []):
                    continue
                if not getattr(step, "tile_allowed", lambda tile: True)(
                    game.board.tile_defs[tile_name]
                ):
                    continue
                ids = game.board.available_tile_ids(tile_name)
                if not ids:
                    continue
                cost = game.board.check_lay(
                    corp.sym,
                    hex_id,
                    ids[0],
                    rotation,
                    colors=set(game.phases.current.tiles),
                    need_connection=ability is None,
                    blocked_hexes=game.blocked_hexes(),
                )
                if game.tile_cost_problem(corp, cost, hex_id) is None:
                    extra = f"; {game.money(cost)} terrain" if cost else ""
                    track = exits_text(game, hex_id, tile_name, rotation, short=True)
                    lay_checked = getattr(step, "lay_fully_checked", lambda hex_id: True)(hex_id)
                    yield (
                        f"Lay tile {tile_name} on {hex_id}: track {track}{extra}",
                        {
                            **base,
                            "hex": hex_id,
                            "tile": ids[0],
                            "rotation": rotation,
                            **({TRUSTED: True} if lay_checked else {}),
                        },
                    )
        elif t == "place_token":
            corp = _corporation_of(entity)
            if isinstance(step, HomeToken):
                pending = step.round.pending_tokens[0]
                corp = pending["corp"]
                refs = [
                    game.board.city_ref(pending["hex"], i)
                    for i in range(len(game.board.tile_on(pending["hex"]).cities))
                ]
            elif isinstance(step, SpecialToken):
                ability = entity.ability("teleport")
                refs = [
                    game.board.city_ref(h, i)
                    for h in (ability.get("hexes") if ability else [])
                    for i in range(len(game.board.tile_on(h).cities))
                ]
            else:
                refs = game.token_cities(corp)
            trusted = {TRUSTED: True} if isinstance(step, Token) else {}
            for ref in refs:
                yield (
                    f"Place {a_or_an(corp.sym)} {corp.sym} token in {city_label(game, ref)}",
                    {**base, "city": ref, **trusted},
                )
        elif t == "run_routes":
            total, routes = game.best_routes(entity)
            yield f"Run best routes for {game.money(total)}", {**base, "routes": routes}
        elif t == "dividend":
            assert isinstance(game.round, OperatingRound)  # the only round with dividends
            rev = game.round.revenue
            yield (
                f"Pay out {game.money(rev)} ({game.money(rev // 10)} a share)",
                {**base, "kind": "payout"},
            )
            yield f"Withhold {game.money(rev)}", {**base, "kind": "withhold"}
        elif t == "buy_train":
            for train in game.depot.available(game.phases):
                yield (
                    f"Buy a {train.name}-train from the bank for {game.money(train.price)}",
                    {**base, "train": train.id, "price": train.price},
                )
            for old, new, price in game.trade_ins(entity):
                yield (
                    f"Trade in {old.name}-train for a {new.name} ({game.money(price)})",
                    {**base, "train": new.id, "price": price, "exchange": old.id},
                )
            for train in game.other_corp_trains(entity):
                # Between companies any price the buyer can pay is allowed: offer face value,
                # or all the buyer may spend when that is less (its president adds cash only
                # when a train is compulsory).
                lo, hi = (
                    step.spend_range(entity, train)
                    if isinstance(step, BuyTrain)
                    else (1, train.price)
                )
                payable = entity.cash + (
                    entity.owner.cash if entity.owner and game.must_buy_train(entity) else 0
                )
                price = min(train.price, hi, payable)
                if price < lo:
                    continue
                yield (
                    f"Buy {train.owner.sym}'s {train.name}-train for {game.money(price)}",
                    {**base, "train": train.id, "price": price},
                )
        elif t == "discard_train":
            for train in entity.trains:
                yield f"Discard a {train.name}-train", {**base, "train": train.id}
        elif t == "bankrupt":
            if game.bankruptcy_problem(entity) is None:  # saves trying it when it cannot be
                yield f"Declare {entity.sym}'s president bankrupt", base


def _stock_step_checks(
    step: Step | None, handler: str, problem: Callable[[BuySellParShares], str | None]
) -> dict[str, bool]:
    """Mark a stock-round purchase or sale as checked when the step processing it is the
    generic one, whose handler refuses exactly what `problem(step)` names (a title's own
    handler may check more: then the move is tried on the game like any other)."""
    if (
        isinstance(step, BuySellParShares)
        and getattr(type(step), handler) is getattr(BuySellParShares, handler)
        and problem(step) is None
    ):
        return {TRUSTED: True}
    return {}


def _corporation_of(entity: Any) -> Corporation:
    """The corporation a track or token move is for: a private's owner, or the mover itself."""
    corp = entity.owner if isinstance(entity, Company) else entity
    assert isinstance(corp, Corporation)
    return corp


def _title_choices(
    game: EighteenHost, entity: Any, action_type: str
) -> list[tuple[str, dict[str, Any]]] | None:
    """Choices a title's own step lists for this action type (None: the generic ones apply)."""
    for step in game.round.steps:
        if step.active() and action_type in step.actions(entity):
            lister = getattr(step, "choices", None)
            return lister(entity, action_type) if lister else None
    return None


def legal_actions(
    game: EighteenHost, pid: Any, kinds: Collection[str] | None = None
) -> list[Choice]:
    out: list[Choice] = []
    if game.finished:
        return out
    probe = game.legality_probe()
    for entity in controlled_entities(game, pid):
        for label, action in candidates(game, entity, kinds):
            # The board already applied every rule to lays and ordinary tokens (and their cost was
            # checked above); anything else is tried on the game and undone.
            if action.pop(TRUSTED, False) or probe(action):
                out.append(Choice(label, action))
    return out
