"""Rendering: a game snapshot (the plain dict from `game.snapshot()`) in, PNG bytes out.

Three images for the chat: the map, the stock market with its par chart, and the company sheet.
Nothing here knows game rules; every fact shown is read from the snapshot or the title's data.
The drawing modules (cairosvg, fonts) load on first use, so that a command that only imports
`render.cli` to list its options starts fast.
"""
from __future__ import annotations

import importlib
from typing import Any, Collection, Mapping

__all__ = ["render_all", "render_map", "render_market", "render_sheet"]

_LAZY = {"render_map": "render.mapview", "render_market": "render.market", "render_sheet": "render.sheet"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'render' has no attribute {name!r}")


def render_all(snapshot: Mapping[str, Any], options: Collection[str] = ()) -> dict[str, bytes]:
    """{'map.png': ..., 'market.png': ..., 'sheet.png': ...} for one state."""
    from render.mapview import render_map
    from render.market import render_market
    from render.sheet import render_sheet

    return {"map.png": render_map(snapshot, options), "market.png": render_market(snapshot, options),
            "sheet.png": render_sheet(snapshot, options)}
