"""Why a move is refused, in the rules' words: when each kind of move is made (for one tried
at another time), and why none of the legal moves is the one a player named (the steps say
why for their own moves; see `Step.explain_choice`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.eighteen.rounds import EighteenHost

if TYPE_CHECKING:
    from engine.eighteen.entities import Corporation

# When each kind of move is made, told when one is tried at another time.
WHEN_DONE = {
    "bid": "privates are bid on in the opening auction",
    "par": "a company is parred (started) by a player in a stock round",
    "buy_shares": "shares are bought in stock rounds",
    "sell_shares": "shares are sold in stock rounds (and by a president raising money for a "
    "compulsory train)",
    "lay_tile": "tiles are laid by a company in its operating turn, before its token",
    "place_token": "tokens are placed by a company in its operating turn, after its track",
    "run_routes": "trains run in a company's operating turn, after track and token",
    "dividend": "revenue is paid out or withheld right after a company's run",
    "buy_train": "trains are bought at the end of a company's operating turn",
    "buy_company": "companies buy privates in operating rounds, once the phase allows it",
}


def timing(game: EighteenHost, step: Any, action_type: str) -> str | None:
    """The step under way and when this kind of move is made instead (None when this step
    makes such moves: then it is not a matter of timing)."""
    when = WHEN_DONE.get(action_type)
    if when is None or hasattr(step, f"process_{action_type}"):
        return None
    return f"it is {step.description} in {game.round_name()}; {when}"


def par_price_problem(game: EighteenHost, corp: Corporation, words: set[str]) -> str | None:
    """A typed number among `words` that is not one of the corporation's par prices."""
    prices = [cell.price for cell in game.par_prices(corp)]
    wrong = [int(w) for w in words if w.isdigit() and int(w) not in prices]
    if not wrong:
        return None
    listed = ", ".join(f"{game.money(p)}" for p in prices)
    return f"{game.money(wrong[0])} is not a par price; {corp.sym} can be parred at {listed}"


def explain_choice(game: EighteenHost, action_type: str, text: str) -> str | None:
    """The active step's reason why nothing legal of this type is what `text` names."""
    step = game.round.active_step()
    if step is None:
        return None
    words = {w.strip("$£").casefold() for w in text.replace(",", " ").split()}
    for entity in game.active_entities():
        reason = step.explain_choice(entity, action_type, words)
        if reason:
            return reason
    return None
