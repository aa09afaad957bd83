"""The cards of a Dubb game and their shuffles: the packs (D1), who starts (D4), the seeded
shuffle of the deal (D2) and of every pile turn, and how a stored game's RNG is found again.

A game is one hand: its deal and every reshuffle are hand 1's of its committed deals
(``bot.deals``), or, for a game with an ``int`` seed, draws of one Mersenne Twister.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any

from bot.cards import JOKER_RANK, new_deck
from bot.games.dubb.state import DubbState


@cache
def packs(decks: int, jokers: bool) -> tuple[int, ...]:
    """Every card of the table's packs (D1): ``new_deck``, made once."""
    return tuple(new_deck(decks, jokers))


@cache
def packs_set(decks: int, jokers: bool) -> frozenset[int]:
    return frozenset(packs(decks, jokers))


def starter(hands: Sequence[Sequence[int]]) -> int:
    """D4: the seat whose sorted ranks (jokers left out) are lexicographically lowest; a hand of
    only jokers comes after every other; exact ties go to the earlier seat."""

    def key(i: int) -> tuple[int, list[int], int]:
        ranks = sorted(c & 15 for c in hands[i] if c & 15 != JOKER_RANK)
        return (0 if ranks else 1, ranks, i)

    return min(range(len(hands)), key=key)


def shuffle_cards(rng: random.Random, cards: list[int]) -> None:
    """A seeded uniform shuffle in place: a fresh random key per card, drawn in the cards'
    order, then the cards sorted by (key, card). It is about three times faster than
    ``random.shuffle`` (whose per-card ``_randbelow`` runs in Python), which matters because
    every pile turn shuffles the draw pile; every stored game was shuffled this way."""
    rand = rng.random
    keyed = sorted([(rand(), c) for c in cards])
    cards[:] = [c for _, c in keyed]


def shuffle(game: DubbState, cards: list[int]) -> None:
    """Shuffle ``cards`` (the draw pile) in place the way ``game`` shuffles: from its committed
    deals, or from its RNG, counting the numbers drawn for the stored form."""
    if game._deals is not None:
        game._deals.shuffle(1, cards)
        return
    shuffle_cards(game._rng, cards)
    if game._rng_draws is not None:
        game._rng_draws += len(cards)


SEARCHED_DRAWS = 100_000
"""How far ``draws_to`` looks: some hundred times a long game's draws, about 7 ms at most."""


def draws_to(seed: int, state: tuple[Any, ...]) -> int | None:
    """How many numbers ``random.Random(seed).random()`` had drawn when the generator was in
    ``state``, if that is what it came from (else ``None``).

    Each number takes two of the Mersenne Twister's 624 words, and the state records the
    position of the next word, so only every 312th count can match: the search steps through
    those, a few microseconds each."""
    _, internal, gauss = state
    position = internal[-1]
    if gauss is not None or position % 2:
        return None
    rng = random.Random(seed)
    count = position // 2 % 312
    draw_numbers(rng, count)
    while count <= SEARCHED_DRAWS:
        if rng.getstate()[1] == internal:
            return count
        draw_numbers(rng, 312)
        count += 312
    return None


def draw_numbers(rng: random.Random, count: int) -> None:
    """Move ``rng`` on by ``count`` numbers, as ``count`` cards shuffled would."""
    draw = rng.random
    for _ in range(count):
        draw()
