"""Trains, the depot (with its discard pile, the "open market") and phases."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.eighteen.entities import Corporation
from engine.eighteen.pieces import Train


class Depot:
    name = "the depot"

    def __init__(self, specs: list[dict[str, Any]]) -> None:
        self.upcoming: list[Train] = []
        self.discarded: list[Train] = []
        self.all_trains: dict[str, Train] = {}
        for spec in specs:
            count = spec["count"]
            unlimited = not isinstance(count, int)
            for i in range(1 if unlimited else count):
                t = self._make(spec, i, unlimited)
                self.upcoming.append(t)
        self._specs = {s["name"]: s for s in specs}

    def _make(self, spec: dict[str, Any], index: int, unlimited: bool) -> Train:
        raw = spec["distance"]
        distance = (
            raw
            if isinstance(raw, int)
            else (tuple(raw) if isinstance(raw, (list, tuple)) else None)
        )
        discount = {}
        if "trade_in_price" in spec:
            discount = {
                n: spec["price"] - spec["trade_in_price"] for n in spec.get("trade_in_accepts", [])
            }
        events = [spec["event_key"]] if spec.get("event_key") else []
        t = Train(
            spec["name"],
            index,
            distance,
            spec["price"],
            spec.get("rusts_on_first"),
            spec.get("available_after_first"),
            discount,
            events,
            unlimited,
            owner=self,
        )
        self.all_trains[t.id] = t
        return t

    def train(self, train_id: str) -> Train | None:
        return self.all_trains.get(train_id)

    def available(self, phase: Phases) -> list[Train]:
        """Trains a corporation may buy from the bank now: the next one up, anything unlocked,
        and one of each kind from the discard pile."""
        out: list[Train] = []
        names: set[str] = set()
        if self.upcoming:
            out.append(self.upcoming[0])
            names.add(self.upcoming[0].name)
        for t in self.upcoming:
            if t.name not in names and t.available_on and phase.reached(t.available_on):
                out.append(t)
                names.add(t.name)
        seen: set[str] = set()
        for t in self.discarded:
            if t.name not in seen:
                out.append(t)
                seen.add(t.name)
        return out

    def min_price(self, phase: Phases) -> int:
        avail = self.available(phase)
        return min((t.price for t in avail), default=0)

    def remove(self, train: Train) -> None:
        if train in self.upcoming:
            idx = self.upcoming.index(train)
            self.upcoming.remove(train)
            if train.unlimited:
                clone = self._make(self._specs[train.name], train.index + 1, True)
                self.upcoming.insert(idx, clone)
        if train in self.discarded:
            self.discarded.remove(train)

    def reclaim(self, train: Train) -> None:
        """A discarded or traded-in train goes to the open market."""
        if isinstance(train.owner, Corporation):
            train.owner.trains.remove(train)
        train.owner = self
        self.discarded.append(train)

    @property
    def empty(self) -> bool:
        return not self.upcoming and not self.discarded


@dataclass(frozen=True)
class Phase:
    name: str
    on: str | None
    tiles: list[str]
    train_limit: int
    operating_rounds: int
    status: list[str]
    offboard_color: str


class Phases:
    def __init__(self, specs: list[Phase]) -> None:
        self.phases = specs
        self.index = 0

    @property
    def current(self) -> Phase:
        return self.phases[self.index]

    @property
    def name(self) -> str:
        return self.current.name

    def reached(self, name: str) -> bool:
        names = [p.name for p in self.phases]
        return name in names and names.index(name) <= self.index

    def advance_for(self, train_name: str) -> bool:
        """Move on while the next phase starts with this train; True if the phase changed."""
        changed = False
        while self.index + 1 < len(self.phases) and self.phases[self.index + 1].on == train_name:
            self.index += 1
            changed = True
        return changed
