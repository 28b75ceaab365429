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


def _by_nearness(
    game: StringRailwayHost, spots: list[tuple[float, float]], to: list[str]
) -> list[tuple[float, str, tuple[float, float]]]:
    """(distance, nearest station's label, spot) of each spot, nearest to the stations `to`
    first; ties in the grid's own order."""
    centres = [(label, game.board.stations[label].centre) for label in to]
    near = []
    for spot in spots:
        gap, label = min((math.dist(spot, c), label) for label, c in centres)
        near.append((round(gap, 6), label, spot))
    return sorted(near, key=lambda n: n[0])


def station_spots(game: StringRailwayHost, player: PlayerId) -> list[Choice]:
    """Where the next drawn station fits, nearest the company's base first (a list cut to its
    first few still shows where the player can build), or setting it aside when it fits
    nowhere."""
    name = TYPES[game.pending[0]].display
    spots = [s for _, _, s in _by_nearness(game, free_spots(game), [game.current.base])]
    if not spots:
        return [
            Choice(
                f"set the {name} station aside (it fits nowhere)",
                {"type": "set_aside_station", "entity": player},
            )
        ]
    out = []
    for x, y in spots:
        out.append(
            Choice(
                f"place {name} at {_where(game, x, y)}",
                {"type": "place_station", "entity": player, "x": x, "y": y},
            )
        )
    return out


def placement_hints(game: StringRailwayHost, player: PlayerId, count: int = 5) -> list[Choice]:
    """The spots nearest the stations the company reaches: a station there can be reached by
    its next rail (and scores when first reached), each told with the rail that spans it."""
    if not game.pending or game.current.player != player:
        return []
    name = TYPES[game.pending[0]].display
    company = game.current
    out = []
    for gap, label, (x, y) in _by_nearness(game, free_spots(game), sorted(company.reached)):
        fits = [
            k
            for k in ("short", "long")
            if company.rails[k] > 0
            and gap <= (game.sizes.short if k == "short" else game.sizes.long)
        ]
        reach = (
            f"a {fits[0]} rail from {label} reaches it" if fits else f"beyond a rail from {label}"
        )
        out.append(
            Choice(
                f"place {name} at {_where(game, x, y)}: {gap:.0f} cm from {label}, {reach}",
                {"type": "place_station", "entity": player, "x": x, "y": y},
            )
        )
        if len(out) == count:
            break
    return out


def _where(game: StringRailwayHost, x: float, y: float) -> str:
    bounds = game.board.area.bounds
    cell = cells.name((x, y), cells.columns(bounds), cells.rows(bounds))
    return f"{cell} ({x:g} {y:g})" if cell else f"{x:g} {y:g}"


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
