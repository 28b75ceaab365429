"""The plain dict the renderer draws a String Railway position from (no rules in render/)."""

from __future__ import annotations

from typing import Any

from engine.strings import grid as cells
from engine.strings.board import RailPlan
from engine.strings.host import StringRailwayHost
from engine.strings.stations import TYPES, value


def snapshot(game: StringRailwayHost, proposal: RailPlan | None = None) -> dict[str, Any]:
    """The table; `proposal` (a checked rail not laid yet) is drawn as the highlighted rail."""
    board = game.board
    bounds = board.area.bounds
    stations = []
    for st in board.stations.values():
        t = TYPES[st.kind]
        if st.kind == "scenic":
            vp = str(value("scenic", False, st.in_mountains))
        elif st.owner is not None:
            vp = f"{value(st.kind, True, False)}/{t.vp}"  # owner/others
        else:
            vp = str(t.vp)
        stations.append(
            {
                "label": st.label,
                "type": st.kind,
                "short": t.short,
                "x": st.centre[0],
                "y": st.centre[1],
                "size": st.square.x1 - st.square.x0,
                "vp": vp,
                "slots_left": t.limit - len(st.served),
                "limit": t.limit,
                "owner": st.owner,
                "served": sorted(st.served),
            }
        )
    rails = [
        {"company": r.company, "kind": r.kind, "points": [list(p) for p in r.points]}
        for r in board.rails
    ]
    last = None
    plan = proposal or game.last_plan
    if plan is not None:
        last = {
            "company": plan.company,
            "points": [list(p) for p in plan.points],
            "crossings": [list(p) for p, _, _ in plan.crossings],
            "free_crossings": [list(p) for p in plan.free_crossings],
            "proposed": proposal is not None,
            "breakdown": [[c.company, c.vp, c.why] for c in plan.changes],
        }
    return {
        "title": game.title,
        "area": [list(p) for p in board.area_points],
        "river": [list(p) for p in board.river],
        "mountain": [list(p) for p in board.mountain[:-1]],
        "stations": stations,
        "rails": rails,
        "last_rail": last,
        "companies": [
            {
                "name": c.name,
                "player": c.player,
                "vp": c.vp,
                "short": c.rails["short"],
                "long": c.rails["long"],
                "base": c.base,
            }
            for c in game.companies
        ],
        "current": None if game.finished else game.current.index,
        "pending": [TYPES[k].display for k in game.pending],
        "turn": min(game.turn // len(game.companies) + 1, game.turns_each),
        "turns": game.turns_each,
        "finished": game.finished,
        "winners": game.winners() if game.finished else [],
        "expert": game.expert,
        "cells": {
            "size": cells.CELL,
            "columns": [list(c) for c in cells.columns(bounds)],
            "rows": [list(r) for r in cells.rows(bounds)],
        },
    }
