"""What a player missed since their own last move, short enough for a phone screen.

A player who comes back to a game after a day reads the thread's many posts, or this: their
cash, shares, worth and rank then and now; what happened to the companies they hold (price
moves and their causes, trains, runs); the track laid near those companies; and one line per
player of what they did. It is computed from the game's own snapshots (the renderer's plain
dicts) before and after each action since, walked by `Game.looking_back` (a rewind, not a
replay), and from the actions' sentences (the money story), so it tells nothing the thread
does not and knows no rule.

Track "near" a player's companies: a tile laid or token placed by a company they hold, or on
a hex where one of those companies has a token (the map's hex grid is not in the snapshot).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.game import Action, Game, PlayerId

LINES = 15  # what a phone shows without scrolling; the rest is folded
HISTORY = "/game view what:history"
ITEMS = 4  # events named per company or player line before "…"
DANGLING = re.compile(r" (at|on|in|to|for|from)$")  # a clause cut before its place
Money = Callable[[int], str]


@dataclass(frozen=True)
class Step:
    """One action since the player's move: who made it, its sentence and the position after."""

    actor: str | None
    action: Action
    sentence: str
    after: dict[str, Any]


@dataclass(frozen=True)
class Digest:
    """The figures told (each as (then, now)) and the lines a player reads."""

    moves: int
    score: tuple[int, int]  # worth, or victory points
    rank: tuple[int, int]
    cash: tuple[int, int] | None  # None: a title without money
    shares: dict[str, tuple[int, int]]  # percent of each company held then or now
    lines: tuple[str, ...]

    def text(self) -> str:
        return "\n".join(self.lines)


def steps_since(
    game: Game, count: int, snapshot: Callable[[], dict[str, Any]]
) -> tuple[dict[str, Any], list[Step]]:
    """The position (the game's `snapshot`) after its first `count` actions and each action
    since, with its sentence and the position it left; the game is left as it is."""
    start: list[dict[str, Any]] = []
    steps: list[Step] = []

    def watch(seen: Game, action: Action | None) -> None:
        if action is None:
            start.append(snapshot())
            return
        steps.append(Step(_actor(seen, action), action, seen.describe(action), snapshot()))

    game.looking_back(count, watch)
    return start[0], steps


def _actor(game: Game, action: Action) -> str | None:
    try:
        who = game.acting_player(action)
    except Exception:  # an entity the position no longer knows: its line is left out
        return None
    return None if who is None else game.player_name(who)


def missed(game: Game, player: PlayerId, since: int) -> Digest | None:
    """What `player` missed since the game's first `since` actions (their last move's); None
    for a title without a snapshot to read it from."""
    snapshot = getattr(game, "snapshot", None)
    if snapshot is None:
        return None
    start, steps = steps_since(game, since, snapshot)
    money: Money = getattr(game, "money", str)
    return digest(start, steps, player, game.player_name(player), since, money)


def digest(
    start: dict[str, Any],
    steps: Sequence[Step],
    player: PlayerId,
    name: str,
    since: int,
    money: Money = str,
) -> Digest:
    """The digest of `steps` for `player` (called `name`), from the position `start` (an 18xx
    snapshot, else String Railway's)."""
    moves = [s for s in steps if s.action.get("type") != "message"]
    when = f"your last move (action {since})" if since else "the start (you have not moved yet)"
    head = f"Since {when}: {_count(len(moves), 'move')}."
    if "corporations" in start:
        body, figures = _eighteen(start, steps, player, money)
    else:
        body, figures = _strings(start, steps, player)
    lines = [head, *body, *_players(moves, name)]
    if len(lines) > LINES:
        rest = len(lines) - (LINES - 1)
        lines = [*lines[: LINES - 1], f"… and {rest} more: {HISTORY}"]
    return Digest(len(moves), *figures, lines=tuple(lines))


# -- 18xx ---------------------------------------------------------------------------------------
Pair = tuple[int, int]
Figures = tuple[Pair, Pair, Pair | None, dict[str, Pair]]


