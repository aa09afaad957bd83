"""A small line chart as a PNG (issue 34: a player's review), drawn with Pillow and the cards'
own font: one value per decision of the player, from the first to the last."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.cardart.text import font

WIDTH, HEIGHT = 640, 320
_LEFT, _RIGHT, _TOP, _BOTTOM = 64, 16, 40, 40
_INK = (40, 44, 52)
_GRID = (214, 218, 224)
_LINE = (37, 99, 235)
_MARK = (220, 38, 38)


def line_chart(values: Sequence[float], title: str, marked: Sequence[int] = (),
               low: float | None = None, high: float | None = None) -> bytes:
    """``values`` left to right under ``title``, the points at the indexes ``marked`` in red;
    the value axis runs from ``low`` to ``high`` (default: the values' own range)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.text((_LEFT, 10), title, font=font(16), fill=_INK)
    lo = min(values, default=0.0) if low is None else low
    hi = max(values, default=1.0) if high is None else high
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    width = WIDTH - _LEFT - _RIGHT
    height = HEIGHT - _TOP - _BOTTOM
    small = font(12)
    for i in range(5):
        value = lo + (hi - lo) * i / 4
        y = _TOP + height - height * i / 4
        draw.line([(_LEFT, y), (WIDTH - _RIGHT, y)], fill=_GRID)
        draw.text((8, y - 7), f"{value:.0f}", font=small, fill=_INK)
    n = len(values)

    def point(i: int, v: float) -> tuple[float, float]:
        x = _LEFT + (width * i / (n - 1) if n > 1 else width / 2)
        return x, _TOP + height - height * (v - lo) / (hi - lo)

    points = [point(i, v) for i, v in enumerate(values)]
    if len(points) > 1:
        draw.line(points, fill=_LINE, width=3)
    for i, (x, y) in enumerate(points):
        colour = _MARK if i in marked else _LINE
        r = 5 if i in marked else 3
        draw.ellipse([(x - r, y - r), (x + r, y + r)], fill=colour)
    for i in (0, n - 1) if n else ():
        draw.text((points[i][0] - 4, HEIGHT - _BOTTOM + 8), str(i + 1), font=small, fill=_INK)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
