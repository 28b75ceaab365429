"""Render snapshots built from the reference states of the recorded 18xx.games fixtures
(../shared/fixtures/<title>/states), until the engine's `game.snapshot()` exists.

The reference states carry less than a snapshot, so a few fields are filled in here, openly:
- tokens list only hexes: each goes to the home city (title data) or the first city with a free
  slot, in placement order;
- the market cell is the par cell when the price still equals par, else the cell with that
  price nearest to the par cell;
- last revenue is the sum of the company's last run_routes action;
- names, values and train data come from the title data files.
The other render tests import `fixture_snapshot` and `fixture_paths` from here.
"""

from __future__ import annotations

import gzip
import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from render.board import load_board
from render.tileart import layout
from tests.reference_games import game_files

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "engine" / "data"


def fixture_paths(title: str) -> list[Path]:
    """The recorded games of a title (a collection-time list: empty when there are none)."""
    return game_files(title)


@lru_cache(maxsize=16)
def _states(path: Path) -> list[dict[str, Any]]:
    states = path.parent / "states" / f"{path.stem}.jsonl.gz"
    with gzip.open(states, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


@lru_cache(maxsize=4)
def _title_data(title: str) -> dict[str, Any]:
    return json.loads((DATA / f"{title}.json").read_text(encoding="utf-8"))


def state_count(path: Path) -> int:
    return len(_states(path))


def fixture_snapshot(path: Path, line: int = -1) -> dict[str, Any]:
    """The snapshot of reference state `line` (default: the final state) of a fixture."""
    game = json.loads(path.read_text(encoding="utf-8"))
    states = _states(path)
    state = states[line]
    previous = states[line - 1] if line not in (0, -len(states)) else None
    title = game["title"]
    data = _title_data(title)
    names = {p["id"]: p["name"] for p in game["players"]}
    snap: dict[str, Any] = {
        k: state[k]
        for k in (
            "round",
            "turn",
            "round_num",
            "phase",
            "active",
            "bank",
            "depot",
            "discarded",
            "finished",
        )
    }
    snap["title"] = title
    snap["result"] = state.get("result")
    priority = _priority(game, state)
    snap["players"] = [
        {
            "id": p["id"],
            "name": names.get(p["id"], str(p["id"])),
            "cash": p["cash"],
            "shares": p["shares"],
            "companies": p["companies"],
            "bankrupt": p["bankrupt"],
            "priority": p["id"] == priority,
            "value": _value(p, state),
        }
        for p in state["players"]
    ]
    privates = {c["sym"]: c for c in data["private_companies"]}
    snap["companies"] = {
        sym: {
            "name": privates[sym]["name"],
            "value": privates[sym]["value"],
            "revenue": privates[sym]["revenue"],
            "owner": None if owner == "bank" else owner,
        }
        for sym, owner in state["companies"].items()
        if sym in privates
    }
    snap["tiles"] = {h: {"tile": t, "rotation": r} for h, (t, r) in state["tiles"].items()}
    snap["tokens"] = _tokens(title, state)
    snap["corporations"] = _corporations(game, data, state, line)
    snap["trains"] = _roster(data, state, states[0]["depot"])
    snap["offboard_color"] = _offboard_colour(data, state["phase"])
    snap["last_action"] = _last_action(game, state, previous)
    return snap


def _priority(game: dict[str, Any], state: dict[str, Any]) -> Any:
    """The player after the last one to act in a stock round (approximation for test data)."""
    if state["round"] == "Stock Round" and state["active"]:
        return state["active"][0]
    return state["players"][0]["id"]


def _value(player: dict[str, Any], state: dict[str, Any]) -> int:
    corps = state["corporations"]
    return player["cash"] + sum(
        pct // 10 * (corps[c]["price"] or 0) for c, pct in player["shares"].items()
    )


def _tokens(title: str, state: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    board = load_board(title)
    homes = {c.sym: c for c in board.corporations.values()}
    used: dict[str, list[list[str]]] = {}
    out: dict[str, list[dict[str, Any]]] = {}
    for sym, corp in state["corporations"].items():
        for hexname in corp["tokens"]:
            tile = state["tiles"].get(hexname)
            art = board.tiles[tile[0]].rotated(tile[1]) if tile else board.hexes[hexname].art
            cities = used.setdefault(hexname, [[] for _ in art.cities])
            home = homes[sym]
            order = list(range(len(cities)))
            if home.home == hexname and home.home_city is not None:
                order.remove(home.home_city)
                order.insert(0, home.home_city)
            stops = {
                s.index: s.slots for s in layout(board.orientation, art).stops if s.kind == "city"
            }
            city = next(c for c in order if len(cities[c]) < stops[c])
            out.setdefault(hexname, []).append(
                {"city": city, "slot": len(cities[city]), "corp": sym}
            )
            cities[city].append(sym)
    return out


def _corporations(
    game: dict[str, Any], data: dict[str, Any], state: dict[str, Any], line: int
) -> dict[str, Any]:
    grid = data["stock_market"]["grid"]
    pars: dict[str, tuple[int, int]] = {}
    revenue: dict[str, int] = {}
    last_idx = state["idx"]
    for a in game["actions"][: last_idx + 1]:
        if a.get("skip"):
            continue
        if a["type"] == "par":
            _price, row, col = (int(v) for v in a["share_price"].split(","))
            pars[a["corporation"]] = (row, col)
        elif a["type"] == "run_routes":
            revenue[a["entity"]] = sum(r.get("revenue", 0) for r in a.get("routes", []))
    specs = {c["sym"]: c for c in data["corporations"]}
    out: dict[str, Any] = {}
    stacks: dict[tuple[int, int], int] = {}
    for sym, c in state["corporations"].items():
        cell = (
            _cell(grid, c["price"], pars.get(sym))
            if c["price"] is not None and not c["closed"]
            else None
        )
        market = None
        if cell is not None:
            market = [cell[0], cell[1], stacks.get(cell, 0)]
            stacks[cell] = stacks.get(cell, 0) + 1
        out[sym] = {
            "name": specs[sym]["name"],
            "cash": c["cash"],
            "price": c["price"],
            "par": c["par"],
            "president": c["president"],
            "floated": c["floated"],
            "ipoed": c["ipoed"],
            "closed": c["closed"],
            "ipo_pct": c["ipo_pct"],
            "pool_pct": c["pool_pct"],
            "trains": c["trains"],
            "tokens_unused": c["tokens_unused"],
            "token_count": specs[sym]["token_count"],
            "companies": c["companies"],
            "market": market,
            "operated": False,
            "last_revenue": revenue.get(sym),
            "home": specs[sym]["home"],
        }
    return out


def _cell(grid: list[list[Any]], price: int, par: tuple[int, int] | None) -> tuple[int, int] | None:
    cells = [
        (r, c)
        for r, row in enumerate(grid)
        for c, cell in enumerate(row)
        if cell and cell["price"] == price
    ]
    if not cells:
        return None
    if par is None:
        return cells[0]
    if par in cells:
        return par
    return min(cells, key=lambda rc: math.hypot(rc[0] - par[0], rc[1] - par[1]))


def _roster(
    data: dict[str, Any], state: dict[str, Any], initial_depot: list[str]
) -> list[dict[str, Any]]:
    """A train type counts as bought once fewer are in the depot than at the start, or once a
    company holds one (the depot shows unlimited trains once)."""
    held = {t for c in state["corporations"].values() for t in c["trains"]} | set(
        state["discarded"]
    )
    bought = held | {
        t["name"]
        for t in data["trains"]
        if state["depot"].count(t["name"]) < initial_depot.count(t["name"])
    }
    return [
        {
            "name": t["name"],
            "distance": t.get("distance", t.get("big_stops")),
            "price": t["price"],
            "left": state["depot"].count(t["name"]),
            "rusts_on": t.get("rusts_on_first"),
            "rusted": t.get("rusts_on_first") in bought,
        }
        for t in data["trains"]
    ]


def _offboard_colour(data: dict[str, Any], phase: str) -> str:
    for p in data["phases"]:
        if str(p["phase"]).split(" ")[0] == phase:
            return "brown" if p.get("offboard_value") == "higher" else "yellow"
    return "yellow"


def _last_action(
    game: dict[str, Any], state: dict[str, Any], previous: dict[str, Any] | None
) -> Any:
    if state["type"] == "lay_tile":
        return {"type": "lay_tile", "hex": game["actions"][state["idx"]]["hex"]}
    if state["type"] == "place_token" and previous is not None:
        for sym, c in state["corporations"].items():
            before = previous["corporations"][sym]["tokens"]
            if len(c["tokens"]) > len(before):
                hexname = c["tokens"][-1]
                tokens = _tokens(game["title"], state)[hexname]
                city = next(t["city"] for t in tokens if t["corp"] == sym)
                return {"type": "place_token", "hex": hexname, "city": city}
    return None


# -- checks on the converted snapshots and on the tile geometry they exercise ------------------
def test_fixture_snapshots_have_the_contract_keys():
    for path in fixture_paths("1830"):
        snap = fixture_snapshot(path)
        assert {
            "title",
            "round",
            "players",
            "corporations",
            "companies",
            "tiles",
            "tokens",
            "depot",
            "trains",
            "offboard_color",
            "last_action",
            "finished",
        } <= set(snap)
        assert snap["finished"] is True


def test_laid_track_in_fixtures_mostly_meets_track_or_the_board_edge():
    """Validates the edge and rotation convention on real games: laid exits must nearly always
    face track, a blank hex or the board's outside (a mirrored convention fails about a quarter)."""
    board = load_board("1830")
    for path in fixture_paths("1830"):
        snap = fixture_snapshot(path)
        exits = {}
        for coord, h in board.hexes.items():
            t = snap["tiles"].get(coord)
            art = board.tiles[t["tile"]].rotated(t["rotation"]) if t else h.art
            exits[coord] = {e.index for a, b in art.paths for e in (a, b) if e.is_edge}
        good = bad = 0
        for coord in snap["tiles"]:
            for e in exits[coord]:
                other = board.neighbour(coord, e)
                blank = other is not None and other not in snap["tiles"] and not exits[other]
                if other is None or blank or (e + 3) % 6 in exits[other]:
                    good += 1
                else:
                    bad += 1
        assert bad <= 0.1 * (good + bad), (path.name, good, bad)
