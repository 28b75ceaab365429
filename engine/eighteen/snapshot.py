"""A read-only, JSON-able picture of an 18xx position: everything the renderer draws."""

from __future__ import annotations

from typing import Any

from engine.eighteen.entities import Company, Corporation, owner_id
from engine.eighteen.rounds import EighteenHost


def snapshot(game: EighteenHost) -> dict[str, Any]:
    r = game.round
    first_player = game.player_list[0] if game.player_list else None
    priority = (
        r.entities[r.entity_index] if r.name != "Operating Round" and r.entities else first_player
    )
    corps: dict[str, Any] = {}
    operated = {
        c.sym
        for c in game.corporations
        if c.operating_history and c.operating_history[-1][:2] == (game.turn, r.round_num)
    }
    for c in game.corporations:
        sp = c.share_price
        corps[c.sym] = {
            "name": c.name,
            "cash": c.cash,
            "price": sp.price if sp else None,
            "par": c.par_price.price if c.par_price else None,
            "president": c.owner.id if c.owner else None,
            "floated": c.floated,
            "ipoed": c.ipoed,
            "closed": c.closed,
            "ipo_pct": c.percent_of(c),
            "pool_pct": game.pool.percent_of(c),
            "trains": [t.name for t in c.trains],
            "tokens_unused": c.tokens_unused,
            "token_count": len(c.token_costs),
            "companies": [co.sym for co in c.companies],
            "market": [sp.row, sp.col, game.market.stack(sp).index(c)] if sp else None,
            "operated": c.sym in operated,
            "last_revenue": c.last_revenue,
            "home": c.home,
        }
    companies = {
        co.sym: {
            "name": co.name,
            "value": co.value,
            "revenue": co.revenue,
            "owner": "closed" if co.closed else owner_id(co.owner),
        }
        for co in game.companies
    }
    tokens: dict[str, list[dict[str, Any]]] = {}
    for hex_id, entries in game.board.tokens().items():
        tokens[hex_id] = [
            {"city": city, "slot": slot, "corp": corp} for city, slot, corp in entries
        ]
    trains = []
    seen: set[str] = set()
    for spec in game.train_specs():
        name = spec["name"]
        if name in seen:
            continue
        seen.add(name)
        left = sum(1 for t in game.depot.upcoming if t.name == name)
        unlimited = not isinstance(spec["count"], int)
        trains.append(
            {
                "name": name,
                "distance": spec["distance"] if isinstance(spec["distance"], int) else None,
                "price": spec["price"],
                "left": None if unlimited else left,
                "rusts_on": spec.get("rusts_on_first"),
                "rusted": bool(spec.get("rusts_on_first"))
                and game.phases.reached(spec["rusts_on_first"]),
            }
        )
    bids: dict[str, list[dict[str, Any]]] = {}
    lot_bids: list[dict[str, Any]] = []
    for step in getattr(r, "steps", ()):
        for key, offers in (getattr(step, "bids", None) or {}).items():
            if isinstance(offers, list) and offers:  # per private (1830)
                bids[key.sym] = [
                    {"player": p.id, "price": price}
                    for p, price in sorted(offers, key=lambda e: -e[1])
                ]
            elif (
                isinstance(offers, int) and offers > 0
            ):  # per player, for the right to choose (1860)
                lot_bids.append({"player": key.id, "price": offers})
    lot_bids.sort(key=lambda b: -b["price"])
    return {
        "title": game.title,
        "round": r.name,
        "turn": game.turn,
        "round_num": r.round_num,
        "phase": game.phases.name,
        "active": [
            e.sym if isinstance(e, (Corporation, Company)) else e.id for e in game.active_entities()
        ],
        "bank": game.bank.cash,
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "cash": p.cash,
                "shares": {c.sym: p.percent_of(c) for c in game.corporations if p.percent_of(c)},
                "companies": [co.sym for co in p.companies],
                "priority": p is priority,
                "bankrupt": p.bankrupt,
                "value": game.player_value(p),
            }
            for p in game.player_list
        ],
        "corporations": corps,
        "companies": companies,
        "tiles": {
            h: {"tile": name, "rotation": rot} for h, (name, rot) in game.board.laid_tiles().items()
        },
        "tokens": tokens,
        "depot": [t.name for t in game.depot.upcoming],
        "discarded": [t.name for t in game.depot.discarded],
        "trains": trains,
        "offboard_color": game.phases.current.offboard_color,
        "last_action": game.last_effect,
        "bids": bids,
        "lot_bids": lot_bids,
        "finished": game.finished,
        "result": {str(k): v for k, v in game.result().items()} if game.finished else None,
    }
