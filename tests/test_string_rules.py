"""String Railway rules one at a time: setups, placing stations, rails, station effects.

Unless a test says otherwise: four players p1..p4 on the default 85 square (bases B1 (3,3),
B2 (82,3), B3 (82,82), B4 (3,82)), river x = 42 from y = -5 to y = 30, mountain the square
55..70, and a deck given per test.
"""

from __future__ import annotations

import math

import pytest
from shapely.geometry import Point

from engine.errors import IllegalAction, InvalidAction, NotYourTurn
from engine.game import PlayerInfo
from engine.strings.game import StringRailway
from engine.strings.geometry import crossings, self_contact

RIVER = [[42, -5], [42, 30]]
MOUNTAIN = [[55, 55], [70, 55], [70, 70], [55, 70]]


def new(order, players=4, **options) -> StringRailway:
    opts = {"river": RIVER, "mountain": MOUNTAIN, "station_order": order}
    opts.update(options)
    return StringRailway([PlayerInfo(f"p{i}", f"P{i}") for i in range(1, players + 1)], opts, 7)


def place(g, x, y, who=None):
    return g.process({"type": "place_station", "entity": who or g.current.player, "x": x, "y": y})


def lay(g, rail, *path, who=None):
    return g.process(
        {"type": "lay_rail", "entity": who or g.current.player, "rail": rail, "path": list(path)}
    )


def forfeit(g, rail="short"):
    g.process({"type": "forfeit_rail", "entity": g.current.player, "rail": rail})


def vps(g):
    return [c.vp for c in g.companies]


# -- setups ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "players, companies, corners, rails",
    [
        (2, 4, 4, {"short": 4, "long": 1}),
        (3, 3, 3, {"short": 4, "long": 1}),
        (4, 4, 4, {"short": 4, "long": 1}),
        (5, 5, 5, {"short": 3, "long": 1}),
    ],
)
def test_setups_by_player_count(players, companies, corners, rails):
    g = StringRailway([PlayerInfo(i, f"P{i}") for i in range(players)], {}, seed=3)
    assert len(g.companies) == companies and len(g.area_points) == corners
    assert all(c.rails == rails and c.vp == 3 for c in g.companies)
    for i, c in enumerate(g.companies):  # each base is a 6×6 square inside the area at its corner
        sq = g.board.stations[f"B{i + 1}"].square
        assert math.isclose(sq.x1 - sq.x0, 6) and math.isclose(sq.y1 - sq.y0, 6)
        assert g.board.area.buffer(1e-6).covers(sq.shape())
        assert sq.shape().distance(g.board.area.exterior) == 0 or corners != 4
        assert sq.shape().distance(Point(g.area_points[i])) < 6
    assert g.board.river_line.length <= 90 and g.board.mountain_ring.length <= 120
    assert len(g.order) == 38


def test_default_areas_have_the_specified_sides():
    for players, side in ((3, 113), (4, 85), (5, 68)):
        g = StringRailway([PlayerInfo(i, "x") for i in range(players)], {}, 0)
        pts = g.area_points + g.area_points[:1]
        assert all(math.isclose(math.dist(a, b), side, abs_tol=1e-4) for a, b in zip(pts, pts[1:]))


def test_two_persons_play_two_companies_each_with_bases_in_opposite_corners():
    g = StringRailway([PlayerInfo("ann", "Ann"), PlayerInfo("bo", "Bo")], {}, 1)
    assert [c.player for c in g.companies] == ["ann", "bo", "ann", "bo"]
    centres = [g.board.stations[c.base].centre for c in g.companies]
    assert centres[0] == (3, 3) and centres[2] == (82, 82)


def test_triangle_bases_sit_nearest_their_corner():
    g = StringRailway([PlayerInfo(i, "x") for i in range(3)], {}, 0)
    b1 = g.board.stations["B1"].square
    # the 60° corner at (0,0): the square rests on the bottom edge, its top-left corner on the
    # slanted edge y = √3 x, so x0 = 6/√3
    assert math.isclose(b1.y0, 0, abs_tol=1e-6) and math.isclose(
        b1.x0, 6 / math.sqrt(3), abs_tol=1e-4
    )


