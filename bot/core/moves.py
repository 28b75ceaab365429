"""Kinds of move (`bid`, `lay` ...): which of the engine's legal choices a command
and its typed options mean, what to suggest while typing, and the one-click turn buttons.

Nothing here knows a rule: every command only narrows `game.legal_actions(player)` by action
type and by what the user typed, so a move the engine would refuse is never built. The commands
name the 18xx.games action vocabulary (bid, par, lay_tile ...) that every 18xx title shares.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.results import Refused
from engine.errors import GameError
from engine.game import Action, Choice, Game

KEY_PREFIX = "~"  # autocomplete values that name one choice exactly (users never type this)
SHOWN_OPTIONS = 8  # options listed in a refusal that asks the user to pick
MENU_LIMIT = 25  # moves in a menu of moves (Discord's limit for a select menu)
MAX_PICTURED = 8  # more lays than this on one hex: the refusal asks for the tile first


@dataclass(frozen=True)
class Field:
    """An option that names one field of the action (e.g. the hex of a tile lay)."""

    name: str
    field: str
    description: str
    shown: Callable[[Any], str] = str
    required: bool = False
    number: bool = False
    by_label: bool = False  # suggested with the whole move's label (a rotation in words)


@dataclass(frozen=True)
class Option:
    """One option of a play command as every frontend offers it."""

    name: str
    description: str
    required: bool = False
    number: bool = False


@dataclass(frozen=True)
class Move:
    """One play command. `pick` is the option whose text is matched against the choices'
    labels; `amount` the whole-number option that replaces the choice's price (free-form
    amounts: bids above the minimum, agreed prices); `routes` the option of typed routes."""

    name: str
    description: str
    types: tuple[str, ...]
    fields: tuple[Field, ...] = ()
    pick: tuple[str, str] | None = None  # (option name, description)
    amount: tuple[str, str] | None = None
    routes: tuple[str, str] | None = None
    kind: str | None = None  # the action's "kind" this command makes (dividends)
    typed: bool = False  # the pick may also be free text the title reads (`typed_action`)
    # the amount names one of the legal prices (a par) instead of setting a price of its own
    amount_picks: bool = False
    preview: bool = False  # shown to the player first, made on Confirm (`Game.preview`)

    @property
    def options(self) -> list[Option]:
        """Every option in the order offered: the fields, the picked choice (required), the
        amount (a number) and typed routes."""
        out = [Option(f.name, f.description, f.required, f.number) for f in self.fields]
        if self.pick is not None:
            out.append(Option(*self.pick, required=True))
        if self.amount is not None:
            out.append(Option(*self.amount, number=True))
        if self.routes is not None:
            out.append(Option(*self.routes))
        return out


def _tile_name(tile_id: Any) -> str:
    """18xx.games tile ids are `<tile>-<copy>`; players name the tile."""
    return str(tile_id).rsplit("-", 1)[0] if "-" in str(tile_id) else str(tile_id)


MOVES: dict[str, Move] = {
    m.name: m
    for m in (
        Move(
            "bid",
            "Bid on (or buy) a private company in the auction",
            ("bid",),
            pick=("company", "The private company; suggestions show the minimum bid"),
            amount=("price", "Your bid (default: the minimum)"),
        ),
        Move("pass", "Pass, or finish the current step of your turn", ("pass",)),
        Move(
            "par",
            "Start a company: choose it and its par price",
            ("par",),
            pick=("company", "Company and par price, e.g. PRR 67"),
            amount=("price", "The par price, e.g. 67 (or typed after the company)"),
            amount_picks=True,
        ),
        Move(
            "buy",
            "Buy a share (or exchange a private for one)",
            ("buy_shares",),
            pick=("share", "Which share, e.g. PRR IPO"),
        ),
        Move(
            "sell",
            "Sell shares",
            ("sell_shares",),
            pick=("shares", "Which shares, e.g. NYC 20%"),
        ),
        Move(
            "private",
            "Buy a private company (into your company, or between players)",
            ("buy_company",),
            pick=("company", "The private company and price"),
            amount=("price", "The agreed price (default: the suggested one)"),
        ),
        Move(
            "lay",
            "Lay or upgrade a tile",
            ("lay_tile",),
            fields=(
                Field(
                    "hex",
                    "hex",
                    "Where, e.g. H10 (suggestions: where a tile can go)",
                    required=True,
                ),
                Field(
                    "tile", "tile", "Which tile (suggestions: those legal on that hex)", _tile_name
                ),
                Field(
                    "rotation",
                    "rotation",
                    "Which way the track runs (suggestions name its exits)",
                    number=True,
                    by_label=True,
                ),
            ),
        ),
        Move(
            "token",
            "Place a station token",
            ("place_token",),
            pick=("city", "Which city (suggestions list the legal ones)"),
        ),
        Move(
            "run",
            "Run trains: the best routes, or your own given as hexes",
            ("run_routes",),
            routes=("routes", "Optional, e.g. 2: E19 F20 F22; 3: F20 G19 (default: the best)"),
        ),
        Move(
            "payout",
            "Pay this run's revenue out to the shareholders",
            ("dividend",),
            kind="payout",
        ),
        Move(
            "withhold",
            "Keep this run's revenue in the company treasury",
            ("dividend",),
            kind="withhold",
        ),
        Move(
            "train",
            "Buy a train: from the bank, or another company's at an agreed price",
            ("buy_train",),
            pick=("train", "Which train; suggestions show the price"),
            amount=("price", "The agreed price for another company's train"),
        ),
        Move(
            "discard",
            "Discard a train over the limit",
            ("discard_train",),
            pick=("train", "Which train to discard"),
        ),
        Move(
            "bankrupt",
            "Declare bankruptcy (when the company cannot buy a needed train)",
            ("bankrupt",),
        ),
        Move(
            "station",
            "Place the station you drew, by its centre (String Railway); one that "
            "fits nowhere is set aside",
            ("place_station", "set_aside_station"),
            pick=(
                "at",
                "Its centre x y, e.g. 40 25 (suggestions: free grid points), or: set aside",
            ),
            typed=True,
        ),
        Move(
            "rail",
            "Lay a rail: you see it and its score first, then confirm (String Railway)",
            ("lay_rail",),
            pick=(
                "path",
                "Kind and stops, e.g. short B1 S3 (40 20) S5; suggestions: straight rails",
            ),
            typed=True,
            preview=True,
        ),
        Move(
            "forfeit",
            "Give up a rail you cannot or will not lay (String Railway)",
            ("forfeit_rail",),
            pick=("rail", "short or long"),
        ),
        Move(
            "reroll",
            "Before the first station: another river or mountain, or yours laid by hand "
            "(String Railway)",
            ("reroll",),
            pick=(
                "what",
                "river or mountain (the one your seat lays); add points x y to lay it by hand",
            ),
            typed=True,
        ),
    )
}

RouteBuilder = Callable[[Game, Action, str], list[dict[str, Any]]]


def choice_key(action: Action) -> str:
    """A short, stable name for one action (an autocomplete value is at most 100 characters)."""
    canonical = json.dumps(action, sort_keys=True, separators=(",", ":"))
    return KEY_PREFIX + hashlib.sha1(canonical.encode()).hexdigest()[:12]


def by_key(key: str, choices: Sequence[Choice]) -> Action:
    """The legal move a menu option or picture button named by its key."""
    found = next((c for c in choices if choice_key(c.action) == key), None)
    if found is None:
        raise Refused(
            "that move is no longer open to you (the game has moved on); pick again "
            "from the newest post"
        )
    return dict(found.action)


def _of_move(move: Move, choices: Sequence[Choice]) -> list[Choice]:
    return [
        c
        for c in choices
        if c.action.get("type") in move.types
        and (move.kind is None or c.action.get("kind") == move.kind)
    ]


def _field_matches(field: Field, value: Any, typed: Any) -> bool:
    typed = str(typed).strip().casefold()
    return typed in (str(value).casefold(), field.shown(value).casefold())


def _by_fields(
    move: Move, choices: list[Choice], args: Mapping[str, Any], skip: str | None = None
) -> list[Choice]:
    for field in move.fields:
        typed = args.get(field.name)
        if field.name == skip or typed is None or str(typed).strip() == "":
            continue
        choices = [c for c in choices if _field_matches(field, c.action.get(field.field), typed)]
    return choices


def _words(text: str) -> list[str]:
    plain = _THOUSANDS.sub("", text.casefold())  # "$1,100" is the word 1100
    return [w for w in re.split(r"[\s(),$£]+", plain) if w]


def _words_match(text: str, label: str) -> bool:
    """Every typed word starts a word of the label ("bo" is BO, not Amboy; "100" is $100)."""
    words = _words(label)
    return all(any(w.startswith(typed) for w in words) for typed in _words(text))


def _by_text(choices: list[Choice], text: str) -> list[Choice]:
    """A picked suggestion (its key), else the label typed in full, else every typed word."""
    text = text.strip()
    if text.startswith(KEY_PREFIX):
        picked = [c for c in choices if choice_key(c.action) == text]
        if not picked:
            raise Refused(
                "that suggestion is no longer available (the game has moved on); "
                "pick again from the list"
            )
        return picked
    exact = [c for c in choices if c.label.casefold() == text.casefold()]
    return exact or [c for c in choices if _words_match(text, c.label)]


def _listing(choices: Sequence[Choice]) -> str:
    """The choices' labels, each once (the engine names interchangeable moves alike)."""
    labels = list(dict.fromkeys(c.label for c in choices))
    shown = "; ".join(labels[:SHOWN_OPTIONS])
    more = len(labels) - SHOWN_OPTIONS
    return shown + (f"; and {more} more" if more > 0 else "")


