"""Legal String Railway moves as complete actions, for autocomplete and the console's list:
station spots at the centres of the image's named cells, straight rails between two stations, forfeits and the
setup choices. Any other legal spot or path can be typed; these are the ready-made ones."""

from __future__ import annotations

import math
from collections.abc import Collection

from engine.errors import GameError
from engine.game import Choice, PlayerId
from engine.strings import grid as cells
from engine.strings.host import StringRailwayHost
from engine.strings.stations import TYPES


def choices(
    game: StringRailwayHost, player: PlayerId, kinds: Collection[str] | None = None
) -> list[Choice]:
    """The moves of the asked kinds (all by default), computing only those."""
    out: list[Choice] = []

    def wants(kind: str) -> bool:
        return kinds is None or kind in kinds

    if game.finished:
        return out
    if not game.started:
        for what in ("river", "mountain"):
            seat = game.companies[game.setup_seat(what)]
            if seat.player == player and game.rolls[what] < game.max_rolls:
                out.append(
                    Choice(f"reroll the {what}", {"type": "reroll", "entity": player, "what": what})
                )
    if game.current.player != player:
        return out
    if game.pending:
        return out + (station_spots(game, player) if wants("place_station") else [])
    return (
        out
        + (straight_rails(game, player) if wants("lay_rail") else [])
        + [
            Choice(
                f"forfeit a {kind} rail", {"type": "forfeit_rail", "entity": player, "rail": kind}
            )
            for kind in ("short", "long")
            if game.current.rails[kind] > 0
        ]
    )


def station_spots(game: StringRailwayHost, player: PlayerId) -> list[Choice]:
    """Where the next drawn station fits (grid points first), or setting it aside when it fits
    nowhere."""
    name = TYPES[game.pending[0]].display
    spots = free_spots(game)
    if not spots:
        return [
            Choice(
                f"set the {name} station aside (it fits nowhere)",
                {"type": "set_aside_station", "entity": player},
            )
        ]
    bounds = game.board.area.bounds
    cols, rows = cells.columns(bounds), cells.rows(bounds)
    out = []
    for x, y in spots:
        cell = cells.name((x, y), cols, rows)
        where = f"{cell} ({x:g} {y:g})" if cell else f"{x:g} {y:g}"
        out.append(
            Choice(
                f"place {name} at {where}",
                {"type": "place_station", "entity": player, "x": x, "y": y},
            )
        )
    return out


def free_spots(game: StringRailwayHost) -> list[tuple[float, float]]:
    """Centres where the next drawn station fits: the centres of the image's named cells
    where it does, else one point inside each free region, rounded as far as it still fits. Empty: the
    station fits nowhere."""
    board, kind = game.board, game.pending[0]
    grid = cells.centres(board.area.bounds)
    found = [p for p, ok in zip(grid, board.fits_at(grid)) if ok]
    if found:
        return found
    room = board.room()
    if room.is_empty:
        return []
    out = []
    for part in getattr(room, "geoms", [room]):
        p = part.representative_point()
        for digits in (0, 1, 2, 4, 8):
            x, y = round(p.x, digits), round(p.y, digits)
            try:
                board.check_station(kind, x, y)
            except GameError:
                continue
            out.append((x, y))
            break
    return out


def straight_rails(game: StringRailwayHost, player: PlayerId) -> list[Choice]:
    """Every legal straight rail from a station the company reaches to another station, with
    the VP it would score (the shortest fitting rail kind)."""
    company = game.current
    board = game.board
    out = []
    seen = set()
    for start in sorted(company.reached):
        for end, st in board.stations.items():
            key = frozenset((start, end))
            if end == start or key in seen:
                continue
            seen.add(key)  # the reverse path is the same string: legal alike, scored alike
            gap = math.dist(board.stations[start].centre, st.centre)
            for kind in ("short", "long"):
                if (
                    company.rails[kind] <= 0
                    or gap > (board.sizes.long if kind == "long" else board.sizes.short) + 1e-9
                ):
                    continue
                try:
                    plan = board.plan_rail(game.companies, company.index, kind, [start, end])
                except GameError:
                    break  # the long rail would fail alike: only the kind and length differ
                out.append(
                    Choice(
                        f"{kind} rail {start}–{end} ({plan.gain(company.index):+d} VP)",
                        {"type": "lay_rail", "entity": player, "rail": kind, "path": [start, end]},
                    )
                )
                break
    return out
