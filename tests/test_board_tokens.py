"""Station tokens on the 1830 map (spec §9): free circles, reach, one per hex, home reservations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.eighteen.board import Board
from engine.errors import IllegalAction, InvalidAction

DATA = Path(__file__).resolve().parent.parent / "engine" / "data" / "1830.json"


@pytest.fixture(scope="module")
def title() -> dict:
    return json.loads(DATA.read_text())


@pytest.fixture
def board(title: dict) -> Board:
    return Board(title)


def refused(board: Board, corp: str, ref: str, slot: int | None = None, **kwargs) -> str:
    with pytest.raises(IllegalAction) as info:
        board.check_token(corp, ref, slot, **kwargs)
    return str(info.value)


def test_home_circles_are_reserved_until_used(board: Board) -> None:
    assert refused(board, "NYC", "I15-0-0", need_connection=False) == (
        "NYC cannot place a token in I15 (city I15-0-0): the last free circle is reserved for B&O's home station"
    )
    assert board.check_token("B&O", "I15-0-0", need_connection=False) == ("I15", 0)
    board.place_token("B&O", "I15", 0)
    assert "the city has no free circle" in refused(board, "NYC", "I15-0-0", need_connection=False)


def test_erie_holds_either_city_of_its_home(board: Board) -> None:
    assert "E11 is reserved for ERIE's home station" in refused(
        board, "NYC", "E11-0-1", need_connection=False
    )
    board.place_token("ERIE", "E11", 0)
    assert board.check_token("NYC", "E11-0-1", need_connection=False) == ("E11", 1)
    assert "no free circle" in refused(board, "NYC", "E11-0-0", need_connection=False)


def test_a_reservation_follows_its_city_through_upgrades(board: Board) -> None:
    assert board.reserved_city("NYNH", "G19") == 0
    board.lay("PRR", "G19", "54-0", 0)  # NYNH's city (NE side) becomes city 1
    assert board.reserved_city("NYNH", "G19") == 1 and board.reserved_city("ERIE", "E11") is None
    assert "reserved for NYNH's home station" in refused(
        board, "PRR", "54-0-1", need_connection=False
    )
    assert board.check_token("PRR", "54-0-0", need_connection=False) == ("G19", 0)
    # the caller may state the reservations itself instead
    assert board.check_token("PRR", "54-0-1", need_connection=False, reserved={}) == ("G19", 1)
    assert "G19 is reserved for NYNH" in refused(
        board, "PRR", "54-0-0", need_connection=False, reserved={"G19": [(-1, "NYNH")]}
    )
    board.place_token("PRR", "G19", 0)
    assert "PRR already has a token on G19" in refused(
        board, "PRR", "54-0-1", need_connection=False, reserved={}
    )


def test_tokens_need_track_from_a_station_not_passing_full_cities(board: Board) -> None:
    board.place_token("B&O", "I15", 0)
    for hex_id, tile, rotation in (
        ("I17", "7-0", 1),
        ("H16", "57-0", 2),
        ("G15", "8-0", 3),
        ("F16", "57-1", 0),
    ):
        board.lay("B&O", hex_id, tile, rotation)  # I15 - I17 - H16 - G15 - F16
    assert board.legal_token_cities("B&O") == ["57-1-0", "57-0-0"]  # F16, H16: map order
    assert board.check_token("B&O", "57-1-0") == ("F16", 0)
    assert refused(board, "NYC", "57-1-0").endswith("NYC's track does not reach it")
    board.place_token("PRR", "H16", 0)  # Lancaster is now full
    assert refused(board, "B&O", "57-1-0").endswith("B&O's track does not reach it")
    assert board.legal_token_cities("B&O") == []


def test_circles_by_number(board: Board) -> None:
    board.place_token("B&O", "I15", 0)
    board.lay("B&O", "J14", "57-0", 0)
    board.lay("B&O", "J14", "14-0", 0)
    board.place_token("B&O", "J14", 0, 1)
    assert board.tokens()["J14"] == [(0, 1, "B&O")]
    assert "circle 1 is not free" in refused(board, "PRR", "14-0-0", 1, need_connection=False)
    assert board.check_token("PRR", "14-0-0", need_connection=False) == ("J14", 0)


def test_a_closing_company_leaves_the_map(board: Board) -> None:
    board.place_token("B&O", "I15", 0)
    board.remove_tokens("B&O")
    assert board.tokens() == {}
    assert board.check_token("NYC", "I15-0-0", need_connection=False) == ("I15", 0)


def test_city_references(board: Board) -> None:
    assert board.locate_city("D14-0-0") == ("D14", 0)
    board.lay("B&O", "J14", "57-2", 0)
    assert board.city_ref("J14", 0) == "57-2-0"
    assert board.locate_city("57-2-0") == ("J14", 0)
    for bad, reason in (
        ("nonsense", "not a city reference"),
        ("99-0-0", "tile 99-0 is not on the map"),
        ("D14-0-5", "has no city 5"),
        ("J14-0-0", "tile J14-0 is not on the map"),
    ):
        with pytest.raises(InvalidAction, match=reason):
            board.check_token("B&O", bad)
