"""A stock-round turn as a `standard` 18xx player plays it, shared by 1830 and 1860: keep the
money one's companies may need for a compulsory train, get out of companies that could be
dumped on us, start a company one can hold 60% of, float and fill one's own companies, buy
shares that pay well, else pass."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from bot.computer.eighteen_operating import Sense, operate
from bot.computer.eighteen_reading import (
    by_type,
    dividend_yield,
    lasting_trains,
    later_train_price,
    par_of,
    presided,
    share_choice,
    share_price,
    train_reserve,
)
from bot.computer.levels import Decision, ranked
from engine.eighteen.entities import Corporation, Player
from engine.eighteen.game import EighteenGame
from engine.game import Choice, PlayerId

GOOD_YIELD = 0.08  # a share paying this much of its price per run is worth buying
MAX_COMPANIES = 3  # companies one player presides at most (each needs trains and care)
DUMP_SAFE = 20  # holding this much of a failing company risks getting its presidency
TASTE = 1.0  # how far players' liking for companies differs, in units of a company's merit


@dataclass(frozen=True)
class StockSense:
    """What differs between titles in a stock turn: how good a company is to start (higher is
    better, with a reason), how many shares a president aims to hold, and whether presidents
    pay for their companies' compulsory trains (then money is kept for them, and a failing
    company is one to get out of)."""

    company_merit: Callable[[EighteenGame, Corporation], tuple[float, str]]
    aim_percent: int = 60
    presidents_pay: bool = True  # a president pays what the company lacks for a compulsory train


def company_or_stock_turn(
    game: EighteenGame,
    player: PlayerId,
    choices: list[Choice],
    operating: Sense,
    stock: StockSense,
    rng: random.Random,
) -> Decision:
    """A company's operating step when these moves are one, else a stock-round turn."""
    decision = operate(game, player, choices, operating)
    return decision if decision is not None else stock_turn(game, player, choices, stock, rng)


def stock_turn(
    game: EighteenGame,
    player: PlayerId,
    choices: list[Choice],
    sense: StockSense,
    rng: random.Random,
) -> Decision:
    me = game.player(player)
    kinds = by_type(choices)
    passes = kinds.get("pass", [])
    sales = kinds.get("sell_shares", [])
    if sales and not passes and not kinds.get("buy_shares") and not kinds.get("par"):
        return forced_sale(game, me, sales)
    for decide in (
        lambda: escape_dump(game, me, sales) if sense.presidents_pay else None,
        lambda: dump_failing(game, me, sales) if sense.presidents_pay else None,
        lambda: start_company(game, me, kinds.get("par", []), sense, rng),
        lambda: buy_share(game, me, kinds.get("buy_shares", []), sense),
    ):
        decision = decide()
        if decision is not None:
            return decision
    if passes:
        return Decision(passes[0], "nothing worth buying with the money to keep")
    return Decision(choices[0], "the only kind of move open")


# -- money to keep -----------------------------------------------------------------------------
def money_to_keep(game: EighteenGame, me: Player) -> int:
    """What our companies may call on us for: each one's next compulsory train, less what its
    treasury holds."""
    return sum(max(0, train_reserve(game, c) - c.cash) for c in presided(game, me) if c.floated)


def money_kept(game: EighteenGame, me: Player, sense: StockSense) -> int:
    """What a stock turn leaves unspent: the money our companies may call on us for."""
    return money_to_keep(game, me) if sense.presidents_pay else 0


def failing(game: EighteenGame, corp: Corporation) -> bool:
    """A company that will have to buy a train it cannot pay for: its president pays, or the
    one who takes it over."""
    return corp.floated and not lasting_trains(game, corp) and corp.cash < train_reserve(game, corp)


# -- selling -----------------------------------------------------------------------------------
def forced_sale(game: EighteenGame, me: Player, sales: list[Choice]) -> Decision:
    """Over a limit: sell the smallest bundle of the company that pays us least."""

    def cost(choice: Choice) -> tuple[bool, float, int]:
        corp, _ = share_choice(game, choice)
        return (corp.owner is me, dividend_yield(corp), choice.action.get("percent", 0))

    best = min(sales, key=cost)
    return Decision(best, "over a holding or certificate limit: selling what pays least")


def escape_dump(game: EighteenGame, me: Player, sales: list[Choice]) -> Decision | None:
    """Sell down below 20% of another player's failing company, so that its president cannot
    dump it (and its compulsory train) on us."""
    for choice in sales:
        corp, _ = share_choice(game, choice)
        if corp.owner is me or corp.owner is None or not failing(game, corp):
            continue
        held = me.percent_of(corp)
        if held >= DUMP_SAFE and held - choice.action.get("percent", 0) < DUMP_SAFE:
            return Decision(
                choice, f"{corp.sym} cannot pay for its next train: it must not be dumped on you"
            )
    return None


def dump_failing(game: EighteenGame, me: Player, sales: list[Choice]) -> Decision | None:
    """Hand over the presidency of our company that will need a train we cannot pay for (its
    treasury and our cash and other shares fall short): the rules let another holder of 20%
    take it, and its train with it."""
    for corp in presided(game, me):
        if not failing(game, corp) or _can_fund(game, me, corp):
            continue
        for choice in sorted(sales, key=lambda c: c.action.get("percent", 0)):
            sold, _ = share_choice(game, choice)
            if sold is corp and game.try_out(
                choice.action, me.id, lambda _g, _a: corp.owner is not me
            ):
                return Decision(
                    choice, f"{corp.sym} will need a train we cannot pay for: its presidency goes"
                )
    return None


