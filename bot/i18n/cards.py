"""Cards in running text, as players of each language name them (knekt, dam, kung, ess ·
knægt, dame, konge, es). On cards themselves and in compact views the figures stay
(``Q♦``, ``10♠``, ``🃏``) in every language: that is what players type back."""

from __future__ import annotations

from collections.abc import Sequence

from bot import cards
from bot.i18n import trc, trn

_SINGULAR = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
    10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}


def rank_word(lang: str, rank: int) -> str:
    """One card of ``rank`` in running text: "a king" is "king" here (``kung``, ``konge``)."""
    if rank == cards.JOKER_RANK:
        return trc(lang, "rank", "joker")
    return trc(lang, "rank", _SINGULAR[rank])


_PLURAL = {
    2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens", 8: "eights",
    9: "nines", 10: "tens", 11: "jacks", 12: "queens", 13: "kings", 14: "aces",
}


def rank_plural(lang: str, rank: int) -> str:
    """Cards of ``rank`` in general: "kings" (``kungar``, ``konger``), for "Play kings"."""
    if rank == cards.JOKER_RANK:
        return trc(lang, "ranks", "jokers")
    return trc(lang, "ranks", _PLURAL[rank])


def rank_count(lang: str, rank: int, n: int) -> str:
    """``n`` cards of ``rank``: "1 king", "2 kings", "2 kungar", "2 konger"."""
    match rank:
        case 2:
            return trn(lang, "{n} two", "{n} twos", n)
        case 3:
            return trn(lang, "{n} three", "{n} threes", n)
        case 4:
            return trn(lang, "{n} four", "{n} fours", n)
        case 5:
            return trn(lang, "{n} five", "{n} fives", n)
        case 6:
            return trn(lang, "{n} six", "{n} sixes", n)
        case 7:
            return trn(lang, "{n} seven", "{n} sevens", n)
        case 8:
            return trn(lang, "{n} eight", "{n} eights", n)
        case 9:
            return trn(lang, "{n} nine", "{n} nines", n)
        case 10:
            return trn(lang, "{n} ten", "{n} tens", n)
        case 11:
            return trn(lang, "{n} jack", "{n} jacks", n)
        case 12:
            return trn(lang, "{n} queen", "{n} queens", n)
        case 13:
            return trn(lang, "{n} king", "{n} kings", n)
        case 14:
            return trn(lang, "{n} ace", "{n} aces", n)
    return trn(lang, "{n} joker", "{n} jokers", n)


def card_count(lang: str, n: int) -> str:
    """"1 card", "2 cards", "2 kort"."""
    return trn(lang, "{n} card", "{n} cards", n)


_SUITS = ("spades", "hearts", "diamonds", "clubs")


def card_name(lang: str, card: int) -> str:
    """One card in words, for alt text: "queen of hearts", "hjärter dam", "hjerter dame"."""
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
