"""String Railway, `standard` level: lay the rail that scores most (the engine's hint, bent rails
included), keep the long rail for when it is worth more than a short one, place drawn stations
where this company's next rail reaches them and the others' do not, and roll the river or the
mountain again when it runs past this company's base."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import shapely

from bot.computer.levels import Decision
from engine.errors import GameError
from engine.game import Choice, Game, PlayerId
from engine.strings.game import StringRailway
from engine.strings.stations import OWNER_EFFECT, TYPES, value

LONG_RAIL_WORTH = (
    2.0  # VP a long rail still in hand is worth over a short one (it reaches twice as far)
)
RIVALS_WEIGHT = 0.3  # how much a VP the others gain counts against one of ours
BASE_CLEARANCE = 10.0  # cm: a river or mountain this close to our base gets rolled again
SPOTS_TRIED = 8  # station spots whose rail to them is worked out exactly (the best by distance)


def choose(game: Game, player: PlayerId, choices: list[Choice], rng: random.Random) -> Decision:
    assert isinstance(game, StringRailway)
    view = game
    by_type: dict[str, list[Choice]] = {}
    for c in choices:
        by_type.setdefault(c.action["type"], []).append(c)
    reroll = reroll_choice(view, player, by_type.get("reroll", []))
    if reroll is not None:
        return reroll
    if "place_station" in by_type:
        return place_station(view, player, by_type["place_station"])
    if "set_aside_station" in by_type:
        return Decision(by_type["set_aside_station"][0], "the drawn station fits nowhere")
    if "lay_rail" in by_type or "forfeit_rail" in by_type:
        return lay_rail(view, player, by_type.get("lay_rail", []), by_type.get("forfeit_rail", []))
    return Decision(choices[0], "the only kind of move open")


def volunteers(game: Game, player: PlayerId, choices: list[Choice]) -> bool:
    """Before the first station, the seat that lays the river or mountain rolls it again."""
    assert isinstance(game, StringRailway)
    view = game
    return any(c.action["type"] == "reroll" for c in choices) and (
        reroll_choice(view, player, choices) is not None
    )


# -- setup -------------------------------------------------------------------------------------
def reroll_choice(view: StringRailway, player: PlayerId, rerolls: list[Choice]) -> Decision | None:
    """Roll the river or mountain again when it runs close past one of our bases: every rail
    out of the base would pay a crossing."""
    for choice in rerolls:
        what = choice.action["what"]
        line = view.board.river_line if what == "river" else view.board.mountain_ring
        for company in _mine(view, player):
            base = view.board.stations[company.base].centre
            if line.distance(shapely.Point(base)) < BASE_CLEARANCE:
                return Decision(
                    choice,
                    f"the {what} runs within {BASE_CLEARANCE:g} cm of your base {company.base}",
                )
    return None


# -- stations ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Spot:
    choice: Choice
    ours: float  # VP our next rail could take from it, discounted by distance
    theirs: float  # VP the other companies could take from it


def place_station(view: StringRailway, player: PlayerId, spots: list[Choice]) -> Decision:
    """Put the station where our rails reach it and the others' do not: judged by distance for
    every spot, then exactly (our best rail right after placing it) for the best few."""
    kind = view.pending[0]
    judged = sorted(
        (_judge_spot(view, player, kind, c) for c in spots),
        key=lambda s: s.ours - RIVALS_WEIGHT * s.theirs,
        reverse=True,
    )
    if len(view.pending) > 1:  # another station comes before the rail: distance alone decides
        best = judged[0]
        return Decision(
            best.choice, f"the {TYPES[kind].display} is in your reach ({best.ours:.1f} VP)"
        )
    scored = []
    for spot in judged[:SPOTS_TRIED]:
        rail = view.try_out(
            spot.choice.action, player, lambda _g, _a: _rail_to_newest(view, player)
        )
        scored.append((rail - RIVALS_WEIGHT * spot.theirs, spot))
    worth, best = max(scored, key=lambda s: s[0])
    return Decision(
        best.choice,
        f"your rail to the {TYPES[kind].display} placed here would be worth {worth:.1f} VP",
    )


def _judge_spot(view: StringRailway, player: PlayerId, kind: str, choice: Choice) -> Spot:
    point = (choice.action["x"], choice.action["y"])
    in_mountains = bool(shapely.contains_xy(view.board.mountain_shape, *point))
    ours = theirs = 0.0
    for company in view.companies:
        distance = _reach_distance(view, company.reached, point)
        if company.player == player:
            mine = value(kind, TYPES[kind].owned, in_mountains)
            ours = max(ours, mine * _closeness(view, distance, company.rails))
        elif distance <= view.sizes.short:
            theirs += value(kind, False, in_mountains)
            theirs -= OWNER_EFFECT.get(kind, 0) if TYPES[kind].owned else 0
    return Spot(choice, ours, theirs)


def _closeness(view: StringRailway, distance: float, rails: dict[str, int]) -> float:
    """How surely our next rail takes a station this far from our network."""
    if distance <= view.sizes.short * 0.9 and rails.get("short", 0):
        return 1.0
    if distance <= view.sizes.long * 0.9 and rails.get("long", 0):
        return 0.6
    return 0.1


# -- rails -------------------------------------------------------------------------------------
def lay_rail(
    view: StringRailway, player: PlayerId, straight: list[Choice], forfeits: list[Choice]
) -> Decision:
    """The rail worth most (its VP, less the long rail's worth when a short is left), or give
    up a rail when every one would lose VP."""
    candidates = [*view.hints(player), *straight]
    best: tuple[float, Choice, Any] | None = None
    for choice, plan in _plans(view, player, candidates):
        worth = _rail_worth(view, plan)
        if best is None or worth > best[0]:
            best = (worth, choice, plan)
    if best is not None and (best[2].gain(best[2].company) >= 0 or not forfeits):
        worth, choice, plan = best
        return Decision(choice, f"the best rail: {plan.gain(plan.company):+d} VP ({plan.kind})")
    forfeit = min(forfeits, key=lambda c: c.action["rail"] == "short")  # keep the long one
    return Decision(forfeit, "every rail would lose VP; giving up the cheapest")


def _plans(
    view: StringRailway, player: PlayerId, candidates: Iterable[Choice]
) -> Iterable[tuple[Choice, Any]]:
    seen = set()
    for choice in candidates:
        a = choice.action
        key = (a["rail"], str(a["path"]))
        if key in seen:
            continue
        seen.add(key)
        try:
            yield choice, view.plan(player, a["rail"], a["path"])
        except GameError:
            continue


def _rail_worth(view: StringRailway, plan: Any) -> float:
    """Our VP from a rail, less what the others gain from it and, for the long rail while short
    ones are left, what keeping it would be worth later."""
    company = view.companies[plan.company]
    ours = sum(c.vp for c in plan.changes if view.companies[c.company].player == company.player)
    theirs = sum(c.vp for c in plan.changes if view.companies[c.company].player != company.player)
    keep_long = LONG_RAIL_WORTH if plan.kind == "long" and company.rails.get("short", 0) else 0.0
    return ours - RIVALS_WEIGHT * theirs - keep_long


def _rail_to_newest(view: StringRailway, player: PlayerId) -> float:
    """What our best straight rail to the station placed last is worth (0: none is legal)."""
    newest = f"S{view.board.drawn_count}"
    company = view.current
    tries = [
        Choice("", {"rail": kind, "path": [start, newest]})
        for start in sorted(company.reached)
        for kind in ("short", "long")
    ]
    worths = [_rail_worth(view, plan) for _, plan in _plans(view, player, tries)]
    return max(worths, default=0.0)


# -- geometry ----------------------------------------------------------------------------------
def _mine(view: StringRailway, player: PlayerId) -> list[Any]:
    return [c for c in view.companies if c.player == player]


def _reach_distance(
    view: StringRailway, reached: Iterable[str], point: tuple[float, float]
) -> float:
    return min((math.dist(view.board.stations[s].centre, point) for s in reached), default=math.inf)