def _eighteen(
    start: dict[str, Any], steps: Sequence[Step], player: PlayerId, money: Money
) -> tuple[list[str], Figures]:
    now = steps[-1].after if steps else start
    me = [next(p for p in s["players"] if p["id"] == player) for s in (start, now)]
    cash = (me[0]["cash"], me[1]["cash"])
    worth = (me[0]["value"], me[1]["value"])
    rank = (_rank(start["players"], player), _rank(now["players"], player))
    held = [c for c in now["corporations"] if c in me[0]["shares"] or c in me[1]["shares"]]
    shares = {c: (me[0]["shares"].get(c, 0), me[1]["shares"].get(c, 0)) for c in held}
    lines = [
        f"Cash {_then_now(cash, money)} · worth {_then_now(worth, money)} · "
        f"{_ranked(rank, len(now['players']))}"
    ]
    if shares:
        lines.append("Your shares: " + ", ".join(_share(c, *shares[c]) for c in held) + ".")
    states = [start, *(s.after for s in steps)]
    lines += [line for c in held if (line := _company(c, states, steps, money))]
    track = _track(set(held), states, steps)
    if track:
        lines.append("Track near your companies: " + _listed(track, 6) + ".")
    return lines, (worth, rank, cash, shares)


def _share(corp: str, then: int, now: int) -> str:
    if then == now:
        return f"{corp} {now}%"
    if not then:
        return f"{corp} {now}% (new)"
    return f"{corp} {now}% (was {then}%)" if now else f"{corp} sold (was {then}%)"


def _company(
    corp: str, states: Sequence[dict[str, Any]], steps: Sequence[Step], money: Money
) -> str | None:
    """The company's price then → now and what moved it; its runs, trains bought and lost."""
    events: list[str] = []
    for before, step in zip(states, steps):
        was, now = before["corporations"][corp], step.after["corporations"][corp]
        moved = now["price"] != was["price"] and None not in (now["price"], was["price"])
        arrow = (" ↑" if now["price"] > was["price"] else " ↓") if moved else ""
        action = step.action
        if action.get("type") == "dividend" and action.get("entity") == corp:
            events.append(_head(step.sentence).removeprefix(f"{corp} ") + arrow)
        elif moved:
            events.append(_cause(corp, before, step, money).removeprefix(f"{corp} ") + arrow)
        events += _trains(corp, before, step.after)
    first, last = states[0]["corporations"][corp], states[-1]["corporations"][corp]
    if not events:
        return None
    price = (
        _then_now((first["price"], last["price"]), money)
        if None not in (first["price"], last["price"])
        else "not started"
    )
    return f"{corp} {price}: " + _listed(_counted(events), ITEMS) + "."


def _cause(corp: str, before: dict[str, Any], step: Step, money: Money) -> str:
    """Why a price moved in this step: the reason the money story gives with the move ("no
    revenue this turn"), else the stock round's end (sold out), else the action."""
    old, new = (s["corporations"][corp]["price"] for s in (before, step.after))
    move = re.escape(f"{corp} {money(old)} → {money(new)} (")
    told = re.search(move + r"([^)]*)\)", step.sentence)
    if told:
        return told[1]
    if before["round"] == "Stock Round" != step.after["round"]:
        return "end of the stock round"
    return _head(step.sentence)


