"""Railchat's own programmed moves, beyond 18xx.games' (programs.py): pass in the auction (until
it ends, until another player bids on a company named, or until a company named can be bought
outright for a price named or less); pass the Buy Companies step of one's companies when it
offers no private of one's own; and "away", which passes for its player in stock rounds,
auctions and those steps until it is cancelled (the front end cancels it at its date).

They are game state set and cleared by moves in the log (`railchat_program`,
`railchat_program_disable`), like 18xx.games' programs, so a replay of the log makes the same
moves. They only ever pass, and their passes are recorded in the triggering action's
`auto_actions` marked `_house`. 18xx.games knows none of this, so a game file written for it
(`file_actions`) gets those passes as ordinary moves of their players and loses the settings:
it replays there as if the players had passed by hand.

The steps ask `auction_moves`, `stock_moves` and `private_moves` for the moves due (their
`house_actions`); this module imports no step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from engine.eighteen.entities import Corporation, Player
from engine.eighteen.programs import NO_PASS
from engine.errors import IllegalAction, InvalidAction

SET = "railchat_program"
DISABLE = "railchat_program_disable"
AUCTION, PRIVATE, AWAY = "auction_pass", "private_pass", "away"
KINDS = (AUCTION, PRIVATE, AWAY)
FIELDS: dict[str, tuple[str, ...]] = {
    SET: ("program", "company", "limit", "until"),
    DISABLE: ("program", "reason"),
}
MARK = "_house"  # on a programmed move: the railchat program that made it
LIMIT_STEP = 5  # the auction limits offered: the price now less 5, 10, ... down to 5
IDLE = (
    "nobody moved by hand in the last stock round, so this one waits for a player's move "
    "(were every player away, the game would go on without anyone)"
)
# Which option each kind takes (the others are refused, so that a program means one thing).
_OPTIONS = {AUCTION: ("company", "limit"), PRIVATE: (), AWAY: ("until",)}


@dataclass(frozen=True)
class HouseProgram:
    """One of railchat's programs of a player: its kind and options (`company` and `limit`
    for an auction pass; `until`, an ISO date and time in UTC, for away)."""

    kind: str
    company: str | None = None
    limit: int | None = None
    until: str | None = None

    def lapses(self, round_kind: str) -> bool:
        """Whether a new round of this kind ends it: an auction pass ends with the auction."""
        return self.kind == AUCTION and round_kind != "auction"


# -- setting and clearing ---------------------------------------------------------------------------
def check_fields(game: Any, action: dict[str, Any]) -> None:
    """A program a player sends: a kind this title offers with only its own options, each of
    the right kind. Raises a GameError saying what is wrong."""
    kind = str(action.get("program"))
    offered = game.HOUSE_PROGRAMS
    if kind not in offered:
        raise InvalidAction(
            f"{game.title} offers the railchat programs {', '.join(offered)}, not {kind!r}"
        )
    if action["type"] == DISABLE:
        player = game.resolve_entity(action)
        if kind not in game.house_programs.get(getattr(player, "id", None), {}):
            raise IllegalAction(f"{game.entity_name(player)} has no {kind} program to stop")
        if not isinstance(action.get("reason"), str | None):
            raise InvalidAction(f"a program's reason is a text, not {action.get('reason')!r}")
        return
    extra = [f for f in ("company", "limit", "until") if action.get(f) is not None]
    wrong = [f for f in extra if f not in _OPTIONS[kind]]
    if wrong:
        raise InvalidAction(f"a {kind} program takes no {', '.join(wrong)}")
    if kind == AUCTION and extra and not game.AUCTION_NAMES_COMPANIES:
        raise InvalidAction(
            f"{game.title}'s auction sells the right to pick, not a named company: its "
            "auction pass takes no company or limit"
        )
    limit = action.get("limit")
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 0):
        raise InvalidAction(f"an auction pass's limit is a price from 0, not {limit!r}")
    if limit is not None and action.get("company") is None:
        raise InvalidAction("an auction pass's limit is the price of a company: name it too")
    if action.get("company") is not None:
        game.company(action["company"])  # an unknown one is refused with the known ones
    if action.get("until") is not None:
        parse_until(action["until"])


def parse_until(text: Any) -> datetime:
    """An away program's end: an ISO date (its midnight) or date and time, read as UTC."""
    try:
        when = datetime.fromisoformat(str(text))
        return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    except (ValueError, OverflowError):  # not a date, or one moved past year 1 or 9999 in UTC
        raise InvalidAction(
            f"an away program ends at a date like 2030-06-01 (UTC), not {str(text)[:40]!r}"
        ) from None


