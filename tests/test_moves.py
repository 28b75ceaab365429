"""Play commands narrowing the engine's legal choices, the turn buttons, and typed routes."""

from __future__ import annotations

import pytest

from bot.core.moves import MOVES, choice_key, quick_action, quick_moves, resolve, suggest
from bot.core.results import Refused
from bot.core.routes_input import best_routes_text, parse_routes, routes_from_text
from engine.game import Choice
from tests.g1830_helpers import act, finish_auction_simply, new_game

CORP = {"entity": "PRR", "entity_type": "corporation"}
ME = {"entity": 1, "entity_type": "player"}


def choice(label: str, **action) -> Choice:
    return Choice(label, action)


TRAINS = [
    choice(
        "Buy a 3-train from the bank for $180", type="buy_train", train="3-0", price=180, **CORP
    ),
    choice(
        "Trade in 2-train for a 3 ($140)",
        type="buy_train",
        train="3-0",
        price=140,
        exchange="2-1",
        **CORP,
    ),
    choice("Buy NYC's 2-train for $80", type="buy_train", train="2-4", price=80, **CORP),
    choice("Pass (Buy Trains)", type="pass", **CORP),
]


def test_words_match_the_start_of_label_words():
    bids = [
        choice("Bid CA (Camden & Amboy) for $165", type="bid", company="CA", **ME),
        choice("Bid BO (Baltimore & Ohio) for $225", type="bid", company="BO", **ME),
    ]
    assert resolve(MOVES["bid"], {"company": "bo"}, bids, None)["company"] == "BO"
    assert resolve(MOVES["bid"], {"company": "camden"}, bids, None)["company"] == "CA"
    assert resolve(MOVES["bid"], {"company": "165"}, bids, None)["company"] == "CA"
    with pytest.raises(Refused, match="2 moves fit; give company: Bid CA"):
        resolve(MOVES["bid"], {"company": "bid"}, bids, None)


def test_choices_the_engine_names_alike_are_one_choice():
    twins = [
        choice("Buy B&O's 2-train for $80", type="buy_train", train=f"2-{n}", price=80, **CORP)
        for n in (0, 1)
    ]
    assert resolve(MOVES["train"], {"train": "B&O's 2", "price": 5}, twins, None) == {
        "type": "buy_train",
        "train": "2-0",
        "price": 5,
        **CORP,
    }
    assert suggest(MOVES["train"], "train", {}, [*twins, *TRAINS], "b&o") == [
        ("Buy B&O's 2-train for $80", choice_key(twins[0].action))
    ]


def test_a_refusal_names_each_lay_once_and_counts_it_once():
    """Lays of a symmetric tile turned half way are one lay to the player (one label): the
    refusal that asks which lay counts and lists them as the menu does."""
    lays = [
        choice(label, type="lay_tile", hex="F4", tile=tile, rotation=r, **CORP)
        for label, tile, r in (
            ("Lay tile 9 on F4: track W to Newport, E to Ryde", "9-0", 0),
            ("Lay tile 9 on F4: track W to Newport, E to Ryde", "9-0", 3),
            ("Lay tile 8 on F4: track W to Newport, NE to Cowes", "8-0", 1),
        )
    ]
    with pytest.raises(Refused) as refused:
        resolve(MOVES["lay"], {"hex": "F4"}, lays, None)
    assert str(refused.value) == (
        "2 moves fit; give tile and rotation: Lay tile 9 on F4: track W to Newport, E to "
        "Ryde; Lay tile 8 on F4: track W to Newport, NE to Cowes"
    )
    # a rotation told by the exits it names, as the suggestions show it
    picked = resolve(MOVES["lay"], {"hex": "F4", "rotation": "Cowes"}, lays, None)
    assert (picked["tile"], picked["rotation"]) == ("8-0", 1)


def test_an_agreed_price_replaces_the_suggested_one():
    picked = resolve(MOVES["train"], {"train": "NYC's", "price": 1}, TRAINS, None)
    assert picked == {"type": "buy_train", "train": "2-4", "price": 1, **CORP}
    key = choice_key(TRAINS[0].action)
    assert resolve(MOVES["train"], {"train": key}, TRAINS, None)["price"] == 180
    with pytest.raises(Refused, match="no longer available"):
        resolve(MOVES["train"], {"train": "~000000000000"}, TRAINS, None)
    passing = [choice("Pass (Buy Trains)", type="pass", **CORP)]
    assert resolve(MOVES["pass"], {}, passing, None) == {"type": "pass", **CORP}
    with pytest.raises(
        Refused, match=r"you cannot payout now; you can: /play move Pass \(Buy Trains\)$"
    ):
        resolve(MOVES["payout"], {}, passing, None)


def test_price_only_where_the_move_has_one():
    tokens = [choice("Place a PRR token in 57-0-0", type="place_token", city="57-0-0", **CORP)]
    assert resolve(MOVES["token"], {"city": "57-0-0"}, tokens, None)["city"] == "57-0-0"
    discard = [choice("Discard a 3-train", type="discard_train", train="3-0", **CORP)]
    assert "price" not in resolve(MOVES["discard"], {"train": "3"}, discard, None)


