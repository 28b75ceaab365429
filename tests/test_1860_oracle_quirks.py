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
