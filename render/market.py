"""The stock market image: the price grid in its zone colours with each company's marker, the
markers of one cell stacked in the order the snapshot gives, and the par chart underneath.

The grid without markers is the same all game, so it is rasterised once per title.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image

from render import palette as pal
from render.board import Board, board_for
from render.snapshot import SnapshotError, header_line, money, need, reading
from render.svg import Svg, draw_texts, finish, rasterize

MARGIN = 20
HEADER = 58
GRID_W, GRID_H = 84, 62  # a cell of a 2-D market
ZIGZAG_W, ZIGZAG_H = 52, 60  # a cell of a one-track (zig-zag) market
PAR_H = 96
PILL_H = 19


@dataclass(frozen=True)
class Cell:
    key: tuple[int, int]  # (row, column) as the snapshot's "market" names it
    x: float
    y: float
    w: float
    h: float
    price: int
    zone: str


@dataclass(frozen=True, eq=False)
class MarketLayout:
    cells: dict[tuple[int, int], Cell]
    width: int
    height: int
    par_top: float
    par_values: tuple[int, ...]


@lru_cache(maxsize=8)
def market_layout(board: Board) -> MarketLayout:
    market = board.market
    cells: dict[tuple[int, int], Cell] = {}
    if "grid" in market:
        for r, row in enumerate(market["grid"]):
            for c, cell in enumerate(row):
                if cell:
                    cells[(r, c)] = Cell(
                        (r, c),
                        MARGIN + c * GRID_W,
                        HEADER + r * GRID_H,
                        GRID_W,
                        GRID_H,
                        int(cell["price"]),
                        cell.get("zone", "white"),
                    )
        pars = tuple(sorted({c.price for c in cells.values() if c.zone.startswith("par")}))
    elif "cells" in market:  # one track drawn as two offset rows
        for cell in market["cells"]:
            i = int(cell["index"])
            lower = cell.get("row") == "lower"
            cells[(0, i)] = Cell(
                (0, i),
                MARGIN + i * ZIGZAG_W / 2,
                HEADER + (ZIGZAG_H if lower else 0),
                ZIGZAG_W,
                ZIGZAG_H,
                int(cell["price"]),
                cell.get("type", "plain"),
            )
        pars = tuple(market.get("par_cells", ()))
    else:
        raise SnapshotError(f"{board.title}: stock market data has neither 'grid' nor 'cells'")
    right = max(c.x + c.w for c in cells.values())
    bottom = max(c.y + c.h for c in cells.values())
    par_top = bottom + 18
    return MarketLayout(
        cells, math.ceil(right + MARGIN), math.ceil(par_top + PAR_H + MARGIN), par_top, pars
    )


@lru_cache(maxsize=8)
def _background(board: Board) -> Image.Image:
    lay = market_layout(board)
    svg = Svg(lay.width, lay.height)
    svg.rect(0, 0, lay.width, lay.height, pal.PAGE)
    for cell in lay.cells.values():
        svg.rect(cell.x, cell.y, cell.w, cell.h, pal.zone_colour(cell.zone), pal.HEX_EDGE, 1.0)
        svg.text(cell.x + 5, cell.y + 15, str(cell.price), 13, pal.INK, bold=True, anchor="start")
    svg.text(MARGIN, lay.par_top + 14, "Par", 14, pal.INK, bold=True, anchor="start")
    return draw_texts(rasterize(svg), svg.texts)


def pill(
    svg: Svg, x: float, y: float, w: float, h: float, sym: str, fill: str, ghost: bool = False
) -> None:
    """A company marker: its colour with its abbreviation (colour is never the only cue)."""
    if ghost:
        svg.rect(x, y, w, h, "#FFFFFF", fill, 2.5, rx=h / 2)
        ink = pal.INK
    else:
        svg.rect(x, y, w, h, fill, pal.INK, 1.0, rx=h / 2)
        ink = pal.text_on(fill)
    size = h * 0.7
    svg.text(x + w / 2, y + h / 2 + size * 0.36, sym, size, ink, bold=True, fit=w - 6)


def not_started(snapshot: Mapping[str, Any]) -> list[str]:
    """The companies to list as not yet started: none with a par price or a place in the
    market (whatever else the state says of it), none closed."""
    return [
        sym
        for sym, c in need(snapshot, "corporations", dict).items()
        if not c.get("ipoed")
        and c.get("par") is None
        and c.get("market") is None
        and not c.get("closed")
    ]


def markers(
    snapshot: Mapping[str, Any], lay: MarketLayout, title: str
) -> dict[tuple[int, int], list[str]]:
    """The companies on each market cell, first in the stack first."""
    stacks: dict[tuple[int, int], list[tuple[int, str]]] = {}
    for sym, corp in need(snapshot, "corporations", dict).items():
        where = corp.get("market")
        if where is None or corp.get("closed"):
            continue
        if not (isinstance(where, (list, tuple)) and len(where) == 3):
            raise SnapshotError(
                f"{sym}: market position should be [row, column, stack index], not {where!r}"
            )
        key = (int(where[0]), int(where[1]))
        if key not in lay.cells:
            raise SnapshotError(f"{sym}: market position {key} is not a cell of the {title} market")
        stacks.setdefault(key, []).append((int(where[2]), sym))
    return {k: [s for _, s in sorted(v)] for k, v in stacks.items()}


def _overlay(board: Board, snapshot: Mapping[str, Any]) -> Svg:
    lay = market_layout(board)
    title = board.title
    order = list(board.corporations)
    svg = Svg(lay.width, lay.height)
    svg.header(*header_line(snapshot), MARGIN)

    for key, syms in markers(snapshot, lay, title).items():
        cell = lay.cells[key]
        top = cell.y + 19
        cols = 1 if len(syms) <= 2 else 2
        rows = math.ceil(len(syms) / cols)
        h = min(PILL_H, (cell.y + cell.h - 3 - top) / rows - 1)
        w = (cell.w - 8 - (cols - 1) * 2) / cols
        for i, sym in enumerate(syms):  # first in the stack at the top left
            r, c = divmod(i, cols)
            pill(
                svg,
                cell.x + 4 + c * (w + 2),
                top + r * (h + 1),
                w,
                h,
                sym,
                pal.company_colour(title, sym, order),
            )

    corps = snapshot.get("corporations", {})
    x = MARGIN + 44
    slot_w = (lay.width - MARGIN - x) / max(len(lay.par_values), 1)
    for i, par in enumerate(lay.par_values):
        bx = x + i * slot_w
        svg.rect(
            bx + 2, lay.par_top, slot_w - 4, PAR_H - 30, pal.zone_colour("par"), pal.HEX_EDGE, 1.0
        )
        svg.text(
            bx + 8, lay.par_top + 16, money(title, par), 13, pal.INK, bold=True, anchor="start"
        )
        parred = [
            s
            for s, c in corps.items()
            if c.get("par") == par and c.get("ipoed") and not c.get("closed")
        ]
        pw = min(64.0, (slot_w - 12) / max(len(parred), 1) - 3)
        for j, sym in enumerate(parred):
            pill(
                svg,
                bx + 8 + j * (pw + 3),
                lay.par_top + 24,
                pw,
                PILL_H,
                sym,
                pal.company_colour(title, sym, order),
            )
    waiting = not_started(snapshot)
    if waiting:
        y = lay.par_top + PAR_H - 22
        svg.text(MARGIN, y + 13, "Not yet started:", 13, pal.MUTED, anchor="start")
        for j, sym in enumerate(waiting):
            pill(
                svg,
                MARGIN + 112 + j * 62,
                y,
                58,
                PILL_H,
                sym,
                pal.company_colour(title, sym, order),
                ghost=True,
            )
    return svg


def render_market(snapshot: Mapping[str, Any], options: Collection[str] = ()) -> bytes:
    """PNG of the stock market and par chart for this state."""
    with reading("stock market"):
        board = board_for(str(need(snapshot, "title", str)), options)
        return finish(_overlay(board, snapshot), _background(board))
