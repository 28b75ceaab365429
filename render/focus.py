"""Cropped views of the map for a phone: the area a move changed, and the tile choices for one
hex drawn in place.

A crop is drawn afresh (not cut from the full map) `PANEL_WIDTH` px wide. A phone shows a
post's image about 400 px wide, where text under 9 px cannot be read: so no text in a crop is
smaller than `LEGIBLE` of its width. Labels grow to that size where the crop is wide (and are
placed at the size they are drawn), and a crop is never wider than `MAX_WIDTH` hex radii, where
the letters in a token would have to shrink below it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import palette as pal
from render.board import Board, board_for
from render.face import HEADER, Geometry, TextSize, draw_face, geometry
from render.fonts import pil_font, text_width
from render.mapview import _laid, _overlay
from render.runs import RUN_COLOURS, legend, run_hexes
from render.snapshot import SnapshotError, need, reading
from render.svg import Svg, Text, draw_texts, encode_png, rasterize_document
from render.tileart import layout

PANEL_WIDTH = 640  # px of the close-up
CHOICE_WIDTH = 520  # px of one tile choice (two side by side)
LEGIBLE = 0.024  # smallest text as a share of the image width (9 px of 400 is 0.0225)
HEX_PAD_X = 2.6  # hex radii around a changed hex: it and its neighbours
HEX_PAD_Y = 2.4
RUN_PAD = 1.2  # around the hexes of a run
MAX_WIDTH = 6.5  # hex radii: the widest crop
NAME_BOOST = 1.4  # place names are the way about a close-up: set larger than on the map
MAX_HEIGHT = 7.0
TALLEST = 1.1  # height / width of a crop at most (it is widened to that)
CAPTION_SIZE = 21
LEGEND_SIZE = 22  # px of the train names under a close-up with runs
NUMBER_SIZE = 34


@dataclass(frozen=True)
class Window:
    """A rectangle of the full map, in its pixels."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    def union(self, other: Window) -> Window:
        return Window(
            min(self.x0, other.x0),
            min(self.y0, other.y0),
            max(self.x1, other.x1),
            max(self.y1, other.y1),
        )


def text_floor(width: float) -> float:
    """The smallest text, in map px, that stays legible in a crop `width` map px wide."""
    return LEGIBLE * width


def _around(g: Geometry, coords: Sequence[str], pad_x: float, pad_y: float) -> Window:
    xs = [g.centre(c)[0] for c in coords]
    ys = [g.centre(c)[1] for c in coords]
    return Window(
        min(xs) - pad_x * g.r, min(ys) - pad_y * g.r, max(xs) + pad_x * g.r, max(ys) + pad_y * g.r
    )


def _inside(g: Geometry, board: Board, w: Window) -> set[str]:
    """Hexes at least partly in the window."""
    return {
        c
        for c in board.hexes
        if w.x0 - g.r <= g.centre(c)[0] <= w.x1 + g.r and w.y0 - g.r <= g.centre(c)[1] <= w.y1 + g.r
    }


@lru_cache(maxsize=2048)
def _printed_face(
    board: Board, coord: str, offboard: str | None, text: TextSize
) -> tuple[str, tuple[Text, ...]]:
    """A hex as printed, which never changes (placing its labels is the slow part)."""
    g = geometry(board)
    h = board.hexes[coord]
    svg = Svg(0, 0)
    draw_face(
        svg,
        g,
        coord,
        h.art,
        layout(board.orientation, h.art),
        name=h.name,
        tile=None,
        terrain=h.terrain,
        offboard=offboard,
        text=text,
    )
    return "".join(svg.parts), tuple(svg.texts)


