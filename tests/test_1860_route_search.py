"""The 1860 route finder's parts against plain re-statements of what they compute: the walks
(every company at real positions, against an enumeration with sets instead of bit masks), the
route index (against a scan of every route), and the best run of two trains (against every
pair of walks)."""

from __future__ import annotations

import json
import random
from itertools import combinations
from typing import Any

import pytest

from engine.eighteen import io
from engine.eighteen.board.graph import TrackNetwork
from engine.eighteen.board.tiles import NodeKind
from engine.g1860 import Game1860
from engine.g1860.route_index import CHUNK, RouteIndex
from engine.g1860.router import best_runs
from engine.g1860.routes import full_for, track_bits
from engine.g1860.walks import walks
from tests.reference_games import game_path

# (set, game, action index, trains' big stations): late networks of a few thousand walks, with
# and without re-entry, the count of big stations binding or not
POSITIONS = [
    ("1860", "1860_game_end_bank", 568, 4),
    ("1860", "19354", 491, 3),
    ("random/1860", "1860_2p_r3_s201", 588, 9),
]


def _game(game_set: str, name: str, index: int) -> Game1860:
    data = json.loads(game_path(game_set, name).read_text())
    game = io.load(data, upto=index - 1).game
    assert isinstance(game, Game1860)
    return game


# a walk as (back stops, back chain ids, ahead stops, ahead chain ids)
Listed = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _reference_walks(
    network: TrackNetwork, corp: str, big: int, re_enter: bool, flipped: set[str], color: str
) -> list[Listed]:
    """Walks as (back stops, back chain ids, ahead stops, ahead chain ids), by the definition in
    `walks`' docstring, with sets and no bit tricks."""
    nodes = network.nodes
    is_big = [n.kind in (NodeKind.CITY, NodeKind.OFFBOARD) for n in nodes]
    full = [full_for(n, corp, flipped) for n in nodes]
    found: list[Listed] = []
    done: set[int] = set()
    for station in network.token_nodes(corp):
        arms: list[dict[str, Any]] = []

        def grow(
            path: list[int], chains: list[Any], track: int, hexes: set[str], passed: int
        ) -> None:
            end = path[-1]
            if chains:
                arms.append(
                    {
                        "nodes": tuple(path),
                        "chains": tuple(chains),
                        "track": track,
                        "hexes": hexes - {nodes[station].hex},
                        "passed": passed,
                        "big": sum(is_big[n] for n in path),
                    }
                )
                if nodes[end].kind is NodeKind.OFFBOARD or (full[end] and passed):
                    return
                passed += full[end]
            for chain in network.node_chains[end]:
                nxt = chain.other(end)
                seq = chain.hexes if chain.a == end else chain.hexes[::-1]
                entered = set(seq[1:] if seq and seq[0] == nodes[end].hex else seq)
                bits = track_bits(network, chain)
                if nxt in path or nxt in done or bits & track:
                    continue
                if not re_enter and entered & hexes:
                    continue
                if is_big[nxt] and sum(is_big[n] for n in path) >= big:
                    continue
                grow(path + [nxt], chains + [chain], track | bits, hexes | entered, passed)

        grow([station], [], 0, {nodes[station].hex}, 0)
        ends_ok = [nodes[a["nodes"][-1]].kind is not NodeKind.HALT for a in arms]
        for i, a in enumerate(arms):
            if not ends_ok[i]:
                continue
            ids = tuple(c.id for c in a["chains"])
            found.append(((station,), (), a["nodes"], ids))
            for j, b in enumerate(arms):
                if (
                    ends_ok[j]
                    and b["chains"][0].id > a["chains"][0].id
                    and not set(a["nodes"][1:]) & set(b["nodes"][1:])
                    and not a["track"] & b["track"]
                    and not (not re_enter and a["hexes"] & b["hexes"])
                    and a["big"] + b["big"] - is_big[station] <= big
                    and not (a["passed"] and b["passed"])
                ):
                    found.append((a["nodes"], ids, b["nodes"], tuple(c.id for c in b["chains"])))
        done.add(station)
    return found


@pytest.mark.parametrize("game_set,name,index,big", POSITIONS)
def test_walks_are_those_of_the_definition_in_the_same_order(
    game_set: str, name: str, index: int, big: int
) -> None:
    game = _game(game_set, name, index)
    network = game.board.network()
    rules = game.route_rules()
    color = game.phases.current.offboard_color
    checked = 0
    for corp in game.corporations:
        if not network.token_nodes(corp.sym):
            continue
        flipped = {c.sym for c in game.bankrupt_corps}
        found = walks(network, corp.sym, big, rules, flipped, color)
        listed = [found.walk(w) for w in range(len(found))]
        assert [
            (
                w.back,
                tuple(c.id for c in w.back_chains),
                w.ahead,
                tuple(c.id for c in w.ahead_chains),
            )
            for w in listed
        ] == _reference_walks(network, corp.sym, big, rules.re_enter_hexes, flipped, color)
        checked += len(listed)
    assert checked > 1000


