"""Laying and upgrading track on the 1830 map (spec §8, 18xx.games tile-lay checks)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.eighteen.board import Board
from engine.errors import IllegalAction, InvalidAction

DATA = Path(__file__).resolve().parent.parent / "engine" / "data" / "1830.json"
YELLOW = {"yellow"}
ALL = {"yellow", "green", "brown"}


@pytest.fixture(scope="module")
def title() -> dict:
    return json.loads(DATA.read_text())


@pytest.fixture
def board(title: dict) -> Board:
    b = Board(title)
    for corp, hex_id, city in (("B&O", "I15", 0), ("NYC", "E19", 0), ("PRR", "H12", 0)):
        b.place_token(corp, hex_id, city)
    return b


def refused(call, *args, **kwargs) -> str:
    with pytest.raises(IllegalAction) as info:
        call(*args, **kwargs)
    return str(info.value)


def test_a_city_hex_needs_a_city_tile(board: Board) -> None:
    assert (
        refused(board.check_lay, "NYC", "E19", "9-0", 0, colors=YELLOW)
        == "NYC cannot lay tile 9 on E19: the hex needs a city tile"
    )
    assert "needs a town tile" in refused(
        board.check_lay, "B&O", "B20", "9-0", 0, colors=YELLOW, need_connection=False
    )
    assert "needs a plain track tile" in refused(
        board.check_lay, "B&O", "I17", "57-0", 1, colors=YELLOW
    )
    assert "labelled OO" in refused(
        board.check_lay, "B&O", "E11", "14-0", 0, colors=ALL, need_connection=False
    )
    assert "green tile cannot replace a white one" in refused(
        board.check_lay, "NYC", "E19", "14-0", 0, colors=ALL
    )


def test_first_lays_and_terrain_cost(board: Board) -> None:
    assert board.check_lay("NYC", "E19", "57-0", 0, colors=YELLOW) == 0
    assert board.check_lay("B&O", "I17", "9-0", 1, colors=YELLOW) == 80  # water
    assert board.check_lay("B&O", "J14", "57", 0, colors=YELLOW) == 80  # a name picks a free copy
    board.lay("B&O", "I17", "9-0", 1)
    # upgrading is free: 23 keeps the 1-4 straight with a branch to H16
    assert board.check_lay("B&O", "I17", "23-0", 4, colors=ALL) == 0
    board.lay("B&O", "I17", "23-0", 4)
    assert board.laid_tiles() == {"I17": ("23", 4)}
    assert "9-0" in board.available_tile_ids("9")  # the old tile is back


def test_track_may_not_leave_the_map_or_cross_blocked_sides(board: Board) -> None:
    assert refused(board.check_lay, "B&O", "I17", "9-0", 0, colors=YELLOW).endswith(
        "with rotation 0 track would run off the map or into a blocked side (side 0)"
    )
    # F8's NW side is an impassable border (E7|F8)
    assert "blocked side (side 2)" in refused(
        board.check_lay, "C&O", "F8", "8-0", 0, colors=YELLOW, need_connection=False
    )
    # E11's west side faces the blank side of gray E9
    assert "blocked side (side 1)" in refused(
        board.check_lay, "ERIE", "E11", "59-0", 1, colors=ALL, need_connection=False
    )
    assert board.check_lay("ERIE", "E11", "59-0", 0, colors=ALL, need_connection=False) == 0


def test_upgrades_keep_the_old_track(board: Board) -> None:
    board.lay("NYC", "E19", "57-0", 0)  # sides 0 and 3
    assert board.check_lay("NYC", "E19", "14-0", 0, colors=ALL) == 0
    assert "rotation 1 does not keep the existing track" in refused(
        board.check_lay, "NYC", "E19", "14-0", 1, colors=ALL
    )
    assert (
        refused(board.check_lay, "NYC", "E19", "63-0", 0, colors=ALL)
        == "NYC cannot lay tile 63 on E19: a brown tile cannot replace a yellow one"
    )


def test_connection_is_required_unless_waived(board: Board) -> None:
    assert (
        refused(board.check_lay, "NYC", "I17", "9-0", 1, colors=YELLOW)
        == "NYC cannot lay tile 9 on I17: NYC's track does not reach the hex"
    )
    assert "C&O has no station on the map" in refused(
        board.check_lay, "C&O", "I17", "9-0", 1, colors=YELLOW
    )
    # I17 is reached through its W side only: a curve from NW to NE does not touch it
    assert "the new track does not connect to B&O's track" in refused(
        board.check_lay, "B&O", "I17", "7-0", 2, colors=YELLOW
    )
    assert board.check_lay("CPR", "B20", "3-0", 1, colors=YELLOW, need_connection=False) == 0


def test_other_refusals(board: Board) -> None:
    assert "blocked by a private company" in refused(
        board.check_lay, "B&O", "I17", "9-0", 1, colors=YELLOW, blocked_hexes={"I17"}
    )
    assert "green tiles are not available now" in refused(
        board.check_lay, "B&O", "I15", "53-0", 0, colors=YELLOW
    )
    assert "red hexes cannot be built on" in refused(
        board.check_lay, "B&O", "K13", "9-0", 0, colors=YELLOW
    )
    board.lay("B&O", "I17", "9-0", 1)
    assert "tile 9-0 is already on I17" in refused(
        board.check_lay, "PRR", "H14", "9-0", 1, colors=YELLOW
    )
    with pytest.raises(InvalidAction, match="no hex Z99"):
        board.check_lay("B&O", "Z99", "9-1", 0, colors=YELLOW)
    with pytest.raises(InvalidAction, match="no tile 999"):
        board.check_lay("B&O", "I17", "999", 0, colors=YELLOW)
    with pytest.raises(InvalidAction, match="rotation must be 0 to 5"):
        board.check_lay("PRR", "H14", "9-1", 6, colors=YELLOW)


def test_legal_lays_lists_every_connected_rotation(board: Board) -> None:
    # B&O's Baltimore opens to J14 (SW) and I17 (E); J16 and J18 are off the map
    assert board.legal_lays("B&O", colors=YELLOW) == [
        ("I17", "7", 1),
        ("I17", "8", 1),
        ("I17", "9", 1),
        ("I17", "9", 4),
        ("J14", "57", 0),
        ("J14", "57", 3),
    ]
    assert board.legal_lays("B&O", colors=YELLOW, hexes=["J14"]) == [
        ("J14", "57", 0),
        ("J14", "57", 3),
    ]
    assert ("F20", "1", 0) in board.legal_lays(
        "B&O", colors=YELLOW, need_connection=False, hexes=["F20"]
    )
    assert board.legal_lays("B&O", colors=YELLOW, blocked_hexes={"I17", "J14"}) == []


def test_new_york_tokens_follow_their_track(board: Board) -> None:
    board.place_token("NYNH", "G19", 0)  # New York, the city on the NE side
    assert (
        board.check_lay("NYNH", "G19", "54-0", 0, colors=ALL) == 80
    )  # water, first lay on the printed tile
    board.lay("NYNH", "G19", "54-0", 0)  # 54 at 0: city 0 on sides 0-1, city 1 on 2-3
    assert board.tokens()["G19"] == [(1, 0, "NYNH")]
    assert board.city_ref("G19", 1) == "54-0-1"
    board.lay("NYNH", "G19", "62-0", 0)
    assert board.tokens()["G19"] == [(1, 0, "NYNH")]
    assert board.tile_on("G19").cities[1].slots == 2
    assert board.available_tile_ids("54") == ["54-0"]  # 54 is back in the supply


def test_new_york_has_one_legal_rotation(title: dict) -> None:
    b = Board(title)
    b.place_token("NYNH", "G19", 0)
    # G21 and H20 are off the map: only rotation 0 keeps both printed tracks on the board
    assert "blocked side (side 4, 5)" in refused(b.check_lay, "NYNH", "G19", "54-0", 3, colors=ALL)
    assert b.legal_lays("NYNH", colors=ALL, hexes=["G19"]) == [("G19", "54", 0)]


def test_track_on_a_trackless_double_city_lifts_its_tokens(board: Board) -> None:
    board.place_token("ERIE", "E11", 0)
    assert board.lay("ERIE", "E11", "59-0", 0) == ["ERIE"]
    assert "E11" not in board.tokens()
    assert board.lay("NYC", "E19", "57-0", 0) == []  # a single city keeps its token
    assert board.tokens()["E19"] == [(0, 0, "NYC")]


def test_oo_upgrade_keeps_each_city_on_its_own_track(board: Board) -> None:
    board.lay("ERIE", "E11", "59-0", 0)  # city 0 on side 0, city 1 on side 2
    board.place_token("ERIE", "E11", 1)
    # 64 at 0 would join both old cities into its city 0 and leave city 1 new and unconnected
    assert "rotation 0 does not keep the existing cities connected" in refused(
        board.check_lay, "ERIE", "E11", "64-0", 0, colors=ALL
    )
    assert board.check_lay("ERIE", "E11", "64-0", 2, colors=ALL) == 0  # city 0: 2-4, city 1: 5-0
    board.lay("ERIE", "E11", "64-0", 2)
    assert board.tokens()["E11"] == [(0, 0, "ERIE")]
    assert board.city_ref("E11", 0) == "64-0-0"


def test_track_does_not_reach_through_an_offboard(board: Board) -> None:
    board.lay("B&O", "J14", "57-0", 0)  # Washington: Baltimore to Deep South
    assert board.network().node_at[("K13", 0)] in board.reach("B&O").nodes
    assert board.reach("B&O").edges.get("J12", set()) == set()  # Deep South's other side
    assert (
        refused(board.check_lay, "B&O", "J12", "9-0", 2, colors=YELLOW)
        == "B&O cannot lay tile 9 on J12: B&O's track does not reach the hex"
    )
