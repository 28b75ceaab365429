"""A drawn station where the area is crowded: the listed spots are exactly the legal ones, an
off-grid gap is still offered, and a station that fits nowhere is set aside (README)."""

from __future__ import annotations

import random

import pytest

from engine.errors import GameError, IllegalAction
from engine.game import PlayerInfo
from engine.strings.game import StringRailway
from engine.strings.grid import centres

# A 20 cm square: the bases fill its corners and leave a cross 8 cm wide; the river's stub
# (x = 10, y < 2) and the mountain (a triangle at the centre, grown by the half station: the
# square 6.5..13.5) leave four gaps for a station's centre, one per arm, and no centre of the
# image's cells A1, A2, C1, C2 ((5, 5) ... (15, 15)): each lies in a base grown by a station.
CROWDED = {
    "area": [[0, 0], [20, 0], [20, 20], [0, 20]],
    "river": [[10, -1], [10, 2]],
    "mountain": [[9.5, 9.5], [10.5, 9.5], [10, 10.5]],
    "station_order": ["central"] * 10,
}
GAPS = {
    "right": (13.5, 17, 9, 11),
    "bottom": (9, 11, 5, 6.5),
    "top": (9, 11, 13.5, 17),
    "left": (3, 6.5, 9, 11),
}  # open ranges of the centre: x from..to, y from..to


def crowded() -> StringRailway:
    return StringRailway([PlayerInfo(f"p{i}", f"P{i}") for i in range(1, 5)], CROWDED, 7)


def gap_of(x: float, y: float) -> str:
    return next(name for name, (x0, x1, y0, y1) in GAPS.items() if x0 < x < x1 and y0 < y < y1)


def fits_somewhere(g: StringRailway, step: float = 0.25) -> bool:
    """Brute force, independent of the listing: any centre on a fine grid that passes."""
    for i in range(int(20 / step) + 1):
        for j in range(int(20 / step) + 1):
            try:
                g.board.check_station("central", i * step, j * step)
            except GameError:
                continue
            return True
    return False


def test_off_grid_gaps_are_offered_one_per_region():
    g = crowded()
    assert len(centres(g.board.area.bounds)) == 4
    for x, y in centres(g.board.area.bounds):
        with pytest.raises(IllegalAction):
            g.board.check_station("central", x, y)
    spots = [(c.action["x"], c.action["y"]) for c in g.legal_actions("p1")]
    assert sorted(gap_of(x, y) for x, y in spots) == sorted(GAPS)


def test_a_station_that_fits_nowhere_is_set_aside_and_play_goes_on():
    g = crowded()
    with pytest.raises(IllegalAction, match=r"still fits .* centred at \("):
        g.process({"type": "set_aside_station", "entity": "p1"})
    while True:
        listed = g.legal_actions(g.current.player)
        kinds = {c.action["type"] for c in listed}
        if "set_aside_station" in kinds:
            break
        if kinds == {"place_station"}:
            assert fits_somewhere(g)
            g.process(listed[0].action)
        else:
            g.process({"type": "forfeit_rail", "entity": g.current.player, "rail": "short"})
    assert not fits_somewhere(g)
    player = g.current.player
    assert [c.action for c in listed] == [{"type": "set_aside_station", "entity": player}]
    assert "fits nowhere" in listed[0].label
    before, stations = g.deck_pos, len(g.board.stations)
    g.process(listed[0].action)
    assert g.pending == [] and len(g.board.stations) == stations and g.deck_pos == before
    assert "set the drawn Central station aside" in g.describe(g.actions[-1])
    with pytest.raises(IllegalAction, match="no drawn station to set aside"):
        g.process({"type": "set_aside_station", "entity": player})
    assert "forfeit_rail" in {c.action["type"] for c in g.legal_actions(player)}


def test_typed_set_aside_reads_as_the_move():
    g = crowded()
    assert g.typed_action("p1", "place_station", {"at": "set aside"}) == {
        "type": "set_aside_station",
        "entity": "p1",
    }


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_listed_spots_are_exactly_the_cell_centres_that_pass_the_check(seed):
    """The listing reads the free region; the check tests one square: they must agree."""
    rng = random.Random(seed)
    g = StringRailway([PlayerInfo(i, f"P{i}") for i in range(1, 4)], {}, seed)
    compared = 0
    while not g.finished:
        player = g.current.player
        listed = g.legal_actions(player)
        if g.pending:
            legal = set()
            for x, y in centres(g.board.area.bounds):
                try:
                    g.board.check_station(g.pending[0], x, y)
                except GameError:
                    continue
                legal.add((x, y))
            spots = {
                (c.action["x"], c.action["y"])
                for c in listed
                if c.action["type"] == "place_station"
            }
            if legal:
                assert spots == legal
                compared += 1
        g.process(rng.choice(listed).action)
    assert compared >= 10


def _reference_fits(g: StringRailway, x: float, y: float) -> bool:
    """The placement rule read straight from the spec with shapely: the square lies inside
    the area and is more than 1e-9 from every string and station."""
    from shapely.geometry import LineString, box

    h = g.board.sizes.station / 2
    sq = box(x - h, y - h, x + h, y + h)
    board = g.board
    strings = [board.area.exterior, LineString(board.river), LineString(board.mountain)]
    strings += [LineString(r.points) for r in board.rails]
    squares = [
        box(s.square.x0, s.square.y0, s.square.x1, s.square.y1) for s in board.stations.values()
    ]
    return board.area.contains(sq) and all(s.distance(sq) > 1e-9 for s in strings + squares)


@pytest.mark.parametrize("seed", [4, 8])
def test_the_station_check_agrees_with_the_rule_read_with_shapely(seed):
    """check_station tests squares without shapely objects when nothing is near: at random
    centres, and at centres just touching or just clear of a station or a rail, it decides
    alike."""
    rng = random.Random(seed)
    g = StringRailway([PlayerInfo(i, f"P{i}") for i in range(1, 5)], {}, seed)
    while g.turn < 12:
        listed = g.legal_actions(g.current.player)
        rails = [c for c in listed if c.action["type"] == "lay_rail"]
        g.process(rng.choice(rails or listed).action)
    minx, miny, maxx, maxy = g.board.area.bounds
    points = [
        (rng.uniform(minx - 3, maxx + 3), rng.uniform(miny - 3, maxy + 3)) for _ in range(400)
    ]
    for st in g.board.stations.values():  # 6 apart: touching; a hair more: clear
        cx, cy = st.centre
        points += [(cx + 6, cy), (cx + 6 + 1e-6, cy), (cx - 3, cy + 6), (cx + 6, cy + 6 + 1e-6)]
    for rail in g.board.rails:  # a square's edge on a rail's bend, or just clear
        for px, py in rail.points[1:-1] + [rail.points[0]]:
            points += [(px + 3, py + 0.5), (px - 3 - 1e-6, py), (px, py + 3)]
    agree = 0
    for x, y in points:
        try:
            g.board.check_station("central", x, y)
            fits = True
        except IllegalAction:
            fits = False
        assert fits == _reference_fits(g, x, y), (x, y)
        agree += fits
    assert agree > 20  # both outcomes were tried
