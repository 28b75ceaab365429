"""A company's operating turn as a `standard` 18xx player plays it, shared by 1830 and 1860:
lay the track and place the token that raise its run most (tried on the game with the engine's
exact route finder, then taken back), run the best routes, pay out unless the treasury must
save for a train, buy trains before a rust leaves the company without one, and raise money
for a compulsory train by selling what hurts least."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.computer.eighteen_reading import (
    by_type,
    cheapest_train,
    corporation_of,
    distance_of,
    doomed,
    entity_of,
    lasting_trains,
    later_train_price,
    network_value,
    prospects,
    revenue,
    saving_for,
    share_choice,
    train_reserve,
)
from bot.computer.levels import Decision, ranked
from engine.eighteen.entities import Corporation, Player
from engine.eighteen.game import EighteenGame
from engine.eighteen.stock import StockRound
from engine.game import Choice, PlayerId

# How a move's effects weigh against each other, in money now: a dollar more per run is worth
# several runs; the reach of the network is a hint of runs to come.
RUNS_AHEAD = 3.0
REACH_WEIGHT = 0.2
PROSPECT_WEIGHT = 1.0
SPARE_CASH_WEIGHT = 0.1  # a dollar of terrain counts this much while the treasury has plenty
TRAIN_PAYBACK_RUNS = 5  # a voluntary train should earn its price back in this many runs
STALL_MOVES = 100  # moves without a train bought after which a company buys one to move on
BANK_NEARLY_BROKEN = 1500  # below this in the bank the end is near: no saving, only payouts
# What the moves tried in one decision may cost together, in the track walk's work (about half
# a second): each try works out the company's reach again, and in a dense late 1860 network one
# reach costs seconds, where a usual one costs a few thousand
REACH_WORK_PER_DECISION = 3_000_000


@dataclass(frozen=True)
class Sense:
    """What differs between titles in judging an operating turn."""

    trains_wanted: int = 2  # trains a company keeps without asking each to pay for itself
    # trains never bought by choice (the one that brings on 1860's Southern Railway)
    held_back: frozenset[str] = frozenset()
    presidents_pay: bool = True  # a president pays what the company lacks for its train
    lays_tried: int = 40  # lays tried on the game at most (each costs a move and a reach)
    routes_judged: int = 12  # lays whose run is worked out at most (the route finder's cost)
    bank_left: Callable[[EighteenGame], int] = lambda game: game.bank.cash


def operate(
    game: EighteenGame, player: PlayerId, choices: list[Choice], sense: Sense
) -> Decision | None:
    """The move for a company's operating step, or None when these are not its moves."""
    kinds = by_type(choices)
    passes = kinds.get("pass", [])
    if "discard_train" in kinds:
        return discard_weakest(game, kinds["discard_train"])
    if "bankrupt" in kinds and not kinds.get("buy_train"):
        return Decision(kinds["bankrupt"][0], "no train can be paid for, even selling everything")
    if "run_routes" in kinds:
        return Decision(kinds["run_routes"][0], "run the trains on the best routes")
    if "dividend" in kinds:
        return dividend(game, kinds["dividend"], sense)
    if "buy_train" in kinds or _emergency_sales(game, kinds):
        return buy_train(game, kinds, sense)
    lays = [c for c in kinds.get("lay_tile", []) if _own_move(game, c)]
    if lays:
        return lay_track(game, lays, passes, sense)
    tokens = [c for c in kinds.get("place_token", []) if _own_move(game, c)]
    if tokens:
        return place_token(game, tokens, passes, sense)
    if "buy_company" in kinds and _own_move(game, kinds["buy_company"][0]):
        decision = buy_private(game, player, kinds["buy_company"], passes)
        if decision is not None:
            return decision
    if passes and not _in_stock_round(game):
        return Decision(passes[0], "nothing worth doing in this step")
    return None


def _own_move(game: EighteenGame, choice: Choice) -> bool:
    """A company's own move, not a private's special power (those are left unused)."""
    return isinstance(entity_of(game, choice), Corporation)


