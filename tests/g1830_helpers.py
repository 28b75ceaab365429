"""Small drivers for hand-built 1830 positions in rule tests."""

from __future__ import annotations

from typing import Any

from engine import PlayerInfo, create_game
from engine.eighteen.entities import spend
from engine.eighteen.game import EighteenGame

NAMES = ["Gerald", "Dave", "Bruce", "Alex", "Pete", "Ron"]


def new_game(n: int = 4, **options: Any) -> EighteenGame:
    game = create_game("1830", [PlayerInfo(i + 1, NAMES[i]) for i in range(n)], options)
    assert isinstance(game, EighteenGame)
    return game


def act(game: EighteenGame, entity: Any, type_: str, **fields: Any) -> dict[str, Any]:
    etype = (
        "player"
        if isinstance(entity, int)
        else ("company" if entity in {c.sym for c in game.companies} else "corporation")
    )
    return game.process({"type": type_, "entity": entity, "entity_type": etype, **fields})


def cash(game: EighteenGame, pid: int) -> int:
    return game.player(pid).cash


def finish_auction_simply(game: EighteenGame, bo_par: str = "100,0,6") -> None:
    """Players buy the privates in turn at face value (player 1 the cheapest, and so on)."""
    order = ["SV", "CS", "DH", "MH", "CA", "BO"]
    for i, sym in enumerate(order):
        pid = game.round.active_entities()[0].id
        act(game, pid, "bid", company=sym, price=game.company(sym).value)
        if sym == "BO":
            act(game, pid, "par", corporation="B&O", share_price=bo_par)
    assert game.round.name == "Stock Round"


def give_cash(game: EighteenGame, holder: Any, amount: int) -> None:
    spend(game.bank, holder, amount)
