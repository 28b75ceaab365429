"""Railchat's own programmed moves (engine/eighteen/house_programs.py): what each passes, when
it stops and why (told to its player alone), and the game file for 18xx.games, which gets their
passes as ordinary moves and none of their settings."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import PlayerInfo, create_game
from engine.eighteen import house_programs as house
from engine.eighteen import io
from engine.eighteen.game import EighteenGame
from engine.eighteen.states import public_state
from engine.errors import GameError
from tests.g1830_helpers import act, cash, finish_auction_simply, new_game
from tests.reference_games import game_path


def program(game: EighteenGame, pid: int, kind: str, **fields: Any) -> dict[str, Any]:
    return act(game, pid, house.SET, program=kind, **fields)


def autos(action: dict[str, Any]) -> list[tuple[Any, str, Any]]:
    """(entity, type, the program that made it) of each programmed move an action set off."""
    return [(a["entity"], a["type"], a.get(house.MARK)) for a in action.get("auto_actions", [])]


def test_auction_passes_are_made_at_once_and_told_as_programmed() -> None:
    game = new_game(4)
    program(game, 2, house.AUCTION)
    program(game, 3, house.AWAY)
    watch = program(game, 4, house.AUCTION, company="CA")
    assert game.describe(watch) == "Alex changed their programmed moves."  # what: Alex alone
    assert game.order_news() == [
        (4, "Programmed: you pass in the auction until another player bids on CA.")
    ]
    done = act(game, 1, "pass")
    assert autos(done) == [
        (2, "pass", house.AUCTION),
        (3, "pass", house.AWAY),
        (4, "pass", house.AUCTION),
    ]
    assert game.describe(done) == (
        "Gerald passes (Bid on Companies). Dave passes (programmed). Bruce passes (programmed). "
        "Alex passes (programmed)."
    )
    # everyone passed: SV costs $5 less, and it is Gerald's turn again
    assert game.company("SV").min_bid == 15 and game.active_players() == [1]


def test_an_auction_pass_stops_when_another_player_bids_on_its_company() -> None:
    game = new_game(4)
    program(game, 2, house.AUCTION)
    program(game, 3, house.AWAY)
    program(game, 4, house.AUCTION, company="CA")
    done = act(game, 1, "bid", company="CA", price=170)
    stop = {
        "type": house.DISABLE,
        "entity": 4,
        "entity_type": "player",
        "program": house.AUCTION,
        "reason": "Gerald bid $170 on CA",
    }
    assert done["auto_actions"] == [
        {"type": "pass", "entity": 2, "entity_type": "player", house.MARK: house.AUCTION},
        {"type": "pass", "entity": 3, "entity_type": "player", house.MARK: house.AWAY},
        stop,
    ]
    assert game.order_news() == [
        (
            4,
            "Your programmed move stopped: Gerald bid $170 on CA. (It was: you pass in the "
            "auction until another player bids on CA.)",
        )
    ]
    assert game.describe(done) == (
        "Gerald bids $170 on CA ($10 over its face value). Dave passes (programmed). Bruce passes (programmed)."
    )
    assert game.active_players() == [4] and game.standing_orders(4) == []


def test_an_auction_pass_with_a_limit_waits_for_the_price_to_come_down() -> None:
    game = new_game(4)
    for pid in (2, 3, 4):
        program(game, pid, house.AUCTION)
    # Gerald waits for SV at $10: his own pass is due at once, and each round of passes takes
    # $5 off SV until it is within his limit
    program(game, 1, house.AUCTION, company="SV", limit=10)
    assert game.company("SV").min_bid == 10 and game.active_players() == [1]
    assert game.order_news()[-1] == (
        1,
        "Your programmed move stopped: SV can be bought for $10, within your limit of $10. "
        "(It was: you pass in the auction until SV can be bought for $10 or less.)",
    )
    labels = [c.label for c in game.order_choices(1)]
    assert "pass in the auction until SV can be bought for $5 or less" in labels
    assert "pass in the auction until SV can be bought for $0 or less" not in labels


def test_a_programmed_pass_never_gives_up_its_players_bid() -> None:
    game = new_game(4)
    act(game, 1, "bid", company="CS", price=50)
    act(game, 2, "bid", company="CS", price=55)
    program(game, 1, house.AWAY)
    program(game, 4, house.AUCTION)
    act(game, 3, "bid", company="SV", price=20)  # SV sold: CS, bid on twice, is auctioned
    assert game.active_players() == [1]  # away leaves Gerald's $50 bid to Gerald
    program(game, 1, house.AUCTION)  # an auction pass stops, saying why
    assert game.order_news()[-1] == (
        1,
        "Your programmed move stopped: you bid $50 on CS: a pass would give that bid up. "
        "(It was: you pass in the auction until it ends.)",
    )
    assert game.active_players() == [1]


def test_away_passes_in_the_stock_round_and_the_auction_pass_ends_with_the_auction() -> None:
    game = new_game(4)
    program(game, 2, house.AUCTION)
    program(game, 3, house.AWAY)
    finish_auction = [("SV", 20), ("CS", 40), ("DH", 70), ("MH", 110), ("CA", 160)]
    for sym, price in finish_auction:
        act(game, game.active_players()[0], "bid", company=sym, price=price)
    buyer = game.active_players()[0]
    done = act(game, buyer, "bid", company="BO", price=220)
    act(game, buyer, "par", corporation="B&O", share_price="100,0,6")
    assert game.round.name == "Stock Round"
    assert (2, "Your programmed move stopped: the auction is over. (It was: you pass in the "
            "auction until it ends.)") in game.order_news()  # fmt: skip
    assert house.AUCTION not in game.house_programs[2] and house.AWAY in game.house_programs[3]
    assert autos(done) == []  # Bruce, away, had no auction turn left that only asked a pass
    while game.active_players() != [2]:
        act(game, game.active_players()[0], "pass")
    done = act(game, 2, "pass")
    assert autos(done) == [(3, "pass", house.AWAY)]


def _bank_game_at(index: int) -> EighteenGame:
    data = json.loads(game_path("1830", "1830_game_end_bank").read_text())
    game = io.load(data, upto=index).game
    assert isinstance(game, EighteenGame)
    return game


@pytest.mark.parametrize(("index", "passed"), [(83, True), (80, False)])
def test_a_private_pass_passes_buy_companies_unless_a_private_of_ones_own_is_for_sale(
    index: int, passed: bool
) -> None:
    # NYNH's Buy Companies step: at 80 its president could sell it CS, at 83 nothing of theirs
    game = _bank_game_at(index)
    nynh = game.corporation("NYNH")
    assert game.round.active_step().description == "Buy Companies"
    assert game.active_entities() == [nynh]
    president = nynh.owner.id
    done = program(game, president, house.PRIVATE)
    if passed:
        assert autos(done) == [("NYNH", "pass", house.PRIVATE)]
        assert game.active_entities() != [nynh]
    else:
        assert autos(done) == [] and game.active_entities() == [nynh]


def test_a_game_file_gets_railchat_passes_as_moves_of_their_own() -> None:
    game = new_game(4)
    program(game, 2, house.AUCTION)
    program(game, 3, house.AWAY)
    act(game, 1, "pass")
    act(game, 4, "pass")
    act(game, 1, "bid", company="SV", price=15)
    # an 18xx.games program, set in the auction, passes in the stock round before away does
    act(game, 4, "program_share_pass")
    for sym, price in [("CS", 40), ("DH", 70), ("MH", 110), ("CA", 160), ("BO", 220)]:
        act(game, game.active_players()[0], "bid", company=sym, price=price)
    act(game, game.active_players()[0], "par", corporation="B&O", share_price="100,0,6")
    while not game.finished and game.round.name == "Stock Round":
        act(game, game.active_players()[0], "pass")
    data = io.export(game)
    kinds = [a["type"] for a in data["actions"]]
    assert house.SET not in kinds and house.DISABLE not in kinds
    assert all(house.MARK not in a for a in _all_moves(data["actions"]))
    # every pass railchat made is a move of its own; 18xx.games' stay in auto_actions
    first = data["actions"][:3]
    assert [(a["entity"], a["type"], autos(a)) for a in first] == [
        (1, "pass", []),
        (2, "pass", []),
        (3, "pass", []),
    ]
    with_18xx = [a for a in data["actions"] if a.get("auto_actions")]
    assert with_18xx and all(
        b["entity"] == 4 and b["type"] in ("pass", "program_disable")
        for a in with_18xx
        for b in a["auto_actions"]
    )
    # and the file replays to the same position
    assert public_state(io.load(data).game) == public_state(game)


def _all_moves(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for a in actions for m in (a, *a.get("auto_actions", []))]


@pytest.mark.parametrize(
    ("title", "fields", "refusal"),
    [
        ("1830", {"program": "merge"}, "1830 offers the railchat programs auction_pass, "
         "private_pass, away, not 'merge'"),
        ("1830", {"program": house.PRIVATE, "company": "CA"}, "a private_pass program takes no "
         "company"),
        ("1830", {"program": house.AUCTION, "limit": 10}, "an auction pass's limit is the price "
         "of a company: name it too"),
        ("1830", {"program": house.AUCTION, "company": "SV", "limit": -5}, "an auction pass's "
         "limit is a price from 0, not -5"),
        ("1830", {"program": house.AUCTION, "company": "XX"}, "unknown private company 'XX' "
         "(known: SV, CS, DH, MH, CA, BO)"),
        ("1830", {"program": house.AWAY, "until": "soon"}, "an away program ends at a date like "
         "2030-06-01 (UTC), not 'soon'"),
        ("1860", {"program": house.PRIVATE}, "1860 offers the railchat programs auction_pass, "
         "away, not 'private_pass'"),
        ("1860", {"program": house.AUCTION, "company": "BHC"}, "1860's auction sells the right "
         "to pick, not a named company: its auction pass takes no company or limit"),
    ],
)  # fmt: skip
def test_a_wrong_program_is_refused_and_changes_nothing(
    title: str, fields: dict[str, Any], refusal: str
) -> None:
    game = create_game(title, [PlayerInfo(i, f"p{i}") for i in (1, 2, 3)], {})
    assert isinstance(game, EighteenGame)
    with pytest.raises(GameError) as refused:
        game.process({"type": house.SET, "entity": 2, "entity_type": "player", **fields})
    assert str(refused.value) == refusal
    assert game.actions == [] and game.house_programs == {}
    with pytest.raises(GameError, match="p2 has no away program to stop"):
        act(game, 2, house.DISABLE, program=house.AWAY)


def test_only_18xx_programs_are_public_and_in_words_after_the_players_name() -> None:
    game = new_game(4)
    program(game, 2, "auction_pass")  # railchat's own: its file never holds it
    act(game, 3, "program_buy_shares", corporation="PRR", until_condition=3, from_market=False,
        auto_pass_after=True)  # fmt: skip
    act(game, 4, "program_share_pass", unconditional=True, indefinite=True)
    assert game.public_orders() == [
        (3, "buys PRR from the IPO until they hold 3 shares, then passes"),
        (4, "passes in every stock round whatever happens"),
    ]
    assert [s.text for s in game.standing_orders(3)] == [
        "buy PRR from the IPO until you hold 3 shares, then pass"
    ]


def test_a_whole_round_of_programmed_passes_leaves_the_next_turn_to_a_player() -> None:
    """Once the Schuylkill Valley is sold, a round of passes pays the privates and the auction
    goes on (1830): were every player's pass programmed it would go round for ever, so after
    one such round railchat's programs leave the turn to the players (an auction pass stops,
    told why; away leaves that turn to its player)."""
    game = new_game(4)
    act(game, 1, "bid", company="SV", price=20)  # the cheapest: bought outright
    program(game, 3, house.AWAY)
    program(game, 4, house.AWAY)
    program(game, 1, house.AUCTION, company="DH")
    done = program(game, 2, house.AUCTION)  # Dave's turn: now everybody passes by program
    why = (
        "every player passed by program for a whole round: the auction would go on paying the "
        "privates for ever"
    )
    go_round = [
        (2, "pass", house.AUCTION, None),
        (3, "pass", house.AWAY, None),
        (4, "pass", house.AWAY, None),
        (1, "pass", house.AUCTION, None),  # the privates pay: Gerald's SV $5
    ]
    # the first go-round had Gerald's purchase in it; the second is all programmed
    assert [(a["entity"], a["type"], a.get(house.MARK), a.get("reason"))
            for a in done["auto_actions"]] == go_round * 2 + [(2, house.DISABLE, None, why)]  # fmt: skip
    assert game.active_players() == [2] and cash(game, 1) == 2400 // 4 - 20 + 2 * 5
    assert (
        2,
        f"Your programmed move stopped: {why}. (It was: you pass in the auction until it ends.)",
    ) in (game.order_news())
    done = act(game, 2, "pass")  # by hand: the next round is the players' again
    assert [a["entity"] for a in done["auto_actions"]] == [3, 4, 1]
    assert game.active_players() == [2]  # Dave, the one player left without a program


def test_away_leaves_a_stock_round_to_the_players_after_one_nobody_played_by_hand() -> None:
    """Every player away before any company floats: a stock round of programmed passes, an
    operating round without a company (the privates pay), and so on until the bank broke;
    instead, the stock round after one without a move made by hand waits for its players."""
    game = new_game(4)
    finish_auction_simply(game)
    for pid in (1, 2, 3):
        program(game, pid, house.AWAY)
    done = program(game, 4, house.AWAY)
    assert [(a["entity"], a["type"]) for a in done["auto_actions"]] == [
        (4, "pass"),
        (1, "pass"),
        (2, "pass"),  # Stock Round 1 is over; the privates pay in Operating Round 1
    ]
    assert game.round.name == "Stock Round" and game.turn == 2
    [first] = game.active_players()
    done = act(game, first, "pass")  # by hand (though away): the others' away passes again
    # the other three in Stock Round 2; all four in Stock Round 3 (Round 2 had a move by hand)
    assert len(done["auto_actions"]) == 3 + 4
    assert game.round.name == "Stock Round" and game.turn == 4 and game.active_players()
