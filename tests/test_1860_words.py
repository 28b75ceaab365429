"""1860 read as a new player reads it: the money story of a payout adds up to the whole, each
part named (the players' percents, the shares paid nothing, the halt subsidy); the reference,
help page, move labels and typed routes use 1860's own words. Every expectation is taken from
the 1860 rules specification (shared/rules/1860_spec.md) or from 18xx.games' recorded states,
not from the code under test."""

from __future__ import annotations

import json
import math
import re

import pytest

from bot.core.help_text import help_text
from bot.core.results import Refused
from bot.core.routes_input import best_routes_text, parse_routes, route_example, routes_from_text
from engine.eighteen import io
from tests.reference_games import game_ids, game_path, reference_states

PAYOUT = re.compile(
    r"(?P<corp>\S+) pays out £(?P<revenue>[\d,]+) \(£[\d.,]+ a share\): (?P<paid>[^;.]*)"
    r"(?:; nothing for the (?P<unpaid>[^.]*))?\.(?: (?P=corp) also keeps its "
    r"£(?P<subsidy>\d+) halt subsidy\.)?"
)


def _said(stem: str, upto: int | None = None) -> list[tuple[int, dict, str]]:
    data = json.loads(game_path("1860", stem).read_text())
    said: list[tuple[int, dict, str]] = []
    io.load(data, upto=upto, on_state=lambda i, a, g: said.append((i, a, g.describe(a))))
    return said


@pytest.mark.parametrize("stem", game_ids("1860"))
def test_a_payout_is_told_in_parts_that_add_up(stem: str) -> None:
    """Spec 9.5: each 10% held by a player is paid 10% of the revenue (rounded up per holder,
    as 18xx.games pays it), shares in the IPO or market are paid nothing; 9.4: the halt
    subsidy goes to the company, payout or not. Percents and cash from 18xx.games' states."""
    path = game_path("1860", stem)
    data = json.loads(path.read_text())
    names = {p["id"]: p.get("name", str(p["id"])) for p in data["players"]}
    states = {s["idx"]: s for s in reference_states(path)}
    payouts, after = 0, states[-1]
    for idx, action, sentence in _said(stem):
        before, after = after, states[idx]
        if action["type"] == "run_routes":  # paid out with the run (British Rail, spec 13.3)
            corp = action["entity"]
            gained = [
                p for p in after["players"]
                if p["shares"].get(corp) and p["cash"] > _cash(before, p["id"])
            ]  # fmt: skip
            if not gained:
                continue
        elif action["type"] != "dividend" or action.get("kind") != "payout":
            continue
        told = PAYOUT.search(sentence)
        assert told is not None and told["corp"] == action["entity"], sentence
        corp, revenue = told["corp"], int(told["revenue"].replace(",", ""))
        percents = {}
        for part in re.split(r", (?=\D)", told["paid"]):
            name, amount, pct = re.fullmatch(r"(.+) £([\d,]+) for (\d+)%", part).groups()
            amount = amount.replace(",", "")
            player = next(p for p in after["players"] if names[p["id"]] == name)
            assert player["shares"].get(corp, 0) == int(pct), (sentence, player)
            assert int(amount) == math.ceil(int(pct) * revenue / 100), sentence
            percents[name] = int(pct)
        for part in (told["unpaid"] or "").split(" and the ") if told["unpaid"] else []:
            holder, pct = re.fullmatch(r"(IPO|market)'s (\d+)%", part).groups()
            percents[holder] = int(pct)
        assert sum(percents.values()) == 100, sentence  # every share of the company named
        corp_gain = after["corporations"][corp]["cash"] - before["corporations"][corp]["cash"]
        assert corp_gain == int(told["subsidy"] or 0), sentence  # the company's only money
        payouts += 1
    assert payouts > 5


def _cash(state: dict, player_id: int) -> int:
    return next(p["cash"] for p in state["players"] if p["id"] == player_id)


def test_a_run_without_revenue_says_why_the_price_fell() -> None:
    """Spec 9.5: no revenue withholds and moves the price left; the lay or token told before
    it did not move it."""
    said = {i: s for i, _, s in _said("19354", upto=60)}
    assert said[53] == (
        "C&N passes (Place a Token). C&N skips Run Routes: it has no train. "
        "Share price: C&N £100 → £90 (no revenue this turn)."
    )


