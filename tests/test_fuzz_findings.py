"""Bugs the fuzzer found, each replayed from the game file it wrote (tests/data/fuzz/). A bug
in a title's engine that is not fixed yet is a strict xfail: it turns into a failure, and the
mark must go, once the engine is fixed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.eighteen import io
from engine.errors import IllegalAction, InvalidAction
from engine.game import PlayerInfo
from engine.titles import create_game
from tests.reference_games import game_path

FILES = Path(__file__).parent / "data" / "fuzz"


def _replay(name: str, sale_prices: bool = True, upto: int | None = None):
    return _replay_data(json.loads((FILES / name).read_text()), sale_prices, upto)


def _replay_data(
    data: dict, sale_prices: bool = True, upto: int | None = None, options: dict | None = None
):
    game = create_game(
        data["title"],
        [PlayerInfo(p["id"], p["name"]) for p in data["players"]],
        options or {},
        data["settings"]["seed"],
    )
    for action in data["actions"][:upto]:
        if not sale_prices and action["type"] == "sell_shares":
            action.pop("share_price", None)
        game.process({k: v for k, v in action.items() if k != "id"})
    return game


def test_string_railway_lists_moves_after_the_mountain_is_rerolled() -> None:
    # rerolling the mountain rebuilt the board without the bases B1-B3 (KeyError 'B1')
    game = _replay("fuzz-string_railway-577090037.json")
    assert game.active_players() == [1]
    assert game.legal_actions(1)


@pytest.mark.parametrize(
    "name, seat",
    [("fuzz-string_railway-1399756255.json", 3), ("fuzz-string_railway-2045421347.json", 4)],
)
def test_string_railway_a_setup_seat_out_of_rerolls_is_not_waited_for(name, seat) -> None:
    # the seat that lays the river (mountain) rerolled it for the last time and stayed among
    # the players who must act, with no move left to list
    game = _replay(name)
    assert game.rolls["river" if seat == 3 else "mountain"] == game.max_rolls
    assert seat not in game.active_players()
    for player in game.active_players():
        assert game.legal_actions(player)


def test_1860_anyone_acts_for_a_company_without_a_director() -> None:
    # after a stock round of passes IWNJ (its director's certificate in the market) must buy a
    # train in OR 1.1 and nobody was asked to act. 18xx.games lets any player act for it: so do we.
    game = _replay("fuzz-1860-1588945316.json")  # ends with the stock round's last pass
    iwnj = game.corporation("IWNJ")
    assert game.active_entities() == [iwnj] and game.receivership(iwnj)
    assert game.active_players() == [p.id for p in game.player_list]
    for pid in game.active_players():
        assert [c.action for c in game.legal_actions(pid)] == [
            {
                "type": "buy_train",
                "entity": "IWNJ",
                "entity_type": "corporation",
                "train": "2+1-0",
                "price": 250,
            }
        ]
    game.process(
        {
            "type": "buy_train",
            "entity": "IWNJ",
            "entity_type": "corporation",
            "train": "2+1-0",
            "price": 250,
        },
        by=game.player_list[2].id,
    )
    assert [t.name for t in iwnj.trains] == ["2+1"] and iwnj.cash == 370
    assert game.active_entities() != [iwnj]


def test_1860_half_value_sale_names_its_price_in_the_file() -> None:
    # 18xx.games pays a sale what the file's share_price says, and the full price without it: a
    # trainless company's shares sell at half (rules 5.6), so the recorded move must say so
    game = _replay("fuzz-1860-1588945316.json", sale_prices=False)
    sale = game.actions[55]
    assert (
        sale["type"] == "sell_shares" and sale["shares"] == ["C&N_0"] and sale["share_price"] == 37
    )
    assert all(
        "share_price" in a for a in game.actions if a["type"] == "sell_shares"
    )  # no train yet


def test_1860_snapshot_during_the_auction() -> None:
    # 1860's bids are per player for the right to choose an item, not per private: the snapshot
    # (drawn after every move) failed with TypeError; the sheet now heads the privates with them
    game = _replay("fuzz-1860-1588945316.json", upto=9)  # P4 bid £5, P1 raised to £10
    snap = game.snapshot()
    assert snap["lot_bids"] == [{"player": 1, "price": 10}, {"player": 4, "price": 5}]
    assert snap["bids"] == {}


def test_1860_a_private_is_sold_to_the_bank_for_its_value_less_30() -> None:
    # the sale was listed as legal but refused as an unknown move type; BHC (£30) sells for £0
    # (rules 5.9) and then belongs to the bank alone, which sells it again at face value
    game = _replay("fuzz-1860-1999951809.json")
    move = {
        "type": "sell_company",
        "entity": 1,
        "entity_type": "player",
        "company": "BHC",
        "price": 0,
    }
    assert move in [c.action for c in game.legal_actions(1)]
    game.check_submission(move)
    seller, bhc = game.player(1), game.company("BHC")
    cash, bank = seller.cash, game.bank.cash
    with pytest.raises(IllegalAction, match="pays £0 for BHC"):
        game.process({**move, "price": 10}, by=1)
    game.process(dict(move), by=1)
    assert seller.cash == cash and game.bank.cash == bank and game.actions[-1]["price"] == 0
    assert bhc.owner is game.bank and all(bhc not in p.companies for p in game.player_list)


def test_1860_a_private_the_bank_holds_breaks_no_invariant() -> None:
    # the fuzzer's holder check wanted an unheld private to have no owner; 1860's bank owns what
    # it bought back (and offers it again), so BHC sold for £0 was flagged. A private a player
    # still lists while the bank owns it is still a failure.
    from bot.core.fuzz import eighteen

    game = _replay("fuzz-1860-1245182509.json")  # ends with P2's sale of BHC
    assert game.actions[-1] == {
        "type": "sell_company",
        "entity": 2,
        "entity_type": "player",
        "company": "BHC",
        "price": 0,
    }
    money = eighteen._money(create_game("1860", game.players, {}, game.seed))
    bhc = game.company("BHC")
    assert bhc.owner is game.bank and eighteen.problems(game, money) == []
    game.player(2).companies.append(bhc)
    assert any("private BHC is held by ['P2']" in p for p in eighteen.problems(game, money))


@pytest.mark.parametrize("routes", [[None], [1], ["F2"], [[]]])
def test_a_route_that_is_not_an_object_is_refused(routes: list) -> None:
    # the fuzzer's malformed run_routes (in fuzz-1860-393430179.json: a route that is not an
    # object) escaped as AttributeError; here in 19354 where C&N is about to run
    from engine.eighteen import io
    from tests.reference_games import game_path

    game = io.load(json.loads(game_path("1860", "19354").read_text()), upto=67).game
    before = game.snapshot()
    with pytest.raises(InvalidAction, match="each route is an object"):
        game.process(
            {"type": "run_routes", "entity": "C&N", "entity_type": "corporation", "routes": routes},
            by=game.active_players()[0],
        )
    assert game.snapshot() == before


def test_1860_a_turn_sells_one_company_in_one_block() -> None:
    # P1 sold 10% of NGStL and then another 10% in the same turn: 18xx.games refuses the second
    # sale ("Cannot sell shares of NGStL"; rules 5.6: one block per company and turn), we took it
    game = _replay("fuzz-1860-393430179.json", upto=148)
    second = {
        "type": "sell_shares",
        "entity": 1,
        "entity_type": "player",
        "shares": ["NGStL_2"],
        "percent": 10,
    }
    assert game.actions[-1]["shares"] == ["NGStL_0"] and game.actions[-1]["type"] == "sell_shares"
    with pytest.raises(IllegalAction, match="already sold NGStL this turn"):
        game.process(second, by=1)
    assert not any(c.action.get("shares") == ["NGStL_2"] for c in game.legal_actions(1))
    game.process({"type": "pass", "entity": 1, "entity_type": "player"}, by=1)


def test_1860_the_next_company_operates_after_one_goes_bankrupt_in_its_turn() -> None:
    # S&C (£14, no route) withholds to £0 and is bankrupt; BHI&R, next in the order, was passed
    # over (its turn skipped to Buy Trains, then the stock round). 18xx.games: BHI&R lays track.
    game = _replay("fuzz-1860-1636471393.json", upto=170)
    game.process({"type": "pass", "entity": "S&C", "entity_type": "corporation"})
    assert game.corporation("S&C") in game.bankrupt_corps
    assert [c.sym for c in game.active_entities()] == ["BHI&R"]
    assert game.round.active_step().description == "Lay/Upgrade Track"


def test_1860_a_game_nobody_can_move_on_ends_at_stock_round_100() -> None:
    """P2's sale of C&N's director's certificate sends C&N bankrupt; every other company has
    gone too and both players are broke and hold nothing. Each stock round then passes with
    nobody able to act and the operating rounds have no company: the engine started such rounds
    for ever. As on 18xx.games the game ends, did not finish ("dnf"), when a round ends in stock
    round 100 or later, scored as it stands (18xx.games: P1 20, P2 26)."""
    game = _replay("fuzz-1860-8001.json", upto=-1)
    assert not game.finished and game.turn == 14 and game.legal_actions(2)
    game = _replay("fuzz-1860-8001.json")
    assert game.finished and game.game_end_reason == "dnf" and game.turn == 100
    assert all(not p.shares and not p.companies for p in game.player_list)
    assert game.result() == {1: 20, 2: 26}
    assert "Game over (did not finish by stock round 100)" in game.status_text()
    assert game.active_players() == [] and game.legal_actions(1) == game.legal_actions(2) == []


def test_1860_an_insolvent_company_pays_no_terrain() -> None:
    """S&C is insolvent (no train, leasing one): 18xx.games refuses its lay on H12, a hill
    that costs terrain, though it has the cash (free track it may still lay)."""
    game = _replay("fuzz-1860-1342122269.json", upto=263)
    snc = game.corporation("S&C")
    assert game.insolvent(snc) and snc.cash >= 40
    lay = {
        "type": "lay_tile",
        "entity": "S&C",
        "entity_type": "corporation",
        "hex": "H12",
        "tile": "741-0",
        "rotation": 1,
    }
    with pytest.raises(
        IllegalAction, match="S&C is insolvent and cannot pay .*terrain cost on H12"
    ):
        game.process(lay)
    listed = [c.action for c in game.legal_actions(game.active_players()[0])]
    assert listed and not any(a.get("hex") == "H12" for a in listed)


def test_1860_the_ferry_closes_a_private_the_bank_holds() -> None:
    """P1 sold YHC to the bank (SR 2 on); buying the Fishbourne Ferry closes every other private,
    YHC among them (the listing's try of that purchase raised AttributeError: the bank keeps no
    list of privates). The fuzzed game that found it also had a refused lay (above), so the
    closing is tried on the position before that lay."""
    game = _replay("fuzz-1860-1342122269.json", upto=263)
    yhc, ffc = game.company("YHC"), game.company("FFC")
    assert yhc.owner is game.bank and not yhc.closed
    game.close_other_companies(ffc)
    assert yhc.closed and yhc.owner is None and not ffc.closed
    assert all(c.closed for c in game.companies if c is not ffc)


def test_1860_a_company_not_floated_without_a_director_needs_no_train_for_nationalisation() -> None:
    """After the Southern Railway formed, every company with a director owned a train; NGStL,
    parred but not floated, had its director's certificate in the market and no train. On
    18xx.games it has no director either (receivership), so nationalisation began with OR 28.2
    and, every company nationalised after OR 28.3, the game ended there: P2 3273, P1 19."""
    game = _replay("fuzz-1860-2086545789.json")
    ngstl = game.corporation("NGStL")
    assert ngstl.ipoed and not ngstl.floated and not ngstl.trains and game.receivership(ngstl)
    assert game.finished and game.game_end_reason == "nationalization"
    assert game.result() == {1: 19, 2: 3273}


def test_1860_a_player_whose_only_move_is_selling_a_private_is_asked() -> None:
    """P1 bought a BHI&R share; P2 can buy and sell no share but holds BHC, which may be sold
    to the bank. 18xx.games asks P2 to act (sell BHC or pass); the engine skipped P2 and let P1
    sell BHI&R in a turn of its own, which 18xx.games refuses."""
    data = json.loads((FILES / "fuzz-1860-934197922.json").read_text())
    last = data["actions"].pop()
    game = _replay_data(data)
    assert game.active_players() == [2]
    assert {c.action["type"] for c in game.legal_actions(2) if c.action["entity"] == 2} == {
        "sell_company",
        "pass",
    }
    with pytest.raises(IllegalAction, match="not P1's turn"):
        game.process({k: v for k, v in last.items() if k != "id"})


def test_1860_a_director_certificate_the_player_could_pay_for_gives_them_a_turn() -> None:
    """IWNJ's director's certificate is in the market at 2 x £20; P1 (£47) holds no IWNJ
    share, so may not take it, and can buy nothing else. 18xx.games still counts it as a
    purchase P1 might make and asks P1 to act (P1 passes); the engine skipped P1 to P2."""
    data = json.loads((FILES / "fuzz-1860-19319163.json").read_text())
    last = data["actions"].pop()
    game = _replay_data(data)
    assert game.active_players() == [1] and game.player(1).cash == 47
    assert [c.label for c in game.legal_actions(1)] == ["Pass (Sell then buy a certificate)"]
    take = {
        "type": "buy_shares",
        "entity": 1,
        "entity_type": "player",
        "shares": ["IWNJ_0"],
        "percent": 20,
    }
    with pytest.raises(
        IllegalAction, match="only a holder of a IWNJ share may take its director's certificate"
    ):
        game.process(take)
    with pytest.raises(IllegalAction, match="not P2's turn"):
        game.process({k: v for k, v in last.items() if k != "id"})


def test_1860_a_company_floating_at_the_bottom_of_the_market_moves_up_a_cell() -> None:
    """BHI&R's price had fallen to £0 (the first cell) before it floated. 18xx.games puts a
    floating company's marker under the others by a step down and a step up: at the first cell
    the step down goes nowhere, so BHI&R floats at £7. The engine kept it at £0, so P1's sale
    next sent it bankrupt and the game ended (dnf) where 18xx.games waits for P2: 33 / 21."""
    game = _replay("fuzz-1860-1907177198.json", upto=-2)
    bhir = game.corporation("BHI&R")
    assert bhir.floated and bhir.share_price.price == 7
    game = _replay("fuzz-1860-1907177198.json")
    assert not game.finished and game.active_players() == [2]
    assert game.result() == {1: 21, 2: 33}


def test_1830_a_bankruptcy_declared_before_the_train_step_sells_no_share() -> None:
    """NYNH's president (player 2) goes bankrupt as NYNH's turn starts, before its track step:
    the 18xx.games engine sells a bankrupt player's shares only as the step under way allows
    sales, so player 2 keeps 20% of C&O and the game ends 633 / 320 / 437 there."""
    game = _replay("fuzz-1830-1215378193.json")
    assert game.finished and game.result() == {1: 633, 2: 320, 3: 437}


@pytest.mark.parametrize(
    "name, refused",
    [
        ("fuzz-1830-124138362.json", "NYNH may only spend between $437 and $450 on B&O's 5 train"),
        (
            "fuzz-1830-831656024.json",
            "ERIE cannot buy NYC's 5-train now: after the shares sold this turn "
            "it would have to pay at least $702",
        ),
    ],
)
def test_1830_shares_sold_for_a_train_bound_what_is_paid_to_another_company(
    name: str, refused: str
) -> None:
    """A president who sold shares for the company's train may still see it buy another company's
    train that turn, but for no less than the cash the last sale was needed for (18xx.games),
    even once a train was bought: the fuzzer's cheaper purchase is refused there and here."""
    data = json.loads((FILES / name).read_text())
    last = data["actions"][-1]
    data["actions"] = data["actions"][:-1]
    game = _replay_data(data)
    with pytest.raises(IllegalAction, match=re.escape(refused)):
        game.process({k: v for k, v in last.items() if k != "id"})


