"""`/play move`: any legal move of any title, picked from suggestions or typed as words.

A picked suggestion is one legal choice by its key. Typed words either start with a kind of
move (`bid CA 180`, `par PRR 67`, `lay H14 57`, `run 2: E19 F20 F22`, `station 20 20`) and are
read as that kind's options, or match the labels of the legal moves (`prr ipo`, `pay out`).
Nothing here knows a rule: the engine's legal choices decide, as for every play command.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.moves import (
    KEY_PREFIX,
    MOVES,
    Move,
    RouteBuilder,
    _by_text,
    _fit,
    _listing,
    _open_moves,
    _words_match,
    choice_key,
    grouped_moves,
    resolve,
)
from bot.core.results import Refused
from engine.game import Action, Choice, Game

MAX_TEXT = 1000  # characters of a typed move read at most


def resolve_any(
    text: str, choices: Sequence[Choice], game: Game, routes: RouteBuilder | None = None
) -> Action:
    """The one legal move the text means, or Refused saying what is open instead."""
    text = text.strip()
    if len(text) > MAX_TEXT:
        raise Refused(f"the move is {len(text):,} characters long; at most {MAX_TEXT:,} are read")
    if not text:
        raise Refused(f"which move? you can: {_open_moves(choices) or 'nothing now'}")
    if text.startswith(KEY_PREFIX):  # a picked suggestion (refused once the game moved on),
        key, _, price = text.partition(" ")  # with an agreed price after it, where it has one
        action = dict(_by_text(list(choices), key)[0].action)
        if price.strip():
            if not price.strip().isdigit() or "price" not in action:
                raise Refused(f"{price.strip()!r} after the move is not a price it can take")
            action["price"] = int(price)
        return action
    kind, _, rest = text.partition(" ")
    move = MOVES.get(kind.casefold())
    found = _by_text(list(choices), text)
    alike = {c.label: c for c in found}
    if move is not None:  # read as that kind, unless only a label fits (1830's "Buy SV" bids)
        try:
            return resolve(move, _options(move, rest.strip()), choices, game, routes)
        except Refused:
            if len(alike) != 1:
                raise
    if len(alike) == 1:
        return dict(next(iter(alike.values())).action)
    if not found:
        raise Refused(f"no move of yours matches {text!r}; you can: {_open_moves(choices)}")
    raise Refused(f"{len(alike)} moves match {text!r}; say which: {_listing(found)}")


def _options(move: Move, rest: str) -> dict[str, Any]:
    """The words after a kind of move as its options: the fields in order (a lay's hex, tile
    and rotation), else the picked text (with a price after it), else typed routes."""
    if move.fields:
        words = rest.split()
        return {f.name: words[i] if i < len(words) else None for i, f in enumerate(move.fields)}
    if move.pick is not None:
        return {move.pick[0]: rest}
    if move.routes is not None:
        return {move.routes[0]: rest or None}
    return {}


def suggest_any(choices: Sequence[Choice], current: str, limit: int = 25) -> list[tuple[str, str]]:
    """(name shown, value sent) for `/play move` while the user types: the legal moves whose
    labels the words start, every kind of move keeping a fair share; what the user typed comes
    first when it reads as a kind of move whose options no label has (`bid CA 180`)."""
    typed = current.strip()
    matching = [c for c in choices if _words_match(typed, c.label)]
    out: list[tuple[str, str]] = []
    kind = typed.partition(" ")[0].casefold()
    if kind in MOVES and " " in typed and not matching:  # options no label has: bid CA 180
        out.append((_fit(typed), _fit(typed)))
    for _, members in grouped_moves(matching, limit - len(out)):
        out += [(_fit(c.label), choice_key(c.action)) for c in members]
    return out[:limit]
