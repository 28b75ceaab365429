"""1860, `standard` level: in the opening auction pay a premium only up to what the pick is
worth to us, and take a director's certificate (else the private that pays most); start the
companies of the lowest open layer at the highest par we can hold 50% of, run them for revenue
(eighteen_operating) and trade shares for dividends (eighteen_stock). 1860 presidents never pay
for their company's trains, so no money is kept back for them."""

from __future__ import annotations

import random

from bot.computer.eighteen_operating import Sense
from bot.computer.eighteen_reading import by_type, par_of
from bot.computer.eighteen_stock import StockSense, company_or_stock_turn
from bot.computer.levels import Decision
from engine.eighteen.entities import Corporation, Player
from engine.eighteen.game import EighteenGame
from engine.g1860.auction import BuyCert
from engine.g1860.game import Game1860
from engine.game import Choice, Game, PlayerId

REVENUE_RUNS = 2  # a private is worth its face value and this many runs of its revenue
PRESIDENCY_WORTH = 60  # what running a company is worth over its certificate's price
SHARES_TO_HOLD = 5  # 50% floats an 1860 company
PREMIUM_TASTE = (0.5, 1.2)  # how far players' eagerness for a pick differs
# 1860's route finder is slow on a grown map: fewer lays are tried and fewer runs worked out
LAYS_TRIED = 20
# The first 9+5 brings on the Southern Railway and, soon after, nationalisation: bought only
# when compulsory, so that a game is decided by the money made (the bank or the market)
HELD_BACK = frozenset({"9+5"})
ROUTES_JUDGED = 6


def choose(game: Game, player: PlayerId, choices: list[Choice], rng: random.Random) -> Decision:
    assert isinstance(game, Game1860)
    step = game.round.active_step()
    if isinstance(step, BuyCert):
        return opening(game, player, step, choices, rng)
    return company_or_stock_turn(game, player, choices, OPERATING, STOCK, rng)


# -- the opening auction -----------------------------------------------------------------------
def opening(
    game: Game1860, player: PlayerId, step: BuyCert, choices: list[Choice], rng: random.Random
) -> Decision:
    kinds = by_type(choices)
    me = game.player(player)
    if step.in_auction():
        return bid_for_pick(game, me, step, kinds, rng)
    return take_item(game, me, kinds)


def bid_for_pick(
    game: Game1860,
    me: Player,
    step: BuyCert,
    kinds: dict[str, list[Choice]],
    rng: random.Random,
) -> Decision:
    """Raise for the right to pick while the premium stays below what the best item left is
    worth to us over its price (players differ in eagerness, by a die)."""
    bids = kinds.get("bid", [])
    margin = max(_item_margin(game, me, item) for item in step.items) * rng.uniform(*PREMIUM_TASTE)
    spare = me.cash - step.cheapest_price() - money_for_our_company(game, me)
    if bids and bids[0].action["price"] <= min(margin, spare):
        return Decision(bids[0], f"the pick is worth up to {game.money(int(margin))} to you")
    return Decision(kinds["pass"][0], "the premium is more than the pick is worth to you")


def money_for_our_company(game: Game1860, me: Player) -> int:
    """What we keep back in the auction to buy our company's shares up to 50%."""
    for corp in game.corporations:
        if corp.owner is me and corp.par_price is not None:
            return (SHARES_TO_HOLD - 2) * corp.par_price.price
    return 0


def _item_margin(game: Game1860, me: Player, item: object) -> int:
    if isinstance(item, Corporation):
        return 0 if any(c.owner is me for c in game.corporations) else PRESIDENCY_WORTH
    return REVENUE_RUNS * getattr(item, "revenue", 0)


def take_item(game: Game1860, me: Player, kinds: dict[str, list[Choice]]) -> Decision:
    """A director's certificate at the highest par we can hold 50% at, if we run no company
    yet; else the private that pays most."""
    pars = kinds.get("par", [])
    if pars and not any(c.owner is me for c in game.corporations):
        affordable = [c for c in pars if par_of(c) * SHARES_TO_HOLD <= me.cash] or pars
        best = max(
            affordable,
            key=lambda c: par_of(c) if par_of(c) * SHARES_TO_HOLD <= me.cash else -par_of(c),
        )
        return Decision(best, f"{best.label}: a company of your own")
    spare = me.cash - money_for_our_company(game, me)
    privates = kinds.get("bid", [])
    kept = [c for c in privates if c.action["price"] <= spare] or privates
    if kept:
        best = max(kept, key=lambda c: (c.action["price"] <= spare, -c.action["price"]))
        return Decision(best, f"{best.label}: the private that leaves money for your company")
    return Decision(pars[0], "the only item left")


# -- starting companies ------------------------------------------------------------------------
def company_merit(game: EighteenGame, corp: Corporation) -> tuple[float, str]:
    """Companies of the layers opened first earn longest; more stations keep them running."""
    assert isinstance(game, Game1860)
    layer = game.layer(corp)
    return 5 - layer + len(
        corp.token_costs
    ) / 10, f"layer {layer}, {len(corp.token_costs)} stations"


def players_money_left(game: EighteenGame) -> int:
    """1860's bank breaks when the players hold more than its player money."""
    assert isinstance(game, Game1860)
    return game.PLAYER_MONEY - sum(p.cash for p in game.player_list)


OPERATING = Sense(
    held_back=HELD_BACK,
    presidents_pay=False,
    lays_tried=LAYS_TRIED,
    routes_judged=ROUTES_JUDGED,
    bank_left=players_money_left,
)
STOCK = StockSense(
    company_merit=company_merit, aim_percent=10 * SHARES_TO_HOLD, presidents_pay=False
)