def resolve(
    move: Move,
    args: Mapping[str, Any],
    choices: Sequence[Choice],
    game: Game,
    routes: RouteBuilder | None = None,
) -> Action:
    """The one legal action the command means, or Refused saying what is possible instead."""
    mine = _of_move(move, choices)
    if move.typed and move.pick is not None:
        typed = _typed(move, args, mine, choices, game)
        if typed is not None:
            return typed
    if not mine:
        others = _open_moves(choices) if choices else "nothing"
        reason = next(filter(None, (game.explain(t) for t in move.types)), None) if game else None
        because = f": {reason}" if reason else ""
        raise Refused(f"you cannot {move.name} now{because}; you can: {others}")
    for field in move.fields:  # in order, so the first option that fits nothing is named
        typed = args.get(field.name)
        if typed is None or str(typed).strip() == "":
            continue
        narrowed = [c for c in mine if _field_matches(field, c.action.get(field.field), typed)]
        if field.by_label and not narrowed:  # told by the words of its suggestion
            narrowed = [c for c in mine if _words_match(str(typed), c.label)]
        if not narrowed:
            legal = _distinct(field, mine)
            raise Refused(
                f"{field.name} {typed} is not possible in a {move.name} now; "
                f"possible: {', '.join(legal)}"
            )
        mine = narrowed
    args = _price_typed_after(move, args, mine)
    amount = args.get(move.amount[0]) if move.amount is not None else None
    if move.pick is not None and (text := args.get(move.pick[0])):
        picked = _by_text(mine, str(text))
        if not picked:
            raise Refused(
                f"nothing you can {move.name} matches {str(text)!r}"
                f"{_why_not(move, game, str(text))}; you can: {_open_moves(mine)}"
            )
        mine = picked
    if move.amount_picks and amount is not None:
        priced = [c for c in mine if amount in _prices(c.label)]
        if not priced:
            named = f"{args.get(move.pick[0]) or ''} {amount}" if move.pick else str(amount)
            reason = (
                _why_not(move, game, named).removeprefix(": ")
                or f"{amount} is not a price you can {move.name} at"
            )
            raise Refused(f"{reason}; you can: {_open_moves(mine)}")
        mine = priced
    elif amount is not None and len({_unpriced(c.action) for c in mine}) == 1:
        mine = mine[:1]  # one move at several suggested prices: the price given is used
    seller = str(args.get(move.pick[0]) or "") if move.pick is not None else ""
    if len(mine) > 1 and "'s" not in seller:  # no seller named: the bank's, not a company's
        plain = [c for c in mine if "'s " not in c.label]
        if plain and len({c.label for c in plain}) == 1:
            mine = plain
    if len({c.label for c in mine}) == 1:
        mine = mine[:1]  # the engine names them alike: interchangeable (one of two 2-trains)
    if len(mine) > 1 and move.amount is not None and _only_prices_differ(mine):
        prices = ", ".join(dict.fromkeys(m[0] for c in mine for m in _PRICE.finditer(c.label)))
        named = str(args.get(move.pick[0]) or "").strip() if move.pick else ""
        first = next(iter(_prices(mine[0].label)), 0)
        example = " ".join(filter(None, ("/play move", move.name, named, str(first))))
        raise Refused(
            f"give the {move.amount[0]} too: {len(mine)} prices are open ({prices}), e.g. {example}"
        )
    if len(mine) > 1:
        open_fields = [f.name for f in move.fields if len(_distinct(f, mine)) > 1]
        if move.pick is not None and not open_fields:
            open_fields = [move.pick[0]]
        which = " and ".join(open_fields) or "a more exact choice"
        fits = len({c.label for c in mine})
        raise Refused(f"{fits} moves fit; give {which}: {_listing(mine)}")
    action = dict(mine[0].action)
    if move.amount is not None and not move.amount_picks and amount is not None:
        if "price" not in action:
            raise Refused(f"{move.amount[0]} does not apply to: {mine[0].label}")
        action["price"] = amount
    if move.routes is not None and (text := args.get(move.routes[0])):
        if routes is None:
            raise Refused("this game does not take routes typed as hexes")
        action["routes"] = routes(game, action, str(text))
    return action


