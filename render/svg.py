"""A small SVG writer, the rasteriser that turns it into Pillow images, and the text layer.

Shapes are composed as SVG and drawn by cairo (through cairosvg) for antialiased curves. Text
is collected alongside and set by Pillow/FreeType after the shapes: cairosvg lays text out
glyph by glyph in Python, which made text-heavy images several times slower. Text therefore
always sits above the shapes of the same image.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from cairosvg.parser import Tree
from cairosvg.surface import PNGSurface
from PIL import Image, ImageDraw

from render.fonts import pil_font, text_width

ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}
MIN_SQUEEZE = 0.75


@dataclass(frozen=True)
class Text:
    x: float
    y: float  # baseline
    text: str
    size: float
    fill: str
    bold: bool
    anchor: str  # start, middle, end
    halo: str | None
    squeeze: float = 1.0  # horizontal scale, to condense abbreviations into token slots


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


class Svg:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.parts: list[str] = []
        self.texts: list[Text] = []

    def raw(self, element: str) -> None:
        self.parts.append(element)

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: str,
        stroke: str | None = None,
        stroke_width: float = 1.0,
        rx: float = 0.0,
        extra: str = "",
    ) -> None:
        s = f' stroke="{stroke}" stroke-width="{_n(stroke_width)}"' if stroke else ""
        r = f' rx="{_n(rx)}"' if rx else ""
        self.parts.append(
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}"{r} '
            f'fill="{fill}"{s}{extra}/>'
        )

    def circle(
        self,
        x: float,
        y: float,
        r: float,
        fill: str,
        stroke: str | None = None,
        stroke_width: float = 1.0,
        extra: str = "",
    ) -> None:
        s = f' stroke="{stroke}" stroke-width="{_n(stroke_width)}"' if stroke else ""
        self.parts.append(
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{fill}"{s}{extra}/>'
        )

    def path(
        self, d: str, stroke: str = "none", width: float = 1.0, fill: str = "none", extra: str = ""
    ) -> None:
        self.parts.append(
            f'<path d="{d}" fill="{fill}" stroke="{stroke}" stroke-width="{_n(width)}"{extra}/>'
        )

    def polygon(
        self,
        points: list[tuple[float, float]],
        fill: str,
        stroke: str | None = None,
        stroke_width: float = 1.0,
        extra: str = "",
    ) -> None:
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
        s = (
            f' stroke="{stroke}" stroke-width="{_n(stroke_width)}" stroke-linejoin="round"'
            if stroke
            else ""
        )
        self.parts.append(f'<polygon points="{pts}" fill="{fill}"{s}{extra}/>')

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float,
        fill: str = "#000",
        bold: bool = False,
        anchor: str = "middle",
        halo: str | None = None,
        fit: float | None = None,
        min_squeeze: float = MIN_SQUEEZE,
    ) -> None:
        """Text with its baseline at y, anchored at x by its start, middle or end; `halo`
        outlines it so it stays legible over track; `fit` condenses it (to `min_squeeze` of
        its width at most) and then shrinks it to at most that width."""
        squeeze = 1.0
        if fit is not None:
            width = text_width(text, size, bold)
            if width > fit:
                squeeze = max(min_squeeze, fit / width)
                size *= fit / (width * squeeze)
        self.texts.append(Text(x, y, text, size, fill, bold, anchor, halo, squeeze))

    def header(self, left: str, right: str, margin: float) -> None:
        """The image's title line: position on the left (bold), who acts on the right."""
        self.text(margin, 36, left, 21, "#1A1A1A", bold=True, anchor="start")
        room = self.width - 2 * margin - text_width(left, 21, True) - 30
        self.text(self.width - margin, 36, right, 17, "#1A1A1A", anchor="end", fit=room)

    def document(self) -> str:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
            f'viewBox="0 0 {self.width} {self.height}" stroke-linecap="round">'
            + "".join(self.parts)
            + "</svg>"
        )


def rasterize(svg: Svg) -> Image.Image:
    """Draw the shapes with cairo (no PNG round trip) and return them as an RGBA image; the
    caller sets the text with `draw_texts` once everything below it is in place."""
    return rasterize_document(svg.document())


def rasterize_document(document: str) -> Image.Image:
    """`rasterize` for a finished SVG document (e.g. one whose viewBox crops and scales)."""
    surface = PNGSurface(Tree(bytestring=document.encode("utf-8")), None, 96)
    cairo_surface = surface.cairo
    cairo_surface.flush()
    width, height = cairo_surface.get_width(), cairo_surface.get_height()
    data = cairo_surface.get_data()
    # cairo stores premultiplied native-endian ARGB: on little-endian hosts that is BGRa bytes
    return Image.frombuffer(
        "RGBA", (width, height), data, "raw", "BGRa", cairo_surface.get_stride(), 1
    )


