"""What a player may type as an 18xx move, and who may make it.

The fields of each kind of move follow 18xx.games' action files (besides type, entity and
entity_type); `entities.controller` names the player behind a corporation or a private.
"""

from __future__ import annotations

from typing import Any

from engine.eighteen import programs
from engine.eighteen.entities import Company, Corporation, Player

ACTION_FIELDS: dict[str, frozenset[str]] = {
    kind: frozenset(fields)
    for kind, fields in {
        "pass": (),
        "bid": ("company", "price"),
        "par": ("corporation", "share_price"),
        "buy_shares": ("shares", "percent", "share_price"),
        "sell_shares": ("shares", "percent", "share_price"),
        "lay_tile": ("hex", "tile", "rotation"),
        "place_token": ("city", "slot", "tokener"),
        "run_routes": ("routes", "extra_revenue", "subsidy"),
        "dividend": ("kind",),
        "buy_train": ("train", "price", "variant", "exchange"),
        "discard_train": ("train",),
        "buy_company": ("company", "price"),
        "bankrupt": (),
        **programs.FIELDS,  # standing orders, set at any time
    }.items()
}


def controller(entity: Any) -> Any:
    """The player who acts for an entity: a player themself, a corporation's president, a
    private's owner (or, for a private a corporation owns, that corporation's president);
    None when nobody does."""
    if isinstance(entity, Company) and isinstance(entity.owner, Corporation):
        entity = entity.owner
    owner = entity if isinstance(entity, Player) else entity.owner
    return owner if isinstance(owner, Player) else None