def _emergency_sales(game: EighteenGame, kinds: dict[str, list[Choice]]) -> bool:
    """A president's sales in a train step: raising money for a compulsory train."""
    sales = kinds.get("sell_shares", [])
    return bool(sales) and not ("par" in kinds or "buy_shares" in kinds or _in_stock_round(game))


def _in_stock_round(game: EighteenGame) -> bool:
    return isinstance(game.round, StockRound)


# -- track and tokens --------------------------------------------------------------------------
def _judge(game: EighteenGame, corp: Corporation) -> tuple[float, float, float, float]:
    """(run, reach, prospects, cash) of the company now: what a lay or token is judged by."""
    return revenue(game, corp), network_value(game, corp), prospects(game, corp), corp.cash


def _gain(before: tuple[float, ...], after: tuple[float, ...], plenty: bool) -> float:
    """What a change is worth: its run several times over, its reach and prospects a little,
    less what it costs (counted lightly while the treasury has more than its trains need)."""
    run, reach, ahead, cash = (a - b for a, b in zip(after, before))
    spent = cash * (SPARE_CASH_WEIGHT if plenty else 1.0)
    return RUNS_AHEAD * run + REACH_WEIGHT * reach + PROSPECT_WEIGHT * ahead + spent


def _plenty(game: EighteenGame, corp: Corporation) -> bool:
    return corp.cash >= 2 * max(train_reserve(game, corp), cheapest_train(game))


def lay_track(
    game: EighteenGame, lays: list[Choice], passes: list[Choice], sense: Sense
) -> Decision:
    """The lay that raises the run (then the network's reach and prospects) most, net of
    terrain costs; no lay when none gains. Lays are tried in the order they are likely to
    matter (stops the trains run through, other stops, new track, then upgrades of plain
    track), at most `sense.lays_tried`; the run is worked out (the route finder is the costly
    part) only where a lay can change it (a hex with stops, or new stops reached), at most
    `sense.routes_judged` times."""
    corp = corporation_of(game, lays[0])
    assert corp is not None
    before = _judge(game, corp)
    plenty = _plenty(game, corp)
    on_route = _route_hexes(game, corp)
    budget = sense.routes_judged if corp.trains else 0
    scored: list[tuple[float, Choice]] = []
    ordered = sorted(lays, key=lambda c: _lay_order(game, on_route, c.action["hex"]))
    tried = ordered[: _tries(game, corp, sense.lays_tried, bool(passes))]
    for choice in tried:

        def look(_g: object, _a: object) -> tuple[float, float, float, float]:
            nonlocal budget
            reach, ahead, cash = network_value(game, corp), prospects(game, corp), corp.cash
            run = before[0]
            if budget > 0 and (reach != before[1] or _has_stops(game, choice.action["hex"])):
                budget -= 1
                run = revenue(game, corp)
            return run, reach, ahead, cash

        scored.append((_gain(before, game.try_out(choice.action, None, look), plenty), choice))
    scored.sort(key=lambda s: -s[0])  # stable: of equal gains the first tried
    if scored and (scored[0][0] > 0 or not passes):
        (gain, best), rest = scored[0], scored[1:]
        others = [
            Decision(c, f"{c.label}: the run or the network gains less ({g:.0f})")
            for g, c in rest
            if g > 0
        ]
        return Decision(
            best, f"{best.label}: the run or the network gains most ({gain:.0f})", tuple(others)
        )
    if not tried:
        return Decision(passes[0], f"{corp.sym}'s network is too dense to judge a lay in time")
    return Decision(passes[0], f"no lay helps {corp.sym}'s run or reach")


