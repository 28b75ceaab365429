"""String Railway's board image: the area with its coordinate grid, river, shaded mountain,
stations (label, type, VP, company slots), rails in company colours with the last (or proposed)
rail highlighted and its crossings marked, and the score table. Drawn at twice the size and
scaled down, so that Pillow's lines come out smooth. No text is smaller than `SMALL` px, which a
phone showing the image 400 px wide sets at over 9 px; a station's words are condensed to fit
its square rather than set smaller."""

from __future__ import annotations

import io
import math
from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.fonts import pil_font, text_width
from render.palette import HIGHLIGHT, INK, MUTED, OKABE_ITO, PAGE, RULE, WATER, tint
from render.snapshot import SnapshotError
from render.svg import MIN_SQUEEZE, condensed

SS = 2  # supersampling factor
WIDTH = 1000  # final image width in pixels
MARGIN = 44  # room for the grid's coordinates
GRID = 5  # cm between grid lines; labelled every 10
SMALL = 23  # px of the smallest text (2.3% of the width)
TEXT = 24  # px of the table
COMPANY = [OKABE_ITO[k] for k in ("vermillion", "blue", "bluish_green", "orange", "reddish_purple")]
AREA_FILL = "#F3EEDF"
MOUNTAIN_FILL = "#B9AD9A"
MOUNTAIN_EDGE = "#6B6255"
GRID_LINE = "#DDD6C4"
RIVER_BAND = "#A9D4F2"
HALO = tint(HIGHLIGHT, 0.55)
LEGEND = (
    "Ba base · Ce central · Ci city · Tr transit · Re regional · Ju junction · "
    "Su suburban · Te terminal · Vi village · Sc scenic",
    "VP owner/others · dots: companies served (coloured) and free · ⊗ crossing paid, "
    "○ crossing on a station (free)",
    "Points: x y in cm (scales below and left) or a cell, e.g. D4 (letters above, "
    "numbers right): its centre",
)
STATION_FILL = {
    "base": "#FFFFFF",
    "central": "#F7D774",
    "city": "#F2B6A0",
    "transit": "#BFD7EA",
    "regional": "#CFE6B8",
    "junction": "#E2C8EC",
    "suburban": "#E9E2B0",
    "terminal": "#D0D0D0",
    "village": "#DCEFD8",
    "scenic": "#BFE6DF",
}


def company_colour(index: int | None) -> str:
    return COMPANY[index % len(COMPANY)] if index is not None else INK


class _Canvas:
    """Board centimetres to (supersampled) pixels: origin bottom-left, y up."""

    def __init__(self, snap: Mapping[str, Any]) -> None:
        xs = [p[0] for p in snap["area"]]
        ys = [p[1] for p in snap["area"]]
        self.minx, self.maxx = min(xs), max(xs)
        self.miny, self.maxy = min(ys), max(ys)
        span = max(self.maxx - self.minx, self.maxy - self.miny, 1)
        self.k = (WIDTH - 2 * MARGIN) / span * SS
        self.board_h = (self.maxy - self.miny) * self.k + 2 * MARGIN * SS

    def xy(self, p: Sequence[float]) -> tuple[float, float]:
        return (
            MARGIN * SS + (p[0] - self.minx) * self.k,
            self.board_h - MARGIN * SS - (p[1] - self.miny) * self.k,
        )


