"""Rebuild the board of an 18xx.games game log without the full game engine.

Only track and token actions are applied (`lay_tile`, `place_token`), after the log's undo/redo
entries are resolved the way 18xx.games resolves them. Home stations, which the site places on
its own when a company first operates, are taken from the site's per-action reference states
(fixtures/<title>/states/*.jsonl.gz, see STATES.md), as are each company's trains and the phase.
This lets routes be checked and optimised at every `run_routes` of a recorded game.
"""
from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from engine.eighteen.board.board import Board
from engine.eighteen.board.routes import Distance

Action = dict[str, Any]


def effective_actions(actions: Sequence[Action]) -> list[tuple[int, Action]]:
    """(index, action) of the actions that count once undo/redo are applied (18xx `filtered_actions`)."""
    kept: list[Action | None] = [None] * len(actions)
    undone: list[list[tuple[int, Action]]] = []
    for index, action in enumerate(actions):
        kind = action["type"]
        if kind == "undo":
            target = action.get("action_id")
            if target is None:
                live = [i for i, a in enumerate(kept) if a is not None and a["type"] != "message"]
                start = live[-1] if live else 0
            elif target == 0:
                start = 0
            else:
                start = next(i for i, a in enumerate(actions) if a.get("id") == target) + 1
            batch = []
            for i in range(start, index):
                if kept[i] is not None and kept[i]["type"] != "message":
                    batch.append((i, kept[i]))
                    kept[i] = None
            undone.append(batch)
        elif kind == "redo":
            for i, a in undone.pop():
                kept[i] = a
        else:
            if kind != "message":
                undone.clear()
            kept[index] = action
    return [(i, a) for i, a in enumerate(kept) if a is not None]


def read_states(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@dataclass
class Position:
    """The board just before a run_routes action. `board` is live: use it before the next step."""

    index: int
    action: Action
    corporation: str
    board: Board
    trains: list[tuple[str, Distance]]
    phase_color: str


class LogReplay:
    def __init__(self, title: Mapping[str, Any], game: Mapping[str, Any], states: Sequence[Mapping[str, Any]]) -> None:
        self.title = title
        self.actions = effective_actions(game["actions"])
        if len(states) != len(self.actions) + 1:
            raise ValueError(f"{len(states)} reference states for {len(self.actions)} effective actions")
        self.states = states
        self.board = Board(title)
        self._homes = {c["sym"]: (c["home"], c.get("home_city_index")) for c in title["corporations"]}
        self._distance = {t["name"]: Distance.of(t["distance"] if isinstance(t["distance"], int) else None)
                          for t in title["trains"]}
        self._phase_color = {p["phase"].split()[0]: p["tiles"][-1] for p in title["phases"] if "tiles" in p}

    def positions(self) -> Iterator[Position]:
        """Walk the log; yield the position before each run_routes (after applying it, go on)."""
        for step, (index, action) in enumerate(self.actions):
            before = self.states[step]
            self.sync_stations(before)
            if action["type"] == "run_routes":
                corp = action["entity"]
                yield Position(index, action, corp, self.board, self.trains(before, corp, action),
                               self._phase_color[before["phase"]])
            self.apply(action)

    def apply(self, action: Action) -> None:
        if action["type"] == "lay_tile":
            self.board.lay(action["entity"], action["hex"], action["tile"], action["rotation"])
        elif action["type"] == "place_token":
            corp = action.get("tokener") or action["entity"]
            hex_id, city = self.board.locate_city(action["city"])
            self.board.place_token(corp, hex_id, city, action.get("slot"))

    def sync_stations(self, state: Mapping[str, Any]) -> None:
        """Match the tokens to the reference state: place the home stations the site placed by
        itself; take off the tokens of companies that closed."""
        placed: dict[str, list[str]] = {}
        for hex_id, entries in self.board.tokens().items():
            for _, _, corp in entries:
                placed.setdefault(corp, []).append(hex_id)
        for corp, info in state["corporations"].items():
            have = placed.get(corp, [])
            if have and not info["tokens"]:
                self.board.remove_tokens(corp)
            elif set(have) - set(info["tokens"]):
                raise ValueError(f"{corp} has tokens on {sorted(set(have) - set(info['tokens']))} the site does not")
            for hex_id in info["tokens"]:
                if hex_id in have:
                    continue
                home, home_city = self._homes[corp]
                if hex_id != home:
                    raise ValueError(f"{corp} has a token on {hex_id} that no action placed")
                self.board.place_token(corp, hex_id, self._home_city(corp, hex_id, home_city))

    def _home_city(self, corp: str, hex_id: str, home_city: int | None) -> int:
        if home_city is not None:
            return home_city
        tile = self.board.tile_on(hex_id)
        free = [c.index for c in tile.cities if None in c.tokens]
        return free[0]

    def trains(self, state: Mapping[str, Any], corp: str, action: Action) -> list[tuple[str, Distance]]:
        """The company's trains: ids from the recorded routes where they ran, made up otherwise."""
        names = list(state["corporations"][corp]["trains"])
        ids = [r["train"] for r in action.get("routes", [])]
        result: list[tuple[str, Distance]] = []
        for tid in ids:
            name = tid.split("-")[0]
            if name in names:
                names.remove(name)
                result.append((tid, self._distance[name]))
        for n, name in enumerate(names):
            result.append((f"{name}-spare{n}", self._distance[name]))
        return result
