"""What happened at a Tonk table, as frozen records for renderers, logs and storage.

Cards only their holder may see sit in fields named ``private_*``; ``event_to_dict`` (the stored
form) moves them under a separate ``"private"`` key, ``public_form`` leaves them out and
``seat_form`` keeps only the viewer's own, so a renderer that shows the public part can never
leak a hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from bot.games.tonk.settlement import HandResult


@dataclass(frozen=True, slots=True)
class CutForDeal:
    """T3: each round gives one card to every player still cutting; the last round decides."""

    TYPE: ClassVar[str] = "cut_for_deal"
    rounds: tuple[tuple[tuple[int, int], ...], ...]
    dealer: int


@dataclass(frozen=True, slots=True)
class TableDealt:
    """The table deals hand ``hand_number`` itself (a ``Dealt`` follows): an event's table
    does after each hand of its round; before issue 36 a table did when nobody dealt in time."""

    TYPE: ClassVar[str] = "table_dealt"
    hand_number: int


@dataclass(frozen=True, slots=True)
class Dealt:
    TYPE: ClassVar[str] = "dealt"
    hand_number: int
    dealer: int
    players: tuple[int, ...]
    upcard: int | None
    stock_size: int
    private_hands: tuple[tuple[int, tuple[int, ...]], ...]


@dataclass(frozen=True, slots=True)
class DrewFromStock:
    TYPE: ClassVar[str] = "drew_from_stock"
    player: int
    stock_size: int
    private_card: int


@dataclass(frozen=True, slots=True)
class DrewFromDiscard:
    TYPE: ClassVar[str] = "drew_from_discard"
    player: int
    card: int


@dataclass(frozen=True, slots=True)
class SpreadLaid:
    TYPE: ClassVar[str] = "spread_laid"
    player: int
    spread_id: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SpreadHit:
    TYPE: ClassVar[str] = "hit"
    player: int
    spread_id: int
    owner: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Discarded:
    TYPE: ClassVar[str] = "discarded"
    player: int
    card: int


@dataclass(frozen=True, slots=True)
class Dropped:
    """The totals are revealed by the ``HandEnded`` that follows."""

    TYPE: ClassVar[str] = "dropped"
    player: int


@dataclass(frozen=True, slots=True)
class EndedHand:
    """T8: the player would rather draw from the empty stock."""

    TYPE: ClassVar[str] = "ended_hand"
    player: int


@dataclass(frozen=True, slots=True)
class HandDrawn:
    """T4: several players were dealt 49 or 50; ``HandEnded`` (no payments) follows."""

    TYPE: ClassVar[str] = "hand_drawn"
    hand_number: int
    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandEnded:
    """Every hand ends with exactly one of these: the result to record (T12)."""

    TYPE: ClassVar[str] = "hand_ended"
    result: HandResult


@dataclass(frozen=True, slots=True)
class Joined:
    TYPE: ClassVar[str] = "joined"
    player: int
    name: str
    seat: int


@dataclass(frozen=True, slots=True)
class Left:
    """``forfeit`` when the player left during a hand (T11)."""

    TYPE: ClassVar[str] = "left"
    player: int
    forfeit: bool


@dataclass(frozen=True, slots=True)
class TimedOut:
    """T11: an automatic move follows; ``in_a_row`` counts this player's consecutive ones."""

    TYPE: ClassVar[str] = "timed_out"
    player: int
    in_a_row: int


@dataclass(frozen=True, slots=True)
class TableClosed:
    TYPE: ClassVar[str] = "table_closed"
    players_left: int


Event = (CutForDeal | TableDealt | Dealt | DrewFromStock | DrewFromDiscard | SpreadLaid
         | SpreadHit | Discarded | Dropped | EndedHand | HandDrawn | HandEnded | Joined | Left
         | TimedOut | TableClosed)


def _json(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    """JSON-safe dict with a ``"type"`` key; private cards only under ``"private"``."""
    if isinstance(event, HandEnded):
        return {"type": event.TYPE, **event.result.to_dict()}
    out: dict[str, Any] = {"type": event.TYPE}
    private: dict[str, Any] = {}
    for f in fields(event):
        value = _json(getattr(event, f.name))
        if f.name.startswith("private_"):
            private[f.name.removeprefix("private_")] = value
        else:
            out[f.name] = value
    if private:
        out["private"] = private
    return out


def public_form(stored: Mapping[str, Any]) -> dict[str, Any]:
    """What everyone at the table may see of a stored event: the private part left out."""
    return {k: v for k, v in stored.items() if k != "private"}


def seat_form(stored: Mapping[str, Any], viewer: int) -> dict[str, Any]:
    """What ``viewer`` was shown of a stored event: the public form plus the viewer's own dealt
    hand and own stock draw."""
    out = public_form(stored)
    private = stored.get("private")
    if not private:
        return out
    if stored["type"] == "drew_from_stock" and stored.get("player") == viewer:
        out["private"] = {"card": private["card"]}
    elif stored["type"] == "dealt":
        own = [list(hand) for player, hand in private.get("hands", ()) if player == viewer]
        if own:
            out["private"] = {"hand": own[0]}
    return out
