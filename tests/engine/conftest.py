"""Helpers for the Dubb engine tests: cards from text, seats, and positions built directly."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from bot.cards import JOKER_RANK, make, make_joker, parse_card
from bot.gamekit.contract import Seat
from bot.games.dubb import DubbEngine, DubbOptions

# player ids unlike seat indexes, so that mixing the two up fails loudly
A, B, C, D, E, F = 101, 102, 103, 104, 105, 106
NAMES = {A: "Anna", B: "Bo", C: "Cem", D: "Dita", E: "Eli", F: "Fay"}


def seats(n: int) -> list[Seat]:
    return [Seat(pid, NAMES[pid]) for pid in (A, B, C, D, E, F)[:n]]


def card(text: str, deck: int = 0) -> int:
    """``"7h"`` → the seven of hearts of pack ``deck``; ``"jk"``/``"jk2"`` → joker 0/1."""
    if text in ("jk", "jk2"):
        return make_joker(0 if text == "jk" else 1, deck)
    pattern = parse_card(text)
    assert pattern.rank != JOKER_RANK and pattern.suit is not None, text
    return make(pattern.rank, pattern.suit, deck)


def cards(text: str, deck: int = 0) -> list[int]:
    """``"7h 7s jk"`` → their codes, in that order."""
    return [card(t, deck) for t in text.split()]


def position(
    n: int,
    hands: list[str],
    *,
    to_move: int | None,
    draw: str = "",
    pile: Iterable[tuple[int, str]] = (),
    options: DubbOptions | None = None,
    **kwargs: object,
) -> DubbEngine:
    """A game of ``n`` players in a position given as text; ``draw`` bottom first."""
    return DubbEngine.from_position(
        seats(n),
        hands=[cards(h) for h in hands],
        draw_pile=cards(draw),
        pile=[(pid, cards(text)) for pid, text in pile],
        to_move=to_move,
        options=options,
        **kwargs,  # type: ignore[arg-type]
    )


def in_version_1(stored: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A Dubb game's stored form (version 2) in version 1, with ``rng``'s whole state for the
    count of numbers drawn."""
    version, internal, gauss = rng.getstate()
    old = {k: v for k, v in stored.items() if k != "rng_draws"}
    return {**old, "format_version": 1, "rng_state": [version, list(internal), gauss]}
