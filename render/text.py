"""Fonts shipped in data/fonts (DejaVu Sans, Bitstream Vera licence: data/fonts/LICENSE-DejaVu.txt)."""

from __future__ import annotations

from functools import cache

from PIL import ImageFont

from render.geometry import DATA_DIR

FONT_DIR = DATA_DIR / "fonts"
BOLD = "DejaVuSans-Bold.ttf"
CONDENSED_BOLD = "DejaVuSansCondensed-Bold.ttf"


@cache
def font(size: int, face: str = BOLD) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A TrueType font at ``size`` pixels, loaded once per size.

    Falls back to Pillow's built-in font if the file is missing, so a broken install still renders.
    """
    size = max(6, int(size))
    path = FONT_DIR / face
    if path.is_file():
        return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)  # a bitmap font when Pillow has no FreeType
