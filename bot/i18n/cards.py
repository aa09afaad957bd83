"""Cards in running text, as players of each language name them (knekt, dam, kung, ess ·
knægt, dame, konge, es). On cards themselves and in compact views the figures stay
(``Q♦``, ``10♠``, ``🃏``) in every language: that is what players type back."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from bot import cards
from bot.i18n import NC_, trc, trn

_SINGULAR = {
    2: NC_("rank", "two"),
    3: NC_("rank", "three"),
    4: NC_("rank", "four"),
    5: NC_("rank", "five"),
    6: NC_("rank", "six"),
    7: NC_("rank", "seven"),
    8: NC_("rank", "eight"),
    9: NC_("rank", "nine"),
    10: NC_("rank", "ten"),
    11: NC_("rank", "jack"),
    12: NC_("rank", "queen"),
    13: NC_("rank", "king"),
    14: NC_("rank", "ace"),
}


def rank_word(lang: str, rank: int) -> str:
    """One card of ``rank`` in running text: "a king" is "king" here (``kung``, ``konge``)."""
    if rank == cards.JOKER_RANK:
        return trc(lang, "rank", "joker")
    return trc(lang, "rank", _SINGULAR[rank])


_PLURAL = {
    2: NC_("ranks", "twos"),
    3: NC_("ranks", "threes"),
    4: NC_("ranks", "fours"),
    5: NC_("ranks", "fives"),
    6: NC_("ranks", "sixes"),
    7: NC_("ranks", "sevens"),
    8: NC_("ranks", "eights"),
    9: NC_("ranks", "nines"),
    10: NC_("ranks", "tens"),
    11: NC_("ranks", "jacks"),
    12: NC_("ranks", "queens"),
    13: NC_("ranks", "kings"),
    14: NC_("ranks", "aces"),
}


def rank_plural(lang: str, rank: int) -> str:
    """Cards of ``rank`` in general: "kings" (``kungar``, ``konger``), for "Play kings"."""
    if rank == cards.JOKER_RANK:
        return trc(lang, "ranks", "jokers")
    return trc(lang, "ranks", _PLURAL[rank])


def card_count(lang: str, n: int) -> str:
    """"1 card", "2 cards", "2 kort"."""
    return trn(lang, "{n} card", "{n} cards", n)


_SUITS = (NC_("suit", "spades"), NC_("suit", "hearts"), NC_("suit", "diamonds"),
          NC_("suit", "clubs"))


@lru_cache(maxsize=1024)
def card_name(lang: str, card: int) -> str:
    """One card in words, for alt text: "queen of hearts", "hjärter dam", "hjerter dame".
    Kept: every hand picture's alt text names all its cards (issue 16), and the catalogs are
    fixed once loaded. 1,024 holds every card code (two packs, jokers) in the three
    languages."""
    rank = card & 15
    if rank == cards.JOKER_RANK:
        return trc(lang, "rank", "joker")
    suit = _SUITS[(card >> 4) & 3]
    return trc(lang, "card", "{rank} of {suit}", rank=rank_word(lang, rank),
               suit=trc(lang, "suit", suit))


def cards_in_words(lang: str, groups: Sequence[Sequence[int]], limit: int = 1024) -> str:
    """The cards of a picture in words, groups apart ("7 of hearts, 7 of spades; queen of
    clubs"), cut to Discord's ``limit`` on an attachment's description."""
    text = "; ".join(", ".join(card_name(lang, c) for c in group) for group in groups if group)
    return text if len(text) <= limit else text[: limit - 1] + "…"
