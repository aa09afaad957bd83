"""Computer strategies for Dubb. A strategy sees only what its seat may see (D14): a
``DubbObservation`` gives its own hand, its legal moves and the public view, nothing else."""

from __future__ import annotations

import random
from typing import Protocol

from bot.games.dubb.engine import DubbObservation
from bot.games.dubb.moves import DRAW_PLAY, Move, Play
from bot.games.dubb.smart import smart_strategy


class Strategy(Protocol):
    """Chooses one of ``me.legal_moves`` for the player to move. ``rng`` is the strategy's own
    seeded randomness, so simulations are reproducible."""

    def __call__(self, me: DubbObservation, rng: random.Random) -> Move: ...


def random_strategy(me: DubbObservation, rng: random.Random) -> Move:
    """Uniform over the legal moves."""
    moves = me.legal_moves
    return moves[int(rng.random() * len(moves))]


def greedy_strategy(me: DubbObservation, rng: random.Random) -> Move:
    """Dub when possible (every natural of the top rank, else every joker), otherwise play all
    naturals of the lowest legal rank, otherwise draw-and-play (D12), draw or pass."""
    moves = me.legal_moves
    plays = [m for m in moves if isinstance(m, Play)]
    if plays:
        top = me.top_rank
        dubs = [m for m in plays if m.rank == top]
        if dubs:
            natural = [m for m in dubs if m.jokers == 0]
            if natural:
                return max(natural, key=lambda m: m.naturals)
            return max(dubs, key=lambda m: m.jokers)
        low = min(m.rank for m in plays)
        return max((m for m in plays if m.rank == low and m.jokers == 0),
                   key=lambda m: m.naturals)
    # legal_moves lists the draw or the pass first (D5)
    return DRAW_PLAY if DRAW_PLAY in moves else moves[0]


STRATEGIES: dict[str, Strategy] = {
    "random": random_strategy, "greedy": greedy_strategy, "smart": smart_strategy,
}

__all__ = ["STRATEGIES", "Strategy", "greedy_strategy", "random_strategy", "smart_strategy"]