def process(game: Any, action: dict[str, Any]) -> None:
    """Set (replacing one of the same kind) or clear one of the acting player's programs."""
    player = game.resolve_entity(action)
    if not isinstance(player, Player):
        raise IllegalAction(f"only a player sets programmed moves, not {game.entity_name(player)}")
    mine = game.house_programs.setdefault(player.id, {})
    kind = str(action.get("program"))
    if action["type"] == DISABLE:
        old = mine.pop(kind, None)
        if old is not None:
            game.stopped(player.id, describe(game, old), action.get("reason"))
        return
    until = action.get("until")
    program = HouseProgram(
        kind,
        company=game.company(action["company"]).sym if action.get("company") else None,
        limit=action.get("limit"),
        until=parse_until(until).isoformat() if until is not None else None,
    )
    replaced = mine.get(kind)
    mine[kind] = program
    game.tell(
        player.id,
        f"Programmed: you {describe(game, program)}"
        + (f" (instead of: {describe(game, replaced)})." if replaced else "."),
    )


def round_changed(game: Any) -> None:
    """A new round has begun: an auction pass ends with the auction (its player is told)."""
    for pid, mine in game.house_programs.items():
        for kind, program in list(mine.items()):
            if program.lapses(game.round.kind):
                del mine[kind]
                game.stopped(pid, describe(game, program), "the auction is over")


# -- the moves that fall due ------------------------------------------------------------------------
Worry = Callable[[Player, HouseProgram], str | None]


def auction_moves(game: Any, player: Player, allowed: list[str], worry: Worry) -> list[dict]:
    """The player's auction turn: an auction pass (else away) passes for them, unless the
    auction step has a worry about it (`worry`: why the player should decide themself); then an
    auction pass stops, told why, and away leaves the turn to its player."""
    mine = game.house_programs.get(player.id, {})
    if "pass" not in allowed:
        _left(game, player, [mine.get(AUCTION), mine.get(AWAY)] if allowed else [], NO_PASS)
        return []
    for kind in (AUCTION, AWAY):
        program = mine.get(kind)
        if program is None:
            continue
        reason = worry(player, program)
        if reason is None:
            return [_pass(player, kind)]
        if kind == AUCTION:
            return [_move(player, DISABLE, program=AUCTION, reason=reason)]
        _left(game, player, [program], reason)
    return []


def stock_moves(game: Any, player: Player, allowed: list[str]) -> list[dict]:
    """The player's stock turn: away passes (or ends the turn) for them whenever it may, but
    for a stock round that follows one without a move made by hand, until someone makes one
    (were every player away, stock rounds and operating rounds without companies would follow
    each other until the privates' revenue broke the bank)."""
    away = game.house_programs.get(player.id, {}).get(AWAY)
    if game.idle_stock_round and not game.by_hand_this_round:
        _left(game, player, [away], IDLE)
        return []
    if away is not None and "pass" in allowed:
        return [_pass(player, AWAY)]
    _left(game, player, [away] if allowed else [], NO_PASS)
    return []


def private_moves(game: Any, corp: Corporation, allowed: list[str]) -> list[dict]:
    """A company's Buy Companies step: its president's private pass passes it when none of the
    privates the company could buy is theirs; away passes it whatever it offers."""
    president = corp.owner
    if not isinstance(president, Player) or "pass" not in allowed:
        return []
    mine = game.house_programs.get(president.id, {})
    if AWAY in mine:
        return [_pass(corp, AWAY)]
    if PRIVATE not in mine:
        return []
    own = [
        c
        for c in game.purchasable_companies(corp)
        if c.owner is president and game.company_min_price(c) <= corp.cash
    ]
    if own:
        names = " and ".join(c.sym for c in own)
        _left(game, president, [mine[PRIVATE]], f"{corp.sym} could buy {names} of yours")
        return []
    return [_pass(corp, PRIVATE)]


def _left(game: Any, player: Player, held: list[HouseProgram | None], reason: str) -> None:
    """Those of the player's programs `held` make no move on their turn, for `reason`."""
    for program in held:
        if program is not None:
            game.leaves_turn(player.id, describe(game, program), reason)