def render_string_board(snap: Mapping[str, Any], options: Collection[str] = ()) -> bytes:
    """The board of a String Railway snapshot as PNG bytes."""
    for key in ("area", "river", "mountain", "stations", "rails", "companies"):
        if key not in snap:
            raise SnapshotError(f"a String Railway snapshot needs {key!r}")
    cv = _Canvas(snap)
    companies = snap["companies"]
    table_h = (
        64
        + 40 * len(companies)
        + 34 * _breakdown_lines(snap)
        + 32 * len(_legend_lines())
        + 16
        + 34 * (len(_head_lines(snap)) - 1)
    ) * SS
    img = Image.new("RGB", (WIDTH * SS, int(cv.board_h + table_h)), PAGE)
    cells = snap.get("cells") or {}
    img.paste(
        _table_top(
            _key(snap["area"]),
            _key(snap["river"]),
            _key(snap["mountain"]),
            tuple((str(n), float(v)) for n, v in cells.get("columns", ())),
            tuple((str(n), float(v)) for n, v in cells.get("rows", ())),
            float(cells.get("size", 0)),
        )
    )
    draw = ImageDraw.Draw(img)  # opaque colours only: blending every text costs time
    _board(draw, cv, snap)
    _table(draw, cv, snap, int(cv.board_h))
    # 256 colours are plenty for flat shapes and keep the file small and quick to write
    out = img.reduce(SS).quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    buf = io.BytesIO()
    out.save(buf, "PNG", compress_level=1)
    return buf.getvalue()


def warm_up() -> None:
    """Load what a process's first board image would otherwise wait for: Pillow's file
    drivers (loaded by the first save) and the fonts at the sizes the board sets text in."""
    Image.preinit()
    for bold in (False, True):
        for size in (SMALL, TEXT):
            pil_font(bold, size * SS)
        text_width("B1 S1 Ce 3", 20 * SS, bold)


def _key(points: Sequence[Sequence[float]]) -> tuple[tuple[float, float], ...]:
    return tuple((float(p[0]), float(p[1])) for p in points)


@lru_cache(maxsize=8)
def _table_top(
    area: tuple,
    river: tuple,
    mountain: tuple,
    columns: tuple = (),
    rows: tuple = (),
    cell: float = 0.0,
) -> Image.Image:
    """The part of the board that never changes in a game (area, grid with its scales and cell
    names, mountain, river), drawn once per game and process."""
    snap = {"area": area, "river": river, "mountain": mountain}
    cv = _Canvas(snap)
    img = Image.new("RGB", (WIDTH * SS, int(cv.board_h)), PAGE)
    draw = ImageDraw.Draw(img)  # opaque: blending only where the mountain lets the grid show
    pts = [cv.xy(p) for p in area]
    draw.polygon(pts, fill=AREA_FILL)
    _grid(draw, cv)
    _cell_names(draw, cv, columns, rows, cell)
    ImageDraw.Draw(img, "RGBA").polygon([cv.xy(p) for p in mountain], fill=MOUNTAIN_FILL + "B0")
    _hatch(img, cv, list(mountain))
    draw.line(
        [cv.xy(p) for p in mountain + mountain[:1]], fill=MOUNTAIN_EDGE, width=3 * SS, joint="curve"
    )
    draw.line(pts + pts[:1], fill=INK, width=3 * SS, joint="curve")
    line = [cv.xy(p) for p in river]  # a pale band with a dark core: water, not a rail
    draw.line(line, fill=RIVER_BAND, width=12 * SS, joint="curve")
    draw.line(line, fill=WATER, width=2 * SS, joint="curve")
    return img


RAIL_GAP = 7  # px between the middles of rails laid along the same line (their white casing)


def _offset(pts: list[tuple[float, float]], d: float) -> list[tuple[float, float]]:
    """The polyline moved `d` pixels to its left, each vertex along the mean of the normals
    of the legs that meet there."""
    if not d or len(pts) < 2:
        return pts
    out = []
    for i, (x, y) in enumerate(pts):
        nx = ny = 0.0
        for a, b in ((pts[max(i - 1, 0)], pts[i]), (pts[i], pts[min(i + 1, len(pts) - 1)])):
            length = math.dist(a, b)
            if length:
                nx, ny = nx - (b[1] - a[1]) / length, ny + (b[0] - a[0]) / length
        norm = math.hypot(nx, ny) or 1.0
        out.append((x + d * nx / norm, y + d * ny / norm))
    return out


def _line(points: Sequence[Sequence[float]]) -> tuple[tuple[float, float], ...]:
    """A rail's stops the same whichever way it was laid."""
    key = _key(points)
    return min(key, key[::-1])


