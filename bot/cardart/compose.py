"""Pictures of several cards: a hand, a row of plays, a table — encoded, with their alt text."""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby

from PIL import Image

from bot.cardart import palette, png
from bot.cardart.faces import ASPECT, BACK, CLEAR, EMPTY, corner, face, height_for, mask, pieces
from bot.cardart.labels import label_image
from bot.cardart.layout import FAN, SPREAD, Group, Style, arrange
from bot.cardart.words import alt_text
from bot.cards import JOKER_RANK, new_deck, rank

CARD_WIDTH = 140
"""Default card width in pixels. A 12-card hand comes out 700–950 pixels wide: phones show it
about 400 wide but on screens of two or three device pixels per point, where the extra pixels
keep the corners crisp; desktops scale it down to their preview width."""

_CACHED = 512
"""Pictures kept, newest used first (about 8 KB each, so at most about 4 MB): the same cards are
drawn again and again — a hand looked at between turns, a streak or a table that a draw or a
pass leaves as it was — and a picture drawn before costs nothing."""


@dataclass(frozen=True, slots=True)
class CardImage:
    """An encoded picture, ready to attach: ``discord.File(io.BytesIO(data), filename,
    description=alt)``."""

    data: bytes
    alt: str
    width: int
    height: int
    filename: str = "cards.png"


def encode(image: Image.Image) -> bytes:
    return png.encode(image, palette.TRANSPARENT)


def _as_group(group: Group | Iterable[int]) -> Group:
    return group if isinstance(group, Group) else Group(group)


def render(
    rows: Sequence[Sequence[Group | Iterable[int]]],
    *,
    style: Style = SPREAD,
    highlight: Collection[int] | None = None,
    four_colour: bool = False,
    card_width: int = CARD_WIDTH,
) -> CardImage:
    """The general picture: ``rows`` top to bottom, each a sequence of groups (a ``Group``, or
    just the cards). When ``highlight`` is given, every card not in it is dimmed (a face-down
    card too, unless ``BACK`` is in it).

    ``style`` is ``SPREAD`` (groups apart: tables, streaks) or ``FAN`` (groups overlapping:
    hands). Cards are ``bot.cards`` codes, ``BACK`` for a face-down card.
    """
    groups = tuple(tuple(_as_group(g) for g in row) for row in rows)
    bright = None
    if highlight is not None:
        # only the highlighted cards that are drawn matter, so equal pictures share one entry
        # (every card bright is no highlight at all: a hand whose every card may be played)
        shown = {card for row in groups for group in row for card in group.cards} - {EMPTY}
        bright = frozenset(shown.intersection(highlight))
        if bright == shown:
            bright = None
    return _drawn(groups, style, bright, four_colour, card_width)


@lru_cache(maxsize=_CACHED)
def _drawn(groups: tuple[tuple[Group, ...], ...], style: Style,
           highlight: frozenset[int] | None, four_colour: bool, card_width: int) -> CardImage:
    layout = arrange(groups, style, card_width)
    # drawn one column to the right, so that the PNG's rows come out of it as they are
    canvas = palette.canvas((layout.width + 1, layout.height))
    side = corner(card_width)
    for p in layout.cards:
        dimmed = highlight is not None and p.card != EMPTY and p.card not in highlight
        # the next card covers all of this one but its strip and what its own rounded corners
        # leave uncovered
        keep = card_width if p.shown >= card_width else p.shown + side
        for piece, dx, opaque in pieces(p.card, card_width, four_colour, dimmed, keep):
            canvas.paste(piece, (p.x + 1 + dx, p.y), opaque)
    for text, x, y in layout.labels:
        canvas.paste(label_image(text, card_width), (x + 1, y))
    data = png.encode_framed(canvas, palette.TRANSPARENT)
    return CardImage(data, alt_text(groups), layout.width, layout.height)


def row_image(
    groups: Sequence[Group | Iterable[int]],
    *,
    style: Style = SPREAD,
    highlight: Collection[int] | None = None,
    four_colour: bool = False,
    card_width: int = CARD_WIDTH,
) -> CardImage:
    """One row of separate groups — the plays of a streak, spreads and the discard pile,
    players' revealed hands — wrapped onto lines of about equal width when wider than
    ``style.max_width`` (``dataclasses.replace(SPREAD, max_width=...)`` for another width)."""
    return render([groups], style=style, highlight=highlight, four_colour=four_colour,
                  card_width=card_width)


def hand_image(
    cards: Sequence[int],
    *,
    group_by: Callable[[int], Hashable] | None = rank,
    highlight: Collection[int] | None = None,
    four_colour: bool = False,
    card_width: int = CARD_WIDTH,
) -> CardImage:
    """A hand in the order given (sort it the game's way first), fanned, with a little more
    room between neighbours that differ by ``group_by`` (rank by default; ``None`` for an even
    fan). Long hands wrap onto a second line. No cards shows an empty place."""
    if group_by is None:
        groups = [Group(cards)]
    else:
        groups = [Group(run) for _, run in groupby(cards, key=group_by)] or [Group(())]
    return render([groups], style=FAN, highlight=highlight, four_colour=four_colour,
                  card_width=card_width)


EMOJI_FACES: tuple[int, ...] = (*new_deck(jokers=True), BACK)
"""The faces the bot keeps as application emojis: the 52 cards, the two jokers and the back."""
_EMOJI_ZOOM = 1.5
"""A corner emoji's card is this many times as wide as the square: its index fills the
height."""


def emoji_image(card: int, *, four_colour: bool = False, size: int = 128) -> bytes:
    """A card as a Discord application emoji: PNG on a transparent ``size`` × ``size`` square
    (Discord's limit is 256 KiB; this is a few KB).

    Text shows an emoji some 22 pixels high, where a whole card's index would be five pixels
    tall: so the emoji is the card's top-left corner, drawn large — the rank and suit that a
    fan of cards shows too, the picture any card player reads a card by. The jokers, whose
    corner spells only part of JOKER, and the back are drawn whole."""
    whole = card == BACK or rank(card) == JOKER_RANK
    width = int(size / ASPECT) if whole else int(size * _EMOJI_ZOOM)
    while whole and height_for(width) > size:
        width -= 1
    shown = face(card, width, four_colour)
    cover = mask(card, width)
    if not whole:
        # the corner: as high as the square, as wide as the index column (left of CLEAR)
        box = (0, 0, int(width * CLEAR), size)
        shown, cover = shown.crop(box), cover.crop(box)
    canvas = palette.canvas((size, size))
    x, y = (size - shown.width) // 2, (size - shown.height) // 2
    canvas.paste(shown, (x, y), cover)
    return encode(canvas)


def warm(card_width: int = CARD_WIDTH) -> None:
    """Draw every face, back and dimmed variant at ``card_width`` in both colour schemes now,
    so that no player's first picture pays for it (about 0.3 s at 140 px on one core, see
    ``scripts/bench_cards.py``)."""
    for card in [*new_deck(jokers=True), BACK, EMPTY]:
        for four_colour in (False, True):
            for dimmed in (False, True):
                face(card, card_width, four_colour, dimmed)
