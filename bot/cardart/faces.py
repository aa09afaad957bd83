"""Card faces and the card back, drawn with Pillow and cached per size, colour scheme and dimming.

The design is the "jumbo index" of card apps made for small screens: the rank large and bold in
the top-left corner with the suit symbol under it — the only part of a card that shows when cards
overlap — and a large suit symbol in the lower right. Jacks, queens and kings carry their letter
large in a tinted frame, jokers spell JOKER down the corner beside a star. Everything is drawn
four times too large and reduced, which anti-aliases the polygons, then mapped onto the shared
palette (``palette.py``).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.cardart import palette
from bot.cardart.palette import RGB
from bot.cardart.shapes import draw_star, draw_suit
from bot.cardart.text import text_mask
from bot.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JACK,
    JOKER_RANK,
    KING,
    QUEEN,
    RANK_NAMES,
    SPADES,
)

BACK = -1
"""Stands for a face-down card wherever a card code is expected."""
EMPTY = -2
"""Stands for an empty place (an empty discard pile): the outline of a card, hollow."""

ASPECT = 1.4
"""Height over width, the proportions of a poker-size card (63 × 88 mm)."""

_SS = 4
"""Faces are drawn this many times larger and then reduced: the reduction anti-aliases."""

_TWO_COLOUR = {SPADES: palette.BLACK, HEARTS: palette.RED, DIAMONDS: palette.RED,
               CLUBS: palette.BLACK}
_FOUR_COLOUR = {SPADES: palette.BLACK, HEARTS: palette.RED, DIAMONDS: palette.BLUE,
                CLUBS: palette.GREEN}
_JOKER_INKS = (palette.BLACK, palette.RED)
"""Joker 0 of a pack is drawn black, joker 1 red, like the two jokers of a real pack."""

_EDGE: RGB = (128, 128, 134)

CLEAR = 0.54
"""Left of this share of the width a face holds only its corner index: in a fan, where a card
shows only a strip under the next, the strip reads cleanly. ``layout.FAN`` relies on it."""
_RIGHT = 0.95
"""The right-hand picture (large suit, court frame, star) lies between ``CLEAR`` and this."""


def height_for(width: int) -> int:
    return round(width * ASPECT)


def ink_of(card: int, four_colour: bool) -> RGB:
    """The colour a card is printed in (the back has none and is not asked)."""
    if card & 15 == JOKER_RANK:
        return _JOKER_INKS[(card >> 4) & 1]
    return (_FOUR_COLOUR if four_colour else _TWO_COLOUR)[(card >> 4) & 3]


def _stamp(canvas: Image.Image, mask: Image.Image, x: float, y: float, ink: RGB) -> None:
    canvas.paste(ink, (round(x), round(y)), mask)


def _card_mask(w: int, h: int) -> Image.Image:
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=round(w * 0.075), fill=255)
    return mask


def _blank(w: int, h: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    canvas = Image.new("RGB", (w, h), palette.WHITE)
    draw = ImageDraw.Draw(canvas)
    edge = max(_SS, round(w / 90 * 1.2))
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=round(w * 0.075), outline=_EDGE, width=edge)
    return canvas, draw


def _draw_index(canvas: Image.Image, draw: ImageDraw.ImageDraw, card: int, ink: RGB) -> None:
    """The corner: rank over suit, sized to stay inside the strip an overlapping card leaves."""
    w = canvas.width
    left, top, column = 0.055 * w, 0.06 * w, 0.27 * w
    rank_h = round(0.29 * w)
    mask = text_mask(RANK_NAMES[card & 15], rank_h, round(column))
    _stamp(canvas, mask, left + (column - mask.width) / 2, top, ink)
    suit_top = top + rank_h + 0.055 * w
    size = 0.25 * w
    sx = left + (column - size) / 2
    draw_suit(draw, (card >> 4) & 3, (sx, suit_top, sx + size, suit_top + size * 1.08), ink)


def _draw_joker_index(canvas: Image.Image, ink: RGB) -> None:
    w = canvas.width
    left, top, column = 0.055 * w, 0.06 * w, 0.27 * w
    letter_h = round(0.165 * w)
    for i, letter in enumerate("JOKER"):
        mask = text_mask(letter, letter_h, round(column))
        _stamp(canvas, mask, left + (column - mask.width) / 2, top + i * letter_h * 1.3, ink)


def _draw_number(canvas: Image.Image, draw: ImageDraw.ImageDraw, card: int, ink: RGB) -> None:
    """2–10 and the ace: one large suit symbol (a little larger on the ace)."""
    w, h = canvas.size
    size = (_RIGHT - CLEAR if card & 15 == ACE else 0.37) * w
    cx, cy = (CLEAR + _RIGHT) / 2 * w, h - 0.5 * w
    draw_suit(draw, (card >> 4) & 3, (cx - size / 2, cy - size * 0.54, cx + size / 2,
                                      cy + size * 0.54), ink)


def _draw_court(canvas: Image.Image, draw: ImageDraw.ImageDraw, card: int, ink: RGB) -> None:
    """J, Q, K: the letter large in a tinted frame, the suit under it — unlike each other at a
    glance by the letter alone."""
    w, h = canvas.size
    frame = (CLEAR * w, 0.07 * w, (_RIGHT - 0.01) * w, h - 0.07 * w)
    draw.rectangle(frame, fill=palette.mix(ink, 0.12), outline=ink, width=round(0.03 * w))
    letter = text_mask(RANK_NAMES[card & 15], round(0.3 * w), round(0.32 * w))
    size = 0.26 * w
    gap = 0.12 * w
    fx = (frame[0] + frame[2]) / 2
    top = (frame[1] + frame[3] - letter.height - gap - size * 1.08) / 2
    _stamp(canvas, letter, fx - letter.width / 2, top, ink)
    top += letter.height + gap
    draw_suit(draw, (card >> 4) & 3, (fx - size / 2, top, fx + size / 2, top + size * 1.08), ink)


def _draw_joker(canvas: Image.Image, draw: ImageDraw.ImageDraw, ink: RGB) -> None:
    w, h = canvas.size
    _draw_joker_index(canvas, ink)
    size = (_RIGHT - CLEAR) * w
    cx, cy = (CLEAR + _RIGHT) / 2 * w, h - 0.5 * w
    draw_star(draw, (cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2), ink)


def _draw_back(canvas: Image.Image) -> None:
    """A blue panel in a white margin with a lattice of lighter lines."""
    w, h = canvas.size
    m = round(0.07 * w)
    pw, ph = w - 2 * m, h - 2 * m
    panel = Image.new("RGB", (pw, ph), palette.BLUE)
    draw = ImageDraw.Draw(panel)
    line, width, step = palette.mix(palette.BLUE, 0.55), max(1, round(0.025 * w)), 0.14 * w
    x = -float(ph)
    while x < pw:
        draw.line((x, 0, x + ph, ph), fill=line, width=width)
        draw.line((x, ph, x + ph, 0), fill=line, width=width)
        x += step
    shape = Image.new("L", (pw, ph), 0)
    ImageDraw.Draw(shape).rounded_rectangle((0, 0, pw - 1, ph - 1), radius=round(0.04 * w),
                                            fill=255)
    canvas.paste(panel, (m, m), shape)


def _draw(card: int, width: int, four_colour: bool) -> Image.Image:
    """The face at ``_SS`` times ``width``, in full colour."""
    w, h = width * _SS, height_for(width) * _SS
    if card == EMPTY:
        canvas = Image.new("RGB", (w, h), palette.WHITE)
        ImageDraw.Draw(canvas).rounded_rectangle(
            (0, 0, w - 1, h - 1), radius=round(w * 0.075), fill=_EDGE
        )
        return canvas
    canvas, draw = _blank(w, h)
    if card == BACK:
        _draw_back(canvas)
        return canvas
    ink = ink_of(card, four_colour)
    r = card & 15
    if r == JOKER_RANK:
        _draw_joker(canvas, draw, ink)
        return canvas
    _draw_index(canvas, draw, card, ink)
    if r in (JACK, QUEEN, KING):
        _draw_court(canvas, draw, card, ink)
    else:
        _draw_number(canvas, draw, card, ink)
    return canvas


def mask(card: int, width: int) -> Image.Image:
    """Where a face covers what lies under it, as a "1" mask: the whole card, or for ``EMPTY``
    only its outline."""
    return _mask(card == EMPTY, width)


@lru_cache(maxsize=64)
def _mask(hollow: bool, width: int) -> Image.Image:
    w, h = width * _SS, height_for(width) * _SS
    mask = _card_mask(w, h)
    if hollow:
        ring = max(2, round(width * 0.03)) * _SS
        inner = (ring, ring, w - 1 - ring, h - 1 - ring)
        ImageDraw.Draw(mask).rounded_rectangle(inner, radius=round(w * 0.06), fill=0)
    return mask.reduce(_SS).point(lambda v: 255 if v >= 128 else 0, "1")


def _canonical(card: int, four_colour: bool) -> tuple[int, bool]:
    """The card and scheme a face is drawn for: copies from a second pack share a face, and so
    do both schemes where they print alike (the back, jokers, spades, hearts)."""
    if card < 0:
        return card, False
    # drop the pack number; a joker keeps only which of the two jokers it is
    card = card & 63 if card & 15 else card & 16
    return card, four_colour and card & 15 != JOKER_RANK and (card >> 4) in (DIAMONDS, CLUBS)


def face(card: int, width: int, four_colour: bool = False, dimmed: bool = False) -> Image.Image:
    """The palette image of one face (``BACK`` for the back), ``width`` pixels wide.

    Cached: each face is drawn once per size, colour scheme and dimming, and shared where cards
    print alike. Treat the result as read-only.
    """
    return _face(*_canonical(card, four_colour), width, dimmed)


@lru_cache(maxsize=64)
def corner(width: int) -> int:
    """How many columns at each side of a card ``width`` wide its rounded corners leave partly
    transparent: every column further in is opaque from top to bottom."""
    full = _mask(False, width)
    height = full.height

    def opaque(column: int) -> bool:
        return full.crop((column, 0, column + 1, height)).getextrema() == (255, 255)

    for column in range(width // 2):
        if opaque(column) and opaque(width - 1 - column):
            return column
    return width // 2


Piece = tuple[Image.Image, int, "Image.Image | None"]
"""Part of a face to paste: the image, its offset from the face's left edge, and its mask
(``None``: opaque throughout, pasted as it is)."""


def pieces(card: int, width: int, four_colour: bool, dimmed: bool, keep: int) -> tuple[Piece, ...]:
    """The face cut into what needs pasting when only its left ``keep`` columns can show, each
    piece masked only where a corner makes it partly transparent.

    A masked paste costs Pillow about four times a plain one per pixel, and a card that the next
    in a fan covers shows little more than its strip: cutting the face so lets a 12-card hand
    paste about a third of the pixels it would, most of them plainly (issue 16). Cached like the
    faces."""
    return _pieces(*_canonical(card, four_colour), width, dimmed, min(keep, width))


@lru_cache(maxsize=4096)
def _pieces(card: int, four_colour: bool, width: int, dimmed: bool, keep: int) -> tuple[Piece, ...]:
    image, opaque = _face(card, four_colour, width, dimmed), _mask(card == EMPTY, width)
    if card == EMPTY:
        # hollow: transparent all through its middle, so pasted whole with its mask
        return ((image, 0, opaque),)
    height, side = image.height, corner(width)

    def cut(left: int, right: int, masked: bool) -> Piece:
        box = (left, 0, right, height)
        return image.crop(box), left, opaque.crop(box) if masked else None

    parts = [cut(0, min(side, keep), True)]
    if keep > side:
        parts.append(cut(side, min(keep, width - side), False))
    if keep > width - side:
        parts.append(cut(width - side, keep, True))
    return tuple(p for p in parts if p[0].width > 0)


@lru_cache(maxsize=2048)
def _face(card: int, four_colour: bool, width: int, dimmed: bool) -> Image.Image:
    rgb = _draw(card, width, four_colour).reduce(_SS)
    if dimmed:
        rgb = rgb.point(list(palette.DIM_LUT))
    return palette.to_palette(rgb, mask(card, width))
