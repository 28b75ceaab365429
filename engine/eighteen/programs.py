"""Programmed moves ("auto actions"): standing orders a player sets at any time, which the game
carries out for them when their stock turn comes, exactly when and as 18xx.games does.

A player sets one program at a time (`program_share_pass`: pass in stock rounds, until someone
else's move changes things, or `unconditional`ly; `program_buy_shares`: buy one company's shares
from the IPO or the market until it floats or the player holds N shares, then maybe pass) and
clears it with `program_disable`. After every move made live, the moves that fall due are made
one after another (a pass ends a turn and the next player's program may be due) and recorded in
that move's `auto_actions`, with a `program_disable` naming why when a program stops itself.
Replaying a recorded move applies its recorded auto actions instead, so a game file or a stored
log replays the same whatever this module would decide today.

The game (an EighteenGame) and the stock step are not imported here: they import this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.eighteen.entities import Company, Corporation, Player, Share
from engine.errors import IllegalAction, InvalidAction

SHARE_PASS = "program_share_pass"
BUY_SHARES = "program_buy_shares"
DISABLE = "program_disable"
# What a player may program in 1830 and 1860 (18xx.games offers these two there); the other
# kinds are read from game files and kept, but never make a move here.
OFFERED = (SHARE_PASS, BUY_SHARES)
# The fields of each program a player may send, as 18xx.games writes them.
FIELDS: dict[str, tuple[str, ...]] = {
    SHARE_PASS: ("unconditional", "indefinite"),
    BUY_SHARES: ("corporation", "until_condition", "from_market", "auto_pass_after"),
    DISABLE: ("reason", "original_type"),
}
# Why a program leaves its player a turn with no pass in it (a sale, a pick or a bid is due)
NO_PASS = "you cannot pass now"
# No chain of programmed moves that ends is this long: one this long runs for ever (every player
# programmed to pass, round after round, e.g. all away before any company floats).
MAX_AUTO_MOVES = 1000
ENDLESS = (
    "then every player's moves would be made by programs, round after round, for ever; "
    "nothing was done"
)


@dataclass(frozen=True, order=True)
class Moment:
    """Where a move is in the log: the action's number, and 0 for the action itself or n for
    the n-th programmed move it set off; `live` when the game made that programmed move itself
    (rather than replaying it from the log), which `earlier` orders differently."""

    action: int
    auto: int = 0
    live: bool = False


@dataclass(frozen=True)
class SeenMove:
    """A move of a player's latest stock turn (or a private exchanged since), as the programmed
    moves of the other players judge it: its kind and when."""

    kind: str
    at: Moment


@dataclass(frozen=True)
class Program:
    """One player's standing order, and when in the log it was set (moves before it are not
    the 'change' that stops it)."""

    kind: str
    set_at: Moment
    unconditional: bool = False
    indefinite: bool = False
    corporation: str | None = None
    until: str | int | None = None  # "float" or a number of shares
    from_market: bool = False
    auto_pass_after: bool = False

    def lapses(self, round_kind: str) -> bool:
        """Whether a new round of this kind clears it (18xx.games' `disable?`, asked at every
        round change)."""
        if self.kind == SHARE_PASS:
            return round_kind != "stock" and not self.indefinite
        if self.kind == BUY_SHARES:
            return round_kind != "stock"
        if self.kind in ("program_auction_bid", "program_harzbahn_draft_pass"):
            return round_kind != "auction"
        if self.kind == "program_independent_mines":
            return round_kind != "operating" and not self.indefinite
        return self.kind != "program_close_pass"


# -- setting and clearing -----------------------------------------------------------------------
def check_fields(game: Any, action: dict[str, Any]) -> None:
    """A program a player sends: one of the kinds offered here, its fields of the right kind,
    and something to stop when it stops their program. Raises a GameError saying what is wrong."""
    kind = action["type"]
    if kind == DISABLE:
        player = game.resolve_entity(action)
        if isinstance(player, Player) and player.id not in game.programs:
            raise IllegalAction(f"{player.name} has no programmed move to stop")
    if kind != DISABLE and kind not in OFFERED:
        raise InvalidAction(
            f"{game.title} offers programmed moves {' and '.join(OFFERED)} only, not {kind}"
        )
    for name in ("unconditional", "indefinite", "from_market", "auto_pass_after"):
        if name in action and not isinstance(action[name], bool | None):
            raise InvalidAction(f"{kind}'s {name} is true or false, not {action[name]!r}")
    for name in ("reason", "original_type"):
        if name in action and not isinstance(action[name], str | None):
            raise InvalidAction(f"{kind}'s {name} is a text, not {action[name]!r}")
    if kind == BUY_SHARES:
        until = action.get("until_condition")
        if until != "float" and (
            not isinstance(until, int) or isinstance(until, bool) or until < 1
        ):
            raise InvalidAction(
                'program_buy_shares needs an until_condition: "float" (until the company '
                f"floats) or a number of shares from 1, not {until!r}"
            )


def process(game: Any, action: dict[str, Any]) -> None:
    """Set or clear the acting player's program (a move they may make at any time)."""
    player = game.resolve_entity(action)
    kind = action["type"]
    if not isinstance(player, Player):
        raise IllegalAction(f"only a player sets programmed moves, not {game.entity_name(player)}")
    if kind == DISABLE:
        old = game.programs.pop(player.id, None)
        if old is not None:
            game.stopped(player.id, game.program_words(old), action.get("reason"))
        return
    corporation = None
    if kind == BUY_SHARES:
        corporation = game.corporation(action.get("corporation")).sym
        if action.get("until_condition") is None:
            raise InvalidAction("program_buy_shares needs an until_condition")
    replaced = game.programs.get(player.id)
    program = game.programs[player.id] = Program(
        kind,
        game.log_position,
        unconditional=bool(action.get("unconditional")),
        indefinite=bool(action.get("indefinite")),
        corporation=corporation,
        until=action.get("until_condition"),
        from_market=bool(action.get("from_market")),
        auto_pass_after=bool(action.get("auto_pass_after")),
    )
    instead = f" (instead of: {game.program_words(replaced)})" if replaced else ""
    game.tell(player.id, f"Programmed: you {game.program_words(program)}{instead}.")


