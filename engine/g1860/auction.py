"""1860's opening: six auctions for the right to take one item (a private or the C&N/IOW
director's certificate). The winner pays the bid as a premium, then buys an item at its price."""

from __future__ import annotations

from typing import Any

from engine.eighteen import shares as sh
from engine.eighteen.entities import Company, Corporation, Player, spend
from engine.eighteen.rounds import Round, Step
from engine.errors import IllegalAction, InvalidAction
from engine.g1860.host import Game1860Host

MIN_RAISE = 5


class BuyCert(Step):
    description = "Bid for the next pick, or buy/par your pick"
    game: Game1860Host

    def setup(self) -> None:
        game = self.game
        privates = sorted(
            (c for c in game.companies if c.sym in game.EXCHANGE), key=lambda c: (c.value, c.sym)
        )
        self.items: list[Company | Corporation] = [
            *privates,
            *(c for c in game.corporations if game.layer(c) == 1),
        ]
        # Bids by player; before anyone bids, negative placeholders keep the turn order.
        self.bids: dict[Player, int] = {}
        self.first_player: Player | None = None
        self.setup_auction()

    # -- queries -------------------------------------------------------------------------------
    def active(self) -> bool:
        return bool(self.items)

    def in_auction(self) -> bool:
        return bool(self.bids)

    def active_entities(self) -> list[Any]:
        if self.in_auction():
            return [min(self.bids, key=lambda p: self.bids[p])]
        return super().active_entities()

    def actions(self, entity: Any) -> list[str]:
        if not self.items or entity is not self.current_entity():
            return []
        if not self.in_auction():
            return ["bid", "par"]
        if self.min_player_bid() + self.cheapest_price() <= entity.cash:
            return ["bid", "pass"]
        return ["pass"]

    def item_price(self, item: Company | Corporation) -> int:
        if isinstance(item, Company):
            return item.value
        return min(p.price for p in self.game.par_prices(item)) * 2

    def cheapest(self) -> Company | Corporation:
        return min(self.items, key=self.item_price)

    def cheapest_price(self) -> int:
        return self.item_price(self.cheapest())

    def highest_bid(self) -> int:
        top = max(self.bids.values(), default=0)
        return top if top > 0 else 0

    def min_player_bid(self) -> int:
        return self.highest_bid() + MIN_RAISE

    def max_player_bid(self, player: Player) -> int:
        return player.cash - self.cheapest_price()

    def affordable(self, player: Player, item: Company | Corporation) -> bool:
        cheapest = self.cheapest()
        if item is cheapest or (
            isinstance(item, Corporation) and isinstance(cheapest, Corporation)
        ):
            return True
        return player.cash >= self.item_price(item)

    def choices(self, player: Player, action_type: str) -> list[tuple[str, dict[str, Any]]] | None:
        """A bid (at the minimum unless a price is typed), or the items the winner may take."""
        if action_type == "bid" and self.in_auction():
            low, high = self.min_player_bid(), self.max_player_bid(player)
            # one choice: the minimum; a higher bid is the same move with a price typed
            return (
                [
                    (
                        f"Bid for the pick: £{low} to {self.game.money(high)} (the right to take the next item)",
                        {"price": low},
                    )
                ]
                if low <= high
                else []
            )
        if action_type == "bid":
            return [
                (
                    f"Take {c.sym} ({c.name}) for £{min(c.value, player.cash)}",
                    {"company": c.sym, "price": c.value},
                )
                for c in self.items
                if isinstance(c, Company) and self.affordable(player, c)
            ]
        if action_type == "par":
            out = []
            for corp in (i for i in self.items if isinstance(i, Corporation)):
                cells = self.game.par_prices(corp)
                affordable = [c for c in cells if c.price * 2 <= player.cash]
                if not affordable and isinstance(self.cheapest(), Corporation):
                    affordable = [min(cells, key=lambda c: c.price)]
                out += [
                    (
                        f"Take the {corp.sym} director's certificate at par £{c.price}",
                        {"corporation": corp.sym, "share_price": c.id},
                    )
                    for c in affordable
                ]
            return out
        return None

    # -- processing ----------------------------------------------------------------------------
    def setup_auction(self) -> None:
        self.bids = {}
        players = self.round.entities
        start = self.round.entity_index
        self.first_player = players[start]
        size = len(players)
        for i, p in enumerate(players):
            self.bids[p] = -size + ((i - start) % size)

    def process_pass(self, action: dict[str, Any], player: Player) -> None:
        if not self.in_auction():
            raise IllegalAction(
                f"{player.name} won the auction and must buy a private or par a corporation"
            )
        del self.bids[player]
        self.resolve()

    def process_bid(self, action: dict[str, Any], player: Player) -> None:
        price = action.get("price")
        if not isinstance(price, int) or isinstance(price, bool):
            raise InvalidAction("a bid needs a whole-pound 'price'")
        if not self.in_auction():
            company = self.game.company(action.get("company"))
            if company not in self.items:
                raise IllegalAction(f"{company.name} is not one of the items left to take")
            if not self.affordable(player, company):
                raise IllegalAction(
                    f"{player.name} cannot afford {company.name} (£{company.value})"
                )
            self.buy_company(player, company, price)
            return
        if price > self.max_player_bid(player):
            raise IllegalAction(
                f"{player.name} can bid at most {self.game.money(self.max_player_bid(player))} (cash less "
                f"£{self.cheapest_price()} for the cheapest item)"
            )
        if price < self.min_player_bid():
            raise IllegalAction(f"the bid must be at least £{self.min_player_bid()}")
        self.bids[player] = price
        self.resolve()

    def process_par(self, action: dict[str, Any], player: Player) -> None:
        if self.in_auction():
            raise IllegalAction("the auction for this pick is still running")
        corp = self.game.corporation(action.get("corporation"))
        if corp not in self.items:
            raise IllegalAction(f"{corp.sym}'s director's certificate is not one of the items left")
        cell = self.game.legal_par(corp, action.get("share_price"))
        cheapest_is_corp = isinstance(self.cheapest(), Corporation)
        if cell.price * 2 > player.cash and not (
            cheapest_is_corp and cell is min(self.game.par_prices(corp), key=lambda p: p.price)
        ):
            raise IllegalAction(
                f"{player.name} has {self.game.money(player.cash)}; par £{cell.price} costs £{cell.price * 2}"
            )
        self.game.market.set_par(corp, cell)
        share = corp.all_shares[0]
        if player.cash >= cell.price * 2:
            sh.buy(self.game, player, [share])
        else:  # the forced winner of an auction with no bids: all their cash, discounted
            corp.ipoed = True
            sh.transfer(
                self.game,
                [share],
                share.percent,
                player,
                spender=player,
                receiver=self.game.bank,
                price=player.cash,
            )
        self.items.remove(corp)
        self.next_pick()

    def resolve(self) -> None:
        if len(self.bids) > 1:
            return
        if len(self.bids) == 1 and max(self.bids.values()) < 0:
            return
        player: Player | None
        if self.bids:
            ((player, price),) = self.bids.items()
            spend(player, self.game.bank, price)
        else:
            player, price = self.first_player, 0
        assert player is not None
        self.game.note(f"{player.name} wins the pick for £{price}.")
        self.bids = {}
        self.round.entity_index = self.round.entities.index(player)

    def buy_company(self, player: Player, company: Company, listed: int) -> None:
        if listed < company.value and listed < player.cash:
            raise IllegalAction(f"{company.name} costs £{company.value}")
        price = min(company.value, player.cash)
        company.owner = player
        player.companies.append(company)
        spend(player, self.game.bank, price)
        self.game.note(f"{player.name} buys {company.sym} for {self.game.money(price)}.")
        self.items.remove(company)
        self.next_pick()

    def next_pick(self) -> None:
        self.round.next_entity_index()
        if self.items:
            self.setup_auction()


class Auction1860(Round):
    name = "Auction Round"
    kind = "auction"

    def select_entities(self) -> list[Any]:
        return list(self.game.player_list)
