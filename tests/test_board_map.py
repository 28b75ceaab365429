"""The hex grid, the 1830 map and tile data as the board reads them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.eighteen.board import Board, Orientation
from engine.eighteen.board.hexgrid import neighbour_id, opposite, split_coordinate
from engine.eighteen.board.tiles import COLORS, Revenue, path_covers

DATA = Path(__file__).resolve().parent.parent / "engine" / "data"


@pytest.fixture(scope="module")
def title() -> dict:
    return json.loads((DATA / "1830.json").read_text())


@pytest.fixture
def board(title: dict) -> Board:
    return Board(title)


def test_pointy_neighbours_follow_1830_sides() -> None:
    # 0 = SW, 1 = W, 2 = NW, 3 = NE, 4 = E, 5 = SE (1830 spec §1.7)
    assert [neighbour_id(Orientation.POINTY, "E19", s) for s in range(6)] == [
        "F18",
        "E17",
        "D18",
        "D20",
        "E21",
        "F20",
    ]


def test_flat_neighbours_follow_1860_sides() -> None:
    # 0 = S, 1 = SW, 2 = NW, 3 = N, 4 = NE, 5 = SE; letter = column (1860 spec §1.7)
    assert [neighbour_id(Orientation.FLAT, "G5", s) for s in range(6)] == [
        "G7",
        "F6",
        "F4",
        "G3",
        "H4",
        "H6",
    ]


def test_coordinates_and_opposite_sides() -> None:
    assert split_coordinate("K13") == (10, 13)
    assert neighbour_id(Orientation.POINTY, "A9", 2) is None  # no row above A
    assert [opposite(s) for s in range(6)] == [3, 4, 5, 0, 1, 2]
    with pytest.raises(ValueError):
        split_coordinate("19E")


def test_both_title_layouts_are_recognised() -> None:
    for name, orientation in (("1830.json", Orientation.POINTY), ("1860.json", Orientation.FLAT)):
        layout = json.loads((DATA / name).read_text())["map"]["layout"]
        assert Orientation.from_layout(layout) is orientation


def test_impassable_borders_cut_both_sides(board: Board) -> None:
    # E7|F8, C11|D12, C13|D12, B16|C17 (1830 spec §1.7)
    for a, side in (
        ("E7", 5),
        ("F8", 2),
        ("C11", 5),
        ("D12", 2),
        ("D12", 3),
        ("C13", 0),
        ("B16", 5),
        ("C17", 2),
    ):
        assert side not in board.hexes[a].neighbours, (a, side)
    assert board.hexes["E7"].neighbours[3] == "D8"


def test_gray_and_red_hexes_only_open_where_their_track_runs(board: Board) -> None:
    assert 1 not in board.hexes["E11"].neighbours  # E9's blank east side
    assert board.hexes["D10"].neighbours[0] == "E9"  # E9's track runs NE to D10
    assert board.hexes["B10"].neighbours[2] == "A9"  # both Canada hexes open to Barrie
    assert board.hexes["B10"].neighbours[3] == "A11"
    assert 4 not in board.hexes["E7"].neighbours  # E9's blank west side
    assert board.hexes["J14"].neighbours[0] == "K13" and board.hexes["J14"].neighbours[5] == "K15"
    assert 4 not in board.hexes["J14"].neighbours  # J16 is off the map


def test_terrain_costs_match_the_spec(board: Board) -> None:
    water = {"D6", "I17", "B18", "C19", "F4", "J14", "F22", "E5", "D10", "G19"}
    mountain = {"C17", "G15", "C21", "D22", "E17", "E21", "G13", "I11", "J10", "J12", "F16"}
    costs = {h: x.terrain_cost for h, x in board.hexes.items() if x.terrain_cost}
    assert costs == {**{h: 80 for h in water}, **{h: 120 for h in mountain}}


def test_tile_manifest_has_85_tiles(board: Board) -> None:
    counts = {
        c: sum(t.count for t in board.tile_defs.values() if t.color == c)
        for c in ("yellow", "green", "brown")
    }
    assert counts == {"yellow": 34, "green": 25, "brown": 26}


def test_upgrade_lists_agree_with_the_18xx_rule(board: Board) -> None:
    """A tile upgrades to the next colour with the same label and stops if some rotation keeps
    all its track (18xx `upgrades_to?`); the data's upgrade lists must say exactly that."""
    tiles = board.tile_defs
    for old in tiles.values():
        computed = set()
        for new in tiles.values():
            if COLORS.index(new.color) != COLORS.index(old.color) + 1 or new.label != old.label:
                continue
            if new.kind_counts() != old.kind_counts():
                continue
            if any(
                all(
                    any(path_covers(old, p, new, q) for q in new.rotated_paths(r))
                    for p in old.paths
                )
                for r in range(6)
            ):
                computed.add(new.name)
        assert computed == set(old.upgrades), old.name


def test_offboard_revenue_by_phase_colour() -> None:
    chicago = Revenue.parse({"yellow": 40, "brown": 70})
    assert [chicago.value(c) for c in ("yellow", "green", "brown", "gray")] == [40, 40, 70, 70]
    assert Revenue.parse(30).value("brown") == 30
    assert Revenue.parse({"green": 20, "brown": 40}).value("yellow") == 0


def test_printed_tiles_read_like_18xx(board: Board) -> None:
    ny = board.tile_on("G19")
    assert (ny.id, ny.name, ny.color, ny.label, ny.preprinted) == (
        "G19-0",
        "G19",
        "yellow",
        "NY",
        True,
    )
    assert [c.revenue for c in ny.cities] == ["40", "40"]
    assert ny.paths == ("edge3-city0", "edge0-city1")
    assert board.tile_on("H12").paths == ("edge1-city0", "edge4-city0", "edge1-edge4")
    assert board.tile_on("F2").offboards == ("40/70",)
    assert board.tile_on("G7").towns == ("0", "0")
    assert board.city_ref("D14", 0) == "D14-0-0"
    assert board.laid_tiles() == {} and board.tokens() == {}
    assert board.available_tile_ids("57") == ["57-0", "57-1", "57-2", "57-3"]