def test_generated_shapes_follow_the_seed_and_reroll():
    a = StringRailway([PlayerInfo(i, "x") for i in range(4)], {}, 11)
    b = StringRailway([PlayerInfo(i, "x") for i in range(4)], {}, 11)
    assert a.board.river == b.board.river and a.order == b.order
    a.process({"type": "reroll", "entity": 2, "what": "river"})  # seat 3 lays the river
    assert a.board.river != b.board.river
    with pytest.raises(NotYourTurn, match="lays the mountain"):
        a.process({"type": "reroll", "entity": 0, "what": "mountain"})
    a.process(
        {
            "type": "set_shape",
            "entity": 3,
            "what": "mountain",
            "points": "30 30; 45 30; 45 45; 30 45",
        }
    )
    assert a.board.mountain[:-1] == [(30, 30), (45, 30), (45, 45), (30, 45)]
    a.process(a.legal_actions(0)[0].action)
    with pytest.raises(IllegalAction, match="before the first station"):
        a.process({"type": "reroll", "entity": 2, "what": "river"})


def test_rerolls_are_bounded():
    g = StringRailway([PlayerInfo(i, "x") for i in range(3)], {"rerolls": 1}, 2)
    g.process({"type": "reroll", "entity": 1, "what": "mountain"})  # seat 2 of 3 lays both
    with pytest.raises(IllegalAction, match="already rolled again 1 times"):
        g.process({"type": "reroll", "entity": 1, "what": "mountain"})


@pytest.mark.parametrize(
    "river, message",
    [
        ([[-5, 10], [50, 10], [50, -5]], "only one end"),
        ([[10, 10], [30, 30], [30, 10], [10, 30]], "may not cross itself"),
        ([[10, 10], [10, 80], [80, 80]], "at most 90"),
    ],
)
def test_bad_rivers_are_refused(river, message):
    with pytest.raises(InvalidAction, match=message):
        new(["central"], river=river)


def test_mountain_must_be_strictly_inside():
    with pytest.raises(InvalidAction, match="strictly inside"):
        new(["central"], mountain=[[0, 40], [20, 40], [20, 60]])


def test_chaotic_area_any_simple_polygon():
    g = StringRailway([PlayerInfo(i, "x") for i in range(4)], {"chaotic": True}, 5)
    assert g.board.area.is_valid and len(g.area_points) == 4
    l_shape = "0 0; 90 0; 90 40; 40 40; 40 90; 0 90"
    g = new(
        ["central"],
        area=l_shape,
        river=[[20, -5], [20, 20]],
        mountain="5 50; 15 50; 15 60",
        long=200,
    )
    assert [g.board.stations[f"B{i}"].centre for i in (1, 2, 3, 4)] == [
        (3, 3),
        (87, 3),
        (87, 37),
        (37, 43),
    ]  # at the reflex corner (40,40) the first fit
    place(g, 20, 70)
    with pytest.raises(IllegalAction, match="leaves the play area near"):
        g.plan("p1", "long", ["B1", "B3", [60, 60], "S1"])
    with pytest.raises(InvalidAction, match="simple polygon"):
        new(["central"], area="0 0; 80 80; 80 0; 0 80")


# -- drawing and placing stations --------------------------------------------------------------
def test_first_player_draws_two_and_a_village_adds_one():
    g = new(["central", "village", "junction", "village", "village", "central"])
    assert g.pending == ["central", "village", "junction"]
    place(g, 20, 20), place(g, 20, 40), place(g, 40, 40)
    lay(g, "short", "B1", "S1")
    assert g.pending == ["village", "village"]  # a Village's extra draw happens once a turn
    place(g, 70, 20), place(g, 60, 50)
    lay(g, "short", "B2", "S4")
    assert g.pending == ["central"]


def test_stations_must_be_placed_before_the_rail():
    g = new(["central", "regional"])
    with pytest.raises(IllegalAction, match="must first place the drawn Central"):
        lay(g, "short", "B1", "B1")
    with pytest.raises(IllegalAction, match="must first place"):
        forfeit(g)


