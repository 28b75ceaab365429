"""Train runs drawn over the map: one colour per train, a line through the hexes it passes,
a dot on each stop and the train's name where it starts, so a player sees where each ran.

A run is plain data (no rules): `{"train": "2", "connections": [["F20", "G19"], ...]}` where
each connection lists the hexes from one stop to the next, as in 18xx.games' `run_routes`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from render.snapshot import SnapshotError
from render.svg import Svg

# Bright colours far from the tile colours and the last-move magenta; each run also carries
# its train's name, so colour is never the only cue.
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
    return [[str(h) for h in c] for c in chains]


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
        colour = RUN_COLOURS[i % len(RUN_COLOURS)]
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
        if chains and chains[0]:
            x, y = at(chains[0][0])
            label = str(run.get("train", "?"))
            size = 0.24 * r
            w = size * (0.75 * len(label) + 0.9)
            svg.rect(
                x - w / 2,
                y - 0.55 * r - size * 0.8,
                w,
                size * 1.3,
                colour,
                CASING,
                1.5,
                rx=size * 0.35,
            )
            svg.text(x, y - 0.55 * r, label, size, "#FFFFFF", bold=True)
