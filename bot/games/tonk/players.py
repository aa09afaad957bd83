"""Computer players for Tonk: random, greedy and smart (``bot.games.tonk.smart``), all deciding
from a ``SeatView`` — exactly what their seat may see (the base class and ``CardMemory`` are in
``bot.games.tonk.strategy``).

To run one (the simulator does this; so does a table with computer seats): make it once per seat
with ``STRATEGIES[name]()``, show it every event of the table as its seat saw it,
``player.remember([seat_form(event_to_dict(e), seat) for e in events])`` (``opening_events``
included), and ask ``player.choose(table.observe(seat), rng)`` whenever that seat is to move;
``apply`` the answer. A player made afresh in the middle of a hand (after a restart) still plays
legal moves from the view alone; to give it back its memory, show it the hand's logged events.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from operator import itemgetter

from bot.gamekit.search import ExpertStrategy
from bot.games.tonk.autoplay import DISCARD_ORDER, spread_order_key
from bot.games.tonk.moves import (
    DealNextHand,
    Discard,
    DrawDiscard,
    DrawStock,
    Drop,
    EndHand,
    Hit,
    Move,
    Spread,
)
from bot.games.tonk.search import SEARCH
from bot.games.tonk.smart import SmartStrategy
from bot.games.tonk.spreads import (
    CARD_BIT,
    VALUE,
    hand_mask,
    hand_total,
    may_hit,
    may_spread,
    spreads_in,
)
from bot.games.tonk.strategy import CardMemory, Strategy
from bot.games.tonk.terms import HAND_OVER, START
from bot.games.tonk.views import SeatView


class RandomStrategy(Strategy):
    """Uniform over the legal moves."""

    name = "random"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        legal = view.legal
        return legal[int(rng.random() * len(legal))]


DROP_POINTS_PER_CARD = 2
"""Greedy drops when its total is at most this many points per card of the shortest other hand."""


class GreedyStrategy(Strategy):
    """Lays every spread and hit it can, takes the discard when it completes a spread or hits one
    on the table, discards its highest unmatched card (T11's order), drops when its total is low
    against the number of cards the others hold, and ends the hand when the stock is out."""

    name = "greedy"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        legal = view.legal
        if view.phase is HAND_OVER:
            return DealNextHand()
        if view.phase is START:
            return self._start(view, legal)
        # the listed moves themselves are returned, so the table need not check them again
        spreads = [m for m in legal if type(m) is Spread]
        if spreads:
            return max(spreads, key=lambda m: spread_order_key(m.cards))
        hits = [m for m in legal if type(m) is Hit]
        if hits:
            return max(hits, key=lambda m: (sum(VALUE[c] for c in m.cards), len(m.cards),
                                            -m.spread_id))
        # no spread is listed, so the hand holds none and T11's order (auto_discard) is simply
        # the highest of the legal discards
        discards = [m for m in legal if type(m) is Discard]
        return max(discards, key=lambda m: DISCARD_ORDER[m.card])

    def _start(self, view: SeatView, legal: tuple[Move, ...]) -> Move:
        listed = {type(m): m for m in legal}
        drop = listed.get(Drop)
        if drop is not None:
            fewest = min(map(_SIZE, view.hand_sizes), default=0)
            if hand_total(view.hand) <= DROP_POINTS_PER_CARD * fewest:
                return drop
        top = view.discard_top
        take = listed.get(DrawDiscard)
        if take is not None and top is not None and _useful(top, view):
            return take
        return listed.get(DrawStock) or listed.get(EndHand) or EndHand()


def _useful(card: int, view: SeatView) -> bool:
    """Whether ``card`` would complete a new spread with the hand or hit a spread on the table."""
    bit = CARD_BIT[card]
    if may_spread(hand_mask(view.hand) | bit) and any(
            card in s for s in spreads_in((*view.hand, card))):
        return True
    # for one card, may_hit is whether it hits
    return bool(view.spreads) and any(may_hit(bit, sp.cards) for sp in view.spreads)


_SIZE = itemgetter(1)


def expert_strategy() -> ExpertStrategy:
    """The searching player (issue 34, ``bot.games.tonk.search``) at its default budget."""
    return ExpertStrategy(SEARCH)


STRATEGIES: dict[str, Callable[[], Strategy | ExpertStrategy]] = {
    "random": RandomStrategy, "greedy": GreedyStrategy, "smart": SmartStrategy,
    "expert": expert_strategy,
}


__all__ = [
    "STRATEGIES",
    "CardMemory",
    "GreedyStrategy",
    "RandomStrategy",
    "SmartStrategy",
    "Strategy",
]
