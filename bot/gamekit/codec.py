"""The one adapter from a game's JSON functions to the host's codecs (``MoveCodec``,
``EventCodec``): a game hands over its plain functions and the spec holds these."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Form = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Moves:
    """Moves as JSON-safe dicts for the move log and component ids, and back."""

    to_dict: Callable[[Any], Form]
    _from_dict: Callable[[Form], Any]

    def from_dict(self, data: Mapping[str, Any]) -> Any:
        return self._from_dict(dict(data))


@dataclass(frozen=True, slots=True)
class Events:
    """Events in their stored form and the forms made from it (public, one seat's)."""

    to_dict: Callable[[Any], Form]
    public: Callable[[Mapping[str, Any]], Form]
    for_seat: Callable[[Mapping[str, Any], int], Form]
