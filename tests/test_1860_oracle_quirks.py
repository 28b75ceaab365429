"""Where 18xx.games answers from a result it kept, railchat answers the same, or the files it
writes would not replay there. Each case is a game cut just before the move 18xx.games refuses,
with the reference engine's state after every action (tests/data/oracle_quirks)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.eighteen import io as game_io
from engine.errors import GameError
from tests.reference_games import first_divergence

QUIRKS = Path(__file__).parent / "data" / "oracle_quirks"


def test_a_token_answer_is_kept_until_a_tile_or_token_is_laid() -> None:
    """NGStL floats again and its home base fills G9, the last city VYSC could reach with a
    free circle; 18xx.games still has VYSC's earlier "may place a token" and puts it in its
    Token step, where it can only pass. railchat's state is the reference's after every action
    and it refuses the run 18xx.games refuses."""
    path = QUIRKS / "1860_kept_token_answer.json"
    data = json.loads(path.read_text())
    assert first_divergence(path) == (len(data["actions"]) + 1, None)
    game = game_io.load(data).game
    assert type(game.round.active_step()).__name__ == "Token1860"
    assert game.board.legal_token_cities("VYSC") == []
    owner = game.corporation("VYSC").owner
    assert {c.action["type"] for c in game.legal_actions(owner.id)} == {"pass"}
    run = {"type": "run_routes", "entity": "VYSC", "entity_type": "corporation", "routes": []}
    with pytest.raises(GameError, match="the current step is Place a Token"):
        game.process(run)


def test_after_a_sale_bankrupts_a_company_the_seller_goes_on() -> None:
    """An 18xx.games defect railchat does not copy: a stock-round sale drops VYSC's price to
    the closing row, the company goes bankrupt and the priority deal moves to the player with
    the fewest shares; 18xx.games turns its list of players in place mid-turn and is left with
    nobody to act, so no game goes on past it there. railchat matches every field of every
    state but that one, and lets the seller finish their turn."""
    path = QUIRKS / "1860_bankrupt_by_a_sale.json"
    data = json.loads(path.read_text())
    lines, what = first_divergence(path)
    assert lines == len(data["actions"]) and what is not None
    assert what.endswith("active: ours [2] ref []"), what
    game = game_io.load(data).game
    assert game.player_list[0].id == 1  # the priority deal, as 18xx.games gives it
    assert game.active_players() == [2]
