"""Moves that must be refused: malformed payloads and legal moves bent out of shape.

Title-neutral: mutations come from the shape of the legal moves on offer and the title's
`action_fields`; a mutant the engine would accept (`Game.is_legal`) is not sent as illegal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.game import Action, Choice, Game


@dataclass(frozen=True)
class Attempt:
    """One move to send that must be refused: `kind` names the way it was made."""

    kind: str
    action: Any


def malformed(rng: random.Random, legal: list[Choice]) -> Attempt:
    """A payload that is not a well-formed move at all."""
    base: Action = dict(rng.choice(legal).action) if legal else {"type": "pass"}
    makers = [
        lambda: Attempt("not an object", rng.choice([[], "pass", 42, None, [base]])),
        lambda: Attempt("no type", {k: v for k, v in base.items() if k != "type"}),
        lambda: Attempt("type not a string", {**base, "type": rng.choice([1, None, ["pass"]])}),
        lambda: Attempt("unknown type", {**base, "type": rng.choice(["teleport", "", "PASS"])}),
        lambda: Attempt("unknown field", {**base, rng.choice(["bogus", "cash", "owner"]): 1}),
        lambda: Attempt("internal mark", {**base, rng.choice(["_imported", "_x"]): True}),
        lambda: Attempt("auto actions", {**base, "auto_actions": [{"type": "pass"}]}),
        lambda: Attempt("long text", {**base, "type": "x" * rng.choice([201, 5000])}),
        lambda: Attempt("deep nesting", {**base, "type": base["type"], "routes": _nest(40)}),
        lambda: Attempt("huge number", {**base, **{_int_field(base) or "price": 10**40}}),
        lambda: Attempt("not a number", {**base, **{_int_field(base) or "price": float("nan")}}),
    ]
    return rng.choice(makers)()


def mutants(rng: random.Random, game: Game, legal: list[Choice], tries: int = 6) -> list[Attempt]:
    """Legal moves with one field changed so that the engine refuses them (checked with
    `is_legal` on the game itself, which restores its state)."""
    if not legal:
        return []
    values: dict[str, list[Any]] = {}
    for c in legal:
        for k, v in c.action.items():
            values.setdefault(k, []).append(v)
    out = []
    for _ in range(tries):
        action = dict(rng.choice(legal).action)
        field = rng.choice([k for k in action if k != "type"] or ["type"])
        action[field] = _bend(rng, action.get(field), values.get(field, []), game)
        if action != rng.choice(legal).action and not game.is_legal(action):
            out.append(Attempt(f"bent {field}", action))
    kinds = sorted((game.action_fields() or {}).keys())
    if kinds:  # a move of a kind not on offer now, its fields filled from what is on offer
        kind = rng.choice(kinds)
        action = {
            "type": kind,
            **{
                f: rng.choice(values[f])
                for f in sorted((game.action_fields() or {})[kind])
                if f in values
            },
        }
        for f in ("entity", "entity_type"):
            if f in values:
                action[f] = values[f][0]
        if not game.is_legal(action):
            out.append(Attempt("kind not on offer", action))
    return out


def _bend(rng: random.Random, value: Any, seen: list[Any], game: Game) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice([value + rng.choice([-1000, -7, 1, 9999]), -value - 1, 0])
    if isinstance(value, str):
        others = [v for v in seen if v != value and isinstance(v, str)]
        return rng.choice(others + ["ZZ99", value.lower() + "x", ""])
    if isinstance(value, list):
        return rng.choice([[], value[:1] * 3, [None]])
    if isinstance(value, dict):
        return {}
    return rng.choice([0, "nobody", [], {}])


def _int_field(action: Action) -> str | None:
    return next(
        (
            k
            for k, v in action.items()
            if isinstance(v, int) and not isinstance(v, bool) and k != "entity"
        ),
        None,
    )


def _nest(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value
