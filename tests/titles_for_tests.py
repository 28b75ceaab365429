"""Tally: a tiny test-only title that exercises the store, service and frontends.

Players take turns adding 1 to 9 to their own score (or all act at once with the
`free_for_all` option); the game ends when the total reaches `target` (default 100). Starting
scores come from the seed, so a game rebuilt without its seed would differ. `explode` mutates
the state and then fails, to prove that refusals leave nothing behind. `take` moves points
from another player's score to one's own: a deal that player must agree to (`counterparty`).
"""

from __future__ import annotations

import random
from collections.abc import Collection

from engine.errors import IllegalAction, InvalidAction, NotYourTurn
from engine.game import Action, Choice, Game, PlayerId
from engine.titles import register_title

TITLE = "tally"


class Tally(Game):
    title = TITLE
    min_players = 2
    max_players = 4
    option_names = ("free_for_all", "target")

    def setup(self) -> None:
        rng = random.Random(self.seed)
        self.scores: dict[PlayerId, int] = {p.id: rng.randint(0, 9) for p in self.players}
        self.turn = 0

    @property
    def target(self) -> int:
        return int(self.options.get("target", 100))

    def _apply(self, action: Action, *, story: bool = True) -> Action:
        player = action.get("entity")
        if player not in self.scores:
            raise InvalidAction(f"unknown player {player!r}")
        if player not in self.active_players():
            raise NotYourTurn(f"it is {self.player_name(self.active_players()[0])}'s turn")
        kind = action["type"]
        recorded: Action = {"type": kind, "entity": player, "entity_type": "player"}
        if kind == "add":
            amount = action.get("amount")
            if not isinstance(amount, int) or not 1 <= amount <= 9:
                raise InvalidAction("amount must be a whole number from 1 to 9")
            self.scores[player] += amount
            recorded["amount"] = amount
        elif kind == "take":
            source, amount = action.get("from"), action.get("amount")
            if source not in self.scores:
                raise InvalidAction(f"unknown player {source!r}")
            if not isinstance(amount, int) or amount < 1:
                raise InvalidAction("amount must be a whole number of at least 1")
            if self.scores[source] < amount:
                raise IllegalAction(
                    f"{self.player_name(source)} has only {self.scores[source]} points"
                )
            self.scores[source] -= amount
            self.scores[player] += amount
            recorded.update({"from": source, "amount": amount})
        elif kind == "explode":
            self.scores[player] += 1000
            raise IllegalAction("explode always fails")
        elif kind != "pass":
            raise InvalidAction(f"unknown action type {kind!r}")
        self.turn += 1
        return recorded

    def counterparty(self, action: Action) -> PlayerId | None:
        """Whose points a `take` takes (the taker themself included: the service skips that)."""
        return action.get("from") if action.get("type") == "take" else None

    def active_players(self) -> list[PlayerId]:
        if self.finished:
            return []
        if self.options.get("free_for_all"):
            return [p.id for p in self.players]
        return [self.players[self.turn % len(self.players)].id]

    @property
    def finished(self) -> bool:
        return sum(self.scores.values()) >= self.target

    def result(self) -> dict[PlayerId, int]:
        return dict(self.scores)

    def describe(self, action: Action) -> str:
        name = self.player_name(action["entity"])
        if action["type"] == "add":
            return f"{name} added {action['amount']}."
        if action["type"] == "take":
            return f"{name} took {action['amount']} from {self.player_name(action['from'])}."
        return f"{name} passed."

    def status_text(self) -> str:
        scores = ", ".join(f"{self.player_name(p)} {v}" for p, v in self.scores.items())
        acting = ", ".join(self.player_name(p) for p in self.active_players()) or "nobody"
        return f"Total {sum(self.scores.values())} of {self.target}: {scores}. To act: {acting}"

    def legal_actions(self, player: PlayerId, kinds: Collection[str] | None = None) -> list[Choice]:
        if player not in self.active_players():
            return []
        base = {"entity": player, "entity_type": "player"}
        found = [Choice(f"add {n}", {"type": "add", "amount": n, **base}) for n in range(1, 10)] + [
            Choice("pass", {"type": "pass", **base})
        ]
        return [c for c in found if kinds is None or c.action["type"] in kinds]

    def views(self) -> tuple[str, ...]:
        return ("board",)


def register() -> None:
    register_title(Tally)