def _scan(
    values: list[int], rows: list[int], clash: int, width: int, need: int = 0, start: int = 0
) -> list[int]:
    """The places from `start` on of the routes whose chains miss `clash` and that have the
    flags `need` (bits width and up), best first."""
    return [
        at
        for at in range(start, len(values))
        if not rows[at] & clash and rows[at] >> width & need == need
    ]


def test_the_route_index_answers_as_a_scan_of_every_route() -> None:
    rng = random.Random(24)
    width, n_arms = 12, 60
    n = 2 * CHUNK + 900  # three chunks
    values = sorted((rng.randrange(1, 40) * 10 for _ in range(n)), reverse=True)
    # the best routes run along most chains, so that clear ones are found only deeper down
    rows = [
        (rng.getrandbits(width) | rng.getrandbits(width) if at < 2 * CHUNK else rng.getrandbits(3))
        | rng.getrandbits(2) << width
        for at in range(n)
    ]
    overlap = {c: 1 << c | (1 << (c + 1) % width if c % 3 == 0 else 0) for c in range(width)}
    links = [(rng.randrange(-1, i) if i else -1, rng.randrange(width)) for i in range(n_arms)]

    def clash_of_chains(chains: int) -> int:
        return _or(overlap[c] for c in range(width) if chains >> c & 1)

    def arm_chains(arm: int) -> int:
        chains = 0
        while arm >= 0:
            chains |= 1 << links[arm][1]
            arm = links[arm][0]
        return chains

    index = RouteIndex(values, overlap, lambda lo, hi: rows[lo:hi], width, links)
    for _ in range(300):
        arms = rng.sample(range(n_arms), rng.randrange(1, 3))
        floor = rng.randrange(-10, 400)
        clear = [_scan(values, rows, clash_of_chains(arm_chains(a)), width) for a in arms]
        alone = min((values[c[0]] if c else 0) for c in clear)
        bound = index.arms_bound(arms, floor)
        assert bound == alone if alone > floor else bound <= floor
        need_home, need_not_full = rng.random() < 0.3, rng.random() < 0.3
        together = _scan(
            values,
            [row ^ 1 << width for row in rows],  # not passing a full station: the flag flipped
            clash_of_chains(_or(arm_chains(a) for a in arms)),
            width,
            need_home << 1 | need_not_full,
        )
        best = min(alone, values[together[0]] if together else 0)
        bound = index.partner_bound(arms, need_home, need_not_full, floor)
        assert bound == best if best > floor else bound <= floor
        used, start = rng.getrandbits(width) & rng.getrandbits(width), rng.randrange(n)
        expected = _scan(values, rows, clash_of_chains(used), width, start=start)
        assert list(index.free(used, start)) == expected
        cut = [at for at in expected if values[at] > floor]
        assert [at for at in index.free(used, start, floor=floor) if values[at] > floor] == cut


def _or(masks: Any) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out


def test_two_trains_earn_the_best_of_every_pair_of_walks() -> None:
    """Against every pair of walks (sharing no track, at most one passing a full station,
    touching, one through home) and every walk alone."""
    game = _game("random/1860", "1860_2p_r3_s201", 588)
    network = game.board.network()
    rules = game.route_rules()
    color = game.phases.current.offboard_color
    checked = 0
    for corp in game.corporations:
        trains, home, flipped = game.route_inputs(corp)
        if home is None or not network.token_nodes(corp.sym):
            continue
        home_node = network.node_at[home]
        two = {"4-0": (4, 2, False), "3-0": (3, 1, False)}
        revenue, _, chosen = best_runs(network, corp.sym, two, home_node, color, rules, flipped)
        found = walks(network, corp.sym, 4, rules, flipped, color)
        listed = [found.walk(w) for w in range(len(found))]
        worth = {
            spec: [_revenue(found, w, spec, rules) for w in range(len(found))]
            for spec in two.values()
        }
        best = max(
            (
                v
                for spec in two.values()
                for v, w in zip(worth[spec], listed)
                if v is not None and w.node_bits >> home_node & 1
            ),
            default=0,
        )
        for (i, a), (j, b) in combinations(enumerate(listed), 2):
            if (
                a.sides & b.sides
                or a.passes_full
                and b.passes_full
                or not a.node_bits & b.node_bits
            ):
                continue
            if not (a.node_bits | b.node_bits) >> home_node & 1:
                continue
            for x, y in ((i, j), (j, i)):
                first, second = worth[two["4-0"]][x], worth[two["3-0"]][y]
                if first is not None and second is not None:
                    best = max(best, first + second)
        assert revenue == best, corp.sym
        assert sum(c.revenue for _, c in chosen) == revenue
        checked += 1
    assert checked >= 2


def _revenue(found: Any, w: int, spec: tuple[int, int, bool], rules: Any) -> int | None:
    from engine.g1860.router import _worth  # the valuation is the router's; the search is checked
    from engine.g1860.walks import read_stops

    big, small, leased = spec
    first_only = rules.leased_counts_first_number_only(leased)
    second = big if (first_only or rules.nationalization) else big + small
    worth = _worth(
        read_stops(found.stops[w], found.town_sets), big, second, leased, first_only, rules
    )
    return None if worth is None else worth[1]