@pytest.mark.parametrize(
    "x, y, message",
    [
        (2, 40, "stick out of the play area"),
        (3, 40, "touch the edge of the play area near \\(0.0, 40.0\\)"),
        (9, 6, "touch Base B1"),
        (45, 10, "touch the river near \\(42.0, 10.0\\)"),
        (62, 52, "touch the mountain near \\(62.0, 55.0\\)"),
    ],
)
def test_station_placement_refusals(x, y, message):
    g = new(["central", "regional"])
    before = g.snapshot()
    with pytest.raises(IllegalAction, match=message):
        place(g, x, y)
    assert g.snapshot() == before


def test_stations_may_not_touch_stations_or_rails():
    g = new(["central", "regional", "suburban", "central"])
    place(g, 20, 20)
    with pytest.raises(IllegalAction, match="touch Central S1"):
        place(g, 26, 20)
    place(g, 26.5, 20)
    lay(g, "short", "B1", "S1")
    with pytest.raises(IllegalAction, match="touch rail #1"):
        place(g, 12, 12)
    place(g, 60, 20)


def test_scenic_inside_the_mountain_counts_three():
    g = new(["scenic", "scenic", "central", "central"])
    place(g, 24, 24), place(g, 62, 62)
    assert not g.board.stations["S1"].in_mountains and g.board.stations["S2"].in_mountains
    lay(g, "short", "B1", "S1")
    assert vps(g)[0] == 4  # plain Scenic: 1
    place(g, 75, 25)
    lay(g, "short", "B2", "S3")
    place(g, 62, 80)
    lay(g, "short", "B3", "S4")  # B3 (82,82) - S4 (62,80)
    forfeit(g)  # the deck is empty
    plan = g.plan("p1", "long", ["S1", [50, 58], "S2"])  # 42.8 + 12.6, into the mountain
    assert [c.vp for c in plan.changes] == [3, -1]  # Scenic in the mountains; its edge


# -- rails -------------------------------------------------------------------------------------
@pytest.fixture
def board():
    """p1 to lay (long rails 100 here, to reach the rules behind the length check):
    S1 Central (20,20), S2 Village (35,10), S3 Terminal (20,40)."""
    g = new(["central", "village", "terminal"] + ["central"] * 10, long=100)
    place(g, 20, 20), place(g, 35, 10), place(g, 20, 40)
    return g


def test_rail_refusals_say_which_rule_and_where(board):
    g = board
    cases = [
        (("short", "B1", "S3"), "40.7 long; a short rail is 30"),
        (("short", "S1", "S2"), "one end of the rail must be on P1's base"),
        (("short", "B1", [20, 30]), "ends at the free point \\(20.0, 30.0\\)"),
        (
            ("long", "B1", [30, 30], [10, 30], [20, 10], "S1"),
            "crosses itself near \\(16.7, 16.7\\)",
        ),
        (("long", "B1", [-3, 40], "S3"), "leaves the play area near"),
        (
            ("long", "B1", [18, 14], [18, 26], [22, 26], [22, 14], "S2"),
            "reaches Central S1 twice \\(again near \\(22.0, 23.0\\)\\)",
        ),
        (("long", "B1", "S3", [30, 30], "S1"), "passes through Terminal S3 near \\(18.6, 37.0\\)"),
        (("short", "B1", "S9"), "no station 'S9'"),
        (("medium", "B1", "S1"), "'short' or 'long'"),
        (("short", "B1", "B1"), "the same point"),
    ]
    before = g.snapshot()
    for args, message in cases:
        with pytest.raises((IllegalAction, InvalidAction), match=message):
            lay(g, *args)
        assert g.snapshot() == before and len(g.actions) == 3
    with pytest.raises(NotYourTurn):
        lay(g, "short", "B2", "S2", who="p2")


def test_a_rail_may_lie_slack_never_stretched():
    g = new(["central", "central"])
    place(g, 20, 20), place(g, 70, 40)
    # B1 (3,3) to S1 (20,20) via (3,30): 27 + 19.72 = 46.72: too long for a short rail
    with pytest.raises(IllegalAction, match="46.7 long; a short rail is 30"):
        lay(g, "short", "B1", [3, 30], "S1")
    lay(g, "long", "B1", [3, 30], "S1")
    assert math.isclose(g.board.rails[0].points[1][1], 30)
    assert g.current.player == "p2"
    assert g.companies[0].rails == {"short": 4, "long": 0}
    with pytest.raises(IllegalAction, match="has no long rail left"):
        g.board.plan_rail(g.companies, 0, "long", ["B1", "S1"])


