"""The base of every Tonk computer player, and the card memory a player may keep.

A strategy (``bot.gamekit.contract.Strategy``) decides from a ``SeatView`` — exactly what its
seat may see — and may keep a memory of the events its seat was shown: ``choose`` gets the
seat's view at a decision point, ``remember`` gets every event as that seat saw it
(``events.seat_form``), in order.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.games.tonk.moves import Move
from bot.games.tonk.views import SeatView


class Strategy:
    """The base of every Tonk computer player: it remembers nothing unless it says so."""

    name: ClassVar[str] = "strategy"
    remembers: ClassVar[bool] = False
    """Whether ``remember`` does anything (the simulator skips the work of redacting otherwise)."""

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        raise NotImplementedError

    def remember(self, events: Sequence[Mapping[str, Any]]) -> None:
        """Events as this seat sees them; the base strategy remembers nothing."""


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

    def observe(self, event: Mapping[str, Any]) -> None:
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
            if self.pile:
                # a memory that joined the hand late (a restart) may not know the pile
                self.pile.pop()
            self.held.setdefault(event["player"], set()).add(event["card"])
        elif kind == "discarded":
            self.pile.append(event["card"])
            self.held.setdefault(event["player"], set()).discard(event["card"])
        elif kind in ("spread_laid", "hit"):
            self.gone.update(event["cards"])
            self.held.setdefault(event["player"], set()).difference_update(event["cards"])