_PRICE_AFTER = re.compile(r"^(.*\S)\s+[$£]?(\d{1,7})$")
_PRICE = re.compile(r"[$£](\d{1,3}(?:,\d{3})+|\d+)")  # as money() writes it: "$1,100"
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")


def _price_typed_after(
    move: Move, args: Mapping[str, Any], mine: list[Choice]
) -> Mapping[str, Any]:
    """A price typed after the pick ("CA 180") is the amount option, as if given by name,
    when the whole text names no legal move: `bid CA 180` is a bid on CA at 180 (`company:CA
    price:180`)."""
    if move.pick is None or move.amount is None or args.get(move.amount[0]) is not None:
        return args
    text = str(args.get(move.pick[0]) or "").strip()
    match = _PRICE_AFTER.match(text)
    if match is None or text.startswith(KEY_PREFIX) or _by_text(mine, text):
        return args
    return {**args, move.pick[0]: match[1], move.amount[0]: int(match[2])}


def _prices(label: str) -> list[int]:
    return [int(p.replace(",", "")) for p in _PRICE.findall(label)]


def _unpriced(action: Action) -> str:
    return json.dumps({k: v for k, v in action.items() if k != "price"}, sort_keys=True)


def _only_prices_differ(choices: list[Choice]) -> bool:
    """The choices are one move at several prices (their labels differ only in the price)."""
    return len({_PRICE.sub("$", c.label) for c in choices}) == 1