def test_1860_a_company_floating_where_no_home_tile_is_left_passes_its_home_track() -> None:
    """NGStL floated on G9, whose blank city takes only tile 746, and every 746 was laid
    elsewhere. 18xx.games then lets the company pass its home lay (lay_tile or pass); the engine
    offered only the lay, so nobody could move. Passing hands the stock round on to P2."""
    game = _replay("fuzz-1860-454344028.json")
    assert game.corporation("NGStL").home == "G9" and not game.board.available_tile_ids("746")
    assert [c.action for c in game.legal_actions(1)] == [
        {"type": "pass", "entity": "NGStL", "entity_type": "corporation"}
    ]
    with pytest.raises(IllegalAction):
        game.process(
            {
                "type": "lay_tile",
                "entity": "NGStL",
                "entity_type": "corporation",
                "hex": "G9",
                "tile": "746",
                "rotation": 0,
            }
        )
    game.process({"type": "pass", "entity": "NGStL", "entity_type": "corporation"})
    assert game.active_players() == [2] and not game.round.pending_tracks


def test_1860_a_private_bought_from_phase_6_keeps_the_buyer_s_turn_to_exchange() -> None:
    """In phase 7 P2 buys CMH from the bank. 18xx.games keeps P2's turn (pass, or exchange CMH
    for its C&N share first); the engine handed the turn to P1, whose purchase 18xx.games then
    refused ("Blocking step Sell then Buy Certificates cannot process action buy_shares")."""
    data = json.loads((FILES / "fuzz-1860-139381312.json").read_text())
    refused = data["actions"].pop()
    game = _replay_data(data)
    assert game.phases.name == "7" and game.company("CMH").owner is game.player(2)
    assert game.active_players() == [2]
    assert sorted(c.action["type"] for c in game.legal_actions(2)) == ["buy_shares", "pass"]
    assert game.turn_info()[0].compulsory == (
        "P2 has bought and must pass to end the turn, or first exchange CMH for a C&N share"
    )
    assert [c.label for c in game.legal_actions(2) if c.action["type"] == "buy_shares"] == [
        "Exchange CMH for a 10% C&N share"
    ]
    with pytest.raises(IllegalAction, match="not P1's turn"):
        game.process({k: v for k, v in refused.items() if k != "id"})
    game.process({"type": "pass", "entity": 2, "entity_type": "player"})
    assert game.active_players() == [1]


