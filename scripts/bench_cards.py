"""Benchmark the card pictures (not a test): render time with the faces drawn (but no finished
picture kept: each run draws and encodes its picture), bytes per picture, and the cold cost of
drawing the faces.

    .venv/bin/python scripts/bench_cards.py [--runs N] [--width PX]

Budget (from the issue): a 12-card hand at most 15 ms p99, a table at most 20 ms p99, one core,
caches warm; every picture at most 100 KB. Each case is rendered ``--runs`` times (the first,
warming run not counted) with random cards from a fixed seed; "cold" is a fresh process's first
picture and the drawing of every face by ``warm()``, both measured before anything else.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.cardart import (
    BACK,
    CARD_WIDTH,
    FAN,
    CardImage,
    Group,
    compose,
    hand_image,
    render,
    row_image,
    warm,
)
from bot.cards import new_deck, rank, sorted_hand
from bot.games.tonk.spreads import sort_cards

BUDGET_MS = {"hand": 15.0, "table": 20.0}
MAX_BYTES = 100_000


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def hand_case(rng: random.Random, n: int, width: int) -> Callable[[], CardImage]:
    cards = sorted_hand(rng.sample(new_deck(decks=2, jokers=True), n))
    legal = {c for c in cards if rank(c) == rank(cards[len(cards) // 2])}
    return lambda: hand_image(cards, highlight=legal, card_width=width)


def streak_case(rng: random.Random, width: int) -> Callable[[], CardImage]:
    """Six plays of two or three cards each, the last one lit."""
    deck = new_deck(decks=2, jokers=True)
    rng.shuffle(deck)
    plays = [deck[i * 3 : i * 3 + rng.choice((2, 3))] for i in range(6)]
    lit = set(plays[-1])
    return lambda: row_image(plays, highlight=lit, card_width=width)


def table_case(rng: random.Random, width: int) -> Callable[[], CardImage]:
    """Six labelled spreads of three or four cards, the discard pile and the stock."""
    deck = new_deck()
    rng.shuffle(deck)
    groups = [Group(sort_cards(deck[i * 4 : i * 4 + rng.choice((3, 4))]), f"S{i + 1}")
              for i in range(6)]
    groups += [Group([deck[-1]], "Discard"), Group([BACK], "Stock")]
    return lambda: row_image(groups, card_width=width)


def revealed_case(rng: random.Random, width: int) -> Callable[[], CardImage]:
    """Four players' hands of five cards, one row each, as at the end of a Tonk hand."""
    deck = new_deck()
    rng.shuffle(deck)
    rows = [[Group(sort_cards(deck[i * 5 : i * 5 + 5]))] for i in range(4)]
    return lambda: render(rows, style=FAN, card_width=width)


def revealed_grid_case(rng: random.Random, width: int) -> Callable[[], CardImage]:
    """The same four hands as one row of labelled groups: wraps into a 2 × 2 grid."""
    deck = new_deck()
    rng.shuffle(deck)
    groups = [Group(sort_cards(deck[i * 5 : i * 5 + 5]), f"P{i + 1}") for i in range(4)]
    return lambda: row_image(groups, card_width=width)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--width", type=int, default=CARD_WIDTH)
    args = parser.parse_args()
    rng = random.Random(7)
    width = args.width

    first = hand_case(rng, 12, width)
    t0 = time.perf_counter()
    first()
    cold_first = time.perf_counter() - t0
    t0 = time.perf_counter()
    warm(width)
    cold_all = time.perf_counter() - t0
    print(f"card width {width} px, {args.runs} runs per case")
    print(f"cold: first 12-card hand in a fresh process {cold_first * 1000:7.1f} ms "
          f"(font, palette, its 24 faces); every other face, back and dimmed variant in both "
          f"schemes (warm()) {cold_all * 1000:7.1f} ms")
    print()

    cases: list[tuple[str, str, Callable[[], CardImage]]] = [
        ("hand", "hand, 5 cards", hand_case(rng, 5, width)),
        ("hand", "hand, 12 cards", hand_case(rng, 12, width)),
        ("hand", "hand, 25 cards", hand_case(rng, 25, width)),
        ("hand", "hand, 30 cards", hand_case(rng, 30, width)),
        ("table", "Dubb streak, 6 plays", streak_case(rng, width)),
        ("table", "Tonk table, 6 spreads + discard + stock", table_case(rng, width)),
        ("table", "Tonk revealed hands, 4 rows", revealed_case(rng, width)),
        ("table", "Tonk revealed hands, 2 x 2 grid", revealed_grid_case(rng, width)),
    ]
    print(f"{'picture':42} {'p50':>8} {'p99':>8} {'max':>8} {'budget':>7} {'bytes':>7} "
          f"{'size':>10}")
    failed = False
    for kind, name, case in cases:
        image = case()
        times = []
        for _ in range(args.runs):
            compose._drawn.cache_clear()
            t0 = time.perf_counter()
            case()
            times.append((time.perf_counter() - t0) * 1000)
        p99 = pct(times, 99)
        ok = p99 <= BUDGET_MS[kind] and len(image.data) <= MAX_BYTES
        failed |= not ok
        print(f"{name:42} {statistics.median(times):6.2f}ms {p99:6.2f}ms {max(times):6.2f}ms "
              f"{BUDGET_MS[kind]:5.0f}ms {len(image.data):7} {image.width:4}x{image.height:<5}"
              f"{'' if ok else '  OVER BUDGET'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
