"""What a Dubb move caused, in order, for the table, the move log and statistics.

Player fields hold player ids. Fields named ``private_cards`` carry cards only their receiver may
see (a drawn card, a dubbing's pick-ups): ``public_form`` leaves them out, ``seat_form`` keeps
only the viewer's own, and renderers of the public table must only use the public form.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

PileTurnReason = Literal["D6", "D7", "D10"]
EndReason = Literal["normal", "cap", "left"]
AutoAction = Literal["draw", "pass", "play"]


@dataclass(frozen=True, slots=True)
class Played:
    """``player`` played ``cards`` (public) as ``rank`` (D5, D9); ``auto`` when a timeout did."""

    player: int
    rank: int
    cards: tuple[int, ...]
    auto: bool = False


@dataclass(frozen=True, slots=True)
class DubPickup:
    """One dubbed player's share of a dubbing (D8): ``picked_up`` of the ``count`` they owed,
    ``forgiven`` the rest (draw pile empty, or the hand limit reached)."""

    player: int
    picked_up: int
    forgiven: int
    private_cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Dubbed:
    """D8: ``player`` played ``count`` cards of the top rank and dubbed the others in the streak
    (in the order the pick-ups were dealt)."""

    player: int
    rank: int
    count: int
    victims: tuple[DubPickup, ...]


@dataclass(frozen=True, slots=True)
class Drew:
    """D5: ``player`` drew ``count`` card(s); only the drawer may see ``private_cards``."""

    player: int
    count: int
    private_cards: tuple[int, ...]
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Passed:
    """D5: ``player`` passed."""

    player: int
    auto: bool = False


@dataclass(frozen=True, slots=True)
class PileTurned:
    """The play pile (``cards`` of them) was shuffled into the draw pile because of ``player``:
    D6 their own play was on top when their turn began, D7 they played aces, D10 their seat came
    up while the top play was theirs and they hold no cards (pending, or gone from the table)."""

    player: int
    reason: PileTurnReason
    cards: int


@dataclass(frozen=True, slots=True)
class PlayerPending:
    """D10: ``player``'s hand is empty but their last play can still be dubbed."""

    player: int


@dataclass(frozen=True, slots=True)
class PlayerOut:
    """D10/D11: ``player`` is out for good, finishing in ``place`` (1 = first out, best)."""

    player: int
    place: int


@dataclass(frozen=True, slots=True)
class PlayerRejoined:
    """D10: a pending ``player`` was dubbed, picked up ``picked_up`` cards and plays again."""

    player: int
    picked_up: int


@dataclass(frozen=True, slots=True)
class DrawPlayed:
    """D12: ``player`` turned up ``card`` (seen by everyone) from the draw pile; ``played`` tells
    whether it went onto the play pile (a ``Played`` event follows) or into their hand."""

    player: int
    card: int
    played: bool


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """``player`` left the game (``auto``: removed after three timeouts). It counts as their loss:
    they are ranked ``place`` — below everyone who stays — and their ``cards_returned`` cards were
    shuffled into the draw pile."""

    player: int
    place: int
    cards_returned: int
    auto: bool = False


@dataclass(frozen=True, slots=True)
class TimedOut:
    """``player``'s turn timer ran out for the ``strike``-th time in a row; the engine made the
    move ``action`` for them (its own events follow). At the third strike they are removed too."""

    player: int
    action: AutoAction
    strike: int


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended. ``ranking`` runs best to worst and ends with ``loser``. ``reason``: normal
    (D11), cap (D13), left (fewer than two players remain after someone left). Everyone in
    ``leavers`` forfeited (a loss each); the first of them is the game's loser."""

    ranking: tuple[int, ...]
    loser: int
    reason: EndReason
    leavers: tuple[int, ...]


Event = (
    Played | Dubbed | Drew | Passed | PileTurned | PlayerPending | PlayerOut | PlayerRejoined
    | DrawPlayed | PlayerLeft | TimedOut | GameOver
)

_TYPE_NAMES: dict[type, str] = {
    Played: "played",
    Dubbed: "dubbed",
    Drew: "drew",
    Passed: "passed",
    PileTurned: "pile_turned",
    PlayerPending: "pending",
    PlayerOut: "out",
    PlayerRejoined: "rejoined",
    DrawPlayed: "draw_play",
    PlayerLeft: "left",
    TimedOut: "timeout",
    GameOver: "game_over",
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """The stored form, a JSON-safe dict: ``{"type": "played", "player": ..., ...}``, private
    cards included (``public_form`` and ``seat_form`` make the shown forms from it)."""
    out: dict[str, Any] = {"type": _TYPE_NAMES[type(event)]}
    out.update(_fields(event))
    return out


def _fields(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(obj):
        value = getattr(obj, f.name)
        if isinstance(value, tuple):
            value = [_fields(v) if isinstance(v, DubPickup) else v for v in value]
        out[f.name] = value
    return out


def public_form(stored: Mapping[str, Any]) -> dict[str, Any]:
    """What the whole table may see of a stored event: every ``private_cards`` left out."""
    return _shown(stored, None)


def seat_form(stored: Mapping[str, Any], viewer: int) -> dict[str, Any]:
    """What ``viewer`` was shown: the public form plus their own drawn or picked-up cards."""
    return _shown(stored, viewer)


def _shown(entry: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in entry.items():
        if key == "private_cards":
            if viewer is not None and entry.get("player") == viewer:
                out[key] = value
        elif key == "victims":
            out[key] = [_shown(v, viewer) for v in value]
        else:
            out[key] = value
    return out
