"""Letters for the cards and labels, from the DejaVu Sans Condensed Bold font shipped in
``fonts/`` (Bitstream Vera licence, see ``fonts/LICENSE-DejaVu.txt``)."""

from __future__ import annotations

import io
from functools import cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

FONT_FILE = "DejaVuSansCondensed-Bold.ttf"


@cache
def _font_bytes() -> bytes:
    return (resources.files("bot.cardart") / "fonts" / FONT_FILE).read_bytes()


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    # the basic layout engine needs no libraqm, so the same glyphs come out on every install
    return ImageFont.truetype(
        io.BytesIO(_font_bytes()), size, layout_engine=ImageFont.Layout.BASIC
    )


def text_mask(text: str, height: int, max_width: int) -> Image.Image:
    """``text`` as a tight "L" mask whose ink is ``height`` tall, squeezed to ``max_width`` if
    wider (only "10" needs that)."""
    big = font(height * 2)
    x0, y0, x1, y1 = big.getbbox(text)
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=big, fill=255)
    width = round(mask.width * height / mask.height)
    return mask.resize((min(width, max_width), height), Image.Resampling.LANCZOS)


def line_mask(text: str, size: int) -> Image.Image:
    """``text`` set at font ``size`` on its line — cap height and descenders alike for every
    text, so labels of different words line up."""
    f = font(size)
    ascent, descent = f.getmetrics()
    mask = Image.new("L", (max(1, round(f.getlength(text))), ascent + descent), 0)
    ImageDraw.Draw(mask).text((0, 0), text, font=f, fill=255)
    return mask
