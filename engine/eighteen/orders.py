"""Standing orders as a player sees them: the programmed moves they may set now (18xx.games' and
railchat's own), in words, as complete moves; the ones they have set, each with the move that
cancels it; and the sentence each such move gets. Menus, lists and these sentences are for the
player who sets an order alone (18xx.games' Auto page and its log lines about programs show a
player's programs to that player only); the others are told of the 18xx.games programs set
(`public`: its game files hold them, and it says they are not secret) and see the moves
railchat's own make when they make them.

The rules of the orders are elsewhere: programs.py (18xx.games') and house_programs.py
(railchat's); this module only words them and lists what may be set.
"""

from __future__ import annotations

from typing import Any

from engine.eighteen import house_programs as house
from engine.eighteen import programs
from engine.eighteen.entities import Corporation, Player
from engine.game import Action, Choice, Standing


# -- words ----------------------------------------------------------------------------------------
def program_words(
    game: Any,
    kind: str,
    *,
    unconditional: bool = False,
    indefinite: bool = False,
    corporation: str | None = None,
    until: Any = None,
    from_market: bool = False,
    auto_pass_after: bool = False,
    third: bool = False,
) -> str:
    """What an 18xx.games program does, after "you" ("pass in the stock round until another
    player's move changes things"), or (`third`) after its player's name ("passes ...")."""
    verb = "es" if third else ""
    if kind == programs.SHARE_PASS:
        if indefinite:
            rounds = "every stock round"
        else:
            rounds = "this stock round" if game.round.kind == "stock" else "the next stock round"
        stop = "whatever happens" if unconditional else "until another player's move changes things"
        return f"pass{verb} in {rounds} {stop}"
    if kind == programs.BUY_SHARES:
        source = "the market" if from_market else "the IPO"
        goal = (
            "it floats" if until == "float" else f"{'they' if third else 'you'} hold {until} shares"
        )
        then = f", then pass{verb}" if auto_pass_after else ""
        return f"buy{'s' if third else ''} {corporation} from {source} until {goal}{then}"
    return kind.replace("_", " ")


def _words_of(game: Any, program: programs.Program, *, third: bool = False) -> str:
    return program_words(
        game,
        program.kind,
        unconditional=program.unconditional,
        indefinite=program.indefinite,
        corporation=program.corporation,
        until=program.until,
        from_market=program.from_market,
        auto_pass_after=program.auto_pass_after,
        third=third,
    )


def order_text(game: Any, action: Action) -> str | None:
    """What a standing-order move does, in words for the player who sent it (None: the move is
    not one)."""
    kind = action.get("type")
    reason = action.get("reason")
    if kind in (programs.DISABLE, house.DISABLE) and reason not in (None, "user"):
        return f"Your programmed move stopped: {reason}."
    if kind == programs.DISABLE:
        return "You cancel your programmed move."
    if kind in game.PROGRAM_TYPES:
        words = program_words(
            game,
            str(kind),
            unconditional=bool(action.get("unconditional")),
            indefinite=bool(action.get("indefinite")),
            corporation=action.get("corporation"),
            until=action.get("until_condition"),
            from_market=bool(action.get("from_market")),
            auto_pass_after=bool(action.get("auto_pass_after")),
        )
        return f"Programmed: you {words}."
    if kind == house.DISABLE:
        return f"You cancel your {str(action.get('program')).replace('_', ' ')} programmed move."
    if kind == house.SET:
        program = house.HouseProgram(
            str(action.get("program")),
            action.get("company"),
            action.get("limit"),
            action.get("until"),
        )
        return f"Programmed: you {house.describe(game, program)}."
    return None


# -- what may be set, and what is set -----------------------------------------------------------------
def choices(game: Any, pid: Any) -> list[Choice]:
    """The orders the player may set now, each a complete move (18xx.games' first, as its
    Auto page offers them; then railchat's own)."""
    player = game.player(pid)
    if game.finished or player.bankrupt:
        return []
    out = [Choice(words, action) for words, action in _shares(game, player)]
    out += [Choice(words, action) for words, action in house.choices(game, player)]
    return out


def _shares(game: Any, player: Player) -> list[tuple[str, Action]]:
    """18xx.games' programs: pass in stock rounds (four ways), and buy the shares of a company
    that has some in the IPO or the market: until it floats, or until the player holds a number
    of them (each, or then pass)."""
    out = []
    for indefinite in (False, True):
        for unconditional in (False, True):
            words = program_words(
                game, programs.SHARE_PASS, unconditional=unconditional, indefinite=indefinite
            )
            move = _program(
                player, programs.SHARE_PASS, unconditional=unconditional, indefinite=indefinite
            )
            out.append((words, move))
    for corp in game.corporations:
        if corp.ipoed:
            out += _buys(game, player, corp)
    return out


def _buys(game: Any, player: Player, corp: Corporation) -> list[tuple[str, Action]]:
    held = player.percent_of(corp) // 10
    goals: list[tuple[Any, bool]] = []
    if not corp.floated and corp.ipo_shares:
        goals.append(("float", False))
    goals += [(n, False) for n in range(held + 1, held + len(corp.ipo_shares) + 1)]
    goals += [(n, True) for n in range(held + 1, held + len(game.pool.shares_of(corp)) + 1)]
    out = []
    for until, from_market in goals:
        for then_pass in (False, True):
            fields = {
                "corporation": corp.sym,
                "until_condition": until,
                "from_market": from_market,
                "auto_pass_after": then_pass,
            }
            words = program_words(
                game,
                programs.BUY_SHARES,
                corporation=corp.sym,
                until=until,
                from_market=from_market,
                auto_pass_after=then_pass,
            )
            out.append((words, _program(player, programs.BUY_SHARES, **fields)))
    return out


def _program(player: Player, kind: str, **fields: Any) -> Action:
    return {"type": kind, "entity": player.id, "entity_type": "player", **fields}


def standing(game: Any, pid: Any) -> list[Standing]:
    """The player's orders now, each with the move that cancels it."""
    player = game.player(pid)
    out = []
    program = game.programs.get(player.id)
    if program is not None:
        cancel = _program(player, programs.DISABLE, reason="user", original_type=program.kind)
        out.append(Standing(_words_of(game, program), cancel))
    out += [Standing(words, cancel, until) for words, cancel, until in house.standing(game, player)]
    return out


def public(game: Any) -> list[tuple[Any, str]]:
    """The 18xx.games programs set now, each with its player, in words after the player's name
    ("passes in this stock round until another player's move changes things"). Every player
    may be told of these: 18xx.games keeps them in the game's public action log and tells its
    players that auto actions are not secret (its Auto page). Railchat's own programs are not
    among them: its game file holds only the passes they made."""
    return [
        (player.id, _words_of(game, program, third=True))
        for player in game.players
        if (program := game.programs.get(player.id)) is not None
    ]


def program_stopped(game: Any, program: programs.Program) -> str:
    """An 18xx.games program's words, for the sentence that tells its player it stopped."""
    return _words_of(game, program)
