"""Computer players for Tonk. A strategy decides from a ``SeatView`` — exactly what its seat may
see — and may keep a memory of the events its seat was shown (``observe``).

A stronger strategy implements the same two methods: ``choose`` gets the seat's view at a
decision point, ``observe`` gets every event as that seat sees it (``events.event_for``), in
order, and can feed a ``CardMemory``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from bot.games.tonk.autoplay import auto_discard, spread_order_key
from bot.games.tonk.engine import Phase
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
from bot.games.tonk.spreads import VALUE, hits_on, spreads_in
from bot.games.tonk.views import SeatView


class Strategy:
    """The interface every computer player implements."""

    name: ClassVar[str] = "strategy"
    wants_events: ClassVar[bool] = False
    """Whether ``observe`` does anything (the simulator skips the work of redacting otherwise)."""

    def choose(self, view: SeatView) -> Move:
        raise NotImplementedError

    def observe(self, events: Sequence[dict[str, Any]]) -> None:
        """Events as this seat sees them; the base strategy remembers nothing."""


class RandomStrategy(Strategy):
    """Uniform over the legal moves."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, view: SeatView) -> Move:
        legal = view.legal
        return legal[int(self._rng.random() * len(legal))]


DROP_POINTS_PER_CARD = 2
"""Greedy drops when its total is at most this many points per card of the shortest other hand."""


class GreedyStrategy(Strategy):
    """Lays every spread and hit it can, takes the discard when it completes a spread or hits one
    on the table, discards its highest unmatched card (T11's order), drops when its total is low
    against the number of cards the others hold, and ends the hand when the stock is out."""

    name = "greedy"

    def choose(self, view: SeatView) -> Move:
        legal = view.legal
        if view.phase is Phase.HAND_OVER:
            return DealNextHand()
        if view.phase is Phase.START:
            return self._start(view, legal)
        spreads = [m for m in legal if type(m) is Spread]
        if spreads:
            return max(spreads, key=lambda m: spread_order_key(m.cards))
        hits = [m for m in legal if type(m) is Hit]
        if hits:
            return max(hits, key=lambda m: (sum(VALUE[c] for c in m.cards), len(m.cards),
                                            -m.spread_id))
        card = auto_discard(view.hand, view.taken_discard)
        move = Discard(card)
        return move if move in legal else next(m for m in legal if type(m) is Discard)

    def _start(self, view: SeatView, legal: tuple[Move, ...]) -> Move:
        fewest = min((n for _, n in view.hand_sizes), default=0)
        total = sum(VALUE[c] for c in view.hand)
        if Drop() in legal and total <= DROP_POINTS_PER_CARD * fewest:
            return Drop()
        top = view.discard_top
        if DrawDiscard() in legal and top is not None and _useful(top, view):
            return DrawDiscard()
        if DrawStock() in legal:
            return DrawStock()
        return EndHand()


def _useful(card: int, view: SeatView) -> bool:
    """Whether ``card`` would complete a new spread with the hand or hit a spread on the table."""
    if any(card in s for s in spreads_in((*view.hand, card))):
        return True
    return any(hits_on((card,), sp.cards) for sp in view.spreads)


class CardMemory:
    """Cards a seat has seen this hand, kept from the events it was shown.

    ``pile`` is the discard pile bottom to top (every discard is public, so the whole pile is
    known); ``held`` maps each player to the cards known to be in their hand (own cards, and
    cards others took from the pile); ``gone`` are cards in spreads.
    """

    def __init__(self, player_id: int) -> None:
        self.player_id = player_id
        self.pile: list[int] = []
        self.held: dict[int, set[int]] = {}
        self.gone: set[int] = set()

    def seen(self) -> set[int]:
        """Every card whose place this seat knows."""
        known = set(self.pile) | self.gone
        for cards in self.held.values():
            known |= cards
        return known

    def observe(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "dealt":
            self.pile = [] if event["upcard"] is None else [event["upcard"]]
            self.held = {p: set() for p in event["players"]}
            self.gone = set()
            own = event.get("private", {}).get("hand")
            if own is not None:
                self.held[self.player_id] = set(own)
        elif kind == "drew_from_stock":
            card = event.get("private", {}).get("card")
            if card is not None:
                self.held.setdefault(event["player"], set()).add(card)
        elif kind == "drew_from_discard":
            self.pile.pop()
            self.held.setdefault(event["player"], set()).add(event["card"])
        elif kind == "discarded":
            self.pile.append(event["card"])
            self.held.setdefault(event["player"], set()).discard(event["card"])
        elif kind in ("spread_laid", "hit"):
            self.gone.update(event["cards"])
            self.held.setdefault(event["player"], set()).difference_update(event["cards"])


STRATEGIES: dict[str, type[Strategy]] = {"random": RandomStrategy, "greedy": GreedyStrategy}


def make_strategy(name: str, rng: random.Random) -> Strategy:
    """A strategy by name (``random`` or ``greedy``), with its own random source."""
    if name == "random":
        return RandomStrategy(rng)
    if name == "greedy":
        return GreedyStrategy()
    raise ValueError(f"unknown Tonk strategy {name!r}; choose from {sorted(STRATEGIES)}")
