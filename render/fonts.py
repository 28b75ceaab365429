"""Fonts: DejaVu Sans from Debian's fonts-dejavu-core (installed by the Dockerfile), loaded by
Pillow both to set text and to measure it when laying out tables and labels."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
_MEASURE_SIZE = 100


@lru_cache(maxsize=2)
def _font(bold: bool) -> ImageFont.FreeTypeFont:
    path = FONT_DIR / _FILES[bold]
    try:
        return ImageFont.truetype(str(path), _MEASURE_SIZE)
    except OSError:
        raise RuntimeError(
            f"font {path} is missing: install the Debian package fonts-dejavu-core"
        ) from None


@lru_cache(maxsize=256)
def pil_font(bold: bool, size: float) -> ImageFont.FreeTypeFont:
    """The font to set text with at `size` px (sizes are rounded to quarter pixels)."""
    return _font(bold).font_variant(size=round(size * 4) / 4)


@lru_cache(maxsize=8192)
def _width_at_100(text: str, bold: bool) -> float:
    return float(_font(bold).getlength(text))


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Advance width in pixels of `text` set in DejaVu Sans at `size` px."""
    return _width_at_100(text, bold) * size / _MEASURE_SIZE