def round_changed(game: Any) -> None:
    """A new round has begun: the programs it ends are cleared (18xx.games tells only their
    players)."""
    for pid, program in list(game.programs.items()):
        if program.lapses(game.round.kind):
            del game.programs[pid]
            game.stopped(pid, game.program_words(program), f"the {game.round.name} began")


# -- what falls due --------------------------------------------------------------------------------
def due_moves(game: Any, step: Any, player: Player) -> list[dict[str, Any]]:
    """The moves the player's program makes for them on their turn in the stock step `step`
    ([]: none, they act themselves)."""
    program = game.programs.get(player.id)
    if program is None:
        return []
    allowed = step.actions(player)
    if not allowed:
        return []
    if program.kind == SHARE_PASS:
        return _share_pass(game, step, player, program, allowed)
    if program.kind == BUY_SHARES:
        return _buy_shares(game, step, player, program, allowed)
    return []


def _move(player: Player, kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "entity": player.id, "entity_type": "player", **fields}


def _disable(player: Player, reason: str) -> dict[str, Any]:
    return _move(player, DISABLE, reason=reason)


def _share_pass(
    game: Any,
    step: Any,
    player: Player,
    program: Program,
    allowed: list[str],
) -> list[dict[str, Any]]:
    if "pass" not in allowed:
        game.leaves_turn(player.id, game.program_words(program), NO_PASS)
        return []
    reason = None if program.unconditional else _stop_reason(game, step, player, program, None)
    return [_disable(player, reason)] if reason else [_move(player, "pass")]


def _buy_shares(
    game: Any,
    step: Any,
    player: Player,
    program: Program,
    allowed: list[str],
) -> list[dict[str, Any]]:
    corp = game.corporation(program.corporation)
    if program.until == "float":
        done = f"{corp.sym} is floated" if corp.floated else None
    else:
        assert isinstance(program.until, int)
        held = player.percent_of(corp) / 10
        done = (
            f"{program.until} share(s) bought in {corp.sym}, end condition met"
            if held >= program.until
            else None
        )
    if done:
        moves = [_disable(player, done)]
        if program.auto_pass_after:
            moves.append(_move(player, SHARE_PASS, unconditional=False, indefinite=False))
        return moves
    if "buy_shares" in allowed:
        source, offered = (
            ("market", game.pool.shares_of(corp))
            if program.from_market
            else ("IPO", corp.ipo_shares)
        )
        buyable = [s for s in offered if step.buy_problem(player, [s]) is None]
        if not buyable:
            game.stop_details[player.id] = _unbuyable(step, player, corp, offered, source)
            return [_disable(player, f"Cannot buy {corp.sym} from {source}")]
        if len({s.percent for s in buyable}) > 1:
            return [
                _disable(
                    player,
                    f"Shares of different sizes exist, cannot auto buy {corp.sym} from {source}",
                )
            ]
        share = buyable[0]
        reason = _stop_reason(game, step, player, program, share)
        if reason:
            return [_disable(player, reason)]
        return [_move(player, "buy_shares", shares=[share.id], percent=share.percent)]
    words = game.program_words(program)
    if step.bought() and "pass" in allowed:
        # a company that has just floated is not passed on: its buyer may want to sell at once
        if program.until == "float" and corp.floated:
            game.leaves_turn(player.id, words, f"your purchase floated {corp.sym}")
            return []
        return [_move(player, "pass")]
    if "pass" not in allowed:
        game.leaves_turn(player.id, words, NO_PASS)
    elif not step.bought():
        offered = game.pool.shares_of(corp) if program.from_market else corp.ipo_shares
        source = "market" if program.from_market else "IPO"
        game.leaves_turn(player.id, words, _unbuyable(step, player, corp, offered, source))
    return []