@lru_cache(maxsize=1024)
def condensed(text: str, size: float, bold: bool, squeeze: float) -> tuple[Image.Image, int, int]:
    """A glyph mask of `text` narrowed to `squeeze` of its width, with its offset from the
    (middle, baseline) anchor point."""
    font = pil_font(bold, size)
    left, top, right, bottom = map(int, font.getbbox(text, anchor="ms"))  # FreeType's are ints
    mask = Image.new("L", (right - left + 2, bottom - top + 2))
    ImageDraw.Draw(mask).text((1 - left, 1 - top), text, fill=255, font=font, anchor="ms")
    narrow = mask.resize(
        (max(1, round(mask.width * squeeze)), mask.height), Image.Resampling.LANCZOS
    )
    return narrow, -narrow.width // 2, top - 1


def draw_texts(image: Image.Image, texts: list[Text]) -> Image.Image:
    draw = ImageDraw.Draw(image)
    for t in texts:
        if t.squeeze < 1.0:
            mask, dx, dy = condensed(t.text, round(t.size * 4) / 4, t.bold, round(t.squeeze, 2))
            image.paste(t.fill, (round(t.x) + dx, round(t.y) + dy), mask)
            continue
        halo = max(1, round(t.size / 7)) if t.halo else 0
        draw.text(
            (t.x, t.y),
            t.text,
            fill=t.fill,
            font=pil_font(t.bold, t.size),
            anchor=ANCHORS[t.anchor],
            stroke_width=halo,
            stroke_fill=t.halo,
        )
    return image


def finish(svg: Svg, background: Image.Image | None = None, *, keep: bool = False) -> bytes:
    """Shapes of `svg` over `background` (if any), then its text; PNG bytes. `keep`: the
    shapes' raster is kept by their SVG (`_kept_shapes`), for a small image whose shapes
    outlast its text."""
    if keep and background is None:
        image = _kept_shapes(svg.document()).copy()
    else:
        image = rasterize(svg)
        if background is not None:
            image = Image.alpha_composite(background, image)
        image = image.convert("RGB")
    return encode_png(draw_texts(image, svg.texts))


KEPT_SHAPES = 16  # compact markets (under 1 MB each): the posts of a few games in turn


@lru_cache(maxsize=KEPT_SHAPES)
def _kept_shapes(document: str) -> Image.Image:
    """The shapes of an SVG document as RGB: the compact market's stay the same from post to
    post until a price moves (5 posts in 6 of a recorded game), while its text changes."""
    return rasterize_document(document).convert("RGB")


PNG_COLOURS = 256  # flat drawings: a 256-colour palette keeps them alike and ~3x smaller


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes of a palette image (no dithering, fast octree) at zlib level 6: these images
    are posted to phones, where bytes matter, and thrown away. Measured on a recorded game's
    post images, level 4 saves 1 ms for 5-10% more bytes, 9 (or `optimize`) costs 10-20 ms
    (80 ms on the map) for 8% fewer, zlib's run-length strategy 40-80% more bytes."""
    out = io.BytesIO()
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    paletted = rgb.quantize(PNG_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    paletted.putpalette(_snapped(paletted.getpalette() or []))
    paletted.save(out, "PNG", compress_level=6)
    return out.getvalue()


SNAP = 10  # a palette entry this close (sum of channel differences) to a drawing colour becomes it


def _snapped(palette: list[int]) -> list[int]:
    """The palette with entries moved onto the exact drawing colours they approximate, so
    company, tile and page colours come out exactly as chosen (the nearest by the sum of
    channel differences, the first listed on a tie; all entries at once: per entry in Python
    it cost more than the drawing)."""
    exact = np.array(drawing_colours(), dtype=np.int32)
    whole = len(palette) // 3 * 3
    entries = np.array(palette[:whole], dtype=np.int32).reshape(-1, 3)
    distance = np.abs(entries[:, None, :] - exact[None, :, :]).sum(axis=2)
    best = distance.argmin(axis=1)
    near = distance[np.arange(len(entries)), best] <= SNAP
    entries[near] = exact[best[near]]
    return [int(v) for v in entries.ravel()] + palette[whole:]


@lru_cache(maxsize=1)
def drawing_colours() -> tuple[tuple[int, int, int], ...]:
    """Every colour the renderer draws with: the literals in render/*.py and the tints of the
    company colours, as RGB."""
    from render import palette as pal

    found = {
        m
        for path in Path(__file__).parent.glob("*.py")
        for m in re.findall(r"#[0-9A-Fa-f]{6}\b", path.read_text(encoding="utf-8"))
    }
    found.update(pal.tint(c, s) for c in pal.OKABE_ITO.values() for s in (0.25, 0.3))
    return tuple(sorted({tuple(int(c[k : k + 2], 16) for k in (1, 3, 5)) for c in found}))  # type: ignore[misc]
