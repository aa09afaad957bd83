"""Computer strategies for Dubb. A strategy sees only what its seat may see (D14): a
``DubbObservation`` gives its own hand, its legal moves and the public view, nothing else.

Every Dubb strategy decides from the observation alone (``remembers`` is false): the public view
already holds everything the table has shown, so there is nothing worth remembering."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter
from typing import Any, ClassVar

from bot.gamekit.contract import Strategy
from bot.gamekit.search import ExpertStrategy
from bot.games.dubb.moves import DRAW_PLAY, Move, Play
from bot.games.dubb.observation import DubbObservation
from bot.games.dubb.search import SEARCH
from bot.games.dubb.smart import smart_strategy


class _Stateless:
    """A Dubb strategy: one decision function of the seat's observation and ``rng``."""

    name: ClassVar[str]
    remembers: ClassVar[bool] = False

    def choose(self, view: DubbObservation, rng: random.Random) -> Move:
        raise NotImplementedError

    def remember(self, events: Sequence[Mapping[str, Any]]) -> None:
        """Nothing to remember: see the module docstring."""


class RandomStrategy(_Stateless):
    """Uniform over the legal moves."""

    name = "random"

    def choose(self, view: DubbObservation, rng: random.Random) -> Move:
        moves = view.legal_moves  # random_move, without a call: simulators run it millions of times
        return moves[int(rng.random() * len(moves))]


class GreedyStrategy(_Stateless):
    """See ``greedy_move``."""

    name = "greedy"

    def choose(self, view: DubbObservation, rng: random.Random) -> Move:
        return greedy_move(view, rng)


class SmartStrategy(_Stateless):
    """See ``bot.games.dubb.smart``."""

    name = "smart"

    def choose(self, view: DubbObservation, rng: random.Random) -> Move:
        return smart_strategy(view, rng)


def random_move(me: DubbObservation, rng: random.Random) -> Move:
    """Uniform over the legal moves."""
    moves = me.legal_moves
    return moves[int(rng.random() * len(moves))]


def greedy_move(me: DubbObservation, rng: random.Random) -> Move:
    """Dub when possible (every natural of the top rank, else every joker), otherwise play all
    naturals of the lowest legal rank, otherwise draw-and-play (D12), draw or pass."""
    moves = me.legal_moves
    plays = [m for m in moves if type(m) is Play]
    if plays:
        top = me.top_rank
        dubs = [m for m in plays if m.rank == top]
        if dubs:
            natural = [m for m in dubs if m.jokers == 0]
            if natural:
                return max(natural, key=_NATURALS)
            return max(dubs, key=_JOKERS)
        low = min([m.rank for m in plays])
        return max([m for m in plays if m.rank == low and m.jokers == 0], key=_NATURALS)
    # legal_moves lists the draw or the pass first (D5)
    return DRAW_PLAY if DRAW_PLAY in moves else moves[0]


_NATURALS = attrgetter("naturals")
_JOKERS = attrgetter("jokers")

def expert_strategy() -> ExpertStrategy:
    """The searching player (issue 34, ``bot.games.dubb.search``) at its default budget."""
    return ExpertStrategy(SEARCH)


STRATEGIES: dict[str, Callable[[], Strategy]] = {
    "random": RandomStrategy, "greedy": GreedyStrategy, "smart": SmartStrategy,
    "expert": expert_strategy,
}
