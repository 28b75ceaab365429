"""The service's Renderer built on render/: one named view of a game, drawn from the game's
snapshot (`game.snapshot()`), with the game's switched-on options picking the board variant;
plus the close-up ("focus") of what a turn changed, the picture of the lays on one hex and the
charts of how the game went (drawn from its series)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.game import Action, Game
from engine.series import ChartSeries
from render import drawer_for


class NotDrawable(ValueError):
    """The game has no snapshot, or render/ has no drawing for that view."""


def _snapshot(game: Game) -> Mapping[str, Any]:
    snapshot = getattr(game, "snapshot", None)
    if snapshot is None:
        raise NotDrawable(f"{game.title} games cannot be drawn yet")
    return snapshot()


def _options(game: Game) -> list[str]:
    return sorted(name for name, value in game.options.items() if value)


def warm_up() -> None:
    """Load the drawing code, Pillow's file drivers and the fonts, so that the first image a
    player asks for does not wait for them (the bot runs this in the background at start)."""
    from render.strings import warm_up as warm_strings

    warm_strings()


def render_view(
    game: Game, view: str, places: Sequence[str] = (), runs: Sequence[Mapping[str, Any]] = ()
) -> bytes:
    """`view` of the game; "focus" is the map around `places` with `runs` drawn on it."""
    if view == "focus":
        from render.focus import render_focus  # render/ loads on first drawing

        png = render_focus(_snapshot(game), places, _options(game), runs)
        if png is None:
            raise NotDrawable("nothing on the map changed")
        return png
    return render_snapshot(game, view, _snapshot(game))


def render_snapshot(game: Game, view: str, snapshot: Mapping[str, Any]) -> bytes:
    """A view of the game drawn from a given snapshot (a previewed move's, say)."""
    drawer = drawer_for(game.title, view)
    if drawer is None:
        raise NotDrawable(f"there is no {view!r} image (known: {', '.join(game.views())})")
    return drawer(snapshot, _options(game))


def runs_of(action: Action | None) -> list[dict[str, Any]]:
    """The runs of a `run_routes` move, as render/ draws them (train name, its owner, hexes
    between stops)."""
    if not action or action.get("type") != "run_routes":
        return []
    owner = {"owner": str(action["entity"])} if action.get("entity") else {}
    return [
        {
            "train": str(r.get("train", "?")).rsplit("-", 1)[0],
            "connections": r["connections"],
            **owner,
        }
        for r in action.get("routes") or []
        if isinstance(r, dict) and r.get("connections")
    ]


def draw_lays(game: Game, lays: Sequence[Any]) -> bytes:
    """The lays on one hex (`game.lay_options`), numbered from 1, in one picture."""
    from render.focus import render_lay_options

    hex_id = lays[0].action["hex"]
    return render_lay_options(
        hex_id,
        [
            (str(n), lay.snapshot, f"{n}. Tile {lay.tile}: {lay.words}")
            for n, lay in enumerate(lays, start=1)
        ],
        _options(game),
    )


def draw_chart(series: ChartSeries, key: str) -> bytes:
    """One chart of a game's series (the service's ChartDrawer)."""
    from render.charts import render_chart

    return render_chart(series, key)
