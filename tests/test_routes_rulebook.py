"""The 1830 rule book's route example (pp. 21-22) on a hand-built map: every route it calls legal
or illegal, and its table of the best revenue for each train mix, reproduced exactly.

The book shows the track in a figure; its text fixes the topology. Each letter is a hex, a route
is written by the hexes it runs through ("FED" starts in F, runs through E, ends in D), the B&O's
home station is in F. From the listed revenues: F 50, E 30, D 30 (a red offboard, at its value
before the first 5-train), H 20, G 20, J 10; B, C and I carry track only. The illegal examples fix
the junctions: in C the track from F and the track from G meet on the side facing B, so F-C-G
would reverse there; in B the C-E track is crossed by a track from A ("if B were a straight track
joining A and C ..."), so C-B-A would switch tracks at the crossing. "EDA is illegal because a red
area cannot be in the middle of a route" needs a stop at A: here a town, which no B&O route can
reach except through D, so its value never counts.

The map, pointy-topped, 18xx coordinates (row letter, doubled column number):

    column:  2   3   4   5   6   7   8   9
    row A:       J
    row B:           I               H
    row C:               F       E       D
    row D:   G       C       B       A

    F  C5  printed city 50, track to E (east), C (south-west), I (north-west)
    E  C7  tile 14 (30): track to F (west), B (south-west), H (north-east), D (east)
    D  C9  red offboard 30/50: track to E (west) and A (south-west)
    C  D4  tile 26, a junction: F (north-east) and G (west) both run to the side facing B (east)
    B  D6  tile 16, a crossing: C (west) to E (north-east); A (east) to the side facing F
           (north-west), where F has no track
    A  D8  tile 58, a town (10): track to B (west) and D (north-east)
    G  D2  tile 57 (20), track to C;  H  B8  tile 57 (20), track to E
    I  B4  tile 9, straight from F to J;  J  A3  tile 3, a town (10), track to I
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.eighteen.board import Board
from engine.eighteen.board.router import enumerate_routes
from engine.eighteen.board.routes import Run
from engine.errors import IllegalAction

DATA = Path(__file__).resolve().parent.parent / "engine" / "data" / "1830.json"
CORP = "B&O"
PHASE = "green"  # green tiles on the map, no 5-train yet: the offboard pays its lower value

HEX = {
    "A": "D8",
    "B": "D6",
    "C": "D4",
    "D": "C9",
    "E": "C7",
    "F": "C5",
    "G": "D2",
    "H": "B8",
    "I": "B4",
    "J": "A3",
}
LETTER = {hex_id: letter for letter, hex_id in HEX.items()}
STOPS = set("ADEFGHJ")
LAID = {
    "A": ("58", 1),
    "B": ("16", 1),
    "C": ("26", 4),
    "E": ("14", 0),
    "G": ("57", 1),
    "H": ("57", 0),
    "I": ("9", 2),
    "J": ("3", 5),
}


def title_data(laid: dict[str, tuple[str, int]]) -> dict:
    """The example as a title: F and D printed, every other hex blank until `laid` puts 1830's
    own tiles (from the project's tile manifest) on it."""
    manifest = json.loads(DATA.read_text())["tiles"]
    names = {name for name, _ in laid.values()}
    hexes = [
        {"hex": HEX[letter], "name": letter, "preprinted_color": "white"} for letter in sorted(laid)
    ]
    hexes.append(
        {
            "hex": HEX["F"],
            "name": "F",
            "cities": [{"revenue": 50, "slots": 1}],
            "paths": ["edge4-city0", "edge0-city0", "edge2-city0"],
            "preprinted_color": "yellow",
        }
    )
    hexes.append(
        {
            "hex": HEX["D"],
            "name": "D",
            "offboards": [{"revenue": {"yellow": 30, "brown": 50}}],
            "paths": ["edge1-offboard0", "edge0-offboard0"],
            "preprinted_color": "red",
        }
    )
    return {
        "map": {"layout": "pointy-topped hexes", "hexes": hexes},
        "tiles": [t for t in manifest if t["name"] in names],
        "corporations": [{"sym": CORP, "home": HEX["F"]}],
    }


def example_board(laid: dict[str, tuple[str, int]] = LAID) -> Board:
    board = Board(title_data(laid))
    for letter, (tile, rotation) in sorted(laid.items()):
        board.lay("X", HEX[letter], tile, rotation)
    board.place_token(CORP, HEX["F"], 0)
    return board


@pytest.fixture(scope="module")
def board() -> Board:
    return example_board()


def book_route(train: str, letters: str) -> dict:
    """A route written the book's way ("FCBED") as a run_routes route: one connection per stretch
    of track between stops."""
    connections: list[list[str]] = []
    current = [letters[0]]
    for letter in letters[1:]:
        current.append(letter)
        if letter in STOPS:
            connections.append(current)
            current = [letter]
    stops = [letter for letter in letters if letter in STOPS]
    return {
        "train": train,
        "connections": [[HEX[x] for x in c] for c in connections],
        "hexes": [HEX[s] for s in stops],
        "nodes": [f"{HEX[s]}-0" for s in stops],
    }


def trains_for(sizes: list[int]) -> list[tuple[str, int]]:
    """Train ids like 18xx.games gives them: "<size>-<copy>"."""
    named: list[tuple[str, int]] = []
    for size in sizes:
        named.append((f"{size}-{sum(1 for _, s in named if s == size)}", size))
    return named


def run_book_routes(board: Board, runs: list[tuple[int, str]]) -> list[int]:
    """Revenues of the book's routes, each on its own train, checked together."""
    trains = trains_for([size for size, _ in runs])
    routes = [book_route(tid, letters) for (tid, _), (_, letters) in zip(trains, runs)]
    return board.route_revenues(CORP, routes, trains, phase_color=PHASE)


def refusal(board: Board, runs: list[tuple[int, str]]) -> str:
    with pytest.raises(IllegalAction) as info:
        run_book_routes(board, runs)
    return str(info.value)


def spelled(route: dict) -> str:
    """A run_routes route written back in the book's letters, every hex it crosses."""
    letters = [LETTER[route["connections"][0][0]]]
    for connection in route["connections"]:
        letters.extend(LETTER[h] for h in connection[1:])
    return "".join(letters)


def same_route(a: str, b: str) -> bool:
    return a in (b, b[::-1])


# -- the routes the book lists ---------------------------------------------------------------
TWO_TRAIN_ROUTES = {"FE": 80, "FCBE": 80, "FIJ": 60}  # list 1)
THREE_TRAIN_ROUTES = {
    "EFIJ": 90,
    "EBCFIJ": 90,
    "GCBEF": 100,
    "FED": 110,
    "FEH": 100,  # list 5)
    "FCBED": 110,
    "FCBEH": 100,
}


def test_the_map_has_exactly_the_books_routes_for_2_and_3_trains(board: Board) -> None:
    """ "See if you can find the 7 different 3-city routes": with no more than three stops the
    finder's full list is the book's three 2-train routes and its seven 3-train routes."""
    network = board.network()
    found: dict[str, int] = {}
    for candidate in enumerate_routes(network, CORP, 3, PHASE):
        letters = spelled(Run("3-0", candidate.nodes, candidate.chains).to_dict(network, PHASE))
        book = next(
            (r for r in {**TWO_TRAIN_ROUTES, **THREE_TRAIN_ROUTES} if same_route(r, letters)),
            letters,
        )
        found[book] = candidate.revenue
    assert found == {**TWO_TRAIN_ROUTES, **THREE_TRAIN_ROUTES}


@pytest.mark.parametrize(
    "size, letters, revenue",
    [(2, r, v) for r, v in TWO_TRAIN_ROUTES.items()]
    + [(3, r, v) for r, v in THREE_TRAIN_ROUTES.items()]
    + [(3, "DEF", 110), (3, "HEF", 100), (4, "DEBCFIJ", 120)],
)
def test_each_legal_route_pays_what_the_book_says(
    board: Board, size: int, letters: str, revenue: int
) -> None:
    assert run_book_routes(board, [(size, letters)]) == [revenue]
    assert run_book_routes(board, [(size, letters[::-1])]) == [revenue]  # "FED is the same as DEF"


@pytest.mark.parametrize(
    "pair, revenues",
    [
        (("FE", "FCBE"), [80, 80]),
        (("FE", "FIJ"), [80, 60]),
        (("FCBE", "FIJ"), [80, 60]),  # list 3)
    ],
)
def test_any_two_2_train_routes_run_together(
    board: Board, pair: tuple[str, str], revenues: list[int]
) -> None:
    assert run_book_routes(board, [(2, r) for r in pair]) == revenues


def test_all_three_2_train_routes_run_together(board: Board) -> None:  # list 4)
    assert run_book_routes(board, [(2, "FE"), (2, "FCBE"), (2, "FIJ")]) == [80, 80, 60]


@pytest.mark.parametrize(
    "pair, revenues",
    [  # list 7)
        (("EFIJ", "FCBED"), [90, 110]),
        (("EFIJ", "FCBEH"), [90, 100]),
        (("GCBEF", "FIJ"), [100, 60]),
        (("EBCFIJ", "DEF"), [90, 110]),
        (("EBCFIJ", "HEF"), [90, 100]),
        (("FCBED", "FEH"), [110, 100]),
        (("FCBEH", "FED"), [100, 110]),
    ],
)
def test_the_books_pairs_of_3_trains(
    board: Board, pair: tuple[str, str], revenues: list[int]
) -> None:
    assert run_book_routes(board, [(3, r) for r in pair]) == revenues


def test_after_gcbef_the_other_3_train_can_only_run_as_a_2_train(board: Board) -> None:
    """List 7): GCBEF leaves the second 3-train only FIJ."""
    for other in ("FE", "FCBE", "FED", "FEH", "FCBED", "FCBEH", "EFIJ", "EBCFIJ"):
        assert "already used by B&O's trains" in refusal(board, [(3, "GCBEF"), (3, other)]), other


@pytest.mark.parametrize(
    "runs, problem",
    [
        # list 2): a 2-train
        (
            [(2, "FCG")],
            "train 2-0: there is no track joining stops along C5-D4-D2",
        ),  # reverses in C
        (
            [(2, "FCBAD")],
            "train 2-0: there is no track joining stops along C5-D4-D6-D8",
        ),  # switches in B
        ([(2, "DE")], "train 2-0: the route must include a station of B&O"),
        ([(2, "EH")], "train 2-0: the route must include a station of B&O"),
        ([(2, "EBCG")], "train 2-0: the route must include a station of B&O"),
        # list 6): a 3-train
        ([(3, "FEBCF")], "train 3-0: the route stops at C5-0 twice"),
        ([(3, "EFE")], "train 3-0: the route stops at C7-0 twice"),
        # the note before the table: a red area only ends a route
        (
            [(3, "EDA")],
            "train 3-0: a route cannot run through the offboard area C9; it must end there",
        ),
        # list 8): two 3-trains, each legal alone, on the same E-F track
        ([(3, "FED"), (3, "FEH")], "train 3-1: track near C5, C7 is already used by B&O's trains"),
    ],
)
def test_each_illegal_route_is_refused_naming_the_problem(
    board: Board, runs: list[tuple[int, str]], problem: str
) -> None:
    assert refusal(board, runs) == problem


def test_a_red_area_cannot_both_start_and_end_a_route() -> None:
    """ "If B were a straight track joining A and C, DABCFED would be illegal." Put 1830's straight
    tile 9 on B: the loop exists as track, and is refused for visiting D twice."""
    straight_b = example_board({**LAID, "B": ("9", 1)})
    route = book_route("D-0", "DABCFED")
    assert [len(c) for c in route["connections"]] == [2, 4, 2, 2]
    with pytest.raises(IllegalAction, match=r"^train D-0: the route stops at C9-0 twice$"):
        straight_b.route_revenues(CORP, [route], [("D-0", None)], phase_color=PHASE)
    assert straight_b.route_revenues(
        CORP, [book_route("D-0", "ABCFED")], [("D-0", None)], phase_color=PHASE
    ) == [120]


# -- the table of most profitable routes -------------------------------------------------------
TABLE = [  # (trains, best revenue, the book's routes achieving it, each on the next train)
    ([2], 80, ["FE"]),
    ([2, 2], 160, ["FE", "FCBE"]),
    ([2, 2, 2], 220, ["FE", "FCBE", "FIJ"]),
    ([2, 2, 3], 250, ["FCBE", "FIJ", "FED"]),
    ([2, 3, 3], 270, ["FIJ", "FED", "FCBEH"]),
    ([3, 3], 210, ["FED", "FCBEH"]),
    ([3, 4], 220, ["FEH", "DEBCFIJ"]),
]


@pytest.mark.parametrize(
    "sizes, best, book_routes", TABLE, ids=["+".join(map(str, t[0])) for t in TABLE]
)
def test_the_best_revenue_table(
    board: Board, sizes: list[int], best: int, book_routes: list[str]
) -> None:
    trains = trains_for(sizes)
    total, routes = board.best_routes(CORP, trains, phase_color=PHASE)
    assert total == best
    assert sum(board.route_revenues(CORP, routes, trains, phase_color=PHASE)) == best
    assert sum(run_book_routes(board, list(zip(sizes, book_routes)))) == best


def test_one_2_train_runs_fe_or_fcbe(board: Board) -> None:
    total, routes = board.best_routes(CORP, trains_for([2]), phase_color=PHASE)
    assert total == 80 and len(routes) == 1
    assert any(same_route(spelled(routes[0]), r) for r in ("FE", "FCBE"))


def test_after_the_first_5_train_the_red_area_pays_its_higher_value(board: Board) -> None:
    """Not in the book's table (it is set before any 5-train): the same map once D pays 50."""
    assert board.route_revenues(
        CORP, [book_route("3-0", "FED")], {"3-0": 3}, phase_color="brown"
    ) == [130]
    assert board.best_routes(CORP, trains_for([3, 3]), phase_color="brown")[0] == 230  # FED + FCBEH
