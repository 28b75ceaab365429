"""The exact route finder: hand-built positions, and agreement with brute force on big networks."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.eighteen.board import Board, Distance
from engine.eighteen.board.graph import TrackNetwork
from engine.eighteen.board.router import best_runs, enumerate_routes
from engine.eighteen.board.routes import is_big, run_problem

DATA = Path(__file__).resolve().parent.parent / "engine" / "data" / "1830.json"
CORPS = ("PRR", "NYC", "CPR", "B&O", "C&O", "ERIE", "NYNH", "B&M")


def title() -> dict:
    return json.loads(DATA.read_text())


def grow_network(seed: int, steps: int = 200) -> Board:
    """A late-game 1830 board: every company in its home, then `steps` connected lays (mostly the
    tile with the most track), a token now and then. Deterministic for a seed."""
    rng = random.Random(seed)
    data = title()
    board = Board(data)
    for corp in data["corporations"]:
        board.place_token(corp["sym"], corp["home"], corp.get("home_city_index") or 0)
    for step in range(steps):
        corp = CORPS[step % len(CORPS)]
        lays = board.legal_lays(corp, colors={"yellow", "green", "brown"})
        if lays:
            if rng.random() < 0.7:
                hex_id, name, rotation = max(
                    lays, key=lambda l: len(board.tile_defs[l[1]].exits(0)) + rng.random()
                )
            else:
                hex_id, name, rotation = rng.choice(lays)
            board.lay(corp, hex_id, name, rotation)
        if step % 15 == 0:
            cities = board.legal_token_cities(corp)
            if cities and sum(c == corp for v in board.tokens().values() for _, _, c in v) < 4:
                board.place_token(corp, *board.locate_city(rng.choice(cities)))
    return board


def build(tokens: list[tuple[str, str, int]], tiles: list[tuple[str, str, int]]) -> Board:
    board = Board(title())
    for hex_id, tile, rotation in tiles:
        board.lay("X", hex_id, tile, rotation)
    for corp, hex_id, city in tokens:
        board.place_token(corp, hex_id, city)
    return board


def best(board: Board, corp: str, trains: list, phase: str = "brown") -> tuple[int, list[str]]:
    total, routes = board.best_routes(corp, trains, phase_color=phase)
    return total, [r["revenue_str"] for r in routes]


# -- hand-built positions ------------------------------------------------------------------
def test_trains_need_a_station_on_their_route() -> None:
    board = build([("B&O", "I15", 0)], [("J14", "57-0", 0)])
    assert best(board, "B&O", [("2-0", 2), ("2-1", 2)], "yellow") == (50, ["I15-J14"])
    assert best(board, "B&O", [("3-0", 3)], "yellow") == (80, ["I15-J14-K13"])
    board.place_token("B&O", "J14", 0)
    assert best(board, "B&O", [("2-0", 2), ("2-1", 2)], "yellow") == (100, ["I15-J14", "J14-K13"])


def test_deep_south_beats_richmond_and_offboards_pay_by_phase() -> None:
    board = build(
        [("B&O", "I15", 0)],
        [("J14", "57-0", 0), ("J14", "14-0", 2), ("I15", "53-0", 0), ("I15", "61-0", 0)],
    )
    assert best(board, "B&O", [("3-0", 3)], "yellow") == (120, ["I15-J14-K13"])  # 60 + 30 + 30
    assert best(board, "B&O", [("3-0", 3)], "brown") == (
        130,
        ["I15-J14-K13"],
    )  # Deep South 40 > Richmond 20
    assert best(board, "B&O", [("D-0", None)], "brown") == (130, ["I15-J14-K13"])
    board.place_token("B&O", "J14", 0)
    assert best(board, "B&O", [("2-0", 2), ("2-1", 2), ("2-2", 2)], "brown") == (
        210,
        ["I15-J14", "J14-K13", "J14-K15"],
    )


def test_no_turning_back_at_a_junction() -> None:
    # I17's tile 26 joins Baltimore straight to Atlantic City and, from the same side, Atlantic
    # City to Philadelphia: Philadelphia is only reachable by backing out of Atlantic City
    board = build([("B&O", "I15", 0)], [("I17", "26-0", 4), ("H18", "59-0", 0)])
    assert best(board, "B&O", [("4-0", 4)], "green") == (40, ["I15-I19"])
    network = board.network()
    assert network.node_at[("H18", 0)] not in board.reach("B&O").nodes
    assert board.legal_token_cities("B&O") == []


def test_a_full_city_ends_the_line() -> None:
    board = build([("B&O", "I15", 0), ("PRR", "J14", 0)], [("J14", "57-0", 0)])
    assert best(board, "B&O", [("3-0", 3)], "yellow") == (50, ["I15-J14"])


def test_no_station_no_route() -> None:
    board = build([], [("J14", "57-0", 0)])
    assert best(board, "B&O", [("3-0", 3)]) == (0, [])
    assert best(build([("B&O", "I15", 0)], []), "B&O", []) == (0, [])


# -- agreement with brute force on grown networks ---------------------------------------------
def all_routes(
    network: TrackNetwork, corp: str, max_stops: int | None
) -> dict[frozenset[int], int]:
    """Every legal route as {chain ids: revenue}, by walking simple lines from every stop."""
    found: dict[frozenset[int], int] = {}

    def walk(stops: list[int], chains: list, sides: int) -> None:
        if chains:
            problem = run_problem([network.nodes[n] for n in stops], corp)
            if problem is None:
                found[frozenset(c.id for c in chains)] = sum(
                    network.nodes[n].revenue.value("brown") for n in stops
                )
            if len(stops) > 2 and problem and "twice" in problem:
                return
        if max_stops is not None and len(stops) >= max_stops:
            return
        if len(stops) > 1 and network.nodes[stops[-1]].blocks(corp):
            return
        for chain in network.node_chains[stops[-1]]:
            nxt = chain.other(stops[-1])
            if nxt not in stops and not chain.sides & sides:
                walk(stops + [nxt], chains + [chain], sides | chain.sides)

    for node in network.nodes:
        walk([node.id], [], 0)
    return found


def exhaustive_best(network: TrackNetwork, corp: str, trains: list[Distance]) -> int:
    routes = all_routes(network, corp, None)
    nodes_of = {}
    for key in routes:
        stops = set()
        for cid in key:
            chain = network.chains[cid]
            stops.update((chain.a, chain.b))
        nodes_of[key] = [network.nodes[n] for n in stops]
    sides_of = {key: sum_sides(network, key) for key in routes}
    options = [
        [
            k
            for k in routes
            if d.allows(
                sum(map(is_big, nodes_of[k])), len(nodes_of[k]) - sum(map(is_big, nodes_of[k]))
            )
        ]
        for d in trains
    ]

    def go(i: int, used: int) -> int:
        if i == len(trains):
            return 0
        top = go(i + 1, used)
        for key in options[i]:
            if not sides_of[key] & used:
                top = max(top, routes[key] + go(i + 1, used | sides_of[key]))
        return top

    return go(0, 0)


def sum_sides(network: TrackNetwork, key: frozenset[int]) -> int:
    mask = 0
    for cid in key:
        mask |= network.chains[cid].sides
    return mask


@pytest.mark.parametrize("seed", [0, 3, 5])
def test_enumeration_finds_exactly_the_legal_routes(seed: int) -> None:
    network = grow_network(seed).network()
    for corp in ("PRR", "NYC", "B&O"):
        for limit in (3, None):
            ours = {
                frozenset(c.id for c in cand.chains): cand.revenue
                for cand in enumerate_routes(network, corp, limit, "brown")
            }
            assert ours == all_routes(network, corp, limit), (seed, corp, limit)


@pytest.mark.parametrize("seed", [0, 3])
def test_best_routes_match_exhaustive_search(seed: int) -> None:
    board = grow_network(seed)
    network = board.network()
    for corp in ("PRR", "B&O"):
        for trains in (
            [Distance(None), Distance(None)],
            [Distance(4), Distance(3), Distance(2)],
            [Distance(2), Distance(2), Distance(2), Distance(2)],
        ):
            named = {f"t{i}": d for i, d in enumerate(trains)}
            total, runs = best_runs(network, corp, named, "brown")
            assert total == exhaustive_best(network, corp, trains), (seed, corp, trains)
            routes = [run.to_dict(network, "brown") for run in runs]
            assert sum(board.route_revenues(corp, routes, named, phase_color="brown")) == total


def test_diesels_on_a_big_late_network_are_exact_and_deterministic() -> None:
    board = grow_network(0)
    assert len(board.laid_tiles()) > 60
    diesels = [("D-0", None), ("D-1", None)]
    first = board.best_routes("B&O", diesels, phase_color="brown")
    assert first == board.best_routes("B&O", diesels, phase_color="brown")
    assert first[0] == exhaustive_best(board.network(), "B&O", [Distance(None), Distance(None)])
    assert max(len(r["nodes"]) for r in first[1]) > 6  # longer than any numbered train
