"""Rendering: a game snapshot (the plain dict from `game.snapshot()`) in, PNG bytes out.

Three images for the chat: the map, the stock market with its par chart, and the company sheet.
Nothing here knows game rules; every fact shown is read from the snapshot or the title's data.
"""
from __future__ import annotations

from typing import Any, Collection, Mapping

from render.mapview import render_map
from render.market import render_market
from render.sheet import render_sheet

__all__ = ["render_all", "render_map", "render_market", "render_sheet"]


def render_all(snapshot: Mapping[str, Any], options: Collection[str] = ()) -> dict[str, bytes]:
    """{'map.png': ..., 'market.png': ..., 'sheet.png': ...} for one state."""
    return {"map.png": render_map(snapshot, options), "market.png": render_market(snapshot, options),
            "sheet.png": render_sheet(snapshot, options)}
