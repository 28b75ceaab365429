"""engine/data/1860.json shaped for the 18xx core, per map edition (the options decide which)."""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.g1860.market import market_grid

RAW: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parent.parent / "data" / "1860.json").read_text()
)

# Tile parts numbered as 18xx.games' tile codes write them (routes name stops by that number).
NODE_ORDER = {"754": ["halt0", "town0"], "755": ["halt0", "town0"]}
# The first-edition map: three hexes fewer, Yarmouth without its border, one 776 and one 770 fewer.
FIRST_EDITION_REMOVED = {"A5", "A7", "E11"}
FIRST_EDITION_FEWER_TILES = {"776": 1, "770": 1}


@lru_cache(maxsize=2)
def title_data(first_edition: bool) -> dict[str, Any]:
    d = copy.deepcopy(RAW)
    hexes = []
    for h in d["map"]["hexes_second_edition"]:
        if first_edition and h["hex"] in FIRST_EDITION_REMOVED:
            continue
        if first_edition and h["hex"] == "B4":
            h.pop("impassable_borders", None)
        hexes.append(h)
    d["map"] = {"layout": d["map"]["layout"], "hexes": hexes}
    for t in d["tiles"]:
        if t["name"] in NODE_ORDER:
            t["node_order"] = NODE_ORDER[t["name"]]
        if first_edition:
            t["count"] -= FIRST_EDITION_FEWER_TILES.get(t["name"], 0)
    d["stock_market"] = {"grid": market_grid(d["stock_market"]["cells"])}
    for c in d["corporations"]:
        c.setdefault("home_city_index", None)
    for c in d["private_companies"]:
        c["name"] = c["name_18xx_games"]
        c["ability"] = c.get("ability") or c.get("exchange_for") or ""
    return d