def test_a_terminal_is_only_an_end():
    g = new(["terminal"] + ["central"] * 8)
    place(g, 20, 20), place(g, 20, 40)
    with pytest.raises(IllegalAction, match="passes through Terminal S1"):
        lay(g, "long", "B1", "S1", "S2")
    lay(g, "short", "B1", "S1")  # ending there: +3
    assert vps(g)[0] == 6
    for x, y in ((70, 20), (78, 45), (40, 70)):
        place(g, x, y), forfeit(g)
    place(g, 30, 60)
    lay(g, "short", "S1", "S2")  # starting there
    assert vps(g)[0] == 9


def test_village_serves_one_company():
    g = new(["village", "central", "central", "central"])
    place(g, 30, 10), place(g, 40, 40), place(g, 60, 20)
    lay(g, "short", "B1", "S1")  # 27.9: Village +1
    place(g, 70, 45)
    with pytest.raises(IllegalAction, match="Village S1 already serves 1 company, its limit"):
        lay(g, "long", "B2", [45, 5], "S1")
    lay(g, "short", "B2", "S3")  # 27.8: Central +3
    assert vps(g)[:2] == [4, 6]


def test_regional_limit_and_transit_owner_gains_on_every_rail():
    """Hand: p1, p2, p3 each reach the Regional S1 (+2); p4 is refused (limit 3) and goes to
    S5 (+3). p4 then reaches p1's Transit S2 (p4 +2, p1 +1) and leaves from it again on a
    later turn (p1 +1, p4 +3 for the Central S9). p1 also gets +3 from S6."""
    g = new(["regional", "transit"] + ["central"] * 12, mountain="5 35; 15 35; 15 45; 5 45")
    place(g, 40, 45), place(g, 20, 60)
    lay(g, "long", "B1", "S1")
    place(g, 70, 40), lay(g, "long", "B2", "S1")
    place(g, 70, 65), lay(g, "long", "B3", "S1")
    place(g, 20, 80)
    with pytest.raises(IllegalAction, match="Regional S1 already serves 3 companies"):
        lay(g, "long", "B4", "S1")
    lay(g, "short", "B4", "S5")
    assert vps(g) == [5, 5, 5, 6]
    place(g, 25, 20), lay(g, "short", "B1", "S6")
    place(g, 60, 10), forfeit(g)
    place(g, 75, 30), forfeit(g)
    place(g, 35, 70), lay(g, "short", "S5", "S2")
    assert vps(g) == [9, 5, 5, 8]
    place(g, 50, 80), forfeit(g)
    place(g, 80, 15), forfeit(g)
    place(g, 25, 40), forfeit(g)
    place(g, 60, 75), lay(g, "short", "S2", "S9")
    assert vps(g) == [10, 5, 5, 11]


def test_crossings_cost_one_off_stations_and_nothing_inside_them():
    g = new(["central", "central", "central"])
    place(g, 60, 10), place(g, 50, 30)
    lay(g, "long", "B1", "S1")  # crosses the river at (42, 7.8): +3 -1
    assert vps(g)[0] == 5
    assert [tuple(round(v, 1) for v in p) for p in g.board.rails[0].crossings] == [(42.0, 7.8)]
    place(g, 70, 45)
    off = g.plan("p2", "long", ["B2", [52, 4], "S2"])  # crosses p1's rail at (51.9, 9.0)
    assert [(c.vp, c.why.split(" at ")[0]) for c in off.changes] == [
        (3, "Central S2"),
        (-1, "crossing P1's long rail"),
    ]
    on = g.plan("p2", "long", ["B2", [59, 5], [57, 17], "S2"])  # crosses it inside S1
    assert [c.vp for c in on.changes] == [3, 3] and len(on.free_crossings) == 1
    assert on.free_crossings[0][0] == pytest.approx(58.2, abs=0.05)
    g.process(
        {
            "type": "lay_rail",
            "entity": "p2",
            "rail": "long",
            "path": ["B2", [59, 5], [57, 17], "S2"],
        }
    )
    assert vps(g)[:2] == [5, 9]