def _move(entity: Player | Corporation, kind: str, **fields: Any) -> dict[str, Any]:
    if isinstance(entity, Player):
        return {"type": kind, "entity": entity.id, "entity_type": "player", **fields}
    return {"type": kind, "entity": entity.sym, "entity_type": "corporation", **fields}


def _pass(entity: Player | Corporation, kind: str) -> dict[str, Any]:
    return _move(entity, "pass", **{MARK: kind})


# -- words ------------------------------------------------------------------------------------------
def describe(game: Any, program: HouseProgram) -> str:
    """What the program does, after "you" ("pass in the auction until it ends")."""
    if program.kind == AUCTION:
        if program.company is None:
            return "pass in the auction until it ends"
        if program.limit is None:
            return f"pass in the auction until another player bids on {program.company}"
        return (
            f"pass in the auction until {program.company} can be bought for "
            f"{game.money(program.limit)} or less"
        )
    if program.kind == PRIVATE:
        return "pass your companies' Buy Companies step when it offers none of your own privates"
    where = (
        "stock rounds, auctions and Buy Companies steps"
        if PRIVATE in game.HOUSE_PROGRAMS
        else "stock rounds and auctions"
    )
    until = f" until {program.until[:16].replace('T', ' ')} UTC" if program.until else ""
    return f"are away{until}: railchat passes for you in {where}"


def choices(game: Any, player: Player) -> list[tuple[str, dict[str, Any]]]:
    """(words after "you", the setting move) of the railchat programs the player may set now:
    an auction pass during the auction, a private pass where the title has the step, away."""
    out: list[tuple[str, dict[str, Any]]] = []
    offered = game.HOUSE_PROGRAMS
    if AUCTION in offered and game.round.kind == "auction":
        out.append(_choice(game, player, HouseProgram(AUCTION)))
        for company, price in game.round.auction_targets():
            out.append(_choice(game, player, HouseProgram(AUCTION, company.sym)))
            if price is not None:  # it can be bought outright, and its price falls
                out += [
                    _choice(game, player, HouseProgram(AUCTION, company.sym, limit))
                    for limit in range(price - LIMIT_STEP, 0, -LIMIT_STEP)
                ]
    for kind in (PRIVATE, AWAY):
        if kind in offered:
            out.append(_choice(game, player, HouseProgram(kind)))
    return out


def _choice(game: Any, player: Player, program: HouseProgram) -> tuple[str, dict[str, Any]]:
    fields: dict[str, Any] = {
        k: v for k, v in (("company", program.company), ("limit", program.limit)) if v is not None
    }
    if "until" in _OPTIONS[program.kind]:
        fields["until"] = None  # it may be given an end date (a front end asks for one)
    return describe(game, program), _move(player, SET, program=program.kind, **fields)


def standing(game: Any, player: Player) -> list[tuple[str, dict[str, Any], str | None]]:
    """(words, the move that cancels it, its end date) of each of the player's programs."""
    return [
        (
            describe(game, program),
            _move(player, DISABLE, program=kind, reason="user"),
            program.until,
        )
        for kind, program in game.house_programs.get(player.id, {}).items()
    ]


# -- game files for 18xx.games -------------------------------------------------------------------
def file_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log as 18xx.games reads it: railchat's settings left out, and each pass railchat's
    programs made taken out of its `auto_actions` into a move of its own, carrying the
    18xx.games programmed moves that followed it (as they would have followed that pass had
    its player passed by hand)."""
    out: list[dict[str, Any]] = []

    def emit(move: dict[str, Any] | None, autos: list[dict[str, Any]]) -> None:
        if move is None:  # 18xx.games programmed moves with no move of 18xx.games' before them
            out.extend(autos)
            return
        out.append({**move, "auto_actions": autos} if autos else move)

    for action in actions:
        head = (
            None
            if action["type"] in FIELDS
            else {k: v for k, v in action.items() if k != "auto_actions"}
        )
        following: list[dict[str, Any]] = []
        for auto in action.get("auto_actions") or []:
            if auto["type"] in FIELDS:
                continue
            if MARK in auto:
                emit(head, following)
                head, following = {k: v for k, v in auto.items() if k != MARK}, []
            else:
                following.append(auto)
        emit(head, following)
    return out
