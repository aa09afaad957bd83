"""T11's automatic move choices, shared by the engine's ``Timeout`` and the greedy player."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.tonk.spreads import SORT_KEY, TONK_RANK, VALUE, cards_in_spreads, hand_total


def discard_key(card: int) -> tuple[int, int, int]:
    """T11's order for the card to discard: highest value, then higher rank, then ♠ ♥ ♦ ♣."""
    return (VALUE[card], TONK_RANK[card], -(card >> 4))


DISCARD_ORDER: tuple[int, ...] = tuple(
    (VALUE[c] * 16 + TONK_RANK[c]) * 4 + 3 - ((c >> 4) & 3) for c in range(64)
)
"""``discard_key`` as one int per card code (the same order), for a quick ``max``."""


def legal_discards(hand: Sequence[int], taken: int | None) -> list[int]:
    """T5: the card just taken from the discard pile stays unless it is the last card."""
    if taken is None or len(hand) == 1:
        return list(hand)
    return [c for c in hand if c != taken]


def auto_discard(hand: Sequence[int], taken: int | None) -> int:
    """T11: the highest legal card outside every spread the hand could form (hits not counted),
    or the highest legal card when every legal card is in one."""
    legal = legal_discards(hand, taken)
    protected = cards_in_spreads(hand)
    free = [c for c in legal if c not in protected]
    return max(free or legal, key=DISCARD_ORDER.__getitem__)


def spread_order_key(cards: Sequence[int]) -> tuple[int, int, tuple[int, ...]]:
    """T11 lays the largest total first; equal totals: more cards, then the higher cards."""
    return (hand_total(cards), len(cards), tuple(sorted((SORT_KEY[c] for c in cards),
                                                        reverse=True)))


def largest_spread(spreads: Sequence[Sequence[int]]) -> tuple[int, ...]:
    return tuple(max(spreads, key=spread_order_key))