def _draw(
    board: Board,
    snapshot: Mapping[str, Any],
    w: Window,
    width: int,
    runs: Sequence[Mapping[str, Any]] = (),
) -> Image.Image:
    """The window drawn `width` px wide: printed hexes, then what the snapshot adds."""
    g = geometry(board)
    text = TextSize(round(text_floor(w.width), 1), NAME_BOOST)  # rounded: faces are cached by it
    hexes = _inside(g, board, w)
    laid = _laid(board, snapshot)
    overlay = _overlay(board, snapshot, runs, only=hexes, text=text)
    base: list[str] = [
        f'<rect x="{w.x0:.1f}" y="{w.y0:.1f}" width="{w.width:.1f}" '
        f'height="{w.height:.1f}" fill="{pal.PAGE}"/>'
    ]
    printed = Svg(g.width, g.height)
    for coord in sorted(hexes - set(laid)):
        parts, texts = _printed_face(board, coord, snapshot.get("offboard_color"), text)
        printed.parts.append(parts)
        printed.texts.extend(texts)
    k = width / w.width
    height = round(w.height * k)
    document = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="{w.x0:.1f} {w.y0:.1f} {w.width:.1f} {w.height:.1f}" '
        f'stroke-linecap="round">' + "".join(base + printed.parts + overlay.parts) + "</svg>"
    )
    image = rasterize_document(document).convert("RGB")
    scaled = [
        Text(
            (t.x - w.x0) * k,
            (t.y - w.y0) * k,
            t.text,
            t.size * k,
            t.fill,
            t.bold,
            t.anchor,
            t.halo,
            t.squeeze,
        )
        for t in [*printed.texts, *overlay.texts]
        if t.y > HEADER and w.x0 - g.r <= t.x <= w.x1 + g.r and w.y0 - g.r <= t.y <= w.y1 + g.r
    ]
    return draw_texts(image, scaled)


def focus_window(
    board: Board, hexes: Sequence[str], runs: Sequence[Mapping[str, Any]]
) -> Window | None:
    """One window around the changed hexes and the runs' hexes, taken in that order as long as
    the window stays within `MAX_WIDTH` by `MAX_HEIGHT` radii (a run reaching further is cut
    at the edge), widened where it is taller than `TALLEST` times its width; None when none
    of them is on the map."""
    g = geometry(board)
    changed = [h for h in dict.fromkeys(hexes) if h in board.hexes]
    stops = [h for h in run_hexes(runs) if h in board.hexes]
    wanted = [(h, HEX_PAD_X, HEX_PAD_Y) for h in changed] + [(h, RUN_PAD, RUN_PAD) for h in stops]
    if not wanted:
        return None
    first, pad_x, pad_y = wanted[0]
    window = _around(g, [first], max(pad_x, HEX_PAD_X), max(pad_y, HEX_PAD_Y))
    for coord, pad_x, pad_y in wanted[1:]:
        grown = window.union(_around(g, [coord], pad_x, pad_y))
        if grown.width <= MAX_WIDTH * g.r and grown.height <= MAX_HEIGHT * g.r:
            window = grown
    widen = max(0.0, window.height / TALLEST - window.width) / 2  # a phone shrinks tall images
    return Window(window.x0 - widen, window.y0, window.x1 + widen, window.y1)


def render_focus(
    snapshot: Mapping[str, Any],
    hexes: Sequence[str],
    options: Collection[str] = (),
    runs: Sequence[Mapping[str, Any]] = (),
) -> bytes | None:
    """PNG of the map around `hexes` (what a move changed) and the `runs` drawn in colour, in
    one crop; None when there is nothing on the map to show. Only the newest runs are drawn,
    one colour each (a post of several companies' turns has more runs than colours), and the
    legend names those the crop shows."""
    runs = list(runs)[-len(RUN_COLOURS) :]
    with reading("focus"):
        board = board_for(str(need(snapshot, "title", str)), options)
        window = focus_window(board, hexes, runs)
        if window is None:
            return None
        image = _draw(board, snapshot, window, PANEL_WIDTH, runs)
        seen = _inside(geometry(board), board, window)  # a run out of the crop is not named
        entries = [e for e, run in zip(legend(runs), runs) if seen.intersection(run_hexes([run]))]
        return encode_png(_with_legend(image, entries) if entries else image)


