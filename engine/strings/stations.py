"""The ten station types of String Railway: counts, victory points, company limits, effects."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StationType:
    name: str  # the name in game files
    display: str  # the name players read
    count: int  # in the generated deck (bases: one per company)
    vp: int  # what a company gets the first time it reaches it (see value())
    limit: int  # how many companies' rails may reach it
    short: str  # two letters for the board image

    @property
    def owned(self) -> bool:
        """Whoever places it (its base's company) owns it and feels opponents' visits."""
        return self.name in ("base", "city", "transit")


TYPES: dict[str, StationType] = {
    t.name: t
    for t in (
        StationType("base", "Base", 0, 2, 5, "Ba"),
        StationType("central", "Central", 4, 3, 5, "Ce"),
        StationType("city", "City", 2, 1, 5, "Ci"),
        StationType("transit", "Transit", 5, 2, 5, "Tr"),
        StationType("regional", "Regional", 6, 2, 3, "Re"),
        StationType("junction", "Junction", 3, 1, 3, "Ju"),
        StationType("suburban", "Suburban", 6, 2, 2, "Su"),
        StationType("terminal", "Terminal", 2, 3, 5, "Te"),
        StationType("village", "Village", 8, 1, 1, "Vi"),
        StationType("scenic", "Scenic", 2, 1, 2, "Sc"),
    )
}

DRAWN = tuple(name for name in TYPES if name != "base")

# Owner's value of their own station the first time their rails reach it.
OWNER_VP = {"base": 3, "city": 3, "transit": 0}
# What the owner gains (or loses) each time another company's rail reaches the station.
OWNER_EFFECT = {"base": -1, "city": -1, "transit": +1}
SCENIC_MOUNTAIN_VP = 3


def value(kind: str, is_owner: bool, in_mountains: bool) -> int:
    """VP a company scores the first time its rails reach a station (Junction: every time)."""
    if kind == "scenic":
        return SCENIC_MOUNTAIN_VP if in_mountains else TYPES[kind].vp
    if is_owner and kind in OWNER_VP:
        return OWNER_VP[kind]
    return TYPES[kind].vp
