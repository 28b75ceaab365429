"""Routes for 18xx titles as players type them (`2: E19 F20 F22; 3: F20 G19`), and the best
routes shown to spectators; both through the engine's public board API.

A typed route lists every hex the train passes, stop to stop. The run_routes action wants it
cut into connections (the hexes between two consecutive stops); the cut is found from the
track network's own index of stop-to-stop track, so no rule is decided here: the engine still
checks the whole run when the action is processed.
"""

from __future__ import annotations

import re
from itertools import islice, product
from typing import Any, Protocol, TypeGuard, runtime_checkable

from bot.core.results import Refused
from engine.game import Action, Game

MAX_CUTS = 16  # different cuts of one typed route tried at most
MAX_TEXT = 1000  # characters of typed routes read at most
MAX_HEXES = 80  # hexes one typed route may pass (more than any map's longest run)
MAX_ROUTES = 12  # routes typed at once (more than any company's trains)
HEX = re.compile(r"^[A-Za-z]+\d+$")
# a typed route per title, each run by that title's first train in its reference games
EXAMPLES = {"1860": "2+1: I3 J4", "": "2: E19 F20 F22; 3: F20 G19"}
TRAIN_WORD = re.compile(r"[\s-]*(train|t)$", re.IGNORECASE)


def route_example(title: str) -> str:
    return EXAMPLES.get(title, EXAMPLES[""])


@runtime_checkable
class RoutedGame(Protocol):
    """What typed routes and best-route answers ask of a title whose trains run routes."""

    board: Any
    corporations: Any

    def corporation(self, sym: str) -> Any: ...

    def best_routes(self, corporation: Any) -> tuple[int, list[dict[str, Any]]]: ...

    def money(self, amount: int) -> str: ...


def has_routes(game: Game) -> TypeGuard[RoutedGame]:
    return isinstance(game, RoutedGame)


def route_companies(game: Game) -> list[tuple[str, str]]:
    """(symbol, "SYM (name)") of the companies that can run trains now: floated, not closed."""
    if not has_routes(game):
        return []
    return [(c.sym, f"{c.sym} ({c.name})") for c in game.corporations if c.floated and not c.closed]


def best_routes_text(game: Game, company: str) -> str:
    """The exact best run of a company's trains now, one line per train."""
    if not has_routes(game):
        raise Refused(f"{game.title} has no train routes")
    corp = game.corporation(company.strip().upper())  # unknown names raise InvalidAction
    if not corp.trains:
        return f"{corp.sym} owns no trains."
    total, routes = game.best_routes(corp)
    if not routes:
        return f"{corp.sym}'s trains have no route to run now."
    names = {t.id: t.name for t in corp.trains}
    lines = [f"{corp.sym} can earn {game.money(total)}:"]
    for r in routes:
        lines.append(
            f"  {names.get(r['train'], r['train'])}-train: "
            f"{r.get('revenue_str') or '-'.join(r.get('hexes', []))} "
            f"({game.money(r.get('revenue', 0))})"
        )
    return "\n".join(lines)


def parse_routes(text: str, example: str = EXAMPLES[""]) -> list[tuple[str, list[str]]]:
    """`2: E19 F20 F22; 3-1: F20-G19` -> [("2", ["E19", "F20", "F22"]), ("3-1", [...])];
    `example` is the title's own, shown when the text cannot be read."""
    if len(text) > MAX_TEXT:
        raise Refused(
            f"the routes are {len(text):,} characters long; at most {MAX_TEXT:,} are read"
        )
    out = []
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        train, sep, rest = part.partition(":")
        hexes = [h.upper() for h in re.split(r"[\s,\-–]+", rest.strip()) if h]
        if not sep or not train.strip() or not hexes:
            raise Refused(f"cannot read the route {part!r}; write train: hexes, e.g. {example}")
        bad = [h for h in hexes if not HEX.match(h)]
        if bad:
            raise Refused(f"{', '.join(bad)} is not a hex name like F20 (in {part!r})")
        if len(hexes) < 2:
            raise Refused(f"a route passes at least two hexes ({part!r})")
        if len(hexes) > MAX_HEXES:
            raise Refused(
                f"a route of {len(hexes)} hexes is longer than any train can run "
                f"(at most {MAX_HEXES} are read)"
            )
        out.append((train.strip(), hexes))
        if len(out) > MAX_ROUTES:
            raise Refused(f"more than {MAX_ROUTES} routes given; a company runs fewer trains")
    if not out:
        raise Refused(f"no route given; write train: hexes, e.g. {example}")
    return out


