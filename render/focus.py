"""Cropped views of the map for a phone: the area a move changed, and the tile choices for one
hex drawn in place.

A crop is drawn afresh (not cut from the full map) at a scale that makes it about
`PANEL_WIDTH` pixels wide, with place names enlarged: a phone shows a post's image about
400 px wide, and the names must stay readable there (at least 11 px).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import palette as pal
from render.board import Board, board_for
from render.fonts import pil_font, text_width
from render.mapview import HEADER, Geometry, _laid, _overlay, draw_face, geometry
from render.runs import run_hexes
from render.snapshot import SnapshotError, need, reading
from render.svg import Svg, Text, draw_texts, encode_png, rasterize_document
from render.tileart import layout

PANEL_WIDTH = 520  # px of one cropped view
NAME_BOOST = 1.5  # place names are drawn this much larger than on the full map
HEX_PAD_X = 2.6  # hex radii around a changed hex: it and its neighbours
HEX_PAD_Y = 2.4
RUN_PAD = 1.1  # around the hexes of a run
MAX_SINGLE_WIDTH = 8.0  # radii: changed hexes further apart than this get a view each
CAPTION_SIZE = 21
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
def _printed_face(board: Board, coord: str, offboard: str | None) -> tuple[str, tuple[Text, ...]]:
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
    hexes = _inside(g, board, w)
    laid = _laid(board, snapshot)
    overlay = _overlay(board, snapshot, runs, only=hexes)
    base: list[str] = [
        f'<rect x="{w.x0:.1f}" y="{w.y0:.1f}" width="{w.width:.1f}" '
        f'height="{w.height:.1f}" fill="{pal.PAGE}"/>'
    ]
    printed = Svg(g.width, g.height)
    for coord in sorted(hexes - set(laid)):
        parts, texts = _printed_face(board, coord, snapshot.get("offboard_color"))
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
    placed = [
        Text(
            (t.x - w.x0) * k,
            (t.y - w.y0) * k,
            t.text,
            t.size * k * (NAME_BOOST if t.halo else 1.0),
            t.fill,
            t.bold,
            t.anchor,
            t.halo,
            t.squeeze,
        )
        for t in [*printed.texts, *overlay.texts]
        if t.y > HEADER and w.x0 - g.r <= t.x <= w.x1 + g.r and w.y0 - g.r <= t.y <= w.y1 + g.r
    ]
    return draw_texts(image, placed)


def _stack(images: Sequence[Image.Image], columns: int = 1, gap: int = 6) -> Image.Image:
    rows = math.ceil(len(images) / columns)
    cell_w = max(i.width for i in images)
    cell_h = max(i.height for i in images)
    out = Image.new(
        "RGB", (columns * cell_w + (columns - 1) * gap, rows * cell_h + (rows - 1) * gap), pal.RULE
    )
    for n, image in enumerate(images):
        out.paste(image, ((n % columns) * (cell_w + gap), (n // columns) * (cell_h + gap)))
    return out


def focus_windows(
    board: Board, hexes: Sequence[str], runs: Sequence[Mapping[str, Any]]
) -> list[Window]:
    """One window around the changed hexes, or one per group when they lie far apart; the
    runs' hexes in one window of their own when they do not fit beside the changes."""
    g = geometry(board)
    changed = [h for h in dict.fromkeys(hexes) if h in board.hexes]
    windows: list[Window] = []
    for coord in changed:
        w = _around(g, [coord], HEX_PAD_X, HEX_PAD_Y)
        for i, other in enumerate(windows):
            joined = other.union(w)
            if joined.width <= MAX_SINGLE_WIDTH * g.r * 1.2:
                windows[i] = joined
                break
        else:
            windows.append(w)
    stops = [h for h in run_hexes(runs) if h in board.hexes]
    if stops:
        w = _around(g, stops, RUN_PAD * 1.8, RUN_PAD * 1.8)
        merged = next(
            (i for i, o in enumerate(windows) if o.union(w).width <= max(o.width, w.width) * 1.1),
            None,
        )
        if merged is None:
            windows.append(w)
        else:
            windows[merged] = windows[merged].union(w)
    return windows


def render_focus(
    snapshot: Mapping[str, Any],
    hexes: Sequence[str],
    options: Collection[str] = (),
    runs: Sequence[Mapping[str, Any]] = (),
) -> bytes | None:
    """PNG of the map around `hexes` (what a move changed) and the `runs` drawn in colour;
    None when there is nothing on the map to show."""
    with reading("focus"):
        board = board_for(str(need(snapshot, "title", str)), options)
        windows = focus_windows(board, hexes, runs)
        if not windows:
            return None
        g = geometry(board)
        images = [
            _draw(
                board,
                snapshot,
                w,
                max(PANEL_WIDTH, round(PANEL_WIDTH * w.width / (2 * HEX_PAD_X * g.r))),
                runs,
            )
            for w in windows
        ]
        return encode_png(_stack(images))


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
            _caption(_draw(board, snap, w, PANEL_WIDTH), number, caption)
            for number, snap, caption in choices
        ]
        height = max(p.height for p in panels)
        panels = [_pad(p, height) for p in panels]
        return encode_png(_stack(panels, columns=1 if len(panels) == 1 else 2))


def _pad(image: Image.Image, height: int) -> Image.Image:
    if image.height == height:
        return image
    out = Image.new("RGB", (image.width, height), pal.PANEL)
    out.paste(image, (0, 0))
    return out
