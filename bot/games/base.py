"""What every rules engine shares with the code around it (storage, table service, rendering).

Engines are plain Python: seeded state, legal moves, ``apply(player, move) -> events``, public
and private views, and a stored form that round-trips exactly. Nothing here imports discord.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, Self


class RuleError(ValueError):
    """A move the rules do not allow. ``ruling`` names the rule (``"D5"``, ``"T5"``)."""

    def __init__(self, ruling: str, message: str) -> None:
        super().__init__(f"{ruling}: {message}")
        self.ruling = ruling
        self.message = message


@dataclass(frozen=True, slots=True)
class Seat:
    """A player at a table: a stable id (the Discord user id, or a computer player's id) and the
    name shown on the table."""

    player_id: int
    name: str


class Engine(Protocol):
    """The shape storage and the table service rely on. Moves and events are the engine's own
    types; ``move_to_dict``/``move_from_dict`` and ``event_to_dict`` make them JSON-safe."""

    KIND: str
    STATE_VERSION: int

    @property
    def is_over(self) -> bool: ...

    def legal_moves(self, player_id: int) -> list[Any]: ...

    def apply(self, player_id: int, move: Any) -> list[Any]: ...

    def to_stored(self) -> dict[str, Any]: ...

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> Self: ...
