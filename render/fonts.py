"""Fonts: DejaVu Sans, loaded by Pillow both to set text and to measure it when laying out
tables and labels. It is looked for where the systems railchat is hosted on install it (Debian,
Fedora, Arch, Homebrew), then through fontconfig, so that a bare install works wherever the
font is; `RAILCHAT_FONT_DIR` names a folder holding the two files to use instead."""

from __future__ import annotations

import os
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),  # Debian, Ubuntu: fonts-dejavu-core
    Path("/usr/share/fonts/dejavu-sans-fonts"),  # Fedora: dejavu-sans-fonts
    Path("/usr/share/fonts/TTF"),  # Arch: ttf-dejavu
    Path("/usr/share/fonts/dejavu"),  # Alpine: font-dejavu
    Path("/opt/homebrew/share/fonts"),  # macOS, Homebrew on Apple silicon
    Path("/usr/local/share/fonts"),  # Homebrew on Intel, fonts installed by hand
    Path.home() / "Library" / "Fonts",  # macOS: a font opened in Font Book
    Path("/Library/Fonts"),
)
_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
_PATTERNS = {False: "DejaVu Sans:style=Book", True: "DejaVu Sans:style=Bold"}
MISSING = (
    "the font DejaVu Sans is missing: install it (Debian and Ubuntu: apt-get install "
    "fonts-dejavu-core; Fedora: dnf install dejavu-sans-fonts; macOS: brew install --cask "
    "font-dejavu) or set RAILCHAT_FONT_DIR to a folder holding DejaVuSans.ttf and "
    "DejaVuSans-Bold.ttf"
)
_MEASURE_SIZE = 100


def font_file(bold: bool) -> Path:
    """Where DejaVu Sans (bold or not) is on this machine."""
    name = _FILES[bold]
    chosen = os.environ.get("RAILCHAT_FONT_DIR")
    for folder in [Path(chosen)] if chosen else FONT_DIRS:
        if (folder / name).is_file():
            return folder / name
    found = None if chosen else _fontconfig(bold)
    if found is None or found.name != name:  # fontconfig names a stand-in when it lacks it
        raise RuntimeError(MISSING)
    return found


def _fontconfig(bold: bool) -> Path | None:
    if shutil.which("fc-match") is None:
        return None
    try:
        done = subprocess.run(
            ["fc-match", "--format=%{file}", _PATTERNS[bold]],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return Path(done.stdout.strip()) if done.returncode == 0 and done.stdout.strip() else None


@lru_cache(maxsize=2)
def _font(bold: bool) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(font_file(bold)), _MEASURE_SIZE)


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
