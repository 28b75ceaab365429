"""The inert pieces an 18xx game's holders carry: a cell of the stock market that a share price
stands on, and a train card. They know nothing of their holders, so that the holders
(`entities.py`), the market and the depot can all name them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SharePrice:
    """A cell of the market; which markers stand on it is the market's `stacks`."""

    row: int
    col: int
    price: int
    zone: str
    can_par: bool

    @property
    def coordinates(self) -> tuple[int, int]:
        return (self.row, self.col)

    @property
    def id(self) -> str:
        return f"{self.price},{self.row},{self.col}"

    def __repr__(self) -> str:
        return f"<SharePrice {self.id} {self.zone}>"


@dataclass(eq=False)
class Train:
    name: str
    index: int
    distance: int | tuple[int, int] | None  # n, (big, small) for an 1860 a+b, None = diesel
    price: int
    rusts_on: str | None = None
    available_on: str | None = None
    discount: dict[str, int] = field(default_factory=dict)  # traded-in train name -> discount
    events: list[str] = field(default_factory=list)
    unlimited: bool = False
    owner: Any = None  # Depot, a Corporation, or None once rusted
    rusted: bool = False
    operated: bool = False

    @property
    def id(self) -> str:
        return f"{self.name}-{self.index}"

    def price_with_trade_in(self, traded: Train | None) -> int:
        if traded is None:
            return self.price
        return self.price - self.discount.get(traded.name, 0)

    def __repr__(self) -> str:
        return f"<Train {self.id}>"
