"""Tonk moves: the play moves of a turn (T5) and the table moves that also go through ``apply``
so that a table's move log replays exactly (T1, T3, T11)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.games.tonk.spreads import FULL_DECK, is_card


@dataclass(frozen=True, slots=True)
class Drop:
    """Knock at the start of a turn, claiming the lowest total (T5, T10)."""


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Take the top card of the stock (T5)."""


@dataclass(frozen=True, slots=True)
class DrawDiscard:
    """Take the top card of the discard pile (T5)."""


@dataclass(frozen=True, slots=True)
class EndHand:
    """With an empty stock: end the hand instead of drawing (T8)."""


@dataclass(frozen=True, slots=True)
class Spread:
    """Lay a new spread from the hand (T6)."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Hit:
    """Add cards to a spread on the table, anyone's (T6)."""

    spread_id: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Discard:
    """End the turn by discarding one card face up (T5)."""

    card: int


@dataclass(frozen=True, slots=True)
class DealNextHand:
    """Any seated player starts the next hand once the last one is over (T3)."""


@dataclass(frozen=True, slots=True)
class TableCloses:
    """Nobody dealt within the table's turn time after a hand: the table closes (issue 36).
    T1 lets players leave between hands at no cost and T3 has a player deal, so a table nobody
    deals at is one everybody left; nobody pays and nobody is dealt in. Applied by the host in
    the next dealer's name."""


@dataclass(frozen=True, slots=True)
class TableDeals:
    """The table deals the next hand itself, in the next dealer's name: an event's table does
    after each hand of its round (``bot.games.tonk.event``), as a table did before issue 36
    when nobody dealt in time. Unlike the dealer's own deal it does not end their run of
    timed-out turns (T11)."""


@dataclass(frozen=True, slots=True)
class Join:
    """Sit down between hands, at the right of the next dealer (T1)."""

    name: str


@dataclass(frozen=True, slots=True)
class Leave:
    """Stand up; during a hand this forfeits it (T11)."""


@dataclass(frozen=True, slots=True)
class Timeout:
    """The turn timer ran out for the player to move: T11's automatic move."""


Move = (Drop | DrawStock | DrawDiscard | EndHand | Spread | Hit | Discard | DealNextHand
        | TableCloses | TableDeals | Join | Leave | Timeout)

_TYPE_OF: dict[type, str] = {
    Drop: "drop", DrawStock: "draw_stock", DrawDiscard: "draw_discard", EndHand: "end_hand",
    Spread: "spread", Hit: "hit", Discard: "discard", DealNextHand: "deal_next_hand",
    TableCloses: "table_closes", TableDeals: "table_deals", Join: "join", Leave: "leave",
    Timeout: "timeout",
}
_PLAIN: dict[str, Move] = {
    "drop": Drop(), "draw_stock": DrawStock(), "draw_discard": DrawDiscard(),
    "end_hand": EndHand(), "deal_next_hand": DealNextHand(), "table_closes": TableCloses(),
    "table_deals": TableDeals(),
    "leave": Leave(), "timeout": Timeout(),
}
MAX_NAME_LENGTH = 100
DISCARD_OF: dict[int, Discard] = {c: Discard(c) for c in FULL_DECK}
"""One shared ``Discard`` per card, so listing the legal moves builds none."""


def move_to_dict(move: Move) -> dict[str, Any]:
    """A JSON-safe dict with a ``"type"`` key."""
    kind = _TYPE_OF[type(move)]
    if isinstance(move, Spread):
        return {"type": kind, "cards": list(move.cards)}
    if isinstance(move, Hit):
        return {"type": kind, "spread_id": move.spread_id, "cards": list(move.cards)}
    if isinstance(move, Discard):
        return {"type": kind, "card": move.card}
    if isinstance(move, Join):
        return {"type": kind, "name": move.name}
    return {"type": kind}


def move_from_dict(data: Mapping[str, Any]) -> Move:
    """The inverse of ``move_to_dict``; raises ``ValueError`` on anything malformed."""
    if not isinstance(data, Mapping):
        raise ValueError("a move must be a mapping")
    kind = data.get("type")
    if kind in _PLAIN:
        _expect_keys(data, {"type"})
        return _PLAIN[kind]
    if kind == "spread":
        _expect_keys(data, {"type", "cards"})
        return Spread(_cards(data["cards"]))
    if kind == "hit":
        _expect_keys(data, {"type", "spread_id", "cards"})
        spread_id = data["spread_id"]
        if type(spread_id) is not int:
            raise ValueError("spread_id must be an int")
        return Hit(spread_id, _cards(data["cards"]))
    if kind == "discard":
        _expect_keys(data, {"type", "card"})
        card = data["card"]
        if not is_card(card):
            raise ValueError("card must be a card code")
        return Discard(card)
    if kind == "join":
        _expect_keys(data, {"type", "name"})
        name = data["name"]
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_LENGTH:
            raise ValueError("name must be a non-empty string")
        return Join(name)
    raise ValueError(f"unknown move type {kind!r}")


def _expect_keys(data: Mapping[str, Any], keys: set[str]) -> None:
    if set(data) != keys:
        raise ValueError(f"move {data.get('type')!r} takes exactly the keys {sorted(keys)}")


def _cards(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not all(is_card(c) for c in value):
        raise ValueError("cards must be a list of card codes")
    return tuple(value)
