"""Plain-English sentences about 18xx actions and positions, for the game thread."""
from __future__ import annotations

from typing import Any

from engine.eighteen.entities import Company, Corporation, Player


def _name(game: Any, entity: Any) -> str:
    if isinstance(entity, Player):
        return entity.name
    if isinstance(entity, (Corporation, Company)):
        return entity.sym
    return str(entity)


def _place(game: Any, hex_id: Any) -> str:
    name = game.hex_names().get(hex_id)
    return f"{hex_id} ({name})" if name else str(hex_id)


def _city_place(game: Any, ref: Any) -> str:
    try:
        hex_id, city = game.token_fields({"type": "place_token", "city": ref})
    except Exception:  # the sentence still names what the player typed
        return str(ref)
    several = len(game.board.tile_on(hex_id).cities) > 1
    return _place(game, hex_id) + (f", city {city}" if several else "")


def _kind(copy_id: Any) -> str:
    """The tile or train name of a copy id: '57-3' -> '57', 'D-0' -> 'D'."""
    return str(copy_id or "").split("-")[0]


def _shares_text(action: dict[str, Any]) -> str:
    shares = action.get("shares") or []
    corp = shares[0].rpartition("_")[0] if shares else "?"
    return f"{action.get('percent') or 10 * len(shares)}% of {corp}"


def describe_action(game: Any, action: dict[str, Any]) -> str:
    """The action's sentence followed by what it set off (purchases, floats, phases, rusting...)."""
    main = _main_sentence(game, action)
    extra = [e for e in getattr(game, "events", []) if e != main]
    return " ".join([main, *extra])


def _main_sentence(game: Any, action: dict[str, Any]) -> str:
    t = action["type"]
    try:
        who = _name(game, game.resolve_entity(action))
    except Exception:  # a message from someone no longer in the game still gets a sentence
        who = str(action.get("entity"))
    if t == "bid":
        company = next((c for c in game.companies if c.sym == action.get("company")), None)
        if company is not None and company.owner is not None and _name(game, company.owner) == who \
                and f"{who} buys {company.sym} for ${action.get('price')}." in game.events:
            return f"{who} buys {company.sym} for ${action.get('price')}."
        if action.get("company") is None:      # 1860: a bid for the right to take the next item
            return f"{who} bids ${action.get('price')} for the pick."
        return f"{who} bids ${action.get('price')} on {action.get('company')}."
    if t == "pass":
        step = getattr(game, "last_step_description", None)
        return f"{who} passes ({step})." if step else f"{who} passes."
    if t == "par":
        price = str(action.get("share_price", "")).split(",")[0]
        return f"{who} pars {action.get('corporation')} at ${price}."
    if t == "buy_shares":
        return f"{who} buys {_shares_text(action)}."
    if t == "sell_shares":
        return f"{who} sells {_shares_text(action)}."
    if t == "buy_company":
        return f"{who} buys {action.get('company')} for ${action.get('price')}."
    if t == "lay_tile":
        tile = _kind(action.get("tile"))
        return f"{who} lays tile {tile} on {_place(game, action.get('hex'))} (rotation {action.get('rotation')})."
    if t == "place_token":
        return f"{who} places a station token in {_city_place(game, action.get('city'))}."
    if t == "run_routes":
        routes = action.get("routes") or []
        revenues = game.last_route_revenues
        parts = ", ".join(f"{_kind(r.get('train', '?'))}-train ${rev}"
                          for r, rev in zip(routes, revenues))
        return f"{who} runs for ${sum(revenues)}" + (f" ({parts})." if parts else ".")
    if t == "dividend":
        corp = game.corporation(action.get("entity"))
        revenue = corp.last_revenue or 0
        price = f"; share price now ${corp.share_price.price}" if corp.share_price else ""
        if action.get("kind") == "payout":
            return f"{who} pays out ${revenue} (${revenue / 10:g} a share){price}."
        return f"{who} withholds ${revenue}{price}."
    if t == "buy_train":
        train = _kind(action.get("train"))
        swap = f", trading in a {_kind(action['exchange'])}" if action.get("exchange") else ""
        source = getattr(game, "last_train_source", None)
        whose = f"{source}'s {train}-train" if source else f"a {train}-train"
        return f"{who} buys {whose} for ${action.get('price')}{swap}."
    if t == "discard_train":
        return f"{who} discards a {_kind(action.get('train'))}-train."
    if t == "bankrupt":
        return f"{who} declares bankruptcy."
    if t == "message":
        return f"{who}: {action.get('message', '')}"
    return f"{who}: {t.replace('_', ' ')}."


def status(game: Any) -> str:
    r = game.round
    head = f"{game.full_name} — {r.name} {game.turn}" + (f".{r.round_num}" if r.name == "Operating Round" else "")
    head += f", phase {game.phases.name}, bank ${game.bank.cash}"
    if game.finished:
        scores = ", ".join(f"{game.player(pid).name} ${v}" for pid, v in
                           sorted(game.result().items(), key=lambda kv: -kv[1]))
        return f"{head}\nGame over ({game.game_end_reason}): {scores}"
    step = r.active_step()
    acting = ", ".join(_name(game, e) for e in game.active_entities())
    lines = [head, f"To act: {acting} — {step.description if step else ''}"]
    lines.append("Players: " + "; ".join(f"{p.name} ${p.cash}" for p in game.player_list))
    floated = [c for c in game.operating_order()]
    if floated:
        lines.append("Companies: " + "; ".join(
            f"{c.sym} ${c.share_price.price} (cash ${c.cash}, trains {','.join(t.name for t in c.trains) or '-'})"
            for c in floated))
    return "\n".join(lines)
