"""The one-sentence summaries posted to the game thread say what the action did."""

from __future__ import annotations

import json
import re

from engine.eighteen import io
from tests.reference_games import require_games


def test_sentences_name_places_amounts_and_what_was_passed() -> None:
    path = next(p for p in require_games("1830") if p.stem == "1830_game_end_bank")
    data = json.loads(path.read_text())
    said: list[tuple[dict, str]] = []
    io.load(data, upto=200, on_state=lambda i, a, g: said.append((a, g.describe(a))))
    last_run: dict[str, int] = {}
    for action, sentence in said:
        assert sentence.endswith("."), sentence
        if action["type"] == "lay_tile":
            assert action["hex"] in sentence and "(" in sentence  # hex and its name
        if action["type"] == "run_routes":
            last_run[action["entity"]] = sum(r["revenue"] for r in action["routes"])
        if action["type"] == "dividend" and action["kind"] == "payout":
            amount = int(re.search(r"pays out \$(\d+)", sentence).group(1))
            assert amount == last_run[action["entity"]]
        if action["type"] == "pass" and action["entity_type"] == "corporation":
            assert re.search(r"passes \([^)]+\)\.", sentence), sentence


def test_consequences_follow_the_sentence() -> None:
    """Floats, phase changes, rusting, presidency changes and the end are told in the thread."""
    path = next(p for p in require_games("1830") if p.stem == "29133")
    data = json.loads(path.read_text())
    said: list[str] = []
    io.load(data, on_state=lambda i, a, g: said.append(g.describe(a)))
    text = "\n".join(said)
    for expected in (
        "NYNH floats and receives $710.",
        "Phase 4 begins",
        "2-trains rust",
        "Player 3 becomes president of PRR.",
        "Operating Round 1.1 begins.",
        "Player 1 receives a 10% PRR share with CA.",
        "Player 4 is bankrupt.",
        "Game over (bankrupt): Player 2 $1,477",
    ):
        assert expected in text, expected
