"""The alt text of a picture: its cards in words, for screen readers and for anyone whose client
shows no images."""

from __future__ import annotations

from collections.abc import Sequence

from bot.cardart.faces import BACK, EMPTY
from bot.cardart.layout import Group
from bot.cards import ACE, JACK, JOKER_RANK, KING, QUEEN

ALT_LIMIT = 1024
"""Discord's limit on an attachment's description."""

_RANK_WORDS = {JACK: "jack", QUEEN: "queen", KING: "king", ACE: "ace"}
_SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")


def card_words(card: int) -> str:
    """``7 of hearts``, ``queen of spades``, ``joker``, ``face-down card``."""
    if card == BACK:
        return "face-down card"
    if card == EMPTY:
        return "empty"
    r = card & 15
    if r == JOKER_RANK:
        return "joker"
    return f"{_RANK_WORDS.get(r, str(r))} of {_SUIT_WORDS[(card >> 4) & 3]}"


def emoji_name(card: int) -> str:
    """The name of the card's application emoji, which is what a screen reader reads in its
    place: its words joined by underscores (``7_of_hearts``, ``queen_of_spades``,
    ``face_down_card``), within Discord's 2–32 characters of ``[A-Za-z0-9_]``. The pack's two
    jokers are drawn in two inks, so their names say which: ``black_joker``, ``red_joker``."""
    if card != BACK and card & 15 == JOKER_RANK:
        return ("black_joker", "red_joker")[(card >> 4) & 1]
    return card_words(card).replace(" ", "_").replace("-", "_")


def _group_words(group: Group) -> list[str]:
    """The group as a list of phrases; the label leads the first."""
    words = [card_words(c) for c in group.cards] or ["no cards"]
    if group.label:
        words[0] = f"{group.label}: {words[0]}"
    return words


def alt_text(rows: Sequence[Sequence[Group]]) -> str:
    """Cards joined by commas, groups by semicolons, rows by full stops. Past ``ALT_LIMIT`` the
    text ends on a whole card and says how many more there are (only an enormous picture, some
    60 cards, gets there)."""
    parts = [[_group_words(g) for g in row] for row in rows if row]
    text = ". ".join("; ".join(", ".join(g) for g in row) for row in parts)
    if len(text) <= ALT_LIMIT:
        return text
    phrases = [w for row in parts for g in row for w in g]
    for keep in range(len(phrases) - 1, 0, -1):
        text = ", ".join(phrases[:keep]) + f" and {len(phrases) - keep} more cards"
        if len(text) <= ALT_LIMIT:
            return text
    return f"{len(phrases)} cards"