def _can_fund(game: EighteenGame, me: Player, corp: Corporation) -> bool:
    """Whether our cash and our shares of other companies cover what the company lacks for the
    train it will need."""
    others = sum(share_price(s.corp) * s.percent // 10 for s in me.shares if s.corp is not corp)
    return corp.cash + me.cash + others >= train_reserve(game, corp)


# -- buying ------------------------------------------------------------------------------------
def start_company(
    game: EighteenGame, me: Player, pars: list[Choice], sense: StockSense, rng: random.Random
) -> Decision | None:
    """Start the best company not yet started (players differ in which they like, by a die),
    at the highest par at which we can buy our aim (60%), when our companies are all floated
    and we can afford it; where presidents pay for compulsory trains, only at a par whose
    float pays for a train of the next two types (no company is started into a train it
    cannot buy)."""
    mine = presided(game, me)
    if not pars or len(mine) >= MAX_COMPANIES or any(not c.floated for c in mine):
        return None
    spare = me.cash - money_kept(game, me, sense)
    shares = sense.aim_percent // 10
    if sense.presidents_pay:  # its float must pay for the trains of the next two types
        pars = [c for c in pars if 10 * par_of(c) >= later_train_price(game, 2)]
    affordable = [c for c in pars if par_of(c) * shares <= spare]
    how = f"at the highest par we can hold {sense.aim_percent}% of"
    if not affordable and not mine:  # the lowest par: the most shares for our money
        lowest = min((par_of(c) for c in pars), default=0)
        affordable = [c for c in pars if par_of(c) == lowest and 2 * lowest <= spare]
        how = "at the lowest par: the rest of its shares come with later rounds"
    if not affordable:
        return None

    taste = {c.sym: rng.uniform(0, TASTE) for c in game.corporations}

    def merit(choice: Choice) -> tuple[float, int]:
        corp = game.corporation(choice.action["corporation"])
        return sense.company_merit(game, corp)[0] + taste[corp.sym], par_of(choice)

    starts: dict[str, Decision] = {}  # the best par of each company, the best company first
    for choice in sorted(affordable, key=merit, reverse=True):
        corp = game.corporation(choice.action["corporation"])
        why = sense.company_merit(game, corp)[1]
        starts.setdefault(corp.sym, Decision(choice, f"start {corp.sym} ({why}) {how}"))
    return ranked(list(starts.values()))


def buy_share(
    game: EighteenGame, me: Player, buys: list[Choice], sense: StockSense
) -> Decision | None:
    """Float and fill our own companies first, then the shares that pay most for their price;
    always keeping the money our companies may need. Each company's cheapest share is ranked,
    the runners-up after the pick."""
    spare = me.cash - money_kept(game, me, sense)
    worth_it: list[tuple[float, int, Decision]] = []
    for choice in buys:
        if game.resolve_entity(choice.action) is not me:
            continue  # a private's exchange: left unused
        corp, _ = share_choice(game, choice)
        price = _price(game, choice)
        if price > spare:
            continue
        merit, why = _share_merit(game, me, corp, sense)
        if merit > 0:
            worth_it.append((merit, -price, Decision(choice, why)))
    best: dict[str, Decision] = {}
    for _, _, decision in sorted(worth_it, key=lambda w: w[:2], reverse=True):
        best.setdefault(share_choice(game, decision.choice)[0].sym, decision)
    return ranked(list(best.values())) if best else None


def _share_merit(
    game: EighteenGame, me: Player, corp: Corporation, sense: StockSense
) -> tuple[float, str]:
    held = me.percent_of(corp)
    if stranded(game, corp, me, sense):
        return 2.0, f"take over {corp.sym}: its president cannot float it"
    if corp.owner is me and held < sense.aim_percent:
        if not corp.floated:
            return 3.0, f"float your {corp.sym}"
        return 1.0 + dividend_yield(corp), f"your {corp.sym} pays you its dividends"
    if corp.owner is me or failing(game, corp) or not lasting_trains(game, corp):
        return 0.0, ""
    paid = dividend_yield(corp)
    if paid >= GOOD_YIELD and held + 10 < DUMP_SAFE + 20:
        dividend = game.money((corp.last_revenue or 0) // 10)
        return paid, f"{corp.sym} paid {dividend} a share last run, {paid:.0%} of its price"
    return 0.0, ""


def stranded(game: EighteenGame, corp: Corporation, me: Player, sense: StockSense) -> bool:
    """Another player's company, started but not floated, whose president cannot buy the
    shares that float it while we can buy both the presidency and the float."""
    owner = corp.owner
    if corp.floated or not corp.ipoed or owner is me or corp.par_price is None:
        return False
    price = corp.par_price.price
    left = max(0, sense.aim_percent - sum(p.percent_of(corp) for p in game.player_list)) // 10
    if owner is not None and owner.cash >= price * left:
        return False
    ours = max(sense.aim_percent, (owner.percent_of(corp) + 10) if owner else 0)
    return me.cash - money_kept(game, me, sense) >= price * (ours - me.percent_of(corp)) // 10


def _price(game: EighteenGame, choice: Choice) -> int:
    corp, holder = share_choice(game, choice)
    cell = corp.par_price if holder is corp else corp.share_price
    return cell.price * choice.action.get("percent", 10) // 10 if cell else 0
