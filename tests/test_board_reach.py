"""What a company's stations reach (for track lays and tokens) is what a train could run to:
a walk may not go round a loop and come back along its own track (1830 §8-9, "an unblocked
route of any length"; 18xx.games' walk never crosses a hex side twice)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.eighteen.board import Board
from engine.eighteen.board.router import enumerate_routes
from engine.errors import IllegalAction
from tests.test_router import CORPS, grow_network

DATA = Path(__file__).resolve().parent.parent / "engine" / "data" / "1830.json"


@pytest.fixture
def balloon() -> Board:
    """B&O's station in B2 runs east into a junction in B4 (tile 23: west and north-west both
    join the east side), then into a balloon loop: B6 (tile 24) splits east and north-east, and
    A7 and B8 (tile 7 each) join the two. A train can go round the loop but only comes back into
    B4 along track it already used, so the north-west branch to the city in A3 (and on to the
    empty hex A5) is out of reach; a walk that forgets which sides it crossed would come back
    and take it.

        row A:       A3    A5    A7
        row B:    B2    B4    B6    B8
    """
    manifest = json.loads(DATA.read_text())["tiles"]
    hexes = [
        {"hex": h, "preprinted_color": "white", "layable_tiles": ["9"]}
        for h in ("A5", "A7", "B4", "B6", "B8")
    ]
    hexes.append(
        {
            "hex": "B2",
            "cities": [{"revenue": 20, "slots": 1}],
            "paths": ["edge4-city0"],
            "preprinted_color": "yellow",
        }
    )
    hexes.append(
        {
            "hex": "A3",
            "cities": [{"revenue": 20, "slots": 1}],
            "paths": ["edge5-city0", "edge4-city0"],
            "preprinted_color": "yellow",
        }
    )
    board = Board(
        {
            "map": {"layout": "pointy-topped hexes", "hexes": hexes},
            "tiles": [t for t in manifest if t["name"] in ("7", "9", "23", "24")],
        }
    )
    for hex_id, tile, rotation in (
        ("B4", "23", 4),
        ("B6", "24", 1),
        ("A7", "7", 5),
        ("B8", "7", 1),
    ):
        board.lay("X", hex_id, tile, rotation)
    board.place_token("B&O", "B2", 0)
    assert [board.tile_on(h).paths for h in ("B4", "B6", "A7", "B8")] == [
        ("edge4-edge1", "edge4-edge2"),
        ("edge1-edge4", "edge1-edge3"),
        ("edge5-edge0",),
        ("edge1-edge2",),
    ]
    return board


def test_the_loop_is_reached_but_not_the_branch_behind_it(balloon: Board) -> None:
    edges = balloon.reach("B&O").edges
    assert (edges["B6"], edges["A7"], edges["B8"]) == ({1, 3, 4}, {0, 5}, {1, 2})
    assert edges["B4"] == {1, 4} and not edges.get("A3") and not edges.get("A5")
    assert balloon.network().node_at[("A3", 0)] not in balloon.reach("B&O").nodes


def test_no_token_or_lay_where_no_train_could_run(balloon: Board) -> None:
    assert balloon.legal_token_cities("B&O") == []
    with pytest.raises(IllegalAction, match="B&O's track does not reach it"):
        balloon.check_token("B&O", "A3-0-0")
    assert balloon.legal_lays("B&O", colors={"yellow"}, hexes=["A5"]) == []
    with pytest.raises(IllegalAction, match="B&O's track does not reach the hex"):
        balloon.check_lay("B&O", "A5", "9", 1, colors={"yellow"})
    assert balloon.best_routes("B&O", [("D-0", None)], phase_color="brown") == (0, [])


def test_from_the_branch_the_loop_is_reached_and_the_stem_is_not(balloon: Board) -> None:
    """The same junction from the other side: a station in A3 runs into the loop and lays on
    A5, and cannot come back round to B2."""
    balloon.place_token("PRR", "A3", 0)
    reach = balloon.reach("PRR")
    assert (reach.edges["B4"], reach.edges["B6"], reach.edges["A5"]) == ({2, 4}, {1, 3, 4}, {1})
    assert balloon.network().node_at[("B2", 0)] not in reach.nodes
    assert balloon.legal_lays("PRR", colors={"yellow"}, hexes=["A5"]) == [
        ("A5", "9", 1),
        ("A5", "9", 4),
    ]


@pytest.mark.parametrize("seed, steps", [(0, 100), (5, 100), (1, 250)])
def test_reached_stops_are_the_stops_of_legal_routes(seed: int, steps: int) -> None:
    """On grown networks, every stop a company reaches is a stop of some legal route from one of
    its stations (found by the route finder's own chain walk), and no other."""
    network = grow_network(seed, steps).network()
    for corp in CORPS:
        routed = set(network.token_nodes(corp))
        for candidate in enumerate_routes(network, corp, None, "brown"):
            routed.update(candidate.nodes)
        assert network.reach(corp).nodes == routed, (seed, steps, corp)


@pytest.mark.parametrize("title", ["1830", "1860"])
def test_the_network_renewed_for_one_lay_is_the_one_built_anew(title: str) -> None:
    """After a lay only the laid hex is renewed in the track graph (its neighbours' paths keep
    their numbers); that shortcut must give exactly the graph a full build gives, at every lay
    of a recorded game."""
    from engine.eighteen import io
    from engine.eighteen.board.graph import TrackNetwork
    from tests.reference_games import require_games

    path = require_games(title)[0]
    data = json.loads(path.read_text())
    game = io.new_game(data)
    board = game.board
    board.network()
    renewed = 0
    for _, action in io.effective_actions(data["actions"]):
        game.process(io.imported(action), atomic=False)
        if action["type"] != "lay_tile":
            continue
        before = board._network_cache
        quick = board.network()
        tokens = {key: tuple(city.slots) for key, city in board._cities.items()}
        full = TrackNetwork(
            {h: board._current(h)[:2] for h in board.hexes}, board._neighbours, tokens
        )
        renewed += before is not None and before[1].hex_slot is quick.hex_slot  # not built anew
        assert quick.nodes == full.nodes and quick.paths == full.paths
        assert {k: sorted(v) for k, v in quick.edge_states.items() if v} == {
            k: sorted(v) for k, v in full.edge_states.items() if v
        }
        assert {k: sorted(v) for k, v in quick.node_states.items() if v} == {
            k: sorted(v) for k, v in full.node_states.items() if v
        }
        assert [(c.a, c.b, c.paths, c.sides) for c in quick.chains] == [
            (c.a, c.b, c.paths, c.sides) for c in full.chains
        ]
        for corp in game.corporations:  # walks kept from the graph before the lay still hold
            fast, slow = quick.reach(corp.sym), full.reach(corp.sym)
            assert (fast.nodes, fast.paths, dict(fast.edges)) == (
                slow.nodes,
                slow.paths,
                dict(slow.edges),
            )
    assert renewed > 10


def _after_each_lay(data: dict):
    """The game of a recorded file just after each of its tile lays, with the lay's number."""
    from engine.eighteen import io

    game = io.new_game(data)
    lays = 0
    for _, action in io.effective_actions(data["actions"]):
        game.process(io.imported(action), atomic=False)
        if action["type"] == "lay_tile":
            lays += 1
            yield game, lays


@pytest.mark.parametrize("title", ["1830", "1860"])
def test_a_walk_with_a_goal_answers_as_the_whole_reach_does(title: str) -> None:
    """Asking whether one side, centre or path is reached stops the walk at the first found; the
    answer must be the whole reach's, for every company, centre, path and hex side, at every 20th
    lay of a recorded game. Chains read along hexes (kept from turn to turn and from the graph
    before a lay) must be those of a graph built anew."""
    from engine.eighteen.board.graph import Goal, TrackNetwork
    from tests.reference_games import require_games

    lays = asked = 0
    for game, lays in _after_each_lay(json.loads(require_games(title)[0].read_text())):
        board = game.board
        network = board.network()
        for chain in network.chains:
            network.chains_along(chain.hexes)  # remembered, for this graph and those after
        if lays % 20:
            continue
        tokens = {key: tuple(city.slots) for key, city in board._cities.items()}
        full = TrackNetwork(
            {h: board._current(h)[:2] for h in board.hexes}, board._neighbours, tokens
        )
        for chain in full.chains:
            assert [(c.a, c.b, c.paths, c.sides) for c in network.chains_along(chain.hexes)] == [
                (c.a, c.b, c.paths, c.sides) for c in full.chains_along(chain.hexes)
            ]
        for corp in game.corporations:
            whole = full.reach(corp.sym)
            for node in network.nodes:
                assert network.reach(corp.sym, goal=Goal(nodes=frozenset({node.id}))).hit == (
                    node.id in whole.nodes
                )
            for path in network.paths:
                if path is not None:
                    hit = network.reach(corp.sym, goal=Goal(paths=frozenset({path.id}))).hit
                    assert hit == (path.id in whole.paths), (corp.sym, path.hex, path.id)
            for hex_id, sides in board._neighbours.items():
                for side in sides:
                    hit = network.reach(corp.sym, goal=Goal(sides=frozenset({(hex_id, side)}))).hit
                    assert hit == (side in whole.edges.get(hex_id, ())), (corp.sym, hex_id, side)
                    asked += 1
    assert lays >= 40 and asked > 1000


def test_a_network_s_memo_is_its_own_and_not_its_variants(balloon: Board) -> None:
    """Answers kept with a track network (1860's distances) belong to that snapshot: the
    network after a lay or a token has other centres, so it starts with a memo of its own."""
    before = balloon.network()
    before.memo()["answer"] = 1
    assert balloon.network().memo() == {"answer": 1}
    balloon.place_token("PRR", "A3", 0)
    assert balloon.network().memo() == {}
    balloon.lay("X", "A5", "9", 1)
    after = balloon.network()
    assert after is not before and after.memo() == {}
    assert before.memo() == {"answer": 1}


@pytest.mark.parametrize("title", ["1830", "1860"])
def test_a_walk_ending_when_every_state_is_entered_finds_what_the_whole_walk_finds(
    title: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The walk ends once it has entered as many states as a walk that forgets where it has been
    could; that bound must cut only walks that find nothing new: every company's reach, at every
    5th lay of a recorded game, equals the reach of a walk that never ends early."""
    from engine.eighteen.board.graph import TrackNetwork
    from tests.reference_games import require_games

    compared = 0
    for game, lays in _after_each_lay(json.loads(require_games(title)[-1].read_text())):
        if lays % 5:
            continue
        network = game.board.network()
        for corp in game.corporations:
            if not network.token_nodes(corp.sym):
                continue
            quick = network.reach(corp.sym)
            with monkeypatch.context() as m:
                m.setattr(TrackNetwork, "_loose_states", lambda self, corp, starts: -1)
                whole = network.reach(corp.sym)
            assert (quick.paths, quick.nodes, dict(quick.edges)) == (
                whole.paths,
                whole.nodes,
                dict(whole.edges),
            )
            compared += 1
    assert compared > 30