def _why_not(move: Move, game: Game | None, text: str) -> str:
    """The title's reason (its rule) why nothing legal is what `text` names, as ": reason"."""
    if game is None:
        return ""
    reason = next(filter(None, (game.explain_choice(t, text) for t in move.types)), None)
    return f": {reason}" if reason else ""


def _open_moves(choices: Sequence[Choice]) -> str:
    """The caller's legal moves (every kind keeping a fair share), each as a command to type
    as it reads: `/play move` takes a move's whole label, in Discord and the console alike."""
    groups = grouped_moves(choices, SHOWN_OPTIONS)
    shown = "; ".join(f"/play move {c.label}" for _, members in groups for c in members)
    more = len({c.label for c in choices}) - sum(len(m) for _, m in groups)
    return shown + (f"; and {more} more (/game view what:moves lists them)" if more > 0 else "")


def _typed(
    move: Move, args: Mapping[str, Any], mine: list[Choice], choices: Sequence[Choice], game: Game
) -> Action | None:
    """A move typed in free form (not a picked suggestion nor a suggestion's exact label),
    built by the title; None to match the suggestions instead."""
    assert move.pick is not None
    text = str(args.get(move.pick[0]) or "").strip()
    if (
        not text
        or text.startswith(KEY_PREFIX)
        or any(c.label.casefold() == text.casefold() for c in mine)
    ):
        return None
    reason = next(filter(None, (game.explain(t) for t in move.types)), None)
    entity = next((c.action["entity"] for c in choices if "entity" in c.action), None)
    if reason or entity is None:
        raise Refused(f"you cannot {move.name} now" + (f": {reason}" if reason else ""))
    try:
        return game.typed_action(entity, move.types[0], {move.pick[0]: text})
    except GameError as exc:
        raise Refused(str(exc)) from None


def _distinct(field: Field, choices: list[Choice]) -> list[str]:
    seen: dict[str, None] = {}
    for c in choices:
        seen.setdefault(field.shown(c.action.get(field.field)))
    return list(seen)


def suggest(
    move: Move,
    option: str,
    args: Mapping[str, Any],
    choices: Sequence[Choice],
    current: str,
    limit: int = 25,
) -> list[tuple[str, str]]:
    """(name shown, value sent) suggestions for one option while the user types `current`."""
    mine = _of_move(move, choices)
    field = next((f for f in move.fields if f.name == option), None)
    if field is not None and field.by_label:  # the value is a number; its words are the label
        found = [
            (_fit(c.label), field.shown(c.action.get(field.field)))
            for c in _by_fields(move, mine, args, skip=option)
            if current.strip().casefold() in c.label.casefold()
            or current.strip() == field.shown(c.action.get(field.field))
        ]
        first: dict[str, Any] = {}  # lays the engine names alike are one suggestion
        for name, value in found:
            first.setdefault(name, value)
        return list(first.items())[:limit]
    if field is not None:
        ways: dict[str, set[str]] = {}  # moves the engine names alike count once
        for c in _by_fields(move, mine, args, skip=option):
            ways.setdefault(field.shown(c.action.get(field.field)), set()).add(c.label)
        counts = {shown: len(labels) for shown, labels in ways.items()}
        out = []
        for shown, n in counts.items():
            if current.strip().casefold() in shown.casefold():
                out.append((shown if n == 1 else f"{shown} ({n} ways)", shown))
        return out[:limit]
    if move.pick is not None and option == move.pick[0]:
        alike: dict[str, Choice] = {}  # one suggestion for choices the engine names alike
        for c in _by_fields(move, mine, args):
            if _words_match(current, c.label):
                alike.setdefault(c.label, c)
        return [(_fit(label), choice_key(c.action)) for label, c in alike.items()][:limit]
    return []