def _trains(corp: str, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Trains the company gained, and lost: rusted, or to the company that gained one."""
    rusted = {t["name"] for t in after["trains"] if t.get("rusted")}
    was, now = (Counter(s["corporations"][corp]["trains"]) for s in (before, after))
    out = [f"new {t}-train" for t in (now - was).elements()]
    for train in (was - now).elements():
        to = next(
            (
                sym
                for sym, c in after["corporations"].items()
                if sym != corp
                and c["trains"].count(train) > before["corporations"][sym]["trains"].count(train)
            ),
            None,
        )
        gone = "rusted" if train in rusted else f"to {to}" if to else "discarded"
        out.append(f"{train}-train {gone}")
    return out


def _track(held: set[str], states: Sequence[dict[str, Any]], steps: Sequence[Step]) -> list[str]:
    """Tiles and tokens laid by the player's companies or where those companies stand."""
    out: list[str] = []
    for before, step in zip(states, steps):
        by = str(step.action.get("entity"))
        ours = {h for h, ts in step.after["tokens"].items() if any(t["corp"] in held for t in ts)}
        for hex_id, tile in step.after["tiles"].items():
            if before["tiles"].get(hex_id) != tile and (by in held or hex_id in ours):
                out.append(f"{by} tile {tile['tile']} on {hex_id}")
        for hex_id, tokens in step.after["tokens"].items():
            new = [t for t in tokens if t not in before["tokens"].get(hex_id, [])]
            out += [
                f"{t['corp']} token in {hex_id}" for t in new if t["corp"] in held or hex_id in ours
            ]
    return out


# -- String Railway ------------------------------------------------------------------------------
def _strings(
    start: dict[str, Any], steps: Sequence[Step], player: PlayerId
) -> tuple[list[str], Figures]:
    now = steps[-1].after if steps else start
    scores = [_vp_by_player(s) for s in (start, now)]
    score = (scores[0][player], scores[1][player])
    rank = (_rank_of(scores[0], player), _rank_of(scores[1], player))
    mine = [c["name"] for c in now["companies"] if c["player"] == player]
    lines = [f"{', '.join(mine)}: {_then_now(score, str)} VP · {_ranked(rank, len(scores[1]))}"]
    vp = [
        f"{c['name']} {was['vp']} → {c['vp']}"
        for was, c in zip(start["companies"], now["companies"])
        if was["vp"] != c["vp"]
    ]
    if vp:
        lines.append("VP: " + ", ".join(vp) + ".")
    names = [c["name"] for c in now["companies"]]
    had = {s["label"] for s in start["stations"]}
    placed = [
        f"{s['type']} {s['label']}"
        + (f" ({names[s['owner']]}'s)" if s["owner"] is not None else "")
        for s in now["stations"]
        if s["label"] not in had
    ]
    if placed:
        lines.append("Stations drawn and placed: " + _listed(placed, 6) + ".")
    laid = _counted(
        f"{names[r['company']]} {r['kind']}" for r in now["rails"][len(start["rails"]) :]
    )
    if laid:
        lines.append("Rails laid: " + _listed(laid, 6) + ".")
    return lines, (score, rank, None, {})


def _vp_by_player(state: dict[str, Any]) -> dict[PlayerId, int]:
    """Each player's score: their best company's VP (one company each, or two of two)."""
    best: dict[PlayerId, int] = {}
    for c in state["companies"]:
        best[c["player"]] = max(best.get(c["player"], c["vp"]), c["vp"])
    return best


# -- shared -------------------------------------------------------------------------------------
def _players(steps: Sequence[Step], you: str) -> list[str]:
    """One line per player who acted, in the order they first did: how many moves, and what
    (the head of each sentence, repeats counted)."""
    done: dict[str, Counter[str]] = {}
    for step in steps:
        if step.actor is not None:
            head = _head(step.sentence).removeprefix(f"{step.actor} ")
            done.setdefault(step.actor, Counter())[head] += 1
    return [
        f"{'You' if who == you else who}: {_count(sum(heads.values()), 'move')} ("
        + _listed(_counted(heads.elements()), ITEMS)
        + ")"
        for who, heads in done.items()
    ]


def _counted(items: Iterable[str]) -> list[str]:
    """Each item once, in the order first seen, with how many times it came ("passes ×3")."""
    seen = Counter(items)
    return [item + (f" ×{n}" if n > 1 else "") for item, n in seen.items()]


def _head(sentence: str) -> str:
    """The gist of a sentence: its first clause, before any detail in brackets or after a
    colon or comma ("Bob buys 10% of PRR for $67", "PRR pays out $140")."""
    first = sentence.split(". ")[0].rstrip(".")
    for mark in (" (", ": ", ", "):
        first = first.split(mark)[0]
    return DANGLING.sub("", first)  # "placed Central S17 at" of "… at (15, 60)"


def _listed(items: Iterable[str], most: int) -> str:
    shown = list(items)
    more = len(shown) - most
    return ", ".join(shown[:most]) + (f", +{more} more" if more > 0 else "")


def _rank(players: Sequence[dict[str, Any]], player: PlayerId) -> int:
    return _rank_of({p["id"]: p["value"] for p in players}, player)


def _rank_of(scores: dict[PlayerId, int], player: PlayerId) -> int:
    """1 + how many players score more (ties share a rank)."""
    return 1 + sum(v > scores[player] for v in scores.values())


def _ranked(rank: tuple[int, int], of: int) -> str:
    then, now = (_ordinal(r) for r in rank)
    return f"rank {now} of {of}" if then == now else f"rank {then} → {now} of {of}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _then_now(pair: tuple[int, int], money: Money) -> str:
    then, now = pair
    return money(now) if then == now else f"{money(then)} → {money(now)}"


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"
