"""Short ASCII labels drawn above a group of cards ("S1", "Discard"), as small white tags.

Only printable ASCII up to ``MAX_LABEL`` characters is drawn: player names (any Unicode, any
length) belong in the message text and the alt text, never in the picture.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.cardart import palette
from bot.cardart.text import line_mask

MAX_LABEL = 12


def check_label(text: str) -> None:
    if not text or len(text) > MAX_LABEL or not all(" " <= ch <= "~" for ch in text):
        raise ValueError(f"a card label is 1..{MAX_LABEL} printable ASCII characters: {text!r}")


def band_height(card_width: int) -> int:
    """Height of the strip above a row that holds its labels, gap included."""
    return round(card_width * 0.36)


@lru_cache(maxsize=512)
def label_image(text: str, card_width: int) -> Image.Image:
    """The tag for ``text`` as a palette image (white, grey edge, black letters)."""
    check_label(text)
    ss = 4
    h = round(card_width * 0.3) * ss
    mask = line_mask(text, round(card_width * 0.22) * ss)
    pad = h // 3
    w = mask.width + 2 * pad
    tag = Image.new("RGB", (w, h), palette.WHITE)
    ImageDraw.Draw(tag).rounded_rectangle(
        (0, 0, w - 1, h - 1), radius=h // 3, outline=(128, 128, 134), width=ss
    )
    tag.paste(palette.BLACK, (pad, (h - mask.height) // 2), mask)
    shape = Image.new("L", (w, h), 0)
    ImageDraw.Draw(shape).rounded_rectangle((0, 0, w - 1, h - 1), radius=h // 3, fill=255)
    opaque = shape.reduce(ss).point(lambda v: 255 if v >= 128 else 0, "1")
    return palette.to_palette(tag.reduce(ss), opaque)
