"""The compact stock market for a phone: one row per company in the market, its marker and the
stretch of the market around its price (the cells it moves to next), current prices lined up
in one column; highest price first, as companies operate.

Drawn `WIDTH` px wide with no text under 17 px, which a phone showing it 400 px wide sets at
over 10 px; the whole market at that width would set its prices about 3 px high.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from render import palette as pal
from render.board import Board, board_for
from render.fonts import text_width
from render.market import Cell, MarketLayout, markers, market_layout, not_started, pill
from render.snapshot import header_line, need, reading
from render.svg import Svg, finish

WIDTH = 640
MARGIN = 14
SPAN = 3  # cells shown on each side of the current one
CELL_W, CELL_H = 64, 40
ROW_GAP = 8
PILL_W = 84
TITLE_SIZE = 21
TEXT_SIZE = 17
PRICE_SIZE = 18


def _ladder(lay: MarketLayout, key: tuple[int, int]) -> list[Cell | None]:
    """The cells from SPAN before to SPAN after `key` along its row (a one-track market is one
    row), None where the market has no cell."""
    row, col = key
    return [lay.cells.get((row, col + d)) for d in range(-SPAN, SPAN + 1)]


def _rows(snapshot: Mapping[str, Any], board: Board) -> list[tuple[str, tuple[int, int]]]:
    """(company, cell) for every company in the market, as the market orders them: higher
    price first, then further right, then higher up, then first in its cell's stack."""
    lay = market_layout(board)
    placed = [
        (sym, key, depth)
        for key, syms in markers(snapshot, lay, board.title).items()
        for depth, sym in enumerate(syms)
    ]
    placed.sort(key=lambda p: (-lay.cells[p[1]].price, -p[1][1], p[1][0], p[2]))
    return [(sym, key) for sym, key, _ in placed]


def _lines(svg: Svg, snapshot: Mapping[str, Any], y: float) -> float:
    """The header (position and bank, then who acts) in as many lines as it takes to keep
    its size; returns the y below it."""
    left, right = header_line(snapshot)
    room = WIDTH - 2 * MARGIN
    for text, size, bold, sep in ((left, TITLE_SIZE, True, " · "), (right, TEXT_SIZE, False, ", ")):
        for line in _split(text, sep, size, bold, room):
            y += size * 1.3
            svg.text(MARGIN, y, line, size, pal.INK, bold=bold, anchor="start", fit=room)
    return y + 10


def _split(text: str, sep: str, size: float, bold: bool, room: float) -> list[str]:
    """The `sep`-separated parts of the text, as many to a line as fit `room`."""
    lines: list[str] = []
    for part in text.split(sep) if text else []:
        if lines and text_width(f"{lines[-1]}{sep}{part}", size, bold) <= room:
            lines[-1] = f"{lines[-1]}{sep}{part}"
        else:
            lines.append(part)
    return lines


def _overlay(board: Board, snapshot: Mapping[str, Any]) -> Svg:
    lay = market_layout(board)
    rows = _rows(snapshot, board)
    order = list(board.corporations)
    waiting = not_started(snapshot)
    svg = Svg(WIDTH, 0)
    y = _lines(svg, snapshot, 4)
    ladder_x = WIDTH - MARGIN - (2 * SPAN + 1) * CELL_W
    for sym, key in rows:
        fill = pal.company_colour(board.title, sym, order)
        pill(svg, MARGIN, y + (CELL_H - 28) / 2, PILL_W, 28, sym, fill)
        for i, cell in enumerate(_ladder(lay, key)):
            if cell is None:
                continue
            x = ladder_x + i * CELL_W
            now = i == SPAN
            svg.rect(
                x + 1,
                y,
                CELL_W - 2,
                CELL_H,
                pal.zone_colour(cell.zone),
                pal.INK if now else pal.HEX_EDGE,
                3.0 if now else 1.0,
            )
            svg.text(
                x + CELL_W / 2,
                y + CELL_H / 2 + PRICE_SIZE * 0.36,
                str(cell.price),
                PRICE_SIZE * (1.15 if now else 1.0),
                pal.INK,
                bold=now,
            )
        y += CELL_H + ROW_GAP
    if not rows:
        y += TEXT_SIZE
        svg.text(
            MARGIN, y, "No company has a share price yet.", TEXT_SIZE, pal.MUTED, anchor="start"
        )
        y += ROW_GAP
    text = "Not yet started: " + ", ".join(waiting) if waiting else ""
    for line in _split(text, ", ", TEXT_SIZE, False, WIDTH - 2 * MARGIN):
        y += TEXT_SIZE * 1.3
        svg.text(MARGIN, y, line, TEXT_SIZE, pal.MUTED, anchor="start", fit=WIDTH - 2 * MARGIN)
    svg.height = round(y + MARGIN)
    return svg


def render_market_compact(snapshot: Mapping[str, Any], options: Collection[str] = ()) -> bytes:
    """PNG of each company's place in the stock market, for a phone."""
    with reading("stock market"):
        board = board_for(str(need(snapshot, "title", str)), options)
        svg = _overlay(board, snapshot)
        svg.parts.insert(0, f'<rect width="{WIDTH}" height="{svg.height}" fill="{pal.PAGE}"/>')
        return finish(svg, keep=True)
