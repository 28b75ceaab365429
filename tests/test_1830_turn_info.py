"""What the turn prompt is told (who, for whom, step, cash, trains, what is compulsory) and
the steps a turn passes over, announced with the engine's reason; positions of recorded games
whose next recorded move shows what was due."""

from __future__ import annotations

import json

from engine.eighteen import io
from tests.reference_games import game_path, reference_states


def _load(stem: str, upto: int):
    path = game_path("1830", stem)
    data = json.loads(path.read_text())
    return data, io.load(data, upto=upto).game


def test_a_train_the_company_must_buy_with_its_presidents_help() -> None:
    data, game = _load("1830_game_end_bank", 354)
    bought = data["actions"][355]  # ERIE then bought a 6-train for $630 with $385 in its treasury
    assert (bought["type"], bought["entity"], bought["price"]) == ("buy_train", "ERIE", 630)
    [info] = game.turn_info()
    assert info.acting_for == "ERIE" and info.step == "Buy Trains"
    assert info.player == game.corporation("ERIE").owner.id
    assert "treasury $385" in info.facts and "trains none (limit 2)" in info.facts
    assert info.compulsory == (
        "ERIE must buy a train (it has none; the cheapest costs $630; "
        "its president pays the $245 it lacks)"
    )
    assert "To act: Player 2 for ERIE — Buy Trains (treasury $385;" in game.status_text()


def test_an_auction_bid_to_answer_is_compulsory() -> None:
    _, game = _load("29133", 9)  # CS: Player 4 bid $55 over Player 2's $50
    [info] = game.turn_info()
    assert info.acting_for is None and info.step == "Bid on Companies"
    assert info.compulsory == "Player 2 must outbid $55 for CS or pass"


def test_a_stock_turn_has_nothing_compulsory_and_shows_the_certificates() -> None:
    _, game = _load("29133", 60)
    [info] = game.turn_info()
    assert info.compulsory is None
    assert any(f.startswith("certificates ") and f.endswith("/16") for f in info.facts)


def test_skipped_steps_are_announced_with_the_reason() -> None:
    """Game 29133, action 43: B&O lays its first tile with no train (the reference state after
    it shows B&O without trains and its price moved left)."""
    path = game_path("1830", "29133")
    data = json.loads(path.read_text())
    states = {s["idx"]: s for s in reference_states(path)}
    said: dict[int, str] = {}
    io.load(data, upto=43, on_state=lambda i, a, g: said.__setitem__(i, g.describe(a)))
    assert states[43]["corporations"]["B&O"]["trains"] == []
    assert "B&O skips Run Routes: it has no train." in said[43]
    assert "Share price: B&O $100 → $90 (no revenue this turn)." in said[43]
    # NYNH at its token limit later skips its token step: the reason is the engine's
    said.clear()
    io.load(data, upto=126, on_state=lambda i, a, g: said.__setitem__(i, g.describe(a)))
    assert states[126]["corporations"]["NYNH"]["tokens_unused"] == 0
    assert "NYNH skips Place a Token: NYNH has no station tokens left." in said[126]


def test_reference_lists_privates_phases_certificates_and_market_colours() -> None:
    _, game = _load("29133", 200)
    text = game.reference()
    # 1830 facts: CA is worth $160 and pays $25; phase 4 starts with the first 4-train
    assert "CA Camden & Amboy: $160, $25;" in text
    assert "4: first 4-train; yellow, green; limit 3; 2 ORs ← now" in text
    # certificates from 18xx.games' own state: a 10% share each, the president's 20% one,
    # and each private
    state = [s for s in reference_states(game_path("1830", "29133")) if s["idx"] <= 200][-1]
    for p in state["players"]:
        certs = len(p["companies"]) + sum(
            pct // 10 - (1 if state["corporations"][sym]["president"] == p["id"] else 0)
            for sym, pct in p["shares"].items()
        )
        assert f"{game.player(p['id']).name}: {certs}/16" in text
    assert (
        "brown ($10, $18, $20, $25, $27, $30): shares do not count toward the certificate "
        "limit; a player may hold more than 60%; several shares may be bought in one turn" in text
    )
    assert game.reference("phases").startswith("**Phases**")
    assert len(game.reference("privates")) < 2000
