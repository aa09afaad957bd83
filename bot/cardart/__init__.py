"""Pictures of playing cards, drawn by the project with Pillow: faces, hands and tables.

Pure rendering: it knows ``bot.cards`` codes and nothing of Discord or of the games, whose own
packages compose these primitives into their screens. Every function returns encoded PNG bytes
with the alt text that names the cards.

- ``hand_image(cards, ...)`` — a player's hand, fanned, grouped by rank, legal cards highlighted.
- ``row_image(groups, ...)`` — one row of separate groups: a streak of plays, a table's spreads
  and discard pile; wraps onto more lines when wide.
- ``render(rows, style=..., ...)`` — the general form: several rows (revealed hands, a table in
  rows), overlapping like a hand (``FAN``) or apart (``SPREAD``).
- ``emoji_image(card)`` — one face on a 128 × 128 square, for an application emoji; the
  faces kept as emojis are ``EMOJI_FACES``, each named ``emoji_name(card)``.

Faces are drawn on first use and kept in memory per card width, colour scheme and dimming;
``warm()`` draws a whole deck ahead of time.
"""

from bot.cardart.compose import (
    CARD_WIDTH,
    EMOJI_FACES,
    CardImage,
    emoji_image,
    hand_image,
    render,
    row_image,
    warm,
)
from bot.cardart.faces import BACK, face
from bot.cardart.layout import FAN, SPREAD, Group, Style
from bot.cardart.words import ALT_LIMIT, card_words, emoji_name

__all__ = [
    "ALT_LIMIT",
    "BACK",
    "CARD_WIDTH",
    "EMOJI_FACES",
    "FAN",
    "SPREAD",
    "CardImage",
    "Group",
    "Style",
    "card_words",
    "emoji_image",
    "emoji_name",
    "face",
    "hand_image",
    "render",
    "row_image",
    "warm",
]