def test_1860_a_trainless_director_certificate_is_halved_whole() -> None:
    """The game ends on the stock market with S&C trainless at £31. P2's S&C director's
    certificate (20%) scores half of £62, £31, as on 18xx.games (P2 £9,943); halving each share
    (2 x £15) scored £1 less. A single S&C share scores £15."""
    game = _replay("fuzz-1860-558086714.json")
    sc = game.corporation("S&C")
    assert game.finished and not sc.trains and sc.share_price.price == 31
    director = next(s for s in game.player(2).shares if s.corp is sc)
    assert director.president and director.percent == 20 and game.certificate_value(director) == 31
    assert game.result() == {2: 9943, 3: 16, 1: 15}


def test_1860_parring_the_company_of_one_s_private_from_phase_6_keeps_the_turn_to_exchange() -> (
    None
):
    """A reference game in phase 8: P3 holds YHC and pars FYN, the company YHC is exchanged into.
    As on 18xx.games (checked on this position), P3 keeps the turn: pass, or exchange YHC first."""
    data = json.loads(game_path("random/1860", "1860_4p_r3_s214").read_text())
    data["actions"] = data["actions"][:515]
    game = io.load(data).game
    assert game.phases.name == "8" and game.active_players() == [3]
    game.process(
        {
            "type": "par",
            "entity": 3,
            "entity_type": "player",
            "corporation": "FYN",
            "share_price": "82,0,22",
        }
    )
    assert game.active_players() == [3]
    assert [c.label for c in game.legal_actions(3)] == [
        "Pass (Sell then buy a certificate)",
        "Exchange YHC for a 10% FYN share",
    ]


