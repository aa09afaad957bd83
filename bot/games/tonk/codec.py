"""Tonk's moves and events in their JSON forms, for the host's move log and components."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.tonk.events import Event, event_to_dict, public_form, seat_form
from bot.games.tonk.moves import Move, move_from_dict, move_to_dict


class TonkMoves:
    def to_dict(self, move: Move) -> dict[str, Any]:
        return move_to_dict(move)

    def from_dict(self, data: Mapping[str, Any]) -> Move:
        return move_from_dict(data)


class TonkEvents:
    def to_dict(self, event: Event) -> dict[str, Any]:
        return event_to_dict(event)

    def public(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        return public_form(stored)

    def for_seat(self, stored: Mapping[str, Any], player_id: int) -> dict[str, Any]:
        return seat_form(stored, player_id)