def _train_typed(name: str) -> str:
    """A train as players write it: "2+1", "2+1-train", "2+1 train", "3T" name the train."""
    return TRAIN_WORD.sub("", name.strip()).casefold() or name.strip().casefold()


def _trains(corp: Any, wanted: list[str]) -> list[str]:
    """Train ids for what the user named, each used once: an id (2-0), a train name in the
    forms players write it (2, 2-train, 2+1), or in 1860 the big stops alone ("2" for a 2+1
    when the company has only one kind of train starting so)."""
    owned = [(t.id, t.name) for t in corp.trains]
    taken: list[str] = []
    for name in wanted:
        typed = _train_typed(name)
        free = [(tid, tname) for tid, tname in owned if tid not in taken]
        match = next((tid for tid, _ in free if tid == name.strip()), None)
        match = match or next((tid for tid, tname in free if tname.casefold() == typed), None)
        if match is None:
            kinds = {tname for _, tname in free if tname.split("+")[0].casefold() == typed}
            if len(kinds) == 1:
                match = next(tid for tid, tname in free if tname in kinds)
        if match is None:
            have = ", ".join(tname for _, tname in owned) or "none"
            raise Refused(f"{corp.sym} has no spare train {name!r} (its trains: {have})")
        taken.append(match)
    return taken


def _cuts(hexes: list[str], track: dict[tuple[str, ...], Any]) -> list[list[list[str]]]:
    """Up to MAX_CUTS ways to cut the hex list into consecutive stop-to-stop pieces of track.
    The positions from which the end can still be reached are found first, from the end back
    (linear in the route's length times the longest piece), so the cuts are walked only along
    pieces that lead to a whole cut and a route with none costs no search at all."""
    longest = max(map(len, track), default=0)
    n = len(hexes)
    finishes = [False] * n
    finishes[n - 1] = True
    for start in range(n - 2, -1, -1):
        finishes[start] = any(
            finishes[end] and tuple(hexes[start : end + 1]) in track
            for end in range(start + 1, min(n, start + longest))
        )
    found: list[list[list[str]]] = []
    stack: list[tuple[int, list[list[str]]]] = [(0, [])] if finishes[0] else []
    while stack and len(found) < MAX_CUTS:
        start, pieces = stack.pop()
        if start == n - 1:
            found.append(pieces)
            continue
        for end in range(min(n, start + longest) - 1, start, -1):  # shortest piece tried first
            piece = hexes[start : end + 1]
            if finishes[end] and tuple(piece) in track:
                stack.append((end, [*pieces, piece]))
    return found


def routes_from_text(game: Game, action: Action, text: str) -> list[dict[str, Any]]:
    """The run_routes `routes` for typed routes of the action's company."""
    example = route_example(game.title)
    if not has_routes(game):
        raise Refused(f"{game.title} has no train routes")
    corp = game.corporation(action["entity"])
    typed = parse_routes(text, example)
    train_ids = _trains(corp, [train for train, _ in typed])
    track = game.board.network().chains_by_hexes
    options = []
    for train, hexes in typed:
        cuts = _cuts(hexes, track)
        if not cuts:
            raise Refused(
                f"there is no track from stop to stop along {'-'.join(hexes)} "
                f"(train {train}); list every hex the train passes"
            )
        options.append(cuts)
    runs = [
        [{"train": tid, "connections": cut} for tid, cut in zip(train_ids, combo)]
        for combo in islice(product(*options), MAX_CUTS)
    ]
    if len(runs) > 1 and hasattr(game, "is_legal"):
        for routes in runs:
            if game.is_legal({**action, "routes": routes}):
                return routes
    return runs[0]  # the engine explains what is wrong with it
