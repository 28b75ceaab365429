"""What the renderer writes in an image: every text Pillow sets while a drawing runs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from PIL import ImageDraw

from render import mapview, market, strings, svg


@contextmanager
def drawn_text() -> Iterator[list[tuple[float, int, bool, str]]]:
    """(font size, width of the image set on, whether that is a glyph mask, text) of every
    text Pillow sets meanwhile."""
    seen: list[tuple[float, int, bool, str]] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        font = kwargs.get("font") or (args[1] if len(args) > 1 else None)
        seen.append((float(font.size), self.im.size[0], self.im.mode == "L", str(text)))
        return original(self, xy, text, *args, **kwargs)

    for cached in (svg.condensed, mapview._background, market._background, strings._table_top):
        cached.cache_clear()  # text drawn into a cached image would not be seen again
    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
