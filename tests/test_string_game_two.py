"""A complete two-person String Railway game (four companies) in the expert variant, scored by
hand from the rules. Seats: x1, y1, x2, y2; person X runs x1 + x2, person Y runs y1 + y2.

Area: the default square 0..85 (bases B1 x1 (3,3), B2 y1 (82,3), B3 x2 (82,82), B4 y2 (3,82));
river y = 50 from x = -5 (outside) to x = 30; mountain the square 50..65.

Hand computation (every company starts with its base's 3 VP; expert: another company's rail
costs 2 per crossing, the river, the mountain and one's own rails 1):
 1 x1 draws City, Village, so one more: Central. S1 City (20,10, x1's), S2 Village (40,5),
      S3 Central (10,25). short B1-S1, 18.4: own City +3                          x1 6
 2 y1 S4 Terminal (60,15). short B2-S4, 25.1: Terminal +3                              y1 6
 3 x2 S5 Junction (70,75). short B3-S5, 13.9: Junction +1                              x2 4
 4 y2 S6 Transit (15,70, y2's). short B4-S6, 17.0: own Transit +0                      y2 3
 5 x1 S7 Suburban (30,30). short S1-S2, 20.6: Village +1 (S2 is now full)              x1 7
 6 y1 draws Village + Regional: S8 Village (75,30), S9 Regional (50,30). long S4-S1, 40.3
      (starts on the Terminal: allowed): x1's City: y1 +1, x1 -1                    y1 7, x1 6
 7 x2 S10 Central (45,75). short S5-S10, 25: Junction +1 (every rail), Central +3       x2 8
 8 y2 S11 Scenic (57,57, inside the mountain). long S6-S10-S11, 30.4 + 21.6 = 52.0:
      Central +3, Scenic +3, crosses the mountain at (51.7, 65) -1; x2's rail ends in S10:
      no crossing                                                                      y2 8
 9 x1 S12 Regional (20,40). short S1-S3, 18.0: Central +3                              x1 9
10 y1 S13 City (70,45, y1's). short S1-(10,2)-B1, 12.8 + 7.1 = 19.9: x1's base:
      y1 +2, x1 -1; the rail starts on x1's City S1, which reaches it again: x1 -1 (owner
      effects apply to every rail). The rails only meet at S1 and B1.              y1 9, x1 7
11 x2 S14 Junction (75,60). long S5-S14-S13, 31.6: two Junctions +1 +1, y1's City +1,
      and y1 -1                                                                   x2 11, y1 8
12 y2 S15 Suburban (40,40). forfeits a short rail                                      y2 8
13 x1 S16 Transit (80,15, x1's). short S3-S7, 20.6: Suburban +2                         x1 9
14 y1 S17 Central (30,80). short S4-S9, 18.0: Regional +2                              y1 10
15 x2 S18 Regional (80,40). short S13-S18, 11.2: Regional +2; it starts on y1's City S13:
      y1 -1 again                                                                 x2 13, y1 9
16 y2 S19 Central (60,81). short S11-S19, 24.2: Central +3, the mountain at (58, 65) -1,
      x2's rail S5-S10 at (59.25, 75) -2                                               y2 8
17 x1 draws Village, Village (no third): S20 (60,5), S21 (10,55). long S7-S15-S9, 28.3:
      Suburban +2, Regional +2                                                         x1 13
18 y1 S22 Junction (45,55). short S9-(44,39)-(36,39)-S7, 29.6: Suburban S15 +2 (now full),
      Suburban S7 +2 (now full); it crosses x1's rail twice, at (41,39) and (39,39), both
      inside S15: free                                                                 y1 13
19 x2 S23 Regional (80,70). short S10-(50,70)-(55,80)-S19, 23.3: Central +3, crosses its
      own rail S5-S10 at (52.5, 75) -1 (1 also in the expert variant)                  x2 15
20 y2 S24 Central (30,20). short S10-S17, 15.8: Central +3                             y2 11
Final: x1 13, y1 13, x2 15, y2 11. X's companies (15, 13) beat Y's (13, 11): X wins.
Without the expert variant turn 16 scores +1, so y2 ends with 12.
"""

from __future__ import annotations

import copy

import pytest

from engine.eighteen import io
from engine.errors import IllegalAction
from tests.test_string_game_three import lay, place

ORDER = [
    "city",
    "village",
    "central",
    "terminal",
    "junction",
    "transit",
    "suburban",
    "village",
    "regional",
    "central",
    "scenic",
    "regional",
    "city",
    "junction",
    "suburban",
    "transit",
    "central",
    "regional",
    "central",
    "village",
    "village",
    "junction",
    "regional",
    "central",
]

