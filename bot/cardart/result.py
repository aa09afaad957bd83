"""A daily's result as a small picture to share (issue 46): the game and day, the score against
the expert, a few lines (the streak, the percentile) and a sparkline of one number per turn.
It shows no card: the words and numbers come translated from the caller, who decides what may
be shown to those still to play the deal.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from bot.cardart.text import font

WIDTH, HEIGHT = 480, 200
_MARGIN = 16
_BACKGROUND = (32, 34, 40)
"""Dark enough to read as a card of its own on Discord's light and dark themes alike."""
_INK = (242, 243, 245)
_MUTED = (168, 172, 180)
_GOOD = (87, 242, 135)
_BAD = (237, 66, 69)
_SPARK = (88, 101, 242)
_LINE_SIZE = 15
_ROWS = 4
"""Rows of text beside the score (a long line wraps onto the next)."""
_COLOURS = 32
"""Colours the picture is stored with: its few inks and their anti-aliased edges."""


@dataclass(frozen=True, slots=True)
class ResultCard:
    title: str
    """The game and the day, in words."""
    score: int
    """The score against the expert: drawn signed, green above zero and red below."""
    score_text: str
    """``score`` as the reader's language writes it ("+1", "−2")."""
    caption: str
    """What the score is ("against the expert")."""
    lines: Sequence[str]
    """A few short lines beside the score (the streak, the percentile)."""
    spark: Sequence[int]
    """One number per turn, drawn as a line under its ``spark_label``; empty: no sparkline."""
    spark_label: str


def _fitted(text: str, size: int, width: float) -> ImageFont.FreeTypeFont:
    """The font of at most ``size`` that sets ``text`` within ``width`` (translations differ
    in length), never below 9 points."""
    while size > 9 and font(size).getlength(text) > width:
        size -= 1
    return font(size)


def _wrapped(text: str, size: int, width: float) -> list[str]:
    """``text`` broken between words into lines of at most ``width`` at font ``size``."""
    lines: list[str] = []
    for word in text.split():
        if lines and font(size).getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def _sparkline(draw: ImageDraw.ImageDraw, values: Sequence[int], box: tuple[int, int, int, int]
               ) -> None:
    left, top, right, bottom = box
    lo, hi = min(values), max(values)
    span = hi - lo or 1
    count = len(values)

    def point(i: int, v: int) -> tuple[float, float]:
        x = left + ((right - left) * i / (count - 1) if count > 1 else (right - left) / 2)
        return x, bottom - (bottom - top) * (v - lo) / span

    points = [point(i, v) for i, v in enumerate(values)]
    if count > 1:
        draw.line(points, fill=_SPARK, width=3, joint="curve")
    x, y = points[-1]
    draw.ellipse([(x - 3, y - 3), (x + 3, y + 3)], fill=_INK)


def result_card(card: ResultCard) -> bytes:
    """``card`` as a PNG of ``WIDTH`` × ``HEIGHT``."""
    image = Image.new("RGB", (WIDTH, HEIGHT), _BACKGROUND)
    draw = ImageDraw.Draw(image)
    inner = WIDTH - 2 * _MARGIN
    draw.text((_MARGIN, _MARGIN), card.title, font=_fitted(card.title, 20, inner), fill=_INK)
    colour = _GOOD if card.score > 0 else _BAD if card.score < 0 else _INK
    score_width = 150
    draw.text((_MARGIN, 46), card.score_text, font=_fitted(card.score_text, 60, score_width),
              fill=colour)
    draw.text((_MARGIN, 114), card.caption, font=_fitted(card.caption, 14, score_width),
              fill=_MUTED)
    left = _MARGIN + score_width + 12
    width = WIDTH - _MARGIN - left
    rows = [row for line in card.lines for row in _wrapped(line, _LINE_SIZE, width)]
    for n, row in enumerate(rows[:_ROWS]):
        draw.text((left, 54 + 20 * n), row, font=_fitted(row, _LINE_SIZE, width), fill=_INK)
    if card.spark:
        draw.text((_MARGIN, 140), card.spark_label, font=_fitted(card.spark_label, 12, inner),
                  fill=_MUTED)
        _sparkline(draw, card.spark, (_MARGIN + 4, 160, WIDTH - _MARGIN - 4, HEIGHT - 12))
    out = io.BytesIO()
    # a few inks only: a palette picture is a fraction of the RGB one's bytes
    image.quantize(_COLOURS, dither=Image.Dither.NONE).save(out, "PNG", optimize=True)
    return out.getvalue()
