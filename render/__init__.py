"""Rendering: a game snapshot (the plain dict from `game.snapshot()`) in, PNG bytes out.

Images for the chat: the map, the stock market with its par chart, the company sheet, a compact
market legible on a phone, and the charts of how a game went (drawn from the engine's series,
not from a snapshot).
Nothing here knows game rules; every fact shown is read from the snapshot or the title's data.
The drawing modules (cairosvg, fonts) load on first use, so that a command that only imports
`render.cli` to list its options starts fast.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Mapping
from typing import Any

__all__ = [
    "drawer_for",
    "render_all",
    "render_chart",
    "render_map",
    "render_market",
    "render_market_compact",
    "render_sheet",
    "render_string_board",
]

_LAZY = {
    "render_chart": "render.charts",
    "render_map": "render.mapview",
    "render_market": "render.market",
    "render_market_compact": "render.market_compact",
    "render_sheet": "render.sheet",
    "render_string_board": "render.strings",
}
Drawer = Callable[[Mapping[str, Any], Collection[str]], bytes]
# The views a title can name in `Game.views()` (the 18xx images), and titles' own drawings
_VIEWS = {
    "map": "render_map",
    "market": "render_market",
    "market_compact": "render_market_compact",
    "sheet": "render_sheet",
}
_TITLE_VIEWS = {("string_railway", "map"): "render_string_board"}


def drawer_for(title: str, view: str) -> Drawer | None:
    """The function that draws this view of this title's snapshots (None: no such image)."""
    name = _TITLE_VIEWS.get((title, view)) or _VIEWS.get(view)
    return __getattr__(name) if name else None


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'render' has no attribute {name!r}")


def render_all(snapshot: Mapping[str, Any], options: Collection[str] = ()) -> dict[str, bytes]:
    """{'map.png': ..., 'market.png': ..., 'sheet.png': ...} for one state."""
    from render.mapview import render_map
    from render.market import render_market
    from render.sheet import render_sheet

    return {
        "map.png": render_map(snapshot, options),
        "market.png": render_market(snapshot, options),
        "sheet.png": render_sheet(snapshot, options),
    }
