"""What a Dubb game holds: ``DubbState``, the plain data the engine's parts read and write.

The state is plain lists of ints so that ``legal_moves`` and ``apply`` stay fast: seats are
indexes into the seat order, cards are ``bot.cards`` codes, and the top of every pile is the end
of its list. ``DubbEngine`` (``engine.py``) extends it with the move flow and the views; the
parts (``deal``, ``legal``, ``pile``, ``turns``, ``leaving``, ``checks``, ``stored``,
``showing``, ``observation``) are functions of a ``DubbState`` and import only this module of
the engine's, so none of them depends on the engine that calls them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import ClassVar

from bot.cards import ACE
from bot.gamekit.contract import DealSource, Seat
from bot.games.dubb.events import EndReason
from bot.games.dubb.moves import Move
from bot.games.dubb.options import HAND_LIMIT, DubbOptions
from bot.games.dubb.status import NO_LIMIT
from bot.games.dubb.views import DubbPublicView

PilePlay = tuple[int, int, tuple[int, ...]]
"""(seat, rank, cards) of one play on the play pile."""


def rank_counts(hand: Iterable[int]) -> list[int]:
    """How many cards of each rank ``hand`` holds, indexed by rank (jokers at 0)."""
    counts = [0] * (ACE + 1)
    for c in hand:
        counts[c & 15] += 1
    return counts


def streak_length(pile: Sequence[PilePlay]) -> int:
    """D8: the number of plays at the top of the pile that share the top rank."""
    if not pile:
        return 0
    top = pile[-1][1]
    k = 0
    for _, r, _ in reversed(pile):
        if r != top:
            break
        k += 1
    return k


class DubbState:
    """The state of one game of Dubb, in slots: plain attributes, read and written directly by
    the engine and its parts (no properties, since playouts touch them millions of times)."""

    KIND: ClassVar[str] = "dubb"
    STATE_VERSION: ClassVar[int] = 3
    """Version 2 stores the shuffling RNG as the number of numbers drawn from the seed. A game
    stored as version 1 (the RNG's whole state) loads into version 2; one whose state is not
    its seed's keeps version 1. Version 3 is a game dealt from committed deals (``bot.deals``):
    it keeps its deal source (``deals``) instead of a seed; a game with an ``int`` seed stores
    as version 2 (or 1) as before. A game is one hand: its deal and every reshuffle are hand
    1's."""

    __slots__ = (
        "_card_total",
        "_cards_each",
        "_counts",
        "_deals",
        "_draw",
        "_draw_play",
        "_end_reason",
        "_first_move",
        "_hands",
        "_ids",
        "_index",
        "_left_order",
        "_limit",
        "_loser",
        "_move_count",
        "_n",
        "_offered",
        "_options",
        "_out_order",
        "_pile",
        "_pile_cards",
        "_public",
        "_ranking",
        "_rng",
        "_rng_draws",
        "_seats",
        "_seed",
        "_status",
        "_streak",
        "_strikes",
        "_to_move",
    )

    _card_total: int
    _cards_each: int
    _counts: list[list[int]]
    _deals: DealSource | None
    _draw: list[int]
    _draw_play: bool
    _end_reason: EndReason | None
    _first_move: bool
    _hands: list[list[int]]
    _ids: tuple[int, ...]
    _index: dict[int, int]
    _left_order: list[int]
    _limit: int
    _loser: int
    _move_count: int
    _n: int
    _offered: tuple[int, tuple[Move, ...]] | None
    _options: DubbOptions
    _out_order: list[int]
    _pile: list[PilePlay]
    _pile_cards: int
    _public: DubbPublicView | None
    _ranking: tuple[int, ...]
    _rng: random.Random
    _rng_draws: int | None
    _seats: tuple[Seat, ...]
    _seed: int
    _status: list[int]
    _streak: int
    _strikes: list[int]
    _to_move: int

    def __init__(
        self,
        *,
        seats: Sequence[Seat],
        options: DubbOptions,
        cards_each: int,
        seed: int,
        rng: random.Random,
        rng_draws: int | None,
        hands: list[list[int]],
        draw_pile: list[int],
        pile: list[PilePlay],
        status: list[int],
        out_order: list[int],
        left_order: list[int],
        to_move: int,
        first_move: bool,
        move_count: int,
        strikes: list[int],
        end: tuple[EndReason, list[int], int] | None,
        deals: DealSource | None = None,
    ) -> None:
        """Internal: use ``DubbEngine.new``, ``from_stored`` or ``from_position``. With
        ``deals``, shuffles come from there and ``seed``, ``rng`` and ``rng_draws`` are
        unused."""
        self._deals = deals
        self._seats = tuple(seats)
        self._ids = tuple(s.player_id for s in seats)
        self._index = {pid: i for i, pid in enumerate(self._ids)}
        self._n = len(seats)
        self._options = options
        self._cards_each = cards_each
        self._limit = HAND_LIMIT if options.hand_limit else NO_LIMIT
        self._draw_play = options.last_player_draw_play
        self._seed = seed
        self._rng = rng
        self._rng_draws = rng_draws
        self._hands = hands
        # bookkeeping for speed, kept up to date with the state and checked by check_invariants:
        # every seat's cards per rank (jokers at 0), the number of cards on the play pile, and
        # the number of cards in the game
        self._counts = [rank_counts(h) for h in hands]
        self._draw = draw_pile
        self._pile = pile
        self._pile_cards = sum(len(p[2]) for p in pile)
        self._card_total = len(draw_pile) + self._pile_cards + sum(len(h) for h in hands)
        # the moves ``legal`` last listed, and the public view, both kept until the next move
        self._offered = None
        self._public = None
        self._streak = streak_length(pile)
        self._status = status
        self._out_order = out_order
        self._left_order = left_order
        self._to_move = to_move
        self._first_move = first_move
        self._move_count = move_count
        self._strikes = strikes
        if end is None:
            self._end_reason = None
            self._ranking = ()
            self._loser = -1
        else:
            self._end_reason, ranking, self._loser = end
            self._ranking = tuple(ranking)