def _unbuyable(step: Any, player: Player, corp: Corporation, offered: list[Share], src: str) -> str:
    """Why the player cannot buy the program's share now, in the rules' words."""
    if not offered:
        return f"no share of {corp.sym} is left in the {src}"
    problem = next((p for s in offered if (p := step.buy_problem(player, [s]))), None)
    return problem or f"you cannot buy a share of {corp.sym} now"


# -- what stops a program ---------------------------------------------------------------------------
def _stop_reason(
    game: Any,
    step: Any,
    player: Player,
    program: Program,
    buying: Share | None,
) -> str | None:
    """Why the program must not act for the player now: another player's move since the
    program was set may change what the player would want. (18xx.games first asks whether the
    player must sell; such a player has neither a pass nor a purchase to program here.)"""
    for other, by_company in step.round.players_history.items():
        if other is player:
            continue
        for target, moves in by_company.items():
            for move in moves:
                if earlier(game, move.at, program.set_at):
                    continue
                reason = _worrying(game, player, other, move, target, buying)
                if reason:
                    return reason
    return None


def earlier(game: Any, a: Moment, b: Moment) -> bool:
    """Whether what happened at `a` comes before what happened at `b`, as 18xx.games compares
    a move with a program: by id when both are actions players sent, else by timestamp. A
    programmed move (or a program it set) has no id. Replayed from the log it takes its action's
    stamp; made live, 18xx.games stamps it with the wall clock, later than the stamps of every
    player's action in its reference games (which carry a past game's times), so railchat counts
    it later than them all. One made before the game was last reloaded (rebuilt from its log,
    taken back by an undo) counts as replayed, as it does there."""

    def when(m: Moment) -> tuple[int, int, int]:
        if m.auto and m.live and m.action >= game.live_from:
            return (1, m.action, m.auto)
        return (0, m.action, 0)

    return when(a) < when(b)


def _worrying(
    game: Any,
    player: Player,
    other: Player,
    move: SeenMove,
    target: Corporation | Company,
    buying: Share | None,
) -> str | None:
    """Whether another player's stock move is one a programmed player would want to react to
    (18xx.games calls them shenanigans), and in its words why."""
    if move.kind == "par":
        if buying is None or game.sale_timing_ok():
            return f"Corporation {target.sym} parred"
        return None
    if move.kind == "buy_shares":
        assert isinstance(target, Corporation)
        return _bought_on(player, other, target, buying)
    if move.kind == "sell_shares":
        return "Shares were sold"
    return f"Unknown action {move.kind} disabling for safety"


def _bought_on(
    player: Player, other: Player, corp: Corporation, buying: Share | None
) -> str | None:
    """Another player bought a company this player presides: a worry while the presidency is
    not secure (under half the company), unless this player is buying that company too (then
    18xx.games weighs the certificates bigger than the one bought that another player could
    take: in 1830 and 1860 only the director's, which the president holds)."""
    if corp.owner is not player or player.percent_of(corp) >= 50:
        return None
    if buying is None or buying.corp is not corp:
        return f"{other.name} bought on corporation {corp.sym} and is unsecure"
    return None


def run_due(game: Any, number: int, by_hand: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Make every programmed move that falls due after action `number` of the log, one after
    another until none is; they are returned for that action's `auto_actions`. A program left
    making no move on its player's turn tells them why (`leaves_turn`), unless that turn is
    the one they were making by hand (`by_hand`: the move, if a player made it themself)."""
    made: list[dict[str, Any]] = []
    while not game.finished:
        game.left_turns = []
        moves = game.round.auto_actions()
        if not moves:
            break
        for move in moves:
            if len(made) >= MAX_AUTO_MOVES:
                raise IllegalAction(ENDLESS)
            made.append(move)
            game.process_single(move, Moment(number, len(made), live=True))
    else:
        game.left_turns = []
    mover = game.acting_player(by_hand) if by_hand is not None and not made else None
    for pid, words, reason in game.left_turns:
        # a reason told already (another program of theirs stopped for it) is not told again
        if pid != mover and not any(p == pid and reason in text for p, text in game.news):
            game.tell(
                pid,
                f"Your programmed move left this turn to you: {reason}. (It stays set: you "
                f"{words}.)",
            )
    game.left_turns = []
    return made