def test_1860_a_share_sale_that_lifts_the_players_over_10000_breaks_the_bank() -> None:
    """In stock round 23 P1's sale takes the players' cash to £10,337: the bank breaks there (as
    on 18xx.games, which checks after every sale, not only after dividends), so the game ends
    with OR 23.1. The engine broke it only on a dividend and went on into OR 23.2."""
    game = _replay("fuzz-1860-1320165157.json", upto=914)
    assert game.bank_broken and game.round.__class__.__name__ == "StockRound1860"
    assert sum(p.cash for p in game.player_list) == 10337
    game = _replay("fuzz-1860-1320165157.json")
    assert game.finished and game.game_end_reason == "bank"
    assert game.result() == {2: 8093, 1: 7891}


@pytest.mark.parametrize(
    "shares, percent, refused",
    [
        (
            ["NGStL_0"],
            10,
            "a sale with the NGStL director's certificate includes all of P2's NGStL shares",
        ),
        (["NGStL_2", "NGStL_0"], 10, "10% cannot be sold out of certificates making 30%"),
        (["NGStL_2"], 30, "30% cannot be sold out of certificates making 10%"),
    ],
)
def test_a_sale_must_be_one_well_formed_bundle(shares: list, percent: int, refused: str) -> None:
    """P2 holds NGStL's director's certificate (20%) and NGStL_2; P1 holds 30%. Selling the
    certificate alone as 10% raised IndexError (the presidency swap looked for a share the
    market did not have). Sales are now all the certificates named, or, with the director's
    certificate and all the player's other shares, that less up to 10%: 18xx.games' bundles."""
    from engine.eighteen.states import public_state

    game = _replay("fuzz-1860-1233433060.json")
    before = public_state(game)
    sale = {"type": "sell_shares", "entity": 2, "entity_type": "player"}
    with pytest.raises(IllegalAction, match=re.escape(refused)):
        game.process({**sale, "shares": shares, "percent": percent})
    assert public_state(game) == before
    game.process({**sale, "shares": ["NGStL_2", "NGStL_0"], "percent": 20})
    assert game.corporation("NGStL").owner is game.player(1)
    assert game.player(2).percent_of(game.corporation("NGStL")) == 10


def test_1860_a_company_whose_stops_no_legal_route_joins_runs_nothing() -> None:
    # VYSC (5+3 train, station at E9) reaches F2 and F4 only through D4 twice, and a route
    # may not re-enter a hex: it must act, so running nothing is its move (was: no legal move)
    game = _replay("fuzz-1860-1778042522.json")
    vysc = game.corporation("VYSC")
    assert game.best_routes(vysc) == (0, [])
    labels = [c.label for c in game.legal_actions(1)]
    assert labels == ["Run best routes for £0"]
    cash = vysc.cash
    game.process(
        {"type": "run_routes", "entity": "VYSC", "entity_type": "corporation", "routes": []}, 1
    )
    assert vysc.cash == cash and all(game.legal_actions(p) for p in game.active_players())
    data = json.loads((FILES / "fuzz-1860-1778042522.json").read_text())
    again = _replay_data(data, options={"re_enter_hexes": True})
    assert again.best_routes(again.corporation("VYSC"))[0] > 0  # re-entering D4, it runs
