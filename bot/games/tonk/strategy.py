"""The base of every Tonk computer player, and the card memory a player may keep.

A strategy decides from a ``SeatView`` — exactly what its seat may see — and may keep a memory of
the events its seat was shown (``observe``): ``choose`` gets the seat's view at a decision point,
``observe`` gets every event as that seat sees it (``events.event_for``), in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from bot.games.tonk.moves import Move
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


def for_seat(event: dict[str, Any], viewer: int) -> dict[str, Any]:
    """A stored event (``event_to_dict``'s form, private cards under ``"private"``) as ``viewer``
    was shown it — the same as ``events.event_for`` on the event itself: only the viewer's own
    dealt hand and own stock draw stay. For rebuilding a player's memory from a move log."""
    out = {k: v for k, v in event.items() if k != "private"}
    private = event.get("private")
    if not private:
        return out
    if event["type"] == "drew_from_stock" and event.get("player") == viewer:
        out["private"] = {"card": private["card"]}
    elif event["type"] == "dealt":
        own = [list(hand) for player, hand in private.get("hands", ()) if player == viewer]
        if own:
            out["private"] = {"hand": own[0]}
    return out


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
