"""1830 rules checked against the rule book's own worked examples (seeds/1830-rules-ru.txt)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction, NotYourTurn
from tests.g1830_helpers import act, cash, finish_auction_simply, new_game

GERALD, DAVE, BRUCE, ALEX = 1, 2, 3, 4


def test_private_auction_example_from_the_rule_book() -> None:
    """§ private auction: Gerald, Dave, Bruce and Alex; final cash and holdings as printed."""
    g = new_game(4)
    act(g, GERALD, "bid", company="CA", price=165)
    act(g, DAVE, "bid", company="BO", price=225)
    act(g, BRUCE, "bid", company="DH", price=75)
    act(g, ALEX, "bid", company="CA", price=170)
    act(g, GERALD, "bid", company="DH", price=80)
    act(g, DAVE, "bid", company="SV", price=20)  # buys the cheapest
    act(g, BRUCE, "pass")
    act(g, ALEX, "bid", company="CS", price=40)  # buys; DH goes to auction
    assert g.active_players() == [BRUCE]  # lowest bidder speaks first
    act(g, BRUCE, "bid", company="DH", price=85)
    act(g, GERALD, "bid", company="DH", price=90)
    act(g, BRUCE, "bid", company="DH", price=95)
    act(g, GERALD, "pass")
    assert g.active_players() == [GERALD]  # Alex bought last: Gerald is next
    act(g, GERALD, "bid", company="MH", price=110)
    assert g.active_players() == [GERALD]  # CA auction: Gerald's 165 is lowest
    act(g, GERALD, "bid", company="CA", price=175)
    act(g, ALEX, "bid", company="CA", price=200)
    act(g, GERALD, "bid", company="CA", price=207)
    act(g, ALEX, "bid", company="CA", price=212)
    act(g, GERALD, "pass")
    # the single bid on BO is accepted; Dave sets B&O's par
    assert g.active_players() == [DAVE]
    act(g, DAVE, "par", corporation="B&O", share_price="100,0,6")

    assert (cash(g, GERALD), cash(g, DAVE), cash(g, BRUCE), cash(g, ALEX)) == (490, 355, 505, 348)
    holdings = {p.id: sorted(c.sym for c in p.companies) for p in g.player_list}
    assert holdings == {GERALD: ["MH"], DAVE: ["BO", "SV"], BRUCE: ["DH"], ALEX: ["CA", "CS"]}
    prr, bo = g.corporation("PRR"), g.corporation("B&O")
    assert g.player(ALEX).percent_of(prr) == 10
    assert bo.owner is g.player(DAVE) and g.player(DAVE).percent_of(bo) == 20
    # Dave holds the priority deal: the stock round starts with him
    assert g.round.name == "Stock Round" and g.active_players() == [DAVE]


def test_bids_must_rise_by_five_and_be_affordable() -> None:
    g = new_game(4)
    act(g, GERALD, "bid", company="CA", price=165)
    with pytest.raises(IllegalAction, match="minimum bid for Camden & Amboy is \\$170"):
        act(g, DAVE, "bid", company="CA", price=168)
    with pytest.raises(IllegalAction, match="cannot afford"):
        act(g, DAVE, "bid", company="BO", price=700)
    with pytest.raises(NotYourTurn):
        act(g, ALEX, "pass")


def test_all_pass_lowers_schuylkill_valley_until_it_is_free() -> None:
    g = new_game(2)
    for _ in range(4):  # 4 rounds of passes: SV drops 20 -> 0
        act(g, 1, "pass")
        act(g, 2, "pass")
    sv = g.company("SV")
    assert sv.owner is not None and sv.min_bid == 0
    assert g.player(sv.owner.id).cash == 1200  # taken for free


def test_prr_par_and_sale_example() -> None:
    """Al pars PRR at $82; Kurt (who got a PRR share with CA) buys one; Al buys a third;
    Kurt sells both for $164 and PRR drops to $71."""
    g = new_game(4)
    # auction: player 1 (Al) gets SV..., player 4 (Kurt) gets CA and the free PRR share
    act(g, 1, "bid", company="SV", price=20)
    act(g, 2, "bid", company="CS", price=40)
    act(g, 3, "bid", company="DH", price=70)
    act(g, 4, "bid", company="MH", price=110)
    act(g, 1, "bid", company="CA", price=160)
    act(g, 2, "bid", company="BO", price=220)
    act(g, 2, "par", corporation="B&O", share_price="100,0,6")
    prr = g.corporation("PRR")
    assert g.player(1).percent_of(prr) == 10  # CA's buyer got the free share
    # stock round 1 (no sales in the first stock round); player 3 has priority
    assert g.active_players() == [3]
    act(g, 3, "par", corporation="PRR", share_price="82,2,6")
    act(g, 4, "pass")
    act(g, 1, "buy_shares", shares=["PRR_2"], percent=10)
    act(g, 2, "pass")
    act(g, 3, "buy_shares", shares=["PRR_3"], percent=10)
    assert g.player(3).percent_of(prr) == 30 and g.player(1).percent_of(prr) == 20
    with pytest.raises(IllegalAction, match="first stock round"):
        act(g, 4, "sell_shares", shares=["B&O_1"], percent=10)
    prr = g.corporation("PRR")  # a refused action rebuilds the game: fetch objects again
    assert prr.share_price.price == 82
    from engine.eighteen import shares as sh

    before = g.player(1).cash
    sh.sell(g, g.player(1), g.player(1).shares_of(prr), 20)
    assert g.player(1).cash - before == 164
    assert prr.share_price.price == 71
    assert prr.par_price.price == 82


def test_one_certificate_is_bought_at_a_time_from_the_ipo_or_market() -> None:
    """'A player may buy one share per turn', from the IPO or the market: two PRR shares in one
    purchase were taken, one share named twice was paid twice, and another player's share was
    taken from them (the bank paid), as the engine bought whatever certificates came."""
    from engine.eighteen.states import public_state
    from engine.errors import InvalidAction

    g = new_game(4)
    for pid, company, price in (
        (1, "SV", 20),
        (2, "CS", 40),
        (3, "DH", 70),
        (4, "MH", 110),
        (1, "CA", 160),
        (2, "BO", 220),
    ):
        act(g, pid, "bid", company=company, price=price)
    act(g, 2, "par", corporation="B&O", share_price="100,0,6")
    act(g, 3, "par", corporation="PRR", share_price="82,2,6")
    before = public_state(g)
    with pytest.raises(IllegalAction, match="certificates are bought one at a time"):
        act(g, 4, "buy_shares", shares=["PRR_2", "PRR_3"], percent=20)
    with pytest.raises(InvalidAction, match="names a share twice"):
        act(g, 4, "buy_shares", shares=["PRR_2", "PRR_2"], percent=20)
    with pytest.raises(
        IllegalAction, match="B&O_0 belongs to Dave: shares are bought from the IPO"
    ):
        act(g, 4, "buy_shares", shares=["B&O_0"], percent=20)
    assert public_state(g) == before
    act(g, 4, "buy_shares", shares=["PRR_2"], percent=10)
    assert g.player(4).percent_of(g.corporation("PRR")) == 10


def test_presidency_changes_when_another_player_holds_more() -> None:
    g = new_game(4)
    finish_auction_simply(g)
    bo = g.corporation("B&O")
    # player 4 bought BO (the last private) and holds the president's certificate
    pres = bo.owner
    assert pres is not None and pres.percent_of(bo) == 20
    others = [p for p in g.player_list if p is not pres]
    from engine.eighteen import shares as sh

    challenger = others[0]
    sh.buy(g, challenger, [bo.shares_of(bo)[0]])
    sh.buy(g, challenger, [bo.shares_of(bo)[0]])
    assert bo.owner is pres  # a tie does not change the president
    sh.buy(g, challenger, [bo.shares_of(bo)[0]])
    assert bo.owner is challenger  # more shares: presidency moves
    assert any(s.president for s in challenger.shares_of(bo))
    assert pres.percent_of(bo) == 20 and challenger.percent_of(bo) == 30
    assert all(not s.president for s in pres.shares_of(bo))


def test_dividend_example_pool_shares_pay_the_treasury() -> None:
    """President 50%, IPO 30%, pool 20%: $50 paid out gives $25, $0 for the IPO, $10 to the treasury."""
    g = new_game(4)
    finish_auction_simply(g)
    bo = g.corporation("B&O")
    pres = bo.owner
    from engine.eighteen.shares import move_share

    for s in bo.shares_of(bo)[:3]:
        move_share(s, pres)
    for s in bo.shares_of(bo)[:2]:
        move_share(s, g.pool)
    assert (pres.percent_of(bo), bo.percent_of(bo), g.pool.percent_of(bo)) == (50, 30, 20)
    from engine.eighteen.operating import Dividend

    before_p, before_c, before_bank = pres.cash, bo.cash, g.bank.cash

    class _R:  # the dividend step only reads these from its round
        revenue = 50
        routes: list = []
        round_num = 1

    step = Dividend.__new__(Dividend)
    step.game, step.round, step.passed = g, _R(), False
    step.current_entity = lambda: bo  # type: ignore[method-assign]
    step.pay(bo, "payout")
    assert pres.cash - before_p == 25
    assert bo.cash - before_c == 10
    assert before_bank - g.bank.cash == 35


def test_explain_says_why_a_kind_of_move_is_impossible() -> None:
    g = new_game(3)
    finish_auction_simply(g)
    assert g.explain("sell_shares") == "no shares may be sold in the first stock round"
    pid = g.active_players()[0]
    act(g, pid, "par", corporation="PRR", share_price="90,1,6")
    assert g.explain("buy_shares") is None or "already bought" in g.explain("buy_shares")
