"""What an 18xx player reads off the table before a move, shared by 1830 and 1860: who acts,
what a company earns and needs, which trains are about to rust, what shares are worth. Only
public facts (every 18xx game here is open information); nothing is changed."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.eighteen.entities import Company, Corporation, Player
from engine.eighteen.game import EighteenGame
from engine.eighteen.trains import Train
from engine.game import Choice, PlayerId

PROSPECT_HEXES = 4  # how far ahead of its track a company looks for stops to reach
PROSPECT_DECAY = 0.7  # what a stop one hex further away is worth, as a share
RUST_HORIZON = 3  # train types (the one on sale included) a company looks ahead for rusts


def me(game: EighteenGame, player: PlayerId) -> Player:
    return game.player(player)


def by_type(choices: Iterable[Choice]) -> dict[str, list[Choice]]:
    out: dict[str, list[Choice]] = {}
    for c in choices:
        out.setdefault(c.action["type"], []).append(c)
    return out


def entity_of(game: EighteenGame, choice: Choice) -> Player | Corporation | Company:
    return game.resolve_entity(choice.action)


def corporation_of(game: EighteenGame, choice: Choice) -> Corporation | None:
    """The company a move acts for (a private's move: the company owning it), if any."""
    entity = entity_of(game, choice)
    if isinstance(entity, Corporation):
        return entity
    if isinstance(entity, Company) and isinstance(entity.owner, Corporation):
        return entity.owner
    return None


def presided(game: EighteenGame, player: Player) -> list[Corporation]:
    return [c for c in game.corporations if c.owner is player and not c.closed]


# -- trains ------------------------------------------------------------------------------------
def upcoming_names(game: EighteenGame) -> list[str]:
    """The train types still to come from the bank, in the order they are sold."""
    names: list[str] = []
    for t in game.depot.upcoming:
        if t.name not in names:
            names.append(t.name)
    return names


def doomed(game: EighteenGame, train: Train) -> bool:
    """A train that rusts when the type now on sale or one of the next two is first bought:
    soon enough that its company should save for another."""
    return train.rusts_on is not None and train.rusts_on in upcoming_names(game)[:RUST_HORIZON]


def lasting_trains(game: EighteenGame, corp: Corporation) -> list[Train]:
    return [t for t in corp.trains if not doomed(game, t)]


def cheapest_train(game: EighteenGame) -> int:
    return game.depot.min_price(game.phases)


def _next_train(game: EighteenGame, corp: Corporation) -> Train | None:
    """The train a company should save for: none while it owns a train that outlasts the next
    rust; the cheapest for sale when it owns none; else the cheapest of the type after the one
    on sale (its trains rust with the types to come, and it will need one of those)."""
    if lasting_trains(game, corp):
        return None
    for_sale = game.depot.available(game.phases)
    if not corp.trains:
        return min(for_sale, key=lambda t: t.price, default=None)
    names = upcoming_names(game)
    later = [t for t in game.depot.upcoming if t.name in names[1:2]]
    return min(later or for_sale, key=lambda t: t.price, default=None)


def later_train_price(game: EighteenGame, types: int = 1) -> int:
    """The dearest of the next `types` train types after the one on sale (each at its
    cheapest): what a company will have to buy before long."""
    names = upcoming_names(game)
    prices = [
        min(t.price for t in game.depot.upcoming if t.name == name) for name in names[1 : 1 + types]
    ]
    return max(prices, default=cheapest_train(game))


def train_reserve(game: EighteenGame, corp: Corporation) -> int:
    """Cash a company should keep for its next compulsory train (see `_next_train`)."""
    train = _next_train(game, corp)
    return train.price if train is not None else 0


def saving_for(game: EighteenGame, corp: Corporation) -> str | None:
    """The name of the train a company saves for, if any."""
    train = _next_train(game, corp)
    return train.name if train is not None else None


def distance_of(train: Train) -> int:
    """A train's reach in stops, for comparing trains (a diesel counts as very long)."""
    d = train.distance
    if d is None:
        return 99
    if isinstance(d, tuple):
        return d[0] + d[1]
    return int(d)


# -- routes ------------------------------------------------------------------------------------
def revenue(game: EighteenGame, corp: Corporation) -> int:
    """The exact best run of the company's own trains now (0 without trains)."""
    if not corp.trains and not getattr(game, "insolvent", lambda c: False)(corp):
        return 0
    return game.best_routes(corp)[0]


def network_value(game: EighteenGame, corp: Corporation) -> int:
    """The revenue of every stop the company's stations reach: how much its track opens up,
    whatever its trains (a trainless company's track is judged by this alone)."""
    network = game.board.network()
    color = game.phases.current.offboard_color
    return sum(network.nodes[n].revenue.value(color) for n in game.board.reach(corp.sym).nodes)


def prospects(game: EighteenGame, corp: Corporation) -> float:
    """The stops the company's track does not reach yet, each worth less the more hexes lie
    between it and the edge of the company's reach (PROSPECT_DECAY per hex, up to
    PROSPECT_HEXES): where track laid now leads."""
    board = game.board
    network = board.network()
    color = game.phases.current.offboard_color
    reach = board.reach(corp.sym)
    reached_hexes = {network.nodes[n].hex for n in reach.nodes}
    distance = {h: 0 for h in reach.edges}
    frontier = list(distance)
    for step in range(1, PROSPECT_HEXES + 1):
        beyond = []
        for hex_id in frontier:
            for n in board.hexes[hex_id].neighbours.values():
                if n not in distance:
                    distance[n] = step
                    beyond.append(n)
        frontier = beyond
    total = 0.0
    for hex_id, steps in distance.items():
        if hex_id in reached_hexes:
            continue
        tile, _ = board.tile_def_on(hex_id)
        worth = sum(node.revenue.value(color) for node in tile.nodes)
        total += worth * PROSPECT_DECAY**steps
    return total


# -- shares ------------------------------------------------------------------------------------
def share_price(corp: Corporation) -> int:
    return corp.share_price.price if corp.share_price else 0


def dividend_yield(corp: Corporation) -> float:
    """Last paid revenue per share over the share price (0 for a company that withheld)."""
    price = share_price(corp)
    if not price or corp.last_revenue is None or corp.last_payout != "payout":
        return 0.0
    return corp.last_revenue / 10 / price


def worth(game: EighteenGame, player: Player) -> int:
    return game.player_value(player)


def holding(game: EighteenGame, player: Player, corp: Corporation) -> int:
    return player.percent_of(corp)


def par_of(choice: Choice) -> int:
    """The par price a par move names ("67,0,6" or "67": the price comes first)."""
    return int(str(choice.action["share_price"]).split(",")[0])


def share_choice(game: EighteenGame, choice: Choice) -> tuple[Corporation, Any]:
    """The company and the holder (IPO: the company, the market: the pool) of a share move."""
    sid = choice.action["shares"][0]
    corp = game.corporation(sid.rpartition("_")[0])
    share = corp.all_shares[int(sid.rpartition("_")[2])]
    return corp, share.owner
