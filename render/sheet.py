"""The company sheet: the spreadsheet 18xx players keep beside the board. Who holds what and how
much cash, each company's treasury, price, trains and tokens, the privates, and the train
roster with what rusts next. Everything shown is read from the snapshot."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from render import palette as pal
from render.board import board_for
from render.fonts import text_width
from render.snapshot import display_name, header_line, money, need, player_names, reading
from render.svg import Svg, finish

MARGIN = 20
HEADER = 58
ROW_H = 27
FONT = 15
PAD = 10
WIDTH = 1440
SECTION_GAP = 22


@dataclass
class Cell:
    text: str = ""
    bold: bool = False
    colour: str = pal.INK
    fill: str | None = None
    pill: str | None = None  # draw the text as a company marker in this colour
    strike: bool = False


@dataclass
class Table:
    title: str
    headers: list[Cell]
    rows: list[list[Cell]] = field(default_factory=list)
    align: list[str] = field(default_factory=list)  # "l" or "r" per column
    row_fill: list[str | None] = field(default_factory=list)

    def widths(self) -> list[float]:
        out = []
        for i, h in enumerate(self.headers):
            texts = [h] + [row[i] for row in self.rows]
            out.append(
                max(
                    text_width(c.text, FONT, c.bold or c.pill is not None) + (16 if c.pill else 0)
                    for c in texts
                )
                + 2 * PAD
            )
        return out

    def height(self) -> float:
        return 24 + ROW_H * (len(self.rows) + 1)

    def draw(self, svg: Svg, x: float, y: float, width: float | None = None) -> float:
        widths = self.widths()
        total = sum(widths)
        if width and total < width:  # spread spare room over the columns
            widths = [w + (width - total) / len(widths) for w in widths]
            total = width
        svg.text(x, y + 16, self.title, 16, pal.INK, bold=True, anchor="start")
        top = y + 24
        svg.rect(x, top, total, ROW_H * (len(self.rows) + 1), pal.PANEL, pal.RULE, 1.0)
        svg.rect(x, top, total, ROW_H, "#F0ECE2")
        for r, row in enumerate([self.headers] + self.rows):
            ry = top + r * ROW_H
            fill = self.row_fill[r - 1] if 0 < r <= len(self.row_fill) else None
            if fill:
                svg.rect(x, ry, total, ROW_H, fill)
            if r:
                svg.path(f"M{x:.1f},{ry:.1f}H{x + total:.1f}", pal.RULE, 1.0)
            cx = x
            for i, cell in enumerate(row):
                self._cell(
                    svg, cell, cx, ry, widths[i], self.align[i] if i < len(self.align) else "l"
                )
                cx += widths[i]
        return top + ROW_H * (len(self.rows) + 1)

    @staticmethod
    def _cell(svg: Svg, cell: Cell, x: float, y: float, w: float, align: str) -> None:
        if cell.fill:
            svg.rect(x + 1, y + 1, w - 2, ROW_H - 2, cell.fill)
        if not cell.text:
            return
        base = y + ROW_H / 2 + FONT * 0.36
        if cell.pill:
            pw = text_width(cell.text, FONT - 2, True) + 16
            px = x + PAD if align == "l" else x + w - PAD - pw
            svg.rect(px, y + 4, pw, ROW_H - 8, cell.pill, pal.INK, 1.0, rx=(ROW_H - 8) / 2)
            svg.text(
                px + pw / 2,
                y + ROW_H / 2 + (FONT - 2) * 0.36,
                cell.text,
                FONT - 2,
                pal.text_on(cell.pill),
                bold=True,
            )
            return
        tx = x + PAD if align == "l" else x + w - PAD
        svg.text(
            tx,
            base,
            cell.text,
            FONT,
            cell.colour,
            bold=cell.bold,
            anchor="start" if align == "l" else "end",
        )
        if cell.strike:
            tw = text_width(cell.text, FONT, cell.bold)
            sx = tx if align == "l" else tx - tw
            svg.path(f"M{sx:.1f},{y + ROW_H / 2:.1f}h{tw:.1f}", cell.colour, 1.5)


def _pct(value: int) -> str:
    return f"{value}%" if value else ""


def _players(
    snapshot: Mapping[str, Any], corps: dict[str, Any], colours: dict[str, str], title: str
) -> Table:
    syms = list(corps)
    table = Table(
        "Players",
        [Cell("Player", True), Cell("Cash", True)]
        + [Cell(s, pill=colours[s]) for s in syms]
        + [Cell("Privates", True), Cell("Worth", True)],
        align=["l", "r"] + ["r"] * len(syms) + ["l", "r"],
    )
    for p in need(snapshot, "players", list):
        name = display_name(p)
        muted = bool(p.get("bankrupt"))
        ink = pal.MUTED if muted else pal.INK
        label = (
            name + ("  ◆ priority" if p.get("priority") else "") + ("  (bankrupt)" if muted else "")
        )
        row = [
            Cell(label, bold=bool(p.get("priority")), colour=ink),
            Cell(money(title, p.get("cash")), colour=ink),
        ]
        shares = p.get("shares", {})
        for s in syms:
            pct = int(shares.get(s, 0))
            president = corps[s].get("president") == p.get("id") and pct > 0
            row.append(
                Cell(
                    _pct(pct) + (" P" if president else ""),
                    bold=president,
                    colour=ink,
                    fill=pal.tint(colours[s]) if president else None,
                )
            )
        row.append(Cell(", ".join(p.get("companies", [])), colour=ink))
        row.append(
            Cell(money(title, p.get("value")) if p.get("value") is not None else "", colour=ink)
        )
        table.rows.append(row)
    for label, key in (("IPO", "ipo_pct"), ("Market pool", "pool_pct")):
        table.rows.append(
            [Cell(label, colour=pal.MUTED), Cell("")]
            + [Cell(_pct(int(corps[s].get(key) or 0)), colour=pal.MUTED) for s in syms]
            + [Cell(""), Cell("")]
        )
    return table


def _companies(
    snapshot: Mapping[str, Any], corps: dict[str, Any], colours: dict[str, str], title: str
) -> Table:
    names = player_names(snapshot)
    table = Table(
        "Companies",
        [
            Cell(h, True)
            for h in (
                "",
                "President",
                "Treasury",
                "Price",
                "Par",
                "Trains",
                "Tokens left",
                "IPO",
                "Pool",
                "Last run",
                "Privates",
                "Status",
            )
        ],
        align=["l", "l", "r", "r", "r", "l", "r", "r", "r", "r", "l", "l"],
    )
    for sym, c in corps.items():
        status = (
            "closed"
            if c.get("closed")
            else "operated"
            if c.get("operated")
            else "floated"
            if c.get("floated")
            else "parred"
            if c.get("ipoed")
            else "not started"
        )
        ink = pal.MUTED if c.get("closed") or not c.get("ipoed") else pal.INK
        tokens = c.get("tokens_unused")
        count = c.get("token_count")
        table.rows.append(
            [
                Cell(sym, pill=colours[sym]),
                Cell(
                    names.get(c.get("president"), "") if c.get("president") is not None else "",
                    colour=ink,
                ),
                Cell(money(title, c.get("cash")) if c.get("ipoed") else "", colour=ink),
                Cell(
                    money(title, c.get("price")) if c.get("price") is not None else "",
                    bold=True,
                    colour=ink,
                ),
                Cell(money(title, c.get("par")) if c.get("par") is not None else "", colour=ink),
                Cell(
                    ", ".join(c.get("trains", [])) or ("none" if c.get("floated") else ""),
                    bold=True,
                    colour=ink,
                ),
                Cell(
                    f"{tokens}/{count}"
                    if tokens is not None and count is not None
                    else str(tokens or ""),
                    colour=ink,
                ),
                Cell(_pct(int(c.get("ipo_pct") or 0)), colour=ink),
                Cell(_pct(int(c.get("pool_pct") or 0)), colour=ink),
                Cell(
                    money(title, c.get("last_revenue"))
                    if c.get("last_revenue") is not None
                    else "",
                    colour=ink,
                ),
                Cell(", ".join(c.get("companies", [])), colour=ink),
                Cell(status, colour=pal.MUTED if status in ("closed", "not started") else pal.INK),
            ]
        )
    return table


def _privates(snapshot: Mapping[str, Any], title: str) -> Table:
    names = player_names(snapshot)
    lot = snapshot.get("lot_bids") or []  # an auction for the right to choose an item (1860)
    heading = "Private companies" + (
        "  (bids for the next choice: "
        + ", ".join(
            f"{names.get(b.get('player'), b.get('player'))} {money(title, b.get('price'))}"
            for b in lot
        )
        + ")"
        if lot
        else ""
    )
    table = Table(
        heading,
        [Cell(h, True) for h in ("", "Name", "Value", "Income", "Owner")],
        align=["l", "l", "r", "r", "l"],
    )
    for sym, c in need(snapshot, "companies", dict).items():
        owner = c.get("owner")
        closed = owner == "closed"
        who = "closed" if closed else "unsold" if owner is None else names.get(owner, str(owner))
        offers = (snapshot.get("bids") or {}).get(sym) or []
        if owner is None and offers:  # the auction's open bids, highest first
            who = "bids: " + ", ".join(
                f"{names.get(b.get('player'), b.get('player'))} {money(title, b.get('price'))}"
                for b in offers
            )
        ink = pal.MUTED if closed else pal.INK
        table.rows.append(
            [
                Cell(sym, bold=True, colour=ink, strike=closed),
                Cell(str(c.get("name", "")), colour=ink),
                Cell(money(title, c.get("value")), colour=ink),
                Cell(money(title, c.get("revenue")), colour=ink),
                Cell(who, colour=ink),
            ]
        )
    return table


def _trains(snapshot: Mapping[str, Any], title: str) -> Table:
    table = Table(
        "Trains",
        [Cell(h, True) for h in ("Train", "Price", "Left", "Rusts")],
        align=["l", "r", "r", "l"],
    )
    roster = need(snapshot, "trains", list)
    next_up = next((t["name"] for t in roster if t.get("left")), None)
    for t in roster:
        rusted = bool(t.get("rusted"))
        ink = pal.MUTED if rusted else pal.INK
        rusts = t.get("rusts_on")
        left = t.get("left")
        table.rows.append(
            [
                Cell(
                    str(t.get("name")) + ("  ← next" if t.get("name") == next_up else ""),
                    bold=True,
                    colour=ink,
                    strike=rusted,
                ),
                Cell(money(title, t.get("price")), colour=ink),
                Cell("∞" if left is None else str(left), colour=ink),
                Cell(
                    "rusted"
                    if rusted
                    else f"when the first {rusts} is bought"
                    if rusts
                    else "never",
                    colour=ink,
                ),
            ]
        )
        table.row_fill.append("#FFF6D6" if t.get("name") == next_up else None)
    return table


def _sheet(snapshot: Mapping[str, Any], options: Collection[str]) -> Svg:
    title = str(need(snapshot, "title", str))
    board = board_for(title, options)
    corps = need(snapshot, "corporations", dict)
    order = list(board.corporations)
    colours = {s: pal.company_colour(title, s, order) for s in corps}
    players = _players(snapshot, corps, colours, title)
    companies = _companies(snapshot, corps, colours, title)
    privates = _privates(snapshot, title)
    trains = _trains(snapshot, title)
    bottom = max(privates.height(), trains.height())
    height = int(
        HEADER + players.height() + companies.height() + bottom + 3 * SECTION_GAP + MARGIN + 30
    )
    svg = Svg(WIDTH, height)
    svg.rect(0, 0, WIDTH, height, pal.PAGE)
    svg.header(*header_line(snapshot), MARGIN)
    inner = WIDTH - 2 * MARGIN
    y = players.draw(svg, MARGIN, HEADER, inner) + SECTION_GAP
    y = companies.draw(svg, MARGIN, y, inner) + SECTION_GAP
    tw = sum(trains.widths()) + 60
    privates.draw(svg, MARGIN, y, inner - tw - SECTION_GAP)
    end = trains.draw(svg, WIDTH - MARGIN - tw, y, tw)
    discarded = snapshot.get("discarded") or []
    if discarded:
        svg.text(
            WIDTH - MARGIN,
            end + 24,
            f"Trains in the open market: {', '.join(map(str, discarded))}",
            15,
            pal.INK,
            bold=True,
            anchor="end",
        )
    return svg


def render_sheet(snapshot: Mapping[str, Any], options: Collection[str] = ()) -> bytes:
    """PNG of the company sheet for this state."""
    with reading("company sheet"):
        return finish(_sheet(snapshot, options))
