"""Tonk card values and spreads: books and runs (T6), ace low only.

``bot.cards`` codes the ace as rank 14 (the Dubb order); Tonk counts it as 1 and lets runs start
at A-2-3 but never wrap K-A, so everything here works on the *Tonk rank* 1..13 instead. The
tables are indexed by card code so the engine's inner loops do no arithmetic per card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, pairwise

from bot.cards import ACE, new_deck

_CODES = range(64)


def _tonk_rank(card: int) -> int:
    r = card & 15
    if r < 2 or r > ACE:
        return 0
    return 1 if r == ACE else r


TONK_RANK: tuple[int, ...] = tuple(_tonk_rank(c) for c in _CODES)
"""Tonk rank 1 (ace) .. 13 (king) by card code; 0 for codes that are no Tonk card."""

VALUE: tuple[int, ...] = tuple(min(TONK_RANK[c], 10) for c in _CODES)
"""Count of a card (part A): ace 1, 2–10 face value, J Q K 10."""

SORT_KEY: tuple[int, ...] = tuple(TONK_RANK[c] * 4 + ((c >> 4) & 3) for c in _CODES)
"""Tonk order: by Tonk rank (ace low), then suit ♠ ♥ ♦ ♣."""

DECK_ORDER: tuple[int, ...] = tuple(new_deck())
"""The 52 cards of the one pack, no jokers (part A), in ``bot.cards``' fixed order."""

FULL_DECK: frozenset[int] = frozenset(DECK_ORDER)


def is_card(card: object) -> bool:
    """Whether ``card`` is the code of one of the 52 cards of a Tonk pack."""
    return type(card) is int and card in FULL_DECK


def tonk_rank(card: int) -> int:
    return TONK_RANK[card]


def card_value(card: int) -> int:
    return VALUE[card]


def hand_total(cards: Iterable[int]) -> int:
    """T2: the sum of the values of the cards in a hand."""
    return sum(map(VALUE.__getitem__, cards))


def card_code(trank: int, suit: int) -> int:
    """The ``bot.cards`` code of the card with Tonk rank ``trank`` in ``suit``."""
    return suit * 16 + (ACE if trank == 1 else trank)


def sort_cards(cards: Iterable[int]) -> tuple[int, ...]:
    """Cards in Tonk order — the canonical order of a spread and of a move's cards."""
    return tuple(sorted(cards, key=SORT_KEY.__getitem__))


def is_book(cards: Sequence[int]) -> bool:
    """T6: three or four cards of one rank (a book of five cannot exist in one pack)."""
    if not 3 <= len(cards) <= 4 or len(set(cards)) != len(cards):
        return False
    r = TONK_RANK[cards[0]]
    return r != 0 and all(TONK_RANK[c] == r for c in cards)


def is_run(cards: Sequence[int]) -> bool:
    """T6: three or more consecutive ranks of one suit, ace low only (A-2-3, never Q-K-A)."""
    if len(cards) < 3:
        return False
    s = cards[0] >> 4
    if any(c >> 4 != s for c in cards):
        return False
    ranks = sorted(TONK_RANK[c] for c in cards)
    if ranks[0] == 0:
        return False
    return all(b == a + 1 for a, b in pairwise(ranks))


def is_spread(cards: Sequence[int]) -> bool:
    """T6: a valid book or run."""
    return is_book(cards) or is_run(cards)


CARD_BIT: tuple[int, ...] = tuple(
    1 << (((c >> 4) & 3) * 16 + TONK_RANK[c]) if TONK_RANK[c] else 0 for c in _CODES
)
"""A card's bit in a hand's mask: 16 bits per suit, bit ``r`` of a suit for Tonk rank ``r``, so
bits 0, 14 and 15 of every suit stay clear and shifts never carry a run from one suit into the
next."""
SUIT_RANKS = 0x3FFE
"""The bits of the ranks within one suit's 16."""


_RANK_BITS: tuple[int, ...] = tuple(sum(1 << (s * 16 + r) for s in range(4)) for r in range(16))
"""The bits of every card of Tonk rank ``r``."""


def hand_mask(cards: Iterable[int]) -> int:
    """Distinct Tonk cards as one mask of their ``CARD_BIT``."""
    return sum(map(CARD_BIT.__getitem__, cards))


def _mask(cards: Sequence[int]) -> int | None:
    """The bits of ``cards``, or ``None`` when they repeat a card or hold a code that is no
    card (the quick answers below then leave the question to the full search)."""
    # a sum of powers of two has as many bits set as it has terms only if no two are equal
    mask = sum(map(CARD_BIT.__getitem__, cards))
    return mask if mask.bit_count() == len(cards) else None


