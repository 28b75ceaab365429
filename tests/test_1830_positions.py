"""Rules checked in real positions taken from the recorded games: forced train purchase with the
president's cash, emergency sales, diesel trade-in, bankruptcy, and refusals that change nothing."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.eighteen import io
from engine.eighteen.game import EighteenGame
from engine.eighteen.states import public_state
from engine.errors import GameError, IllegalAction
from tests.reference_games import require_games


def load_upto(name: str, last_index: int) -> EighteenGame:
    """The game as it stood just after action index `last_index` of a fixture."""
    files = {p.stem: p for p in require_games("1830")}
    data = json.loads(files[name].read_text())
    game = io.load(data, upto=last_index).game
    assert isinstance(game, EighteenGame)
    return game


def fingerprint(game: EighteenGame) -> str:
    blob = json.dumps(
        [public_state(game), game.snapshot(), len(game.actions)], sort_keys=True, default=str
    )
    return hashlib.sha256(blob.encode()).hexdigest()


def corp_action(corp: str, type_: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, "entity": corp, "entity_type": "corporation", **fields}


def player_action(pid: int, type_: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, "entity": pid, "entity_type": "player", **fields}


# 29133, after index 420: PRR has no train, must buy one, and cannot pay for a 6 on its own.
def test_forced_purchase_needs_the_presidents_cash_and_only_what_is_needed() -> None:
    game = load_upto("29133", 420)
    prr = game.corporation("PRR")
    pres = prr.owner
    assert not prr.trains and game.must_buy_train(prr)
    assert prr.cash < 630 and prr.cash + pres.cash < 630
    before = fingerprint(game)
    with pytest.raises(IllegalAction, match="must raise"):
        game.process(corp_action("PRR", "buy_train", train="6-1", price=630))
    assert fingerprint(game) == before
    # selling everything at once is more than needed
    nyc = game.corporation("NYC")
    pres = game.corporation("PRR").owner
    all_nyc = [s.id for s in pres.shares_of(nyc)]
    if len(all_nyc) > 1:
        with pytest.raises(IllegalAction, match="more than needed"):
            game.process(
                player_action(pres.id, "sell_shares", shares=all_nyc, percent=10 * len(all_nyc))
            )
        assert fingerprint(game) == before
    # the president pays part only for the cheapest train in the bank, not a diesel
    with pytest.raises(IllegalAction, match="must buy the cheapest train"):
        game.process(corp_action("PRR", "buy_train", train="D-0", price=1100))
    assert fingerprint(game) == before
    # a president who can still raise the money cannot go bankrupt
    with pytest.raises(IllegalAction, match="cannot go bankrupt"):
        game.process(corp_action("PRR", "bankrupt"))
    assert fingerprint(game) == before
    # the recorded sales, then the purchase with the president's cash
    game.process(player_action(4639, "sell_shares", shares=["NYC_5"], percent=10))
    game.process(player_action(4639, "sell_shares", shares=["NYNH_2"], percent=10))
    pres = game.corporation("PRR").owner
    cash_before = pres.cash + game.corporation("PRR").cash
    game.process(corp_action("PRR", "buy_train", train="6-1", price=630))
    prr = game.corporation("PRR")
    assert [t.name for t in prr.trains] == ["6"] and prr.cash == 0
    assert game.corporation("PRR").owner.cash == cash_before - 630


def test_diesel_trade_in_costs_800_and_returns_the_four_to_the_market() -> None:
    game = load_upto("29133", 437)  # ERIE has just bought a 4 from another company
    erie = game.corporation("ERIE")
    assert "4" in [t.name for t in erie.trains]
    with pytest.raises(IllegalAction, match="costs \\$800"):
        game.process(corp_action("ERIE", "buy_train", train="D-0", price=1100, exchange="4-1"))
    game.process(corp_action("ERIE", "buy_train", train="D-0", price=800, exchange="4-1"))
    erie = game.corporation("ERIE")
    assert [t.name for t in erie.trains] == ["D"]
    assert game.phases.name == "D"
    # the first D rusts the 4s: the traded-in 4 went to the market and rusted there
    assert "4" not in [t.name for c in game.corporations for t in c.trains]


def test_bankruptcy_sells_what_it_can_and_ends_the_game() -> None:
    game = load_upto("29133", 448)
    game.process(corp_action("NYNH", "bankrupt"))
    assert game.finished and game.game_end_reason == "bankrupt"
    broke = [p for p in game.player_list if p.bankrupt]
    assert len(broke) == 1 and broke[0].cash == 0


def test_first_five_closes_privates_and_forces_discards() -> None:
    """Rule book: buying the first 5 starts phase 5 (train limit 2) and closes every private."""
    files = {p.stem: p for p in require_games("1830")}
    data = json.loads(files["1830_game_end_bank"].read_text())
    effective = io.effective_actions(data["actions"])
    first5 = next(
        i
        for i, (_, a) in enumerate(effective)
        if a["type"] == "buy_train" and str(a.get("train", "")).startswith("5-")
    )
    game = io.load(data, upto=effective[first5 - 1][0]).game
    assert game.phases.name == "4" and any(not c.closed for c in game.companies)
    game.process(io.imported(effective[first5][1]))
    assert game.phases.name == "5" and game.train_limit == 2
    assert all(c.closed for c in game.companies)
    for corp in game.crowded_corps():
        assert len(corp.trains) > 2
        assert game.round.active_step().description == "Discard Trains"


ACTION_TYPES = [
    "bid",
    "pass",
    "par",
    "buy_shares",
    "sell_shares",
    "buy_company",
    "lay_tile",
    "place_token",
    "run_routes",
    "dividend",
    "buy_train",
    "discard_train",
    "bankrupt",
    "nonsense",
]


def random_action(draw: Any, game: EighteenGame) -> dict[str, Any]:
    entities = (
        [("player", p.id) for p in game.player_list]
        + [("corporation", c.sym) for c in game.corporations]
        + [("company", c.sym) for c in game.companies]
        + [("player", 999)]
    )
    etype, entity = draw(st.sampled_from(entities))
    action: dict[str, Any] = {
        "type": draw(st.sampled_from(ACTION_TYPES)),
        "entity": entity,
        "entity_type": etype,
    }
    corp = draw(st.sampled_from([c.sym for c in game.corporations] + ["XYZ"]))
    hexes = [h["hex"] for h in game.data["map"]["hexes"]] + ["Z99"]
    tiles = [f"{t['name']}-0" for t in game.data["tiles"]] + ["999-0"]
    action.update(
        {
            "company": draw(st.sampled_from([c.sym for c in game.companies] + ["??"])),
            "price": draw(st.integers(-50, 2000)),
            "corporation": corp,
            "share_price": draw(st.sampled_from(["100,0,6", "67,5,6", "55,1,1", "x"])),
            "shares": [f"{corp}_{draw(st.integers(0, 9))}"],
            "percent": draw(st.sampled_from([10, 20, 30])),
            "hex": draw(st.sampled_from(hexes)),
            "tile": draw(st.sampled_from(tiles)),
            "rotation": draw(st.integers(-1, 6)),
            "city": draw(st.sampled_from(["57-0-0", "D14-0-0", "E19", "59-0-1", "bad"])),
            "kind": draw(st.sampled_from(["payout", "withhold", "half"])),
            "train": draw(st.sampled_from(["2-0", "3-1", "4-0", "5-0", "6-0", "D-0", "D-7"])),
            "routes": [
                {
                    "train": draw(st.sampled_from(["2-0", "3-0", "4-0"])),
                    "connections": [["H12", "H10"]],
                    "hexes": ["H12", "H10"],
                    "revenue": 50,
                    "nodes": ["H12-0", "H10-0"],
                }
            ],
        }
    )
    return action


POSITIONS = [("29133", 60), ("29133", 200), ("26855", 300), ("1830_game_end_bank", 450)]


@pytest.mark.parametrize("name,index", POSITIONS)
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_refused_actions_change_nothing(name: str, index: int, data: Any) -> None:
    game = load_upto(name, index)
    before = fingerprint(game)
    action = random_action(data.draw, game)
    try:
        game.process(action)
    except GameError as exc:
        assert str(exc) and "internal error" not in str(exc), str(exc)
        assert fingerprint(game) == before


@pytest.mark.parametrize("name", ["29133", "26855", "1830_game_end_bank"])
def test_deals_with_another_players_property_name_that_player(name: str) -> None:
    data = json.loads(next(p for p in require_games("1830") if p.stem == name).read_text())
    effective = dict(io.effective_actions(data["actions"]))
    deals = [
        (i, a)
        for i, a in effective.items()
        if a["type"] == "buy_company" or (a["type"] == "buy_train" and "variant" not in a)
    ]
    assert deals
    for index, deal in deals:
        game = load_upto(name, max(i for i in effective if i < index))
        buyer = game.resolve_entity(deal)
        if deal["type"] == "buy_company":
            seller = game.company(deal["company"]).owner
        else:
            source = game.train(deal["train"]).owner
            seller = getattr(source, "president", None)  # a company's president; the bank has none
        expected = seller.id if seller is not None and seller is not buyer.owner else None
        assert game.counterparty(deal) == expected


def test_counterparty_is_the_other_owner() -> None:
    game = load_upto("1830_game_end_bank", 150)
    assert game.counterparty(corp_action("PRR", "pass")) is None
    owned = [c for c in game.companies if not c.closed and c.owner in game.player_list]
    corps = [c for c in game.corporations if c.floated and c.owner is not None]
    company, corp = next((co, c) for co in owned for c in corps if c.owner is not co.owner)
    deal = corp_action(corp.sym, "buy_company", company=company.sym, price=company.value)
    assert game.counterparty(deal) == company.owner.id
    with_trains = [c for c in corps if c.trains]
    seller, buyer = next((a, b) for a in with_trains for b in corps if a.owner is not b.owner)
    train_deal = corp_action(buyer.sym, "buy_train", train=seller.trains[0].id, price=1)
    assert game.counterparty(train_deal) == seller.owner.id


def test_token_choices_name_the_hex() -> None:
    game = load_upto("29133", 300)
    for pid in [p.id for p in game.player_list]:
        for choice in game.legal_actions(pid):
            if choice.action["type"] == "place_token":
                assert (
                    "(" in choice.label
                    and "-" not in choice.label.split(" in ", 1)[1].split(" ")[0]
                )
