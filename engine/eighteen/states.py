"""The public state line of ../shared/fixtures/STATES.md, for diffing against 18xx.games."""

from __future__ import annotations

from typing import Any

from engine.eighteen.entities import Company, Corporation, owner_id
from engine.eighteen.game import EighteenGame


def public_state(game: EighteenGame) -> dict[str, Any]:
    r = game.round
    step = r.active_step()
    state: dict[str, Any] = {
        "round": r.name,
        "turn": game.turn,
        "round_num": r.round_num,
        "step": type(step).__name__ if step else None,
        "active": [
            owner_id(e) if not isinstance(e, (Corporation, Company)) else e.sym
            for e in game.active_entities()
        ],
        "phase": game.phases.name,
        "bank": game.bank.cash,
        "players": [
            {
                "id": p.id,
                "cash": p.cash,
                "shares": {
                    c.sym: p.percent_of(c) for c in game.corporations if p.percent_of(c) > 0
                },
                "companies": [c.sym for c in p.companies],
                "bankrupt": p.bankrupt,
            }
            for p in game.player_list
        ],
        "corporations": {
            c.sym: {
                "cash": c.cash,
                "price": c.share_price.price if c.share_price else None,
                "par": c.par_price.price if c.par_price else None,
                "president": c.owner.id if c.owner else None,
                "floated": c.floated,
                "ipoed": c.ipoed,
                "closed": c.closed,
                "ipo_pct": c.percent_of(c),
                "pool_pct": game.pool.percent_of(c),
                "trains": [t.name for t in c.trains],
                "tokens": list(c.placed_tokens),
                "tokens_unused": c.tokens_unused,
                "companies": [co.sym for co in c.companies],
            }
            for c in game.corporations
        },
        "companies": {c.sym: ("closed" if c.closed else owner_id(c.owner)) for c in game.companies},
        "tiles": {h: [name, rot] for h, (name, rot) in sorted(game.board.laid_tiles().items())},
        "depot": [t.name for t in game.depot.upcoming],
        "discarded": [t.name for t in game.depot.discarded],
        "finished": game.finished,
    }
    if game.finished:
        state["game_end_reason"] = game.game_end_reason
        state["result"] = {str(k): v for k, v in game.result().items()}
    return state
