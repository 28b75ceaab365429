"""Stock market movement (rule book §4.3 and its market chart) and operating order."""

from __future__ import annotations

from engine.eighteen.entities import Corporation
from engine.eighteen.market import StockMarket
from engine.g1830 import DATA
from tests.g1830_helpers import act, finish_auction_simply, new_game


def market_with(row: int, col: int) -> tuple[StockMarket, Corporation]:
    market = StockMarket(DATA["stock_market"]["grid"])
    corp = Corporation("X", "Test", "A1", None, [0], 60, [20] + [10] * 8)
    market.set_par(corp, market.cell(row, col))
    return market, corp


def price_after(row: int, col: int, *moves: str) -> int:
    market, corp = market_with(row, col)
    for move in moves:
        getattr(market, f"move_{move}")(corp)
    return corp.share_price.price


def test_par_values_are_the_six_printed_ones() -> None:
    market = StockMarket(DATA["stock_market"]["grid"])
    assert [p.price for p in market.par_prices] == [100, 90, 82, 76, 71, 67]


def test_sale_moves_down_one_row_per_share_and_stops_at_the_bottom() -> None:
    assert price_after(0, 6, "down", "down") == 82  # the rule book's B&O example: 100 -> 82
    assert price_after(10, 3, "down") == 10  # bottom of its column: no move


def test_dividend_moves_right_and_climbs_at_the_right_edge() -> None:
    assert price_after(2, 6, "right") == 90
    assert price_after(2, 15, "right") == 240  # end of row 2 ($200): up to row 1's $240
    assert price_after(0, 18, "right") == 350  # $350 is the top: nothing moves


def test_withholding_moves_left_and_drops_at_the_left_edge() -> None:
    assert price_after(1, 6, "left") == 82
    assert price_after(3, 0, "left") == 32  # left edge ($39): down to $32
    assert price_after(10, 3, "left") == 10  # no cell left nor below: stays


def test_operating_order_price_then_right_then_top_then_stack() -> None:
    """Rule book §: equal prices operate furthest right first, then higher on the chart, then
    the marker on top of a stack (B&O arrived later in PRR's cell, so it sits under PRR)."""
    market = StockMarket(DATA["stock_market"]["grid"])
    corps = {
        s: Corporation(s, s, "A1", None, [0], 60, [20] + [10] * 8)
        for s in ("ERIE", "C&O", "PRR", "B&O")
    }
    market.set_par(corps["ERIE"], market.cell(1, 5))  # $82, column 5
    market.set_par(corps["C&O"], market.cell(2, 6))  # $82, column 6, row 2
    market.set_par(corps["PRR"], market.cell(3, 7))  # $82, column 7, row 3
    market.set_par(corps["B&O"], market.cell(3, 7))  # same cell, under PRR
    order = sorted(corps.values(), key=market.operating_key)
    assert [c.sym for c in order] == ["PRR", "B&O", "C&O", "ERIE"]
    assert [c.share_price.price for c in order] == [82, 82, 82, 82]


def test_sold_out_company_rises_at_the_end_of_the_stock_round() -> None:
    g = new_game(4)
    finish_auction_simply(g, bo_par="67,5,6")
    bo = g.corporation("B&O")
    assert bo.share_price.price == 67
    bought = 0
    while bought < 8:
        pid = g.active_players()[0]
        player = g.player(pid)
        ipo = [s for s in bo.shares_of(bo) if not s.president]
        if player.percent_of(bo) < 60 and ipo:
            act(g, pid, "buy_shares", shares=[ipo[0].id], percent=10)
            bought += 1
            bo = g.corporation("B&O")
        else:
            act(g, pid, "pass")
    while g.round.name == "Stock Round":
        act(g, g.active_players()[0], "pass")
    bo = g.corporation("B&O")
    assert bo.percent_of(bo) == 0 and g.pool.percent_of(bo) == 0
    assert bo.share_price.price == 71  # one row up from $67
