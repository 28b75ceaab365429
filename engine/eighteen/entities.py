"""The holders of money and paper in an 18xx game: bank, players, corporations, privates, shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.eighteen.pieces import SharePrice, Train
from engine.errors import IllegalAction


class Holder:
    """Anything that can own shares (players, corporations' IPO, the pool)."""

    name: str

    def __init__(self) -> None:
        self.shares: list[Share] = []
        self.percents: dict[Corporation, int] = {}  # kept by `take`/`give`: asked at every step

    def take(self, share: Share) -> None:
        self.shares.append(share)
        self.percents[share.corp] = self.percents.get(share.corp, 0) + share.percent

    def give(self, share: Share) -> None:
        self.shares.remove(share)
        self.percents[share.corp] -= share.percent

    def shares_of(self, corp: Corporation) -> list[Share]:
        return [s for s in self.shares if s.corp is corp]

    def percent_of(self, corp: Corporation) -> int:
        return self.percents.get(corp, 0)


class CashHolder(Holder):
    def __init__(self, cash: int = 0) -> None:
        super().__init__()
        self.cash = cash


class Bank(CashHolder):
    """Pays and receives; may run below zero once broken (1830 keeps paying on paper)."""

    name = "the bank"

    def __init__(self, cash: int) -> None:
        super().__init__(cash)
        self.broken = False


class Pool(Holder):
    name = "the market"


@dataclass(eq=False)
class Share:
    corp: Corporation
    index: int
    percent: int
    president: bool
    owner: Holder
    id: str = field(init=False)  # "NYC_3", fixed: asked for every share at every move

    def __post_init__(self) -> None:
        self.id = f"{self.corp.sym}_{self.index}"

    def __repr__(self) -> str:
        return f"<Share {self.id} {self.percent}% of {self.owner.name}>"


class Player(CashHolder):
    def __init__(self, pid: Any, name: str, cash: int) -> None:
        super().__init__(cash)
        self.id = pid
        self.name = name
        self.companies: list[Company] = []
        self.passed = False
        self.bankrupt = False

    def __repr__(self) -> str:
        return f"<Player {self.id}>"


@dataclass(eq=False)
class Ability:
    """A declarative private-company power, read by the title's rule hooks."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


class Company:
    """A private company."""

    def __init__(
        self,
        sym: str,
        name: str,
        value: int,
        revenue: int,
        abilities: list[Ability],
        description: str = "",
    ) -> None:
        self.sym = sym
        self.id = sym
        self.name = name
        self.value = value
        self.revenue = revenue
        self.abilities = abilities
        self.description = description
        self.owner: Player | Corporation | Bank | None = None  # the bank: 1860's, sold to it
        self.closed = False
        self.discount = 0

    @property
    def min_bid(self) -> int:
        return self.value - self.discount

    def ability(self, type_: str) -> Ability | None:
        if self.closed:
            return None
        return next((a for a in self.abilities if a.type == type_), None)

    def __repr__(self) -> str:
        return f"<Company {self.sym}>"


class Corporation(CashHolder):
    def __init__(
        self,
        sym: str,
        name: str,
        home: str,
        home_city: int | None,
        token_costs: list[int],
        float_percent: int,
        share_percents: list[int],
    ) -> None:
        super().__init__(0)
        self.sym = sym
        self.id = sym
        self.name = name
        self.home = home
        self.home_city = home_city
        self.token_costs = token_costs
        self.tokens_used = 0
        self.float_percent = float_percent
        self.trains: list[Train] = []
        self.companies: list[Company] = []
        self.share_price: SharePrice | None = None
        self.par_price: SharePrice | None = None
        self.ipoed = False
        self.floated = False
        self.closed = False
        self.owner: Player | None = None
        # (turn, round_num, paid out (0 when withheld), the run's revenue) of each operating turn
        self.operating_history: list[tuple[int, int, int, int]] = []
        for i, pct in enumerate(share_percents):
            self.take(Share(self, i, pct, i == 0, self))
        self.all_shares: list[Share] = list(self.shares)
        self.extra_tokens = 0
        self.placed_tokens: list[str] = []  # hex of each station token, in placement order
        self.last_revenue: int | None = None
        self.last_payout: str | None = None

    @property
    def president(self) -> Player | None:
        return self.owner

    @property
    def operated(self) -> bool:
        return bool(self.operating_history)

    @property
    def next_token_cost(self) -> int | None:
        if self.tokens_used >= len(self.token_costs):
            return None
        return self.token_costs[self.tokens_used]

    @property
    def tokens_unused(self) -> int:
        return len(self.token_costs) - self.tokens_used

    @property
    def ipo_shares(self) -> list[Share]:
        return self.shares

    def percent_in_ipo(self) -> int:
        return self.percent_of(self)

    def __repr__(self) -> str:
        return f"<Corporation {self.sym}>"


Entity = Player | Corporation | Company


def owner_id(owner: Any) -> Any:
    """How an owner is named in public state: a player's id, a corporation's symbol."""
    if isinstance(owner, Player):
        return owner.id
    if isinstance(owner, Corporation):
        return owner.sym
    if isinstance(owner, Bank):
        return "bank"
    return owner


def spend(payer: CashHolder, receiver: CashHolder, amount: int) -> None:
    """Move cash. Only the bank may go below zero; doing so breaks it."""
    if amount < 0:
        raise IllegalAction("cannot pay a negative amount")
    if amount == 0:
        return
    if isinstance(payer, Bank):
        if payer.cash - amount < 0:
            payer.broken = True
    elif payer.cash < amount:
        raise IllegalAction(f"{payer.name} has ${payer.cash} and cannot spend ${amount}")
    payer.cash -= amount
    receiver.cash += amount
