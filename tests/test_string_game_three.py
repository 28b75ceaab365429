"""A complete three-player String Railway game, scored by hand from the rules.

Area: the square 0..85 given by its vertices (so the bases sit in its first three corners:
B1 a (3, 3), B2 b (82, 3), B3 c (82, 82)); river x = 42 from y = -5 (outside) to y = 40;
mountain the square 55..70. Stations are 6×6 squares around the given centres.

Deck: a's first turn draws two (central, transit); b draws a village and so one more; on turn
10 a draws village + village and stops at two.

Hand computation (everyone starts with the 3 VP of their base):
 1 a  S1 Central (20,5), S2 Transit (20,20, a's). short B1-S1, 17.1 long: S1 +3            a 6
 2 b  S3 Village (70,5), S4 Regional (60,20). short B2-S3, 12.2: Village +1                   b 4
 3 c  S5 City (78,60, c's). short B3-S5, 22.4: own City +3                                    c 6
 4 a  S6 Junction (30,35). short S1-S2, 15: own Transit +0                                     a 6
 5 b  S7 Suburban (50,10). short S3-S7, 20.6: +2                                               b 6
 6 c  S8 Terminal (60,40). short S5-S8, 26.9: +3                                               c 9
 7 a  S9 Scenic (62,62, inside the mountain). long S2-S6-S4, 18.0 + 33.5 = 51.6:
      Junction +1, Regional +2, crosses the river at (42, 29) -1 = +2                          a 8
 8 b  S10 Central (40,60). short S7-S4, 14.1: Regional +2 (S4 now serves a and b)              b 8
 9 c  S11 Regional (60,30). short S8-S11 (starts on the Terminal: allowed), 10: +2              c 11
10 a  S12 Village (10,40), S13 Village (75,45). short S6-S12, 20.6: the Junction it starts on
      +1 (every rail), Village +1 = +2                                                         a 10
11 b  S14 Suburban (45,75). long S4-(50,45)-S10, 26.9 + 18.0 = 45.0; on the way it runs over
      S11's square (at y = 27, x = 57.2), so it reaches S11: Regional +2, Central +3 = +5        b 13
12 c  S15 Junction (75,30). short S11-S15, 15: Junction +1                                     c 12
13 a  S16 Transit (30,75, a's). short S4-S11, 10: Regional +2 (S11 now full: c, b, a)          a 12
14 b  S17 Central (15,60). short S10-S16, 18.0: a's Transit: b +2, its owner a +1          b 15, a 13
15 c  S18 Regional (10,70). long S5-S9-S10, 16.1 + 22.1 = 38.2: Scenic in the mountains +3,
      Central +3, crosses the mountain at (70, 61) and near (55, 61.4): -2 = +4                c 16
Final: a 13, b 15, c 16; c wins.
"""

from __future__ import annotations

from engine.eighteen import io

ORDER = [
    "central",
    "transit",
    "village",
    "regional",
    "city",
    "junction",
    "suburban",
    "terminal",
    "scenic",
    "central",
    "regional",
    "village",
    "village",
    "suburban",
    "junction",
    "transit",
    "central",
    "regional",
]


def place(who: str, x: float, y: float) -> dict:
    return {"type": "place_station", "entity": who, "x": x, "y": y}


def lay(who: str, rail: str, *path) -> dict:
    return {"type": "lay_rail", "entity": who, "rail": rail, "path": list(path)}


ACTIONS = [
    place("a", 20, 5),
    place("a", 20, 20),
    lay("a", "short", "B1", "S1"),
    place("b", 70, 5),
    place("b", 60, 20),
    lay("b", "short", "B2", "S3"),
    place("c", 78, 60),
    lay("c", "short", "B3", "S5"),
    place("a", 30, 35),
    lay("a", "short", "S1", "S2"),
    place("b", 50, 10),
    lay("b", "short", "S3", "S7"),
    place("c", 60, 40),
    lay("c", "short", "S5", "S8"),
    place("a", 62, 62),
    lay("a", "long", "S2", "S6", "S4"),
    place("b", 40, 60),
    lay("b", "short", "S7", "S4"),
    place("c", 60, 30),
    lay("c", "short", "S8", "S11"),
    place("a", 10, 40),
    place("a", 75, 45),
    lay("a", "short", "S6", "S12"),
    place("b", 45, 75),
    lay("b", "long", "S4", [50, 45], "S10"),
    place("c", 75, 30),
    lay("c", "short", "S11", "S15"),
    place("a", 30, 75),
    lay("a", "short", "S4", "S11"),
    place("b", 15, 60),
    lay("b", "short", "S10", "S16"),
    place("c", 10, 70),
    lay("c", "long", "S5", "S9", "S10"),
]

GAME = {
    "title": "string_railway",
    "players": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
    "settings": {
        "area": [[0, 0], [85, 0], [85, 85], [0, 85]],
        "river": [[42, -5], [42, 40]],
        "mountain": [[55, 55], [70, 55], [70, 70], [55, 70]],
        "station_order": ORDER,
        "variant": None,
    },
    "actions": ACTIONS,
}

# VP of (a, b, c) after each turn's rail, from the hand computation above
AFTER_TURN = [
    (6, 3, 3),
    (6, 4, 3),
    (6, 4, 6),
    (6, 4, 6),
    (6, 6, 6),
    (6, 6, 9),
    (8, 6, 9),
    (8, 8, 9),
    (8, 8, 11),
    (10, 8, 11),
    (10, 13, 11),
    (10, 13, 12),
    (12, 13, 12),
    (13, 15, 12),
    (13, 15, 16),
]


def test_every_turn_scores_as_computed_by_hand():
    game = io.new_game(GAME)
    seen = []
    for action in ACTIONS:
        game.process(dict(action))
        if action["type"] == "lay_rail":
            seen.append(tuple(c.vp for c in game.companies))
    assert seen == AFTER_TURN
    assert game.finished
    assert game.result() == {"a": 13, "b": 15, "c": 16}
    assert game.winners() == ["c"]


def test_the_hand_details_hold():
    game = io.load(GAME, upto=len(ACTIONS) - 1).game
    st = game.board.stations
    assert st["S9"].in_mountains and not st["S10"].in_mountains
    assert st["S11"].served == {0, 1, 2}  # c, then b (ran over it), then a
    assert game.board.rails[10].visits == ["S4", "S11", "S10"]
    a3 = game.board.rails[6]
    assert [(round(x, 6), round(y, 6)) for x, y in a3.crossings] == [(42.0, 29.0)]
    c5 = game.board.rails[14]
    assert [(round(x, 2), round(y, 2)) for x, y in c5.crossings] == [(70.0, 61.0), (55.0, 61.36)]


def test_replay_command_prints_the_result(tmp_path, capsys):
    import json

    from bot.cli import main

    path = tmp_path / "three.json"
    path.write_text(json.dumps(GAME))
    assert main(["replay", str(path), "--json"]) == 0
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert last["title"] == "string_railway"
    assert last["result"] == {"a": 13, "b": 15, "c": 16}
