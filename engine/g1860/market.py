"""1860's stock market: one zig-zag track of 55 cells (two offset rows on the board, one row in
data). A share sold steps one cell left; a withhold two cells left (same row); a payout two cells
right per multiple of the share price. Prices stop at 0 and at 340."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.eighteen.market import StockMarket

if TYPE_CHECKING:
    from engine.eighteen.entities import Corporation

# data cell "type" -> zone name used by the market (par cells are marked can_par by the core)
ZONES = {
    "par": "par",
    "close": "close",
    "ignore_one_sale": "ignore_one_sale",
    "repar": "repar",
    "endgame": "endgame",
    "plain": "white",
}


def market_grid(cells: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    return [[{"price": c["price"], "zone": ZONES.get(c["type"], "white")} for c in cells]]


class ZigZagMarket(StockMarket):
    def __init__(self, grid: list[list[dict[str, Any] | None]]) -> None:
        super().__init__(grid)
        self.max_reached = False
        row = self.grid[0]
        self.repar_cells = [c for c in row if c is not None and (c.can_par or c.zone == "repar")]

    @property
    def last(self) -> int:
        return len(self.grid[0]) - 1

    def _left(self, r: int, c: int) -> tuple[int, int]:
        return (r, max(c - 2, 0))

    def _right(self, r: int, c: int) -> tuple[int, int]:
        return (r, min(c + 2, self.last))

    def _down(self, r: int, c: int) -> tuple[int, int]:
        return (r, c - 1 if c > 0 else c)

    def _up(self, r: int, c: int) -> tuple[int, int]:
        return (r, c + 1 if c < self.last else c)

    def _move(self, corp: Corporation, target: tuple[int, int]) -> None:
        super()._move(corp, target)
        if corp.share_price is not None and corp.share_price.zone == "endgame":
            self.max_reached = True

    def to_bottom(self, corp: Corporation) -> None:
        """A floating company's marker goes under the others in its cell (it operates after
        them), as 18xx.games does it: a step down and a step up. At £0, the first cell, the step
        down goes nowhere, so the marker ends a cell higher (£7)."""
        if corp.share_price is not None:
            self.move_down(corp)
            self.move_up(corp)
