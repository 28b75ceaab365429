"""Train runs drawn over the map: one colour per train, a line through the hexes it passes and
a dot on each stop, so a player sees where each ran; `legend` names the train of each colour
(beside the map, where it covers no label).

A run is plain data (no rules): `{"train": "2", "connections": [["F20", "G19"], ...]}` (and
optionally `"owner": "B&O"`, named in the legend) where each connection lists the hexes from one stop to the next, as in 18xx.games' `run_routes`
(1860 writes a leg inside one hex as the hex and its two stations, "F2 0.1").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from render.snapshot import SnapshotError
from render.svg import Svg

# Bright colours far from the tile colours and the last-move magenta.
RUN_COLOURS = ("#E6194B", "#1F5BD8", "#0A9E3A", "#F58231", "#7A1FA2", "#00A3A3")
CASING = "#FFFFFF"

Centre = Callable[[str], tuple[float, float]]


def run_hexes(runs: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every hex the runs pass, in order of first appearance."""
    seen: dict[str, None] = {}
    for run in runs:
        for chain in _chains(run):
            for hex_id in chain:
                seen.setdefault(hex_id)
    return list(seen)


def _chains(run: Mapping[str, Any]) -> list[list[str]]:
    chains = run.get("connections")
    if not isinstance(chains, list) or not all(isinstance(c, list) for c in chains):
        raise SnapshotError(f"a run needs 'connections': lists of hexes, got {chains!r}")
    # a leg between two stations of one hex names the hex and the stations: "F2 1.2"
    return [[str(h).split(" ")[0] for h in c] for c in chains]


def draw_runs(
    svg: Svg,
    centre: Centre,
    r: float,
    runs: Sequence[Mapping[str, Any]],
    known: Callable[[str], bool],
) -> None:
    """Draw each run; trains of one company are shifted apart so shared hexes show both."""
    n = len(runs)
    for i, run in enumerate(runs):
        colour = run_colour(i)
        shift = (i - (n - 1) / 2) * 0.16 * r
        dx, dy = shift * 0.6, shift * 0.8

        def at(hex_id: str) -> tuple[float, float]:
            if not known(hex_id):
                raise SnapshotError(f"a run passes {hex_id}, which is not on the map")
            x, y = centre(hex_id)
            return x + dx, y + dy

        chains = _chains(run)
        for chain in chains:
            points = [at(h) for h in chain]
            if len(points) < 2:
                continue
            d = "M" + "L".join(f"{x:.1f},{y:.1f}" for x, y in points)
            svg.path(d, CASING, 0.2 * r, extra=' stroke-linejoin="round" stroke-opacity="0.8"')
            svg.path(d, colour, 0.12 * r, extra=' stroke-linejoin="round" stroke-opacity="0.85"')
        stops = {h: None for chain in chains if chain for h in (chain[0], chain[-1])}
        for hex_id in stops:
            x, y = at(hex_id)
            svg.circle(x, y, 0.11 * r, colour, CASING, 0.04 * r)


def run_colour(index: int) -> str:
    return RUN_COLOURS[index % len(RUN_COLOURS)]


def legend(runs: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """(colour, train name with its owner) of each run, in the order drawn."""
    return [
        (run_colour(i), " ".join(str(run[k]) for k in ("owner", "train") if run.get(k)) or "?")
        for i, run in enumerate(runs)
    ]