def may_spread(mask: int) -> bool:
    """False only when the cards of ``mask`` (``hand_mask``) hold no three of a rank and no
    three in a row of a suit, i.e. form no spread; most hands do not, and this answers them with
    a few integer operations instead of ``spreads_in``'s search."""
    if mask & (mask >> 1) & (mask >> 2):
        return True
    a = mask & SUIT_RANKS
    b = (mask >> 16) & SUIT_RANKS
    c = (mask >> 32) & SUIT_RANKS
    d = mask >> 48
    return bool(a & b & (c | d) | c & d & (a | b))


def spreads_in(hand: Iterable[int]) -> list[tuple[int, ...]]:
    """Every spread (T6) that cards of ``hand`` can form, each in Tonk order, sorted.

    Books give every 3- and 4-card choice of a rank; runs give every stretch of three or more
    consecutive cards of a suit, so a hand holding ♠A-2-3-4 offers A-2-3, 2-3-4 and A-2-3-4.
    """
    if not isinstance(hand, list | tuple):
        hand = tuple(hand)
    mask = _mask(hand)
    if mask is not None and not may_spread(mask):
        return []
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, dict[int, int]] = {}
    for c in hand:
        r = TONK_RANK[c]
        by_rank.setdefault(r, []).append(c)
        by_suit.setdefault(c >> 4, {})[r] = c
    found: list[tuple[int, ...]] = []
    for cards in by_rank.values():
        if len(cards) >= 3:
            cards = sorted(cards, key=SORT_KEY.__getitem__)
            found.extend(combinations(cards, 3))
            if len(cards) == 4:
                found.append(tuple(cards))
    for ranks in by_suit.values():
        if len(ranks) < 3:
            continue
        r = 1
        while r <= 13:
            if r not in ranks:
                r += 1
                continue
            start = r
            while r in ranks:
                r += 1
            stretch = [ranks[x] for x in range(start, r)]
            n = len(stretch)
            for i in range(n - 2):
                for j in range(i + 3, n + 1):
                    found.append(tuple(stretch[i:j]))
    found.sort(key=lambda cards: [SORT_KEY[c] for c in cards])
    return found


def hit_mask(spread: Sequence[int]) -> int:
    """The cards that could hit ``spread`` (in Tonk order) as a mask (``CARD_BIT``): every card
    of a book's rank, the cards next to either end of a run. A single card hits the spread
    exactly when it is one of them."""
    first = spread[0]
    r = TONK_RANK[first]
    if TONK_RANK[spread[1]] == r:
        return _RANK_BITS[r]
    return CARD_BIT[first] >> 1 | CARD_BIT[spread[-1]] << 1


def may_hit(mask: int, spread: Sequence[int]) -> bool:
    """False only when the cards of ``mask`` (``hand_mask``) cannot hit ``spread``: most hands
    cannot, and this answers them without ``hits_on``'s search."""
    return bool(mask & hit_mask(spread))


def hits_on(hand: Iterable[int], spread: Sequence[int]) -> list[tuple[int, ...]]:
    """Every non-empty choice of ``hand`` cards that can hit ``spread`` (T6), in Tonk order.

    A book takes more cards of its rank up to four; a run grows at either end or both at once,
    never past the ace below or the king above.
    """
    if not isinstance(hand, list | tuple):
        hand = tuple(hand)
    mask = _mask(hand)
    if mask is not None and not may_hit(mask, spread):
        return []
    first = spread[0]
    r = TONK_RANK[first]
    if TONK_RANK[spread[1]] == r:
        room = 4 - len(spread)
        same = sorted((c for c in hand if TONK_RANK[c] == r), key=SORT_KEY.__getitem__)
        return [combo for k in range(1, room + 1) for combo in combinations(same, k)]
    suit = first >> 4
    held = {TONK_RANK[c]: c for c in hand if c >> 4 == suit}
    if not held:
        return []
    lo = r
    hi = TONK_RANK[spread[-1]]
    down: list[int] = []
    x = lo - 1
    while x >= 1 and x in held:
        down.append(held[x])
        x -= 1
    up: list[int] = []
    x = hi + 1
    while x <= 13 and x in held:
        up.append(held[x])
        x += 1
    options: list[tuple[int, ...]] = []
    for a in range(len(down) + 1):
        below = down[:a][::-1]
        for b in range(len(up) + 1):
            if a or b:
                options.append((*below, *up[:b]))
    return options


def is_three_aces(cards: Sequence[int]) -> bool:
    return len(cards) == 3 and all(TONK_RANK[c] == 1 for c in cards)


def required_spreads(hand: Iterable[int]) -> list[tuple[int, ...]]:
    """*Must spread* (T6): the spreads a hand may not keep — all but a book of exactly three aces.

    Four aces, or a run containing an ace, must be laid like any other spread.
    """
    return [s for s in spreads_in(hand) if not is_three_aces(s)]


def cards_in_spreads(hand: Iterable[int]) -> set[int]:
    """The cards of ``hand`` that belong to at least one spread the hand could form (T11)."""
    return {c for s in spreads_in(hand) for c in s}
