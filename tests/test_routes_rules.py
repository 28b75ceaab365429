"""Checking and valuing run_routes routes (1830 spec §10) on positions built by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.eighteen.board import Board, Distance
from engine.eighteen.board.graph import Node
from engine.eighteen.board.routes import run_problem
from engine.eighteen.board.tiles import NodeKind, Revenue
from engine.errors import IllegalAction, InvalidAction

DATA = Path(__file__).resolve().parent.parent / "engine" / "data" / "1830.json"


@pytest.fixture(scope="module")
def title() -> dict:
    return json.loads(DATA.read_text())


def build(
    title: dict, tokens: list[tuple[str, str, int]], tiles: list[tuple[str, str, int]]
) -> Board:
    board = Board(title)
    for hex_id, tile, rotation in tiles:
        board.lay("X", hex_id, tile, rotation)
    for corp, hex_id, city in tokens:
        board.place_token(corp, hex_id, city)
    return board


def route(train: str, *chains: list[str], **extra) -> dict:
    return {"train": train, "connections": [list(c) for c in chains], **extra}


@pytest.fixture
def baltimore(title: dict) -> Board:
    """B&O in Baltimore (30), Washington 57 (20) joined to it and to Deep South (30/40)."""
    return build(title, [("B&O", "I15", 0)], [("J14", "57-0", 0)])


def refused(board: Board, routes: list[dict], trains: dict, phase: str = "yellow") -> str:
    with pytest.raises(IllegalAction) as info:
        board.route_revenues("B&O", routes, trains, phase_color=phase)
    return str(info.value)


def test_revenue_is_the_sum_of_the_stops(baltimore: Board) -> None:
    assert baltimore.route_revenues(
        "B&O", [route("2-0", ["I15", "J14"])], {"2-0": 2}, phase_color="yellow"
    ) == [50]
    three = route("3-0", ["I15", "J14"], ["J14", "K13"])
    assert baltimore.route_revenues("B&O", [three], {"3-0": 3}, phase_color="yellow") == [80]
    assert baltimore.route_revenues("B&O", [three], {"3-0": 3}, phase_color="green") == [80]
    assert baltimore.route_revenues("B&O", [three], {"3-0": 3}, phase_color="brown") == [90]
    assert baltimore.route_revenues("B&O", [three], [("3-0", None)], phase_color="brown") == [90]
    listed = route("2-0", ["J14", "I15"], nodes=["J14-0", "I15-0"])
    assert baltimore.route_revenues("B&O", [listed], {"2-0": 2}, phase_color="yellow") == [50]


def test_route_refusals_name_the_train_and_the_rule(baltimore: Board) -> None:
    three = route("2-0", ["I15", "J14"], ["J14", "K13"])
    assert (
        refused(baltimore, [three], {"2-0": 2}) == "train 2-0: 3 stops are too many for a 2-train"
    )
    assert (
        refused(baltimore, [route("2-0", ["J14", "K13"])], {"2-0": 2})
        == "train 2-0: the route must include a station of B&O"
    )
    both = [route("2-0", ["I15", "J14"]), route("2-1", ["I15", "J14"])]
    assert (
        refused(baltimore, both, {"2-0": 2, "2-1": 2})
        == "train 2-1: track near I15, J14 is already used by B&O's trains"
    )
    twice = [route("2-0", ["I15", "J14"]), route("2-0", ["J14", "K13"])]
    assert refused(baltimore, twice, {"2-0": 2}) == "train 2-0 can run only once"
    assert "there is no track joining stops along I15-I17" in refused(
        baltimore, [route("2-0", ["I15", "I17"])], {"2-0": 2}
    )


def test_malformed_routes_are_invalid(baltimore: Board) -> None:
    for bad, reason in (
        ([route("9-0", ["I15", "J14"])], "B&O has no train 9-0"),
        ([{"train": "2-0"}], "needs a 'train' id and a non-empty list"),
        ([route("2-0", ["I15", "J14"], nodes=["I15-0", "K13-0"])], "listed stops"),
    ):
        with pytest.raises(InvalidAction, match=reason):
            baltimore.route_revenues("B&O", bad, {"2-0": 2}, phase_color="yellow")
    # one hex names track between two stops inside it (18xx.games, e.g. 1860's Cowes); I15 has none
    with pytest.raises(IllegalAction, match="no track joining stops along I15"):
        baltimore.route_revenues("B&O", [route("2-0", ["I15"])], {"2-0": 2}, phase_color="yellow")


def test_a_full_city_ends_a_route_but_cannot_be_passed(baltimore: Board) -> None:
    baltimore.place_token("PRR", "J14", 0)
    three = route("3-0", ["I15", "J14"], ["J14", "K13"])
    assert (
        refused(baltimore, [three], {"3-0": 3})
        == "train 3-0: a route cannot run through J14: its circles are all taken by other companies"
    )
    assert baltimore.route_revenues(
        "B&O", [route("3-0", ["I15", "J14"])], {"3-0": 3}, phase_color="yellow"
    ) == [50]


def test_an_offboard_area_ends_a_route(title: dict) -> None:
    # Toledo (15) joined to Chicago; Chicago also joined through E3 to Detroit (59)
    board = build(
        title, [("C&O", "F4", 0)], [("F4", "15-0", 0), ("E3", "8-0", 4), ("E5", "59-0", 1)]
    )
    through = route("4-0", ["F4", "F2"], ["F2", "E3", "E5"])
    with pytest.raises(
        IllegalAction, match="cannot run through the offboard area F2; it must end there"
    ):
        board.route_revenues("C&O", [through], {"4-0": 4}, phase_color="yellow")
    assert board.route_revenues(
        "C&O", [route("4-0", ["F4", "F2"])], {"4-0": 4}, phase_color="yellow"
    ) == [70]
    assert board.route_revenues(
        "C&O", [route("4-0", ["F4", "F2"])], {"4-0": 4}, phase_color="brown"
    ) == [100]


def test_canada_is_one_area_over_two_hexes(title: dict) -> None:
    board = build(title, [("CPR", "B10", 0)], [("B10", "15-0", 2)])
    with pytest.raises(IllegalAction, match="may visit the Canada area only once"):
        board.route_revenues(
            "CPR", [route("3-0", ["A9", "B10"], ["B10", "A11"])], {"3-0": 3}, phase_color="yellow"
        )
    assert board.route_revenues(
        "CPR",
        [route("3-0", ["A9", "B10"]), route("3-1", ["B10", "A11"])],
        {"3-0": 3, "3-1": 3},
        phase_color="yellow",
    ) == [60, 60]


def test_both_new_york_cities_on_one_route(title: dict) -> None:
    """The rule book's note: in from the NE to upper New York, out NW, back into lower New York from the W."""
    board = build(
        title,
        [("NYNH", "G19", 0)],
        [("G19", "62-0", 0), ("F20", "1-0", 0), ("F18", "7-0", 5), ("G17", "2-0", 2)],
    )
    loop = route("4-0", ["F20", "G19"], ["G19", "F18", "G17"], ["G17", "G19"])
    assert board.route_revenues("NYNH", [loop], {"4-0": 4}, phase_color="brown") == [180]
    best, routes = board.best_routes("NYNH", [("4-0", 4)], phase_color="brown")
    assert best == 180 and routes[0]["nodes"] == ["G19-0", "G17-1", "G19-1", "F20-1"]


def test_a_stop_may_not_be_counted_twice() -> None:
    city = Node(0, "E19", 0, NodeKind.CITY, Revenue.parse(30), (), ("NYC",))
    town = Node(1, "F20", 0, NodeKind.TOWN, Revenue.parse(10), (), ())
    assert run_problem([city, town, city], "NYC") == "the route stops at E19-0 twice"
    assert run_problem([city], "NYC") == "a route needs at least two stops"
    assert run_problem([city, town], "NYC") is None


def test_train_distances() -> None:
    assert Distance.of(4) == Distance(4) and Distance.of(None).allows(30, 9)
    assert Distance(4).allows(3, 1) and not Distance(4).allows(3, 2)  # 1830: towns count
    plus = Distance.of((2, 1))  # 1860's 2+1
    assert (
        plus.allows(2, 1) and plus.allows(1, 2) and not plus.allows(3, 0) and not plus.allows(2, 2)
    )
    assert (plus.describe(), Distance(None).describe(), Distance(6).max_stops) == (
        "2+1",
        "unlimited",
        6,
    )
