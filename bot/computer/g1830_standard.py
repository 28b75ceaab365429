"""1830, `standard` level: buy privates near their worth while keeping the money to start a
company, start the company with the most station tokens at the highest par we can hold 60% of,
run it for revenue (eighteen_operating) and trade shares for dividends (eighteen_stock)."""

from __future__ import annotations

import random

from bot.computer.eighteen_operating import Sense
from bot.computer.eighteen_reading import by_type, par_of
from bot.computer.eighteen_stock import StockSense, company_or_stock_turn
from bot.computer.levels import Decision, ranked
from engine.eighteen.auction import CompanyPendingPar, WaterfallAuction
from engine.eighteen.entities import Company, Corporation, Player
from engine.eighteen.game import EighteenGame
from engine.game import Choice, Game, PlayerId

# What a private is worth to us beyond its face value: a few runs of its revenue, and the
# share it comes with (CA: a PRR 10%; BO: the B&O presidency, which also binds our money).
REVENUE_RUNS = 2
SHARE_BONUS = {"CA": 60, "BO": 40}
SHARES_TO_HOLD = 6  # 60%: a president who holds it floats the company alone
SHARES_KEPT_FOR = 6  # the auction leaves money for this many shares at the lowest par
ESTIMATE = (0.9, 1.15)  # how far one player's estimate of a private's worth may stray


def choose(game: Game, player: PlayerId, choices: list[Choice], rng: random.Random) -> Decision:
    assert isinstance(game, EighteenGame)
    step = game.round.active_step()
    if isinstance(step, CompanyPendingPar):
        return par_bought_presidency(game, player, choices)
    if isinstance(step, WaterfallAuction):
        return bid(game, player, step, choices, rng)
    return company_or_stock_turn(game, player, choices, OPERATING, STOCK, rng)


# -- the private auction -----------------------------------------------------------------------
def private_worth(company: Company) -> int:
    return company.value + REVENUE_RUNS * company.revenue + SHARE_BONUS.get(company.sym, 0)


def money_for_a_company(game: EighteenGame, me: Player, buying: Company) -> int:
    """What we keep back in the auction to start a company afterwards and float it alone: 60%
    at the lowest par (less when a private, owned or being bought, gives us a president's
    certificate). Once everyone has passed on what is left, one share less: the privates
    would otherwise go round unsold, paying out, again and again."""
    cheapest = min(p.price for p in game.market.par_prices)
    presidency = any(_gives_presidency(game, c) for c in [*me.companies, buying])
    shares = SHARES_KEPT_FOR - 1 if _everyone_passed(game) else SHARES_KEPT_FOR
    return max(0, shares - (2 if presidency else 0)) * cheapest


def _everyone_passed(game: EighteenGame) -> bool:
    recent = game.actions[-len(game.players) :]
    return len(recent) == len(game.players) and all(a.get("type") == "pass" for a in recent)


def _gives_presidency(game: EighteenGame, company: Company) -> bool:
    ability = company.ability("shares")
    return ability is not None and any(
        game.corporation(sid.split("_")[0]).all_shares[int(sid.split("_")[1])].president
        for sid in ability.get("shares")
    )


def bid(
    game: EighteenGame,
    player: PlayerId,
    step: WaterfallAuction,
    choices: list[Choice],
    rng: random.Random,
) -> Decision:
    """Bid (or buy) on the private whose worth exceeds its price most (players' estimates
    differ a little, by a die), as long as we keep the money to start a company; else pass.
    The other privates worth their price come after, by margin."""
    me = game.player(player)
    kinds = by_type(choices)
    worth_it: list[tuple[int, Choice]] = []
    for choice in kinds.get("bid", []):
        company = game.company(choice.action["company"])
        price = choice.action["price"]
        spare = me.cash - step.committed(me) - money_for_a_company(game, me, company)
        margin = round(private_worth(company) * rng.uniform(*ESTIMATE)) - price
        extra = price - step.current_bid(me, company)
        if margin >= 0 and extra <= spare:
            worth_it.append((margin, choice))
    worth_it.sort(key=lambda m: -m[0])  # stable: the first listed of equal margins first
    bids = [
        Decision(c, f"{c.label}: worth {game.money(margin)} more than that to you")
        for margin, c in worth_it
    ]
    if bids:
        return ranked(bids)
    return Decision(kinds["pass"][0], "no private is worth its price with the money we keep")


def par_bought_presidency(game: EighteenGame, player: PlayerId, choices: list[Choice]) -> Decision:
    """The private came with a president's certificate: par at the highest price at which we
    can buy the rest of 60%."""
    me = game.player(player)
    prices = sorted(choices, key=lambda c: -par_of(c))
    for choice in prices:
        price = par_of(choice)
        if price * (SHARES_TO_HOLD - 2) <= me.cash:
            return Decision(
                choice, f"the highest par at which we can buy 60% ({game.money(price)})"
            )
    return Decision(prices[-1], "the lowest par: your money is short")


# -- starting companies ------------------------------------------------------------------------
def company_merit(game: EighteenGame, corp: Corporation) -> tuple[float, str]:
    """More station tokens keep a company running longer; then the richer home city."""
    tokens = len(corp.token_costs)
    home, _ = game.board.tile_def_on(corp.home)
    value = max((home.nodes[i].revenue.value("yellow") for i in home.cities), default=0)
    return tokens + value / 100, f"{tokens} stations, home {corp.home}"


OPERATING = Sense()
STOCK = StockSense(company_merit=company_merit)
