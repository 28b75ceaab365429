"""Naming points by the board image's cells: the names the image shows (the snapshot's `cells`,
drawn by render/strings.py) are the names typed moves accept, and each names its centre."""

from __future__ import annotations

import pytest

from engine.errors import InvalidAction
from engine.game import PlayerInfo
from engine.strings import grid
from engine.strings.game import StringRailway

SQUARE = (0.0, 0.0, 85.0, 85.0)


def game(players: int = 4, **options) -> StringRailway:
    return StringRailway([PlayerInfo(f"p{i}", f"P{i}") for i in range(1, players + 1)], options, 5)


def test_the_default_square_has_columns_a_to_k_without_b_and_i_and_rows_1_to_9():
    assert [c for c, _ in grid.columns(SQUARE)] == list("ACDEFGHJK")
    assert [x for _, x in grid.columns(SQUARE)] == [0, 10, 20, 30, 40, 50, 60, 70, 80]
    assert [r for r, _ in grid.rows(SQUARE)] == [str(n) for n in range(1, 10)]
    assert grid.centre("D4", SQUARE) == (25.0, 35.0)
    assert grid.centre(" k9 ", SQUARE) == (85.0, 85.0)  # K9 is the cell 80..90, 80..90
    cols, rows = grid.columns(SQUARE), grid.rows(SQUARE)
    assert grid.name((25.0, 35.0), cols, rows) == "D4"
    assert grid.name((20.0, 35.0), cols, rows) is None and grid.name((95, 5), cols, rows) is None


@pytest.mark.parametrize("text", ["B1", "S3", "I2", "O5"])
def test_station_label_letters_and_look_alikes_are_no_cells(text):
    assert not grid.is_cell(text)


def test_a_cell_off_the_board_is_refused_naming_the_cells():
    with pytest.raises(InvalidAction, match=r"no cell 'L2' on this board; cells run A1 to K9"):
        grid.centre("L2", SQUARE)
    with pytest.raises(InvalidAction, match="no cell 'A10'"):
        grid.centre("A10", SQUARE)


def test_a_column_the_area_barely_reaches_is_not_named():
    pentagon = game(5).board.area.bounds  # 110.03 wide: 0.03 cm into N
    assert pentagon[2] == pytest.approx(110.026, abs=1e-3)
    assert grid.columns(pentagon)[-1] == ("M", 100.0)
    triangle = game(3).board.area.bounds  # 113 wide: 3 cm into N
    assert grid.columns(triangle)[-1] == ("N", 110.0)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_cell_the_image_names_is_typed_as_its_centre(players):
    g = game(players)
    shown = g.snapshot()["cells"]  # what render/strings.py draws
    assert shown["size"] == 10
    for letter, x0 in shown["columns"]:
        for number, y0 in shown["rows"]:
            action = g.typed_action("p1", "place_station", {"at": f"{letter.lower()}{number}"})
            assert (action["x"], action["y"]) == (x0 + 5, y0 + 5)


def test_suggested_spots_are_named_by_cell_and_rails_take_cells_as_waypoints():
    g = game(
        4,
        river=[[42, -5], [42, 30]],
        mountain=[[55, 55], [70, 55], [70, 70], [55, 70]],
        station_order=["central"] * 10,
    )
    labels = [c.label for c in g.legal_actions("p1")]
    assert "place Central at D3 (25 25)" in labels
    assert "place Central at A1 (5 5)" not in labels  # on base B1
    g.process(g.typed_action("p1", "place_station", {"at": "D3"}))
    assert g.board.stations["S1"].centre == (25.0, 25.0)
    g.process(g.typed_action("p1", "place_station", {"at": "20 50"}))
    rail = g.typed_action("p1", "lay_rail", {"path": "long B1 A3 S2"})
    assert rail["path"] == ["B1", [5.0, 25.0], "S2"]
    g.process(rail)
    assert g.board.rails[-1].points == [(3.0, 3.0), (5.0, 25.0), (20.0, 50.0)]
