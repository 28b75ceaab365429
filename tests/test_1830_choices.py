"""The legal-action lists (autocomplete and buttons) offer only what the rules accept, and offer
what the players of the recorded games actually did."""

from __future__ import annotations

import copy
import json
from typing import Any

from engine.eighteen import io
from engine.eighteen.entities import Player
from tests.reference_games import require_games


def acting_player(entity: Any) -> Player:
    """The player who acts for an entity: a company's president, a private's owner (or its
    owning company's president)."""
    while not isinstance(entity, Player):
        entity = entity.owner
    return entity


SKIP_TYPES = {"message", "program_buy_shares", "program_share_pass", "program_disable"}


def test_every_offered_action_is_accepted_and_the_recorded_move_is_offered() -> None:
    checked = 0
    for path in require_games("1830"):
        data = json.loads(path.read_text())
        effective = io.effective_actions(data["actions"])
        game = io.new_game(data)
        for n, (_, action) in enumerate(effective):
            if n % 9 == 0 and action["type"] not in SKIP_TYPES and not game.finished:
                choices = game.legal_actions(acting_player(game.resolve_entity(action)).id)
                for choice in choices[:15]:
                    scratch = copy.deepcopy(game)
                    scratch.process(dict(choice.action))
                offered_types = {c.action["type"] for c in choices}
                if action["type"] in (
                    "bid",
                    "par",
                    "buy_shares",
                    "sell_shares",
                    "lay_tile",
                    "place_token",
                    "run_routes",
                    "dividend",
                    "buy_train",
                    "discard_train",
                    "pass",
                ):
                    assert action["type"] in offered_types, (
                        path.stem,
                        n,
                        action,
                        sorted(offered_types),
                    )
                checked += 1
            game.process(io.imported(action))
    assert checked > 100