ACTIONS = [
    place("x1", 20, 10),
    place("x1", 40, 5),
    place("x1", 10, 25),
    lay("x1", "short", "B1", "S1"),
    place("y1", 60, 15),
    lay("y1", "short", "B2", "S4"),
    place("x2", 70, 75),
    lay("x2", "short", "B3", "S5"),
    place("y2", 15, 70),
    lay("y2", "short", "B4", "S6"),
    place("x1", 30, 30),
    lay("x1", "short", "S1", "S2"),
    place("y1", 75, 30),
    place("y1", 50, 30),
    lay("y1", "long", "S4", "S1"),
    place("x2", 45, 75),
    lay("x2", "short", "S5", "S10"),
    place("y2", 57, 57),
    lay("y2", "long", "S6", "S10", "S11"),
    place("x1", 20, 40),
    lay("x1", "short", "S1", "S3"),
    place("y1", 70, 45),
    lay("y1", "short", "S1", [10, 2], "B1"),
    place("x2", 75, 60),
    lay("x2", "long", "S5", "S14", "S13"),
    place("y2", 40, 40),
    {"type": "forfeit_rail", "entity": "y2", "rail": "short"},
    place("x1", 80, 15),
    lay("x1", "short", "S3", "S7"),
    place("y1", 30, 80),
    lay("y1", "short", "S4", "S9"),
    place("x2", 80, 40),
    lay("x2", "short", "S13", "S18"),
    place("y2", 60, 81),
    lay("y2", "short", "S11", "S19"),
    place("x1", 60, 5),
    place("x1", 10, 55),
    lay("x1", "long", "S7", "S15", "S9"),
    place("y1", 45, 55),
    lay("y1", "short", "S9", [44, 39], [36, 39], "S7"),
    place("x2", 80, 70),
    lay("x2", "short", "S10", [50, 70], [55, 80], "S19"),
    place("y2", 30, 20),
    lay("y2", "short", "S10", "S17"),
]

GAME = {
    "title": "string_railway",
    "players": [{"id": "x1"}, {"id": "y1"}, {"id": "x2"}, {"id": "y2"}],
    "settings": {
        "river": [[-5, 50], [30, 50]],
        "mountain": [[50, 50], [65, 50], [65, 65], [50, 65]],
        "station_order": ORDER,
        "variant": "expert",
        "two_players": True,
    },
    "actions": ACTIONS,
}

AFTER_TURN = [
    (6, 3, 3, 3),
    (6, 6, 3, 3),
    (6, 6, 4, 3),
    (6, 6, 4, 3),
    (7, 6, 4, 3),
    (6, 7, 4, 3),
    (6, 7, 8, 3),
    (6, 7, 8, 8),
    (9, 7, 8, 8),
    (7, 9, 8, 8),
    (7, 8, 11, 8),
    (7, 8, 11, 8),
    (9, 8, 11, 8),
    (9, 10, 11, 8),
    (9, 9, 13, 8),
    (9, 9, 13, 8),
    (13, 9, 13, 8),
    (13, 13, 13, 8),
    (13, 13, 15, 8),
    (13, 13, 15, 11),
]


def test_every_turn_scores_as_computed_by_hand():
    game = io.new_game(GAME)
    seen = []
    for action in ACTIONS:
        game.process(dict(action))
        if action["type"] in ("lay_rail", "forfeit_rail"):
            seen.append(tuple(c.vp for c in game.companies))
    assert seen == AFTER_TURN
    assert game.finished
    assert game.result() == {"x1": 13, "y1": 13, "x2": 15, "y2": 11}
    assert game.winners() == ["x1"]  # person X (seats x1 and x2)


def test_crossings_of_the_hand_computation():
    game = io.load(GAME).game
    rails = game.board.rails
    y1_free = rails[16]  # the 18th turn's rail (turn 12 was a forfeit)
    assert sorted((round(x, 6), round(y, 6)) for x, y in y1_free.crossings) == [(39, 39), (41, 39)]
    y2 = [r for r in rails if r.company == 3][-2]
    assert sorted((round(x, 2), round(y, 2)) for x, y in y2.crossings) == [
        (58.0, 65.0),
        (59.25, 75.0),
    ]


def test_without_the_expert_variant_another_rail_costs_one():
    plain = copy.deepcopy(GAME)
    plain["settings"]["variant"] = None
    game = io.load(plain).game
    assert game.result() == {"x1": 13, "y1": 13, "x2": 15, "y2": 12}


def test_a_tie_between_best_companies_goes_to_the_other_companies():
    game = io.load(GAME).game
    game.companies[1].vp = 15  # best companies tie at 15; X's other 13 beats Y's 11
    assert game.winners() == ["x1"]
    game.companies[3].vp = 13  # Y (15, 13) too: a draw
    assert game.winners() == ["x1", "y1"] and game.winner_text() == "A draw."


def test_a_full_suburban_refuses_a_third_company_and_nothing_changes():
    game = io.load(GAME, upto=len(ACTIONS) - 2).game  # y2 about to lay its last rail
    before = (game.snapshot(), len(game.actions))
    with pytest.raises(IllegalAction, match="Suburban S15 already serves 2 companies"):
        game.process(lay("y2", "short", "S11", "S15"))
    assert (game.snapshot(), len(game.actions)) == before
