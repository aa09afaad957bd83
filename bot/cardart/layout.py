"""Where each card and label goes: rows of groups of cards, overlapped, wrapped to a width.

A picture is a list of rows; a row is a list of groups (a rank of a hand, a spread, one play of a
streak, the discard pile); a group is cards that overlap so that only the left strip of each but
the last shows — enough for the corner index. A row too wide for ``Style.max_width`` wraps onto
more lines, breaking between groups into lines of about equal width. Geometry only: nothing here
draws.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.cardart.faces import EMPTY, height_for
from bot.cardart.labels import band_height, check_label, label_image


@dataclass(frozen=True, slots=True)
class Group:
    """Cards shown overlapping, left to right in the order given, optionally under a short
    ASCII ``label`` ("S1", "Discard"). No cards shows an empty slot."""

    cards: tuple[int, ...]
    label: str | None = None

    def __init__(self, cards: Iterable[int], label: str | None = None) -> None:
        object.__setattr__(self, "cards", tuple(cards))
        if label is not None:
            check_label(label)
        object.__setattr__(self, "label", label)


@dataclass(frozen=True, slots=True)
class Style:
    """Spacing, in card widths."""

    step: float
    """Advance from one card to the next within a group: the strip of a card that shows."""
    group_gap: float
    """Space between the last card of a group and the next group; negative overlaps them."""
    max_width: float
    """A row wider than this wraps onto more lines."""
    line_gap: float = 0.12
    """Space between the lines of a wrapped row, and between rows."""


FAN = Style(step=0.36, group_gap=-0.48, max_width=8.0)
"""A hand: groups overlap too, a little less than cards within a group (but enough that the
strip shows nothing more than the index, see ``faces.CLEAR``), so a 12-card hand stays under six
card widths and the ranks still stand apart."""

SPREAD = Style(step=0.36, group_gap=0.16, max_width=8.0)
"""A table: groups (spreads, plays, the discard pile) stand apart."""


@dataclass(frozen=True, slots=True)
class Placement:
    """A card (``EMPTY`` for an empty slot) at its top-left corner. ``shown`` is the width of
    its strip that no later card covers (the whole card when the next is an empty slot, which
    covers only its outline)."""

    card: int
    x: int
    y: int
    shown: int


@dataclass(frozen=True, slots=True)
class Layout:
    width: int
    height: int
    cards: tuple[Placement, ...]
    """In drawing order: later cards lie on top of earlier ones."""
    labels: tuple[tuple[str, int, int], ...] = field(default=())
    """(text, x, y) of each label's top-left corner."""


def _split(group: Group, style: Style, card_width: int) -> list[Group]:
    """A group too wide for one line, cut into pieces that fit (the label stays on the first)."""
    limit = round(style.max_width * card_width)
    fits = max(1, (limit - card_width) // round(style.step * card_width) + 1)
    cards = group.cards
    if len(cards) <= fits:
        return [group]
    pieces = [Group(cards[i : i + fits]) for i in range(0, len(cards), fits)]
    pieces[0] = Group(pieces[0].cards, group.label)
    return pieces


def _span(group: Group, style: Style, card_width: int) -> int:
    """How wide a group is: its cards, or its label if that is wider."""
    n = max(1, len(group.cards))
    cards = card_width + (n - 1) * round(style.step * card_width)
    if group.label is None:
        return cards
    return max(cards, label_image(group.label, card_width).width)


def _lines(groups: list[Group], style: Style, card_width: int) -> list[list[Group]]:
    """Break a row between groups into lines no wider than ``max_width``, of similar widths."""
    gap = round(style.group_gap * card_width)
    limit = round(style.max_width * card_width)
    spans = [_span(g, style, card_width) for g in groups]
    total = sum(spans) + gap * (len(spans) - 1)
    count = max(1, math.ceil((total + gap) / (limit + gap)))
    target = (total - gap * (count - 1)) / count
    lines: list[list[Group]] = [[]]
    width = 0
    for group, span in zip(groups, spans, strict=True):
        if lines[-1]:
            grown = width + gap + span
            # break when the line would overflow, or when it is already past its share and
            # more of this group would land past the target than before it
            if grown > limit or (len(lines) < count and width + gap + span / 2 > target):
                lines.append([])
                width = 0
        width = span if not lines[-1] else width + gap + span
        lines[-1].append(group)
    return lines


def arrange(rows: Sequence[Sequence[Group]], style: Style, card_width: int) -> Layout:
    """Place ``rows`` top to bottom; each row starts on a new line."""
    card_height = height_for(card_width)
    pad = max(2, round(card_width * 0.02))
    gap = round(style.group_gap * card_width)
    step = round(style.step * card_width)
    line_gap = round(style.line_gap * card_width)
    placements: list[Placement] = []
    labels: list[tuple[str, int, int]] = []
    width = 0
    y = pad
    for row in rows:
        pieces = [p for g in row for p in _split(g, style, card_width)]
        for line in _lines(pieces, style, card_width) if pieces else []:
            band = band_height(card_width) if any(g.label for g in line) else 0
            x = pad
            line_cards: list[tuple[int, int]] = []
            for group in line:
                if group.label:
                    labels.append((group.label, x, y))
                for i, card in enumerate(group.cards or (EMPTY,)):
                    line_cards.append((card, x + i * step))
                x += _span(group, style, card_width) + gap
            for i, (card, cx) in enumerate(line_cards):
                # an empty place covers nothing but its outline
                covered = i + 1 < len(line_cards) and line_cards[i + 1][0] != EMPTY
                nxt = line_cards[i + 1][1] if covered else cx + card_width
                placements.append(Placement(card, cx, y + band, min(card_width, nxt - cx)))
            width = max(width, x - gap)
            y += band + card_height + line_gap
    height = max(y - line_gap, pad) + pad
    return Layout(max(width, pad) + pad, height, tuple(placements), tuple(labels))