def _with_legend(image: Image.Image, entries: Sequence[tuple[str, str]]) -> Image.Image:
    """The image over a band naming the train of each run colour ("━ B&O 4 train"), in rows."""
    size = LEGEND_SIZE
    row_h = round(size * 1.8)
    items = [(colour, f"{train} train") for colour, train in entries]
    rows: list[list[tuple[str, str]]] = [[]]
    x = 12.0
    for colour, text in items:
        w = 2.2 * size + text_width(text, size, True) + size
        if rows[-1] and x + w > image.width:
            rows.append([])
            x = 12.0
        rows[-1].append((colour, text))
        x += w
    band = Image.new("RGB", (image.width, image.height + len(rows) * row_h + 6), pal.PANEL)
    band.paste(image, (0, 0))
    draw = ImageDraw.Draw(band)
    font = pil_font(True, size)
    for r, row in enumerate(rows):
        y = image.height + 3 + r * row_h + row_h / 2
        x = 12.0
        for colour, text in row:
            draw.line([(x, y), (x + 1.6 * size, y)], fill=colour, width=round(size * 0.45))
            draw.text((x + 2.2 * size, y), text, fill=pal.INK, font=font, anchor="lm")
            x += 2.2 * size + text_width(text, size, True) + size
    return band


def _stack(images: Sequence[Image.Image], gap: int = 6) -> Image.Image:
    """The images one under another: side by side, a phone would show each half as wide as
    it can be read."""
    width = max(i.width for i in images)
    out = Image.new(
        "RGB", (width, sum(i.height for i in images) + gap * (len(images) - 1)), pal.RULE
    )
    y = 0
    for image in images:
        out.paste(image, (0, y))
        y += image.height + gap
    return out


def _wrap_words(text: str, size: float, width: float) -> list[str]:
    lines: list[str] = []
    for word in text.split(" "):
        if lines and text_width(lines[-1] + " " + word, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _caption(image: Image.Image, number: str, caption: str) -> Image.Image:
    """The option's number in a disc at the top left, its words under the picture."""
    draw = ImageDraw.Draw(image)
    radius = NUMBER_SIZE * 0.85
    draw.ellipse(
        (10, 10, 10 + 2 * radius, 10 + 2 * radius), fill=pal.HIGHLIGHT, outline="#FFFFFF", width=3
    )
    draw.text(
        (10 + radius, 10 + radius),
        number,
        fill="#FFFFFF",
        font=pil_font(True, NUMBER_SIZE),
        anchor="mm",
    )
    lines = _wrap_words(caption, CAPTION_SIZE, image.width - 20)
    band = Image.new(
        "RGB", (image.width, image.height + len(lines) * round(CAPTION_SIZE * 1.25) + 14), pal.PANEL
    )
    band.paste(image, (0, 0))
    text = ImageDraw.Draw(band)
    for i, line in enumerate(lines):
        text.text(
            (10, image.height + 8 + i * CAPTION_SIZE * 1.25),
            line,
            fill=pal.INK,
            font=pil_font(False, CAPTION_SIZE),
            anchor="la",
        )
    return band


def render_lay_options(
    hex_id: str,
    choices: Sequence[tuple[str, Mapping[str, Any], str]],
    options: Collection[str] = (),
) -> bytes:
    """PNG of the tile choices for one hex: for each (number, snapshot with that tile laid,
    words for it) the hex and its neighbours with the tile in place, numbered and captioned."""
    if not choices:
        raise SnapshotError("no tile choices to draw")
    with reading("tile choices"):
        board = board_for(str(need(choices[0][1], "title", str)), options)
        if hex_id not in board.hexes:
            raise SnapshotError(f"there is no hex {hex_id} on the {board.title} map")
        g = geometry(board)
        w = _around(g, [hex_id], HEX_PAD_X, HEX_PAD_Y * 0.95)
        panels = [
            _caption(_draw(board, snap, w, CHOICE_WIDTH), number, caption)
            for number, snap, caption in choices
        ]
        height = max(p.height for p in panels)
        panels = [_pad(p, height) for p in panels]
        return encode_png(_stack(panels))


def _pad(image: Image.Image, height: int) -> Image.Image:
    if image.height == height:
        return image
    out = Image.new("RGB", (image.width, height), pal.PANEL)
    out.paste(image, (0, 0))
    return out