def _rail_lines(
    cv: _Canvas, rails: Sequence[Mapping[str, Any]]
) -> list[tuple[Mapping[str, Any], list[tuple[float, float]]]]:
    """Each rail with the line it is drawn along: rails laid along the same stops (either
    way) lie side by side, centred on the line, so every one of them shows."""
    copies: dict[tuple, list[int]] = {}
    for i, rail in enumerate(rails):
        copies.setdefault(_line(rail["points"]), []).append(i)
    lines = []
    for i, rail in enumerate(rails):
        line = _line(rail["points"])
        side = (copies[line].index(i) - (len(copies[line]) - 1) / 2) * RAIL_GAP * SS
        lines.append((rail, _offset([cv.xy(p) for p in line], side)))
    return lines


def _board(draw: ImageDraw.ImageDraw, cv: _Canvas, snap: Mapping[str, Any]) -> None:
    last = snap.get("last_rail")
    proposed = [last] if last and last.get("proposed") else []
    lines = _rail_lines(cv, [*snap["rails"], *proposed])
    if last:  # the last rail is the newest along its line: the proposed one or the last laid
        halo = [pts for rail, pts in lines if _line(rail["points"]) == _line(last["points"])]
        at = halo[-1] if halo else [cv.xy(p) for p in last["points"]]
        draw.line(at, fill=HALO, width=16 * SS, joint="curve")
    for rail, pts in lines:
        draw.line(pts, fill="#FFFFFF", width=7 * SS, joint="curve")
        draw.line(pts, fill=company_colour(rail["company"]), width=4 * SS, joint="curve")
    for st in snap["stations"]:
        _station(draw, cv, st, snap)
    if last:
        for p in last["crossings"]:
            _mark(draw, cv.xy(p), paid=True)
        for p in last["free_crossings"]:
            _mark(draw, cv.xy(p), paid=False)