def test_expert_variant_doubles_only_other_companies_rails():
    g = new(["central", "central", "central"], variant="expert")
    place(g, 60, 10), place(g, 50, 30)
    lay(g, "long", "B1", "S1")
    place(g, 70, 45)
    off = g.plan("p2", "long", ["B2", [52, 4], "S2"])
    assert [c.vp for c in off.changes] == [3, -2]
    with pytest.raises(InvalidAction, match="variant is 'expert'"):
        new(["central"], variant="hard")


# -- geometry ----------------------------------------------------------------------------------
def test_crossing_touching_and_vertices():
    assert crossings([(0, 0), (10, 10)], [(0, 10), (10, 0)]) == [(5.0, 5.0)]
    assert crossings([(0, 0), (10, 0)], [(5, 0), (5, 10)]) == []  # a T: touch only
    assert crossings([(0, 0), (5, 5), (10, 0)], [(0, 5), (10, 5)]) == []  # peak touches a line
    assert crossings([(0, 0), (5, 5), (10, 10)], [(0, 10), (5, 5), (10, 0)]) == [(5.0, 5.0)]
    assert sorted(
        crossings([(0, 5), (20, 5)], [(5, 0), (15, 0), (15, 10), (5, 10), (5, 0)], True)
    ) == [(5.0, 5.0), (15.0, 5.0)]
    assert crossings([(0, 0), (10, 0)], [(2, 0), (8, 0)]) == []  # running along
    assert crossings([(0, -1), (5, 0), (10, 0), (15, 1)], [(2, 0), (12, 0)]) == []


def test_self_contact():
    assert self_contact([(0, 0), (10, 0), (10, 10), (5, -5)]) == pytest.approx(
        (6.6667, 0), abs=1e-3
    )
    assert self_contact([(0, 0), (10, 0), (5, 0)]) == (10.0, 0.0)  # doubling back
    assert self_contact([(0, 0), (10, 0), (10, 10), (0, 0)]) == (0, 0)  # a closed loop
    assert self_contact([(0, 0), (10, 0), (10, 10)]) is None


def test_legal_actions_list_complete_moves():
    g = new(["central", "village", "central", "central"])
    spots = g.legal_actions("p1")
    assert spots and all(c.action["type"] == "place_station" for c in spots)
    assert g.legal_actions("p2") == []
    for c in spots[:3]:
        assert c.label.startswith("place Central at ")
    place(g, 20, 20), place(g, 40, 60), place(g, 70, 40)
    rails = g.legal_actions("p1")
    labels = [c.label for c in rails]
    assert "short rail B1–S1 (+3 VP)" in labels and "forfeit a long rail" in labels
    for c in rails:
        copy = new(["central", "village", "central", "central"])
        for a in g.actions:
            copy.process(dict(a))
        copy.process(dict(c.action))  # every listed move is accepted


# -- crossings are counted consistently, also through vertices ------------------------------------
from hypothesis import assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from shapely.geometry import LineString, Polygon  # noqa: E402

_RINGS = [
    [(0, 0), (10, 0), (10, 10), (0, 10)],
    [(0, 0), (8, 2), (10, 10), (4, 6), (1, 9)],
    [(2, 0), (6, 0), (8, 4), (6, 8), (2, 8), (0, 4)],
]
_POINT = st.tuples(st.integers(-3, 13), st.integers(-3, 13))


@settings(max_examples=300, deadline=None)
@given(ring=st.sampled_from(_RINGS), path=st.lists(_POINT, min_size=2, max_size=5))
def test_crossing_parity_matches_inside_and_outside(ring, path):
    """A path crosses a closed loop an odd number of times exactly when one of its ends is
    inside and the other outside: whatever vertices it passes through or touches. (Paths that
    run along the loop for a while are left out: such a stretch is a touch by definition.)"""
    loop = Polygon(ring)
    line = LineString(path)
    assume(all(a != b for a, b in zip(path, path[1:])))
    assume(not loop.exterior.intersects(LineString([path[0], path[0]]).centroid))
    assume(not loop.exterior.intersects(LineString([path[-1], path[-1]]).centroid))
    assume(
        all(
            g.geom_type == "Point"
            for g in getattr(
                line.intersection(loop.exterior), "geoms", [line.intersection(loop.exterior)]
            )
            if not g.is_empty
        )
    )
    inside = [loop.contains(LineString([p, p]).centroid) for p in (path[0], path[-1])]
    found = crossings(
        [tuple(map(float, p)) for p in path], [tuple(map(float, p)) for p in ring + ring[:1]], True
    )
    # a path that passes a point of the loop twice meets it there twice
    assert len(found) % 2 == (inside[0] != inside[1])


