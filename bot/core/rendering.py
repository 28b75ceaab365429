"""The service's Renderer built on render/: one named view of a game, drawn from the game's
snapshot (`game.snapshot()`), with the game's switched-on options picking the board variant."""
from __future__ import annotations

from typing import Any, Mapping

from engine.game import Game
from render import drawer_for


class NotDrawable(ValueError):
    """The game has no snapshot, or render/ has no drawing for that view."""


def render_view(game: Game, view: str) -> bytes:
    snapshot = getattr(game, "snapshot", None)
    if snapshot is None:
        raise NotDrawable(f"{game.title} games cannot be drawn yet")
    return render_snapshot(game, view, snapshot())


def render_snapshot(game: Game, view: str, snapshot: Mapping[str, Any]) -> bytes:
    """A view of the game drawn from a given snapshot (a previewed move's, say)."""
    drawer = drawer_for(game.title, view)
    if drawer is None:
        raise NotDrawable(f"there is no {view!r} image (known: {', '.join(game.views())})")
    options = sorted(name for name, value in game.options.items() if value)
    return drawer(snapshot, options)