def test_a_won_pick_is_told_once() -> None:
    said = {i: s for i, _, s in _said("19354", upto=12)}
    assert said[10] == (
        "Player 1 passes (Bid for the next pick, or buy/par your pick). "
        "Player 2 wins the pick for £55."
    )


def test_a_private_bought_from_the_bank_is_told_once() -> None:
    """Spec: from the first 6+3-train the Fishbourne Ferry (face value £200) is sold by the
    bank; the purchase is one sentence, saying from whom, not that sentence twice."""
    [ffc] = [s for _, a, s in _said("19354", upto=456) if a.get("company") == "FFC"]
    assert ffc == "Player 1 buys FFC from the bank for £200."


def _game(upto: int):
    return io.load(json.loads(game_path("1860", "19354").read_text()), upto=upto).game


def test_the_market_is_told_in_players_words() -> None:
    """Spec 1.6: the zones, their prices and what each does; the price moves."""
    text = _game(41).reference("market")
    assert (
        "close" not in text
        and "ignore_one_sale" not in text
        and "no special rule\n" not in (text.split("plain")[0])
    )
    assert "bankruptcy (£0): the company goes bankrupt" in text
    assert "red numbers (£7-£36, £158-£330): the first share of each sale" in text
    assert "grey (£40-£52, £56, £60, £65, £71, £78, £86, £95): a par only for a company " in text
    assert "yellow (£54, £58, £62, £68, £74, £82, £90, £100): the par prices" in text
    assert "game end (£340):" in text
    assert "withholding or no revenue: one column left" in text


def test_the_certificates_are_told_without_contradiction() -> None:
    """Spec 1.1: two players have a limit of 32, privates and the director's certificate
    count one each, and a player may own 100% of a company."""
    head = _game(41).reference("certificates").splitlines()[0]
    assert head == (
        "**Certificates** (limit 32, counting each private and each director's certificate "
        "as one; a player may hold all of a company)"
    )


def test_labels_name_tracks_and_companies_as_read() -> None:
    game = _game(40)  # C&N has floated: its director lays the home track on F2 (spec 5.5)
    labels = [c.label for c in game.legal_actions(game.active_players()[0])]
    assert labels and all("rotation" not in label for label in labels)
    assert "Lay home tile 787 on F2: track S to Cement Mills" in labels
    game = _game(57)  # IOW places its second base
    tokens = [c.label for c in game.legal_actions(game.active_players()[0]) if "token" in c.label]
    assert tokens and all(label.startswith("Place an IOW token") for label in tokens)


def test_the_help_page_shows_1860s_own_moves() -> None:
    """Each example names 1860's companies, hexes and a+b trains (spec 1.2-1.4), and none of
    1830's; its route is one the engine runs (see the next test)."""
    text = help_text("1860")
    for word in (" CS ", "PRR", "NYC", "E19", "H10", "train 3\n", "bankrupt"):
        assert word not in text, word
    assert f"/play run {route_example('1860')} — run a 2+1-train" in text
    game = _game(41)
    for sym in ("C&N", "IOW"):
        assert game.corporation(sym)
    assert {"F4", "I3", "J4"} <= set(game.board.hexes)


def test_typed_routes_take_1860s_train_names() -> None:
    """IOW's route of the recorded game's first run (Ryde to Ryde Esplanade, action 73),
    typed as a player writes it; the engine checks it whole."""
    game = _game(71)  # IOW is to run its 2+1-train
    run = {"type": "run_routes", "entity": "IOW", "entity_type": "corporation"}
    example = route_example("1860")
    for typed in (example, "2+1-train: I3 J4", "2+1 train: J4 I3", "2: I3 J4"):
        routes = routes_from_text(game, run, typed)
        assert [r["train"] for r in routes] == ["2+1-2"], typed
        assert game.is_legal({**run, "routes": routes}), typed
    with pytest.raises(Refused, match=r"IOW has no spare train '3' \(its trains: 2\+1, 2\+1\)"):
        routes_from_text(game, run, "3: I3 J4")
    with pytest.raises(Refused, match=re.escape("e.g. 2+1: I3 J4")):
        parse_routes("I3 J4", example)
    assert best_routes_text(game, "IOW") == "IOW can earn £50:\n  2+1-train: I3-J4 (£50)"