def test_hint_bends_a_rail_around_the_river():
    """Straight B1 (3,3) - S1 (50,25) crosses the river (x = 42, up to y = 25): 3 - 1 = +2. A
    long rail bent above the river's end reaches S1 without crossing: +3."""
    from engine.strings.hint import best_rails

    g = new(["central", "regional"] + ["central"] * 10, river=[[42, -5], [42, 25]])
    place(g, 50, 25), place(g, 20, 60)
    straight = g.plan("p1", "long", ["B1", "S1"])
    assert straight.gain(0) == 2
    best = best_rails(g)[0]
    assert best.visits == ["B1", "S1"] and best.gain(0) == 3 and not best.crossings
    assert any(isinstance(s, list) for s in best.stops)  # a free waypoint
    g.process({"type": "lay_rail", "entity": "p1", "rail": best.kind, "path": best.stops})
    assert vps(g)[0] == 6
    assert g.hints("p1") == []  # not p1's turn
    # p2 must place its drawn station first: the hint names the spots its rails reach soonest,
    # nearest its only station, its base B2 at (82, 3)
    spots = g.hints("p2")
    assert len(spots) == 5 and all(c.action["type"] == "place_station" for c in spots)
    gaps = [math.dist((82, 3), (c.action["x"], c.action["y"])) for c in spots]
    assert gaps == sorted(gaps) and gaps[0] < 10
    assert spots[0].label.startswith("place Central at J1 (75 5): 7 cm from B2, a short rail")
    assert g.board.fits_at([(c.action["x"], c.action["y"]) for c in spots]) == [True] * 5


def test_placement_suggestions_start_nearest_the_players_base():
    """A long list is cut (a menu holds 25): p2's first suggestions are beside its base B2
    (82, 3), not the alphabetically first cells in p1's corner."""
    g = new(["central", "regional"] + ["central"] * 10)
    place(g, 50, 25), place(g, 20, 60)
    lay(g, "long", "B1", "S2")
    spots = [c for c in g.legal_actions("p2") if c.action["type"] == "place_station"]
    gaps = [math.dist((82, 3), (c.action["x"], c.action["y"])) for c in spots]
    assert gaps == sorted(gaps) and len(spots) > 25
    assert spots[0].label == "place Central at J1 (75 5)"  # cell J1, beside B2
    assert not any(c.action["x"] < 20 for c in spots[:25])  # none of p1's corner cells A-C


def test_the_river_seat_may_lay_it_by_hand_through_typed_points():
    """Spec B: the seat that lays the river accepts a generated one, rolls it again, or gives
    its points; the status says which it may still do."""
    g = StringRailway([PlayerInfo(i, "x") for i in range(4)], {"rerolls": 1}, 11)
    said = g.status_text()
    assert (
        "Before the first station: x may roll the river again (1 left) or lay the river by "
        "hand; x may roll the mountain again (1 left) or lay the mountain by hand." in said
    )
    assert g.typed_action(2, "reroll", {"what": "river"}) == {
        "type": "reroll",
        "entity": 2,
        "what": "river",
    }
    laid = g.typed_action(2, "reroll", {"what": "River 10 20, 40 35, 70 50"})
    assert laid == {
        "type": "set_shape",
        "entity": 2,
        "what": "river",
        "points": [[10.0, 20.0], [40.0, 35.0], [70.0, 50.0]],
    }
    g.process(laid)
    assert g.board.river == [(10, 20), (40, 35), (70, 50)]
    g.process({"type": "reroll", "entity": 2, "what": "river"})
    assert "x may lay the river by hand;" in g.status_text()  # no roll left
    with pytest.raises(InvalidAction, match="say river or mountain"):
        g.typed_action(2, "reroll", {"what": "lake 1 2"})
