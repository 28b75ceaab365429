"""The 2-D stock market: cells with zones, company markers stacked per cell, and movement."""

from __future__ import annotations

from typing import Any

from engine.eighteen.entities import Corporation
from engine.eighteen.pieces import SharePrice

# Zones whose shares do not count toward the certificate limit, and what else they allow.
NO_CERT_LIMIT_ZONES = {"yellow", "orange", "brown"}
ABOVE_60_ZONES = {"orange", "brown"}
MULTIPLE_BUY_ZONES = {"brown"}


class StockMarket:
    # the cells never change: a checkpoint keeps them by reference and saves only the stacks
    CHECKPOINT_SHARED = ("grid", "par_prices", "repar_cells")

    def __init__(self, grid: list[list[dict[str, Any] | None]]) -> None:
        self.stacks: dict[tuple[int, int], list[Corporation]] = {}  # top of the stack first
        self.grid: list[list[SharePrice | None]] = []
        for r, row in enumerate(grid):
            cells: list[SharePrice | None] = []
            for c, cell in enumerate(row):
                if cell is None:
                    cells.append(None)
                    continue
                zone = cell["zone"]
                can_par = zone.startswith("par")
                cells.append(SharePrice(r, c, cell["price"], "white" if can_par else zone, can_par))
            self.grid.append(cells)
        pars = [p for row in self.grid for p in row if p and p.can_par]
        self.par_prices = sorted(pars, key=lambda p: (p.price, p.col, p.row), reverse=True)

    def stack(self, sp: SharePrice) -> list[Corporation]:
        """The markers on a cell, the one that operates first first (read only)."""
        return self.stacks.get(sp.coordinates, [])

    def _place(self, corp: Corporation, sp: SharePrice) -> None:
        self.stacks.setdefault(sp.coordinates, []).append(corp)

    def _lift(self, corp: Corporation, sp: SharePrice) -> None:
        stack = self.stacks.get(sp.coordinates)
        if stack and corp in stack:
            stack.remove(corp)
            if not stack:
                del self.stacks[sp.coordinates]

    def cell(self, row: int, col: int) -> SharePrice | None:
        if row < 0 or col < 0 or row >= len(self.grid) or col >= len(self.grid[row]):
            return None
        return self.grid[row][col]

    def find_par(self, ref: str) -> SharePrice | None:
        """A par cell named like 18xx.games ("90,1,6") or by price alone ("90")."""
        parts = str(ref).split(",")
        try:
            nums = [int(p) for p in parts]
        except ValueError:
            return None
        for p in self.par_prices:
            if nums[0] == p.price and (len(nums) == 1 or (nums[1], nums[2]) == (p.row, p.col)):
                return p
        return None

    # -- movement (two-dimensional rules) --------------------------------------------------------
    def _down(self, r: int, c: int) -> tuple[int, int]:
        return (r + 1, c) if r + 1 < len(self.grid) else (r, c)

    def _up(self, r: int, c: int) -> tuple[int, int]:
        return (r - 1, c) if r - 1 >= 0 else (r, c)

    def _left(self, r: int, c: int) -> tuple[int, int]:
        if c > 0 and self.cell(r, c - 1):
            return (r, c - 1)
        return self._down(r, c)

    def _right(self, r: int, c: int) -> tuple[int, int]:
        if c + 1 >= len(self.grid[r]):
            return self._up(r, c)
        return (r, c + 1)

    def _move(self, corp: Corporation, target: tuple[int, int]) -> None:
        sp = self.cell(*target)
        if sp is None or sp is corp.share_price:
            return
        assert corp.share_price is not None
        self._lift(corp, corp.share_price)
        corp.share_price = sp
        self._place(corp, sp)

    def move_right(self, corp: Corporation) -> None:
        self._move(corp, self._right(*corp.share_price.coordinates))  # type: ignore[union-attr]

    def move_left(self, corp: Corporation) -> None:
        self._move(corp, self._left(*corp.share_price.coordinates))  # type: ignore[union-attr]

    def move_up(self, corp: Corporation) -> None:
        self._move(corp, self._up(*corp.share_price.coordinates))  # type: ignore[union-attr]

    def move_down(self, corp: Corporation) -> None:
        self._move(corp, self._down(*corp.share_price.coordinates))  # type: ignore[union-attr]

    def set_par(self, corp: Corporation, sp: SharePrice) -> None:
        self._place(corp, sp)
        corp.share_price = sp
        corp.par_price = sp

    def remove(self, corp: Corporation) -> None:
        if corp.share_price:
            self._lift(corp, corp.share_price)

    def operating_key(self, corp: Corporation) -> tuple:
        """Operating order: higher price, then further right, then higher row, then top of stack."""
        sp = corp.share_price
        assert sp is not None
        stack = self.stack(sp)
        return (-sp.price, -sp.col, sp.row, stack.index(corp) if corp in stack else 0, corp.name)
