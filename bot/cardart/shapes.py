"""The suit symbols (and the joker's star) as vector shapes, so no font has to carry them.

Each shape is drawn into a box on an ``ImageDraw`` as a union of circles and polygons. The four
silhouettes differ without colour — the heart and the spade are mirror images apart from the
spade's stem, the diamond is all straight edges, the club is three round leaves — which is what
makes the suits colour-blind safe.
"""

from __future__ import annotations

import math

from PIL import ImageDraw

from bot.cards import CLUBS, DIAMONDS, HEARTS, SPADES

Box = tuple[float, float, float, float]
Point = tuple[float, float]
Fill = int | tuple[int, int, int]


def _tangent_point(centre: Point, radius: float, outside: Point, side: int) -> Point:
    """Where a line from ``outside`` touches the circle; ``side`` ±1 picks which of the two."""
    cx, cy = centre
    dx, dy = outside[0] - cx, outside[1] - cy
    dist = math.hypot(dx, dy)
    angle = math.atan2(dy, dx) + side * math.acos(radius / dist)
    return cx + radius * math.cos(angle), cy + radius * math.sin(angle)


class _Pen:
    """Draws in unit coordinates (0..1 across the box, y down), optionally upside down."""

    def __init__(self, draw: ImageDraw.ImageDraw, box: Box, fill: Fill) -> None:
        self.draw, self.fill = draw, fill
        self.x0, self.y0 = box[0], box[1]
        self.w, self.h = box[2] - box[0], box[3] - box[1]

    def at(self, p: Point) -> Point:
        return self.x0 + p[0] * self.w, self.y0 + p[1] * self.h

    def circle(self, centre: Point, radius: float) -> None:
        cx, cy = self.at(centre)
        rx, ry = radius * self.w, radius * self.h
        self.draw.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=self.fill)

    def polygon(self, points: list[Point]) -> None:
        self.draw.polygon([self.at(p) for p in points], fill=self.fill)


def _lobes(pen: _Pen, tip: Point, lobe_y: float, radius: float, cx: float = 0.5) -> None:
    """Two round lobes joined by straight sides to a point: the body of a heart or spade."""
    left, right = (cx - 0.5 + radius, lobe_y), (cx + 0.5 - radius, lobe_y)
    pen.circle(left, radius)
    pen.circle(right, radius)
    down = 1 if tip[1] > lobe_y else -1
    lt = _tangent_point(left, radius, tip, down)
    rt = _tangent_point(right, radius, tip, -down)
    pen.polygon([left, lt, tip, rt, right])


def _heart(pen: _Pen) -> None:
    _lobes(pen, (0.5, 0.98), 0.29, 0.255)


def _spade(pen: _Pen) -> None:
    _lobes(pen, (0.5, 0.0), 0.6, 0.24)
    _stem(pen, 0.56)


def _diamond(pen: _Pen) -> None:
    pen.polygon([(0.5, 0.0), (0.92, 0.5), (0.5, 1.0), (0.08, 0.5)])


def _club(pen: _Pen) -> None:
    # three round leaves with deep notches between them: at small sizes the notches and the
    # round top are what tell a club from a spade
    r = 0.215
    pen.circle((0.5, 0.215), r)
    pen.circle((0.215, 0.6), r)
    pen.circle((0.785, 0.6), r)
    pen.polygon([(0.5, 0.35), (0.36, 0.6), (0.5, 0.7), (0.64, 0.6)])
    _stem(pen, 0.55)


def _stem(pen: _Pen, top: float) -> None:
    """A flared foot: narrow where it meets the body, wide at the bottom."""
    pen.polygon([(0.42, top), (0.58, top), (0.6, 0.92), (0.7, 1.0), (0.3, 1.0), (0.4, 0.92)])


_SHAPES = {SPADES: _spade, HEARTS: _heart, DIAMONDS: _diamond, CLUBS: _club}


def draw_suit(draw: ImageDraw.ImageDraw, suit: int, box: Box, fill: Fill) -> None:
    _SHAPES[suit](_Pen(draw, box, fill))


def draw_star(draw: ImageDraw.ImageDraw, box: Box, fill: Fill) -> None:
    """A five-pointed star filling ``box``: the joker's emblem."""
    pen = _Pen(draw, box, fill)
    points = []
    for i in range(10):
        radius = 0.5 if i % 2 == 0 else 0.2
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((0.5 + radius * math.cos(angle), 0.53 + radius * math.sin(angle)))
    pen.polygon(points)
