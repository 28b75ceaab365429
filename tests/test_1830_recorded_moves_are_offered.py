"""At every position of the recorded 1830 games, the move the player made next is among the
engine's legal actions for that player: autocomplete and buttons never hide a legal move.

Choices name a move by what a player picks (which share, tile, city, train, price...); a
recorded move is matched by the same picks. Where a player chooses a price inside a range
(bids, privates, trains between companies) or routes, the choice stands for the range: the
engine itself accepting the recorded move (the replay) checks the exact number.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.eighteen import io
from engine.eighteen.entities import Corporation, Player
from engine.eighteen.game import EighteenGame
from tests.reference_games import game_files

SETS = ("1830", "random/1830", "generated/1830")
GAMES = [p for s in SETS for p in game_files(s)]


def acting_player(game: EighteenGame, action: dict[str, Any]) -> Any:
    entity = game.resolve_entity(action)
    while not isinstance(entity, Player):
        entity = entity.owner
    return entity.id


def pick(game: EighteenGame, action: dict[str, Any]) -> tuple:
    """What the player chose, in terms that do not depend on how the move was spelled."""
    t = action["type"]
    key: tuple = (t, str(action["entity"]))
    if t == "bid" or t == "buy_company":
        return key + (action["company"],)
    if t == "par":
        return key + (action["corporation"], game.market.find_par(action["share_price"]).id)
    if t == "buy_shares":
        share = game.shares_from_action(action)[0]
        return key + (share.corp.sym, id(share.owner))
    if t == "sell_shares":
        shares = game.shares_from_action(action)
        return key + (shares[0].corp.sym, action.get("percent") or sum(s.percent for s in shares))
    if t == "lay_tile":
        return key + (action["hex"], action["tile"].split("-")[0], action["rotation"])
    if t == "place_token":
        return key + tuple(game.token_fields(action))
    if t == "dividend":
        return key + (action["kind"],)
    if t == "buy_train":
        train = game.train(action["train"])
        seller = train.owner.sym if isinstance(train.owner, Corporation) else "bank"
        exchange = game.train(action["exchange"]).name if action.get("exchange") else None
        return key + (train.name, seller, exchange)
    if t == "discard_train":
        return key + (game.train(action["train"]).name,)
    return key


@pytest.mark.parametrize("path", GAMES, ids=[f"{p.parent.name}/{p.stem}" for p in GAMES])
def test_every_recorded_move_is_among_the_legal_actions(path) -> None:
    data = json.loads(path.read_text())
    game = io.new_game(data)
    checked = 0
    for _, action in io.effective_actions(data["actions"]):
        if (
            action["type"] not in ("message",)
            and action["type"] not in game.PROGRAM_TYPES
            and not game.finished
        ):
            want = pick(game, action)
            offered = {
                pick(game, c.action)
                for c in game.legal_actions(acting_player(game, action), kinds=[action["type"]])
            }
            assert want in offered, (
                f"{path.stem} #{action.get('id')}: {want} not offered "
                f"(offered: {sorted(map(str, offered))[:8]})"
            )
            checked += 1
        game.process(io.imported(action), atomic=False)
    assert checked > 100