def _tries(game: EighteenGame, corp: Corporation, wanted: int, may_pass: bool) -> int:
    """How many moves to try on the game, within REACH_WORK_PER_DECISION (at least one when
    the company may not pass)."""
    work = game.board.reach(corp.sym).work
    return max(min(wanted, REACH_WORK_PER_DECISION // max(work, 1)), 0 if may_pass else 1)


def _route_hexes(game: EighteenGame, corp: Corporation) -> set[str]:
    """The hexes the company's best run passes now."""
    if not corp.trains:
        return set()
    return {
        step.split()[0]
        for route in game.best_routes(corp)[1]
        for connection in route.get("connections", [])
        for step in connection
    }


def _has_stops(game: EighteenGame, hex_id: str) -> bool:
    tile, _ = game.board.tile_def_on(hex_id)
    return bool(tile.nodes)


def _lay_order(game: EighteenGame, on_route: set[str], hex_id: str) -> tuple[bool, bool, bool]:
    stops = _has_stops(game, hex_id)
    fresh = game.board.tile_def_on(hex_id)[0].color == "white"
    return (not (stops and hex_id in on_route), not stops, not fresh)


def place_token(
    game: EighteenGame, tokens: list[Choice], passes: list[Choice], sense: Sense
) -> Decision:
    """The station that raises the run most, if it is worth its cost and leaves the money for
    the next compulsory train; a home station (no pass) goes where it earns most. Every
    station is judged by the reach and prospects it gives; the run is worked out (the route
    finder) only for the `sense.routes_judged` best of them by that."""
    corp = corporation_of(game, tokens[0])
    assert corp is not None
    before = _judge(game, corp)
    plenty = _plenty(game, corp)

    def cheap(_g: object, _a: object) -> tuple[float, float, float, float]:
        return before[0], network_value(game, corp), prospects(game, corp), corp.cash

    tried = tokens[: _tries(game, corp, len(tokens), bool(passes))]
    rough = [(_gain(before, game.try_out(c.action, None, cheap), plenty), c) for c in tried]
    if not rough:
        return Decision(passes[0], f"{corp.sym}'s network is too dense to judge a station in time")
    rough.sort(key=lambda s: -s[0])
    scored = [
        (_gain(before, game.try_out(c.action, None, lambda _g, _a: _judge(game, corp)), plenty), c)
        for _, c in rough[: sense.routes_judged]
    ] + rough[sense.routes_judged :]
    scored.sort(key=lambda s: -s[0])  # stable: of equal gains the first judged
    if not passes:
        return ranked(
            [Decision(scored[0][1], "the station must go somewhere: where it earns most")]
            + [Decision(c, "the station must go somewhere: next best") for _, c in scored[1:]]
        )

    def affordable(choice: Choice) -> bool:
        cost = before[2] - game.try_out(choice.action, None, lambda _g, _a: corp.cash)
        return corp.cash - cost >= train_reserve(game, corp)

    worth_it = [
        Decision(c, f"the station raises {corp.sym}'s run for its cost")
        for gain, c in scored
        if gain > 0 and affordable(c)
    ]
    if worth_it and worth_it[0].choice is scored[0][1]:
        return ranked(worth_it)
    return Decision(passes[0], f"no station is worth its cost to {corp.sym} now")


# -- run and dividend --------------------------------------------------------------------------
def dividend(game: EighteenGame, choices: list[Choice], sense: Sense) -> Decision:
    """Pay out, unless the treasury must save for the train the company will have to buy (its
    trains rust soon, or it has none) and the end of the game is not near."""
    corp = corporation_of(game, choices[0])
    assert corp is not None
    pay = next(c for c in choices if c.action["kind"] == "payout")
    keep = next((c for c in choices if c.action["kind"] == "withhold"), pay)
    reserve = train_reserve(game, corp)
    if sense.bank_left(game) < BANK_NEARLY_BROKEN:
        return Decision(pay, "the bank is nearly broken: money in the treasury scores nothing")
    target = saving_for(game, corp)
    if corp.cash < reserve and target in sense.held_back:
        return Decision(pay, f"saving would only buy the {target}, which we do not bring on")
    if corp.cash < reserve:
        return Decision(
            keep, f"{corp.sym} must save for its next train ({game.money(reserve)} needed)"
        )
    return Decision(pay, f"{corp.sym} owns a lasting train or the money for one: pay out")


# -- trains ------------------------------------------------------------------------------------
def buy_train(game: EighteenGame, kinds: dict[str, list[Choice]], sense: Sense) -> Decision:
    """A compulsory train, or a voluntary one (see each)."""
    trains = kinds.get("buy_train", [])
    sales = kinds.get("sell_shares", [])
    passes = kinds.get("pass", [])
    corp = corporation_of(game, trains[0]) if trains else _operating(game)
    assert corp is not None
    if game.must_buy_train(corp):
        return compulsory_train(game, corp, trains, sales, sense)
    return voluntary_train(game, corp, trains, passes, sense)


def _operating(game: EighteenGame) -> Corporation | None:
    entity = game.round.active_entities()[0] if game.round.active_entities() else None
    return entity if isinstance(entity, Corporation) else None


def compulsory_train(
    game: EighteenGame,
    corp: Corporation,
    trains: list[Choice],
    sales: list[Choice],
    sense: Sense,
) -> Decision:
    """A company without a train must buy one: the best lasting train its treasury pays for,
    else the cheapest lasting one from the bank with its president's help, else the best it
    pays for, else the cheapest; else the president sells what hurts least. A train held back
    is bought only when nothing else is left; where presidents pay for trains, not one that
    leaves a sister company of ours without a train (that only moves the problem)."""
    usable = [c for c in trains if _name(game, c) not in sense.held_back] or trains
    if sense.presidents_pay:  # a sister stripped of its train would call on its president
        usable = [c for c in usable if not _strips_a_sister(game, corp, c)] or usable
    own = [c for c in usable if c.action["price"] <= corp.cash]
    lasting = [c for c in own if not _rusts_at_once(game, c)]
    if lasting:
        best = max(lasting, key=lambda c: _train_value(game, c))
        return Decision(best, f"{corp.sym} must own a train: the best lasting one it can pay for")
    helped = [c for c in usable if _from_bank(game, c) and not _rusts_at_once(game, c)]
    if helped:
        cheapest = min(helped, key=lambda c: c.action["price"])
        return Decision(
            cheapest, f"{corp.sym} must own a train: a lasting one, its president adding the rest"
        )
    if own:
        best = max(own, key=lambda c: _train_value(game, c))
        return Decision(best, f"{corp.sym} must own a train: the best it can pay for")
    if usable:
        cheapest = min(usable, key=lambda c: c.action["price"])
        return Decision(cheapest, f"{corp.sym} must own a train; its president pays the rest")
    if sales:
        return emergency_sale(game, corp, sales)
    raise ValueError(f"{corp.sym} must buy a train and nothing is offered")


def _strips_a_sister(game: EighteenGame, corp: Corporation, choice: Choice) -> bool:
    """Buying another company's train leaves that company (ours: deals are left out) with none."""
    seller = game.train(choice.action["train"]).owner
    return isinstance(seller, Corporation) and len(seller.trains) <= 1


def _rusts_ours(game: EighteenGame, corp: Corporation, choice: Choice) -> bool:
    """The train would be the first of its type and rust the trains of a company of our
    president's that could not pay for another (this company's own trains count too)."""
    name = _name(game, choice)
    for sister in game.corporations:
        if sister.closed or sister.owner is not corp.owner or sister.owner is None:
            continue
        left = [t for t in sister.trains if t.rusts_on != name]
        if sister is corp:
            continue  # it is buying a train now
        if len(left) < len(sister.trains) and not left and sister.cash < later_train_price(game):
            return True
    return False


def voluntary_train(
    game: EighteenGame,
    corp: Corporation,
    trains: list[Choice],
    passes: list[Choice],
    sense: Sense,
) -> Decision:
    """Keep a stud of trains: the best affordable train while the company has fewer than it
    wants (or none that outlasts the next rust), more only when one earns its price back in a
    few runs. Trains bought move the game on, as the rusts they bring; never by choice one whose
    rust would strand a company of ours that cannot buy another."""
    bank = [
        c
        for c in trains
        if _from_bank(game, c)
        and c.action["price"] <= corp.cash
        and _name(game, c) not in sense.held_back
        and not _rusts_ours(game, corp, c)
    ]
    if not passes:
        return Decision(max(trains, key=lambda c: _train_value(game, c)), "a train must be bought")
    if not bank:
        return Decision(passes[0], "no train from the bank within the treasury's means")
    best = max(bank, key=lambda c: _train_value(game, c))
    if not lasting_trains(game, corp) and not _rusts_at_once(game, best):
        return Decision(best, f"{corp.sym} needs a train that outlasts the next rust")
    if len(corp.trains) < sense.trains_wanted:
        return Decision(best, f"{corp.sym} runs {sense.trains_wanted} trains")
    if _trains_stalled(game):
        return Decision(best, f"no train was bought for {STALL_MOVES} moves: the game must move on")
    before = revenue(game, corp)
    gain = game.try_out(best.action, None, lambda _g, _a: revenue(game, corp)) - before
    if gain * TRAIN_PAYBACK_RUNS >= best.action["price"]:
        return Decision(best, f"the train adds {game.money(gain)} a run: it pays for itself")
    return Decision(passes[0], f"{corp.sym}'s trains suffice for now")


def _trains_stalled(game: EighteenGame) -> bool:
    """No train bought in the last STALL_MOVES moves: the phases, and the game, stand still."""
    recent = game.actions[-STALL_MOVES:]
    return len(recent) == STALL_MOVES and not any(a.get("type") == "buy_train" for a in recent)


def _name(game: EighteenGame, choice: Choice) -> str:
    return game.train(choice.action["train"]).name


def _from_bank(game: EighteenGame, choice: Choice) -> bool:
    return not isinstance(game.train(choice.action["train"]).owner, Corporation)


def _rusts_at_once(game: EighteenGame, choice: Choice) -> bool:
    return doomed(game, game.train(choice.action["train"]))


def _train_value(game: EighteenGame, choice: Choice) -> tuple[bool, int, int]:
    """Lasting first, then longer, then cheaper."""
    train = game.train(choice.action["train"])
    return (not doomed(game, train), distance_of(train), -choice.action["price"])


def discard_weakest(game: EighteenGame, choices: list[Choice]) -> Decision:
    weakest = min(choices, key=lambda c: (distance_of(game.train(c.action["train"])), c.label))
    return Decision(weakest, "over the train limit: the shortest train goes")


def emergency_sale(game: EighteenGame, corp: Corporation, sales: list[Choice]) -> Decision:
    """Sell for a compulsory train: shares of companies the president does not run first, the
    biggest bundle the rules allow (the engine refuses selling more than needed)."""

    def hurt(choice: Choice) -> tuple[bool, int]:
        sold, _ = share_choice(game, choice)
        return (sold.owner is corp.owner, -choice.action.get("percent", 0))

    best = min(sales, key=hurt)
    return Decision(best, f"raising money for {corp.sym}'s compulsory train")


# -- privates ----------------------------------------------------------------------------------
def buy_private(
    game: EighteenGame, player: PlayerId, choices: list[Choice], passes: list[Choice]
) -> Decision | None:
    """The company buys its president's private at the highest price while the treasury keeps
    what the next train needs: the money moves to the president, the private keeps paying."""
    corp = corporation_of(game, choices[0])
    assert corp is not None
    keep = max(train_reserve(game, corp), cheapest_train(game))
    mine = [
        c
        for c in choices
        if _owner_id(game, c.action["company"]) == player and corp.cash - c.action["price"] >= keep
    ]
    if mine:
        best = max(mine, key=lambda c: c.action["price"])
        return Decision(
            best, f"{corp.sym} has money to spare: it buys your private at the top price"
        )
    if passes:
        return Decision(passes[0], f"{corp.sym} keeps its money")
    return None


def _owner_id(game: EighteenGame, company: str) -> PlayerId | None:
    owner = game.company(company).owner
    return owner.id if isinstance(owner, Player) else None