def _grid(draw: ImageDraw.ImageDraw, cv: _Canvas) -> None:
    font = pil_font(False, SMALL * SS)
    x = (int(cv.minx) // GRID) * GRID
    while x <= cv.maxx:
        if x >= cv.minx:
            top, bottom = cv.xy((x, cv.maxy)), cv.xy((x, cv.miny))
            draw.line([top, bottom], fill=GRID_LINE, width=SS * (2 if x % 10 == 0 else 1))
            if x % 10 == 0:
                w = text_width(str(x), SMALL * SS)
                draw.text((bottom[0] - w / 2, bottom[1] + 6 * SS), str(x), fill=MUTED, font=font)
        x += GRID
    y = (int(cv.miny) // GRID) * GRID
    while y <= cv.maxy:
        if y >= cv.miny:
            left, right = cv.xy((cv.minx, y)), cv.xy((cv.maxx, y))
            draw.line([left, right], fill=GRID_LINE, width=SS * (2 if y % 10 == 0 else 1))
            if y % 10 == 0:
                w = text_width(str(y), SMALL * SS)
                draw.text((left[0] - w - 6 * SS, left[1] - 14 * SS), str(y), fill=MUTED, font=font)
        y += GRID


def _cell_names(
    draw: ImageDraw.ImageDraw, cv: _Canvas, columns: tuple, rows: tuple, cell: float
) -> None:
    """Cell names in bold ink, centred on their column above the board and on their row to its
    right (the centimetre scales are below and to the left)."""
    size = TEXT * SS
    font = pil_font(True, size)
    for letter, x0 in columns:
        x, top = cv.xy((x0 + cell / 2, cv.maxy))
        draw.text(
            (x - text_width(letter, size, True) / 2, top - 36 * SS), letter, fill=INK, font=font
        )
    for number, y0 in rows:
        right, y = cv.xy((cv.maxx, y0 + cell / 2))
        draw.text((right + 8 * SS, y - 15 * SS), number, fill=INK, font=font)


def _hatch(img: Image.Image, cv: _Canvas, mountain: list[tuple[float, float]]) -> None:
    """Diagonal shading clipped to the mountain: drawn on a mask and pasted through it."""
    pts = [cv.xy(p) for p in mountain]
    x0, y0 = min(p[0] for p in pts), min(p[1] for p in pts)
    x1, y1 = max(p[0] for p in pts), max(p[1] for p in pts)
    w, h = int(x1 - x0) + 2, int(y1 - y0) + 2
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).polygon([(x - x0, y - y0) for x, y in pts], fill=255)
    lines = Image.new("L", (w, h), 0)
    ld = ImageDraw.Draw(lines)
    step = 14 * SS
    for off in range(-h, w, step):
        ld.line([(off, h), (off + h, 0)], fill=255, width=2 * SS)
    shade = Image.new("L", (w, h), 0)
    shade.paste(lines, (0, 0), mask)
    img.paste(MOUNTAIN_EDGE, (int(x0), int(y0)), shade.point(lambda v: v * 45 // 100))


def _station(
    draw: ImageDraw.ImageDraw, cv: _Canvas, st: Mapping[str, Any], snap: Mapping[str, Any]
) -> None:
    half = st["size"] / 2
    a = cv.xy((st["x"] - half, st["y"] + half))
    b = cv.xy((st["x"] + half, st["y"] - half))
    owner = st.get("owner")
    fill = (
        tint(company_colour(owner), 0.35)
        if st["type"] == "base"
        else STATION_FILL.get(st["type"], "#FFFFFF")
    )
    edge = company_colour(owner) if owner is not None else INK
    draw.rectangle([a, b], fill=fill, outline=edge, width=(4 if owner is not None else 2) * SS)
    side = b[0] - a[0]
    cx = (a[0] + b[0]) / 2
    size = max(SMALL, min(27.0, side / SS / 2.6)) * SS
    # the label's and the type's letters start about a fifth of their size below their top
    _centred(draw, st["label"], size, True, 0.92 * side, (cx, a[1] - 0.02 * side))
    _centred(
        draw, f"{st['short']} {st['vp']}", SMALL * SS, False, 0.94 * side, (cx, a[1] + 0.33 * side)
    )
    # company slots: a pip per company the station admits, filled by those it serves
    limit = st["limit"]
    served = st.get("served", [])
    pip = min(side / (limit + 1.5), 0.19 * side)
    gap = (side - pip * limit) / (limit + 1)
    y = b[1] - 0.06 * side - pip
    for i in range(limit):
        x = a[0] + gap + i * (pip + gap)
        colour = company_colour(served[i]) if i < len(served) else None
        draw.ellipse([x, y, x + pip, y + pip], fill=colour or "#FFFFFF", outline=INK, width=SS)


def _centred(
    draw: ImageDraw.ImageDraw,
    text: str,
    size: float,
    bold: bool,
    width: float,
    top: tuple[float, float],
) -> None:
    """Text centred on top[0] below top[1], condensed (not shrunk) when wider than `width`."""
    wide = text_width(text, size, bold)
    if wide <= width:
        draw.text((top[0] - wide / 2, top[1]), text, fill=INK, font=pil_font(bold, size))
        return
    mask, dx, dy = condensed(text, size, bold, max(MIN_SQUEEZE, width / wide))
    ascent = pil_font(bold, size).getmetrics()[0]
    draw.bitmap((round(top[0] + dx), round(top[1] + ascent + dy)), mask, fill=INK)


def _mark(draw: ImageDraw.ImageDraw, at: tuple[float, float], paid: bool) -> None:
    r = 9 * SS
    if paid:
        draw.ellipse(
            [at[0] - r, at[1] - r, at[0] + r, at[1] + r],
            fill="#FFFFFF",
            outline=HIGHLIGHT,
            width=3 * SS,
        )
        d = r * 0.55
        draw.line([(at[0] - d, at[1] - d), (at[0] + d, at[1] + d)], fill=HIGHLIGHT, width=3 * SS)
        draw.line([(at[0] - d, at[1] + d), (at[0] + d, at[1] - d)], fill=HIGHLIGHT, width=3 * SS)
    else:
        draw.ellipse(
            [at[0] - r * 0.7, at[1] - r * 0.7, at[0] + r * 0.7, at[1] + r * 0.7],
            outline=HIGHLIGHT,
            width=2 * SS,
        )


def _breakdown_lines(snap: Mapping[str, Any]) -> int:
    last = snap.get("last_rail")
    return 1 + len(last["breakdown"]) if last else 0


def _wrapped(text: str, size: float, bold: bool = False) -> list[str]:
    """The text in lines that fit the image's width, broken between words (after a '·',
    never before one)."""
    room = (WIDTH - 2 * MARGIN) * SS
    words: list[str] = []
    for word in text.split(" "):
        if word == "·" and words:
            words[-1] += " ·"
        else:
            words.append(word)
    lines: list[str] = []
    for word in words:
        if lines and text_width(f"{lines[-1]} {word}", size * SS, bold) <= room:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return [line.removesuffix(" ·") for line in lines]


def _legend_lines() -> list[str]:
    return [line for text in LEGEND for line in _wrapped(text, SMALL)]


def _head_lines(snap: Mapping[str, Any]) -> list[str]:
    turn = f"Turn {snap['turn']} of {snap['turns']}"
    if snap.get("finished"):
        head = "Game over · " + ", ".join(snap.get("winners", [])) + " won"
    elif snap.get("current") is not None:
        who = snap["companies"][snap["current"]]["name"]
        todo = "places " + ", ".join(snap["pending"]) if snap.get("pending") else "lays a rail"
        head = f"{turn} · {who} {todo}"
    else:
        head = turn
    if snap.get("expert"):
        head += " · expert"
    return _wrapped(head, TEXT, True)


def _table(draw: ImageDraw.ImageDraw, cv: _Canvas, snap: Mapping[str, Any], top: int) -> None:
    font = pil_font(False, TEXT * SS)
    bold = pil_font(True, TEXT * SS)
    x = MARGIN * SS
    y = top + 8 * SS
    for line in _head_lines(snap):
        draw.text((x, y), line, fill=INK, font=bold)
        y += 34 * SS
    y += 10 * SS
    draw.line([(x, y - 8 * SS), (WIDTH * SS - x, y - 8 * SS)], fill=RULE, width=SS)
    for i, c in enumerate(snap["companies"]):
        colour = company_colour(i)
        draw.rectangle(
            [x, y + 4 * SS, x + 26 * SS, y + 28 * SS], fill=colour, outline=INK, width=SS
        )
        marker = "▶ " if snap.get("current") == i else ""
        draw.text(
            (x + 38 * SS, y),
            f"{marker}{c['name']}  {c['base']}",
            fill=INK,
            font=bold if marker else font,
        )
        vp = f"{c['vp']} VP"
        draw.text((x + 520 * SS, y), vp, fill=INK, font=bold)
        draw.text(
            (x + 640 * SS, y), f"{c['short']} short · {c['long']} long", fill=MUTED, font=font
        )
        y += 40 * SS
    last = snap.get("last_rail")
    if last:
        title = "Proposed rail" if last.get("proposed") else "Last rail"
        name = snap["companies"][last["company"]]["name"]
        gain = sum(v for who, v, _ in last["breakdown"] if who == last["company"])
        draw.text((x, y + 6 * SS), f"{title} ({name}): {gain:+d} VP", fill=HIGHLIGHT, font=bold)
        y += 34 * SS
        small = pil_font(False, SMALL * SS)
        for who, v, why in last["breakdown"]:
            text = f"{v:+d}  {why}" + (
                "" if who == last["company"] else f"  ({snap['companies'][who]['name']})"
            )
            draw.text((x + 20 * SS, y + 6 * SS), text, fill=INK, font=small)
            y += 34 * SS
    tiny = pil_font(False, SMALL * SS)
    y += 10 * SS
    for line in _legend_lines():
        draw.text((x, y), line, fill=MUTED, font=tiny)
        y += 32 * SS