MOVES_HEADER = "Your moves (each typed as it reads after /play move):"


def moves_text(choices: Sequence[Choice]) -> str:
    """The caller's legal moves grouped by kind, each made by typing it as it reads after
    /play move (in Discord also from the turn post's menu and buttons)."""
    if not choices:
        return "You have no move to make now."
    lines = [MOVES_HEADER]
    used: set[int] = set()
    for move in MOVES.values():
        mine = _of_move(move, choices)
        if mine:
            used.update(id(c) for c in mine)
            lines.append(f"{move.name}: " + "; ".join(dict.fromkeys(c.label for c in mine)))
    rest = [c.label for c in choices if id(c) not in used]
    if rest:
        lines.append("other: " + "; ".join(rest))  # no kind names them (typed as they read)
    return "\n".join(lines)


def grouped_moves(choices: Sequence[Choice], limit: int) -> list[tuple[str, list[Choice]]]:
    """The legal moves by the /play command that makes each (alike labels once), at most
    `limit` in all: when there are more, every command keeps a fair share of its first ones."""
    groups: list[tuple[str, list[Choice]]] = []
    used: set[int] = set()
    for move in MOVES.values():
        alike: dict[str, Choice] = {}
        for c in _of_move(move, choices):
            used.add(id(c))
            alike.setdefault(c.label, c)
        if alike:
            groups.append((move.name, list(alike.values())))
    rest = list({c.label: c for c in choices if id(c) not in used}.values())
    if rest:
        groups.append(("act", rest))
    kept = [0] * len(groups)
    while sum(kept) < limit and any(k < len(g) for k, (_, g) in zip(kept, groups)):
        for i, (_, members) in enumerate(groups):
            if kept[i] < len(members) and sum(kept) < limit:
                kept[i] += 1
    return [(name, members[:k]) for (name, members), k in zip(groups, kept) if k]


def _fit(label: str, size: int = 100) -> str:
    return label if len(label) <= size else label[: size - 1] + "…"


# -- the turn prompt's buttons -------------------------------------------------------------------
@dataclass(frozen=True)
class Quick:
    kind: str
    label: str


def _quick_matches(kind: str, action: Action) -> bool:
    t = action.get("type")
    if kind in ("pass", "done"):
        return t == "pass" and (action.get("entity_type") == "player") == (kind == "pass")
    if kind in ("payout", "withhold"):
        return t == "dividend" and action.get("kind") == kind
    if kind == "run":
        return t == "run_routes"
    if kind == "train":  # the next train from the bank: a plain purchase, no trade-in
        return t == "buy_train" and "exchange" not in action
    return False


QUICK_KINDS = ("pass", "done", "payout", "withhold", "run", "train")


def quick_kind(action: Action) -> str | None:
    """The turn post's button that makes this move, if one does."""
    return next((kind for kind in QUICK_KINDS if _quick_matches(kind, action)), None)


def quick_moves(choices: Sequence[Choice]) -> list[Quick]:
    """The one-click moves open to the player now: Pass/Done, Payout, Withhold, Run best
    routes, Buy next train (each labelled with what it does)."""
    out = []
    for kind in QUICK_KINDS:
        choice = next((c for c in choices if _quick_matches(kind, c.action)), None)
        if choice is None:
            continue
        label = choice.label
        if kind == "done":
            label = "Done" + label[len("Pass") :] if label.startswith("Pass") else "Done"
        out.append(Quick(kind, _fit(label, 80)))
    return out


def quick_action(kind: str, choices: Sequence[Choice]) -> Action:
    if kind not in QUICK_KINDS:
        raise Refused(f"unknown button {kind!r}")
    choice = next((c for c in choices if _quick_matches(kind, c.action)), None)
    if choice is None:
        raise Refused(f"that button's move ({kind}) is not open to you now")
    return dict(choice.action)