def test_suggestions_are_capped_filtered_and_short():
    many = [
        choice(f"Par X{n} at ${n} " + "x" * 120, type="par", corporation=f"X{n}", **ME)
        for n in range(40)
    ]
    found = suggest(MOVES["par"], "company", {}, many, "")
    assert len(found) == 25 and all(len(name) <= 100 and len(value) <= 100 for name, value in found)
    assert [name[:9] for name, _ in suggest(MOVES["par"], "company", {}, many, "x3")] == [
        "Par X3 at",
        "Par X30 a",
        "Par X31 a",
        "Par X32 a",
        "Par X33 a",
        "Par X34 a",
        "Par X35 a",
        "Par X36 a",
        "Par X37 a",
        "Par X38 a",
        "Par X39 a",
    ]
    assert suggest(MOVES["par"], "nothing", {}, many, "") == []


def test_turn_buttons():
    payout = [
        choice("Pay out $110 ($11 a share)", type="dividend", kind="payout", **CORP),
        choice("Withhold $110", type="dividend", kind="withhold", **CORP),
    ]
    assert [(q.kind, q.label) for q in quick_moves(TRAINS + payout)] == [
        ("done", "Done (Buy Trains)"),
        ("payout", "Pay out $110 ($11 a share)"),
        ("withhold", "Withhold $110"),
        ("train", "Buy a 3-train from the bank for $180"),
    ]
    assert quick_action("train", TRAINS)["train"] == "3-0"  # not the trade-in
    player_pass = [choice("Pass (Bid on Companies)", type="pass", **ME)]
    assert [q.label for q in quick_moves(player_pass)] == ["Pass (Bid on Companies)"]
    with pytest.raises(Refused, match="unknown button 'fly'"):
        quick_action("fly", TRAINS)
    with pytest.raises(Refused, match=r"that button's move \(run\) is not open to you now"):
        quick_action("run", TRAINS)


def test_typed_routes_are_read_or_explained():
    assert parse_routes("2: E19 F20 F22; 3-1: F20-G19") == [
        ("2", ["E19", "F20", "F22"]),
        ("3-1", ["F20", "G19"]),
    ]
    for text, message in (
        ("E19 F20", "cannot read the route 'E19 F20'"),
        ("2: E19", "a route passes at least two hexes"),
        ("2: E19 Chicago1x", "CHICAGO1X is not a hex name like F20"),
        (" ; ", "no route given"),
    ):
        with pytest.raises(Refused, match=message):
            parse_routes(text)


@pytest.fixture(scope="module")
def running_prr():
    """PRR with two 2-trains and track H10-H12, about to run (OR 2.1)."""
    game = new_game(4)
    for sym in ("SV", "CS", "DH", "MH", "CA", "BO"):
        act(game, game.active_players()[0], "bid", company=sym, price=game.company(sym).value)
    act(game, game.active_players()[0], "par", corporation="B&O", share_price="100,0,6")
    for name, text in [("par", "PRR 67")] + [("buy", "PRR IPO")] * 5:
        player = game.active_players()[0]
        game.process(
            resolve(MOVES[name], {MOVES[name].pick[0]: text}, game.legal_actions(player), game)
        )
    while game.round.name == "Stock Round":
        act(game, game.active_players()[0], "pass")
    act(game, "PRR", "lay_tile", hex="H10", tile="57-0", rotation=1)
    act(game, "PRR", "place_token", city="57-0-0")
    act(game, "PRR", "buy_train", train="2-0", price=80)
    act(game, "PRR", "buy_train", train="2-1", price=80)
    act(game, "PRR", "pass")
    while game.round.name == "Stock Round":
        act(game, game.active_players()[0], "pass")
    act(game, "PRR", "pass")  # no track this time
    return game


def test_routes_from_typed_hexes(running_prr):
    game = running_prr
    base = {"type": "run_routes", **CORP}
    assert routes_from_text(game, base, "2: H10 H12") == [
        {"train": "2-0", "connections": [["H10", "H12"]]}
    ]
    assert routes_from_text(game, base, "2-1: H12 H10") == [
        {"train": "2-1", "connections": [["H12", "H10"]]}
    ]
    with pytest.raises(
        Refused,
        match=r"PRR has no spare train '3' \(its trains: 2, 2\)",
    ):
        routes_from_text(game, base, "3: H10 H12")
    with pytest.raises(Refused, match="PRR has no spare train '2'"):
        routes_from_text(game, base, "2: H10 H12; 2: H10 H12; 2: H10 H12")
    assert best_routes_text(game, "prr") == "PRR can earn $30:\n  2-train: H10-H12 ($30)"
    assert best_routes_text(game, "NYC") == "NYC owns no trains."


def test_an_impossible_kind_of_move_says_why() -> None:
    game = new_game(2)
    finish_auction_simply(game)
    choices = game.legal_actions(game.active_players()[0])
    with pytest.raises(Refused, match="no shares may be sold in the first stock round"):
        resolve(MOVES["sell"], {"shares": "B&O"}, choices, game)


def test_a_train_typed_without_a_seller_is_the_banks():
    trains = [
        choice(
            "Buy a 2-train from the bank for $80", type="buy_train", train="2-1", price=80, **CORP
        ),
        choice("Buy NYC's 2-train for $80", type="buy_train", train="2-4", price=80, **CORP),
    ]
    move = MOVES["train"]
    assert resolve(move, {"train": "2"}, trains, None)["train"] == "2-1"
    assert resolve(move, {"train": "NYC's 2"}, trains, None)["train"] == "2-4"
    with pytest.raises(Refused, match="2 moves fit"):  # a seller named by name only: ask
        resolve(
            move,
            {"train": "2"},
            trains[1:]
            + [
                choice("Buy B&O's 2-train for $80", type="buy_train", train="2-6", price=80, **CORP)
            ],
            None,
        )
