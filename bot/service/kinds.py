"""Per-game adapters: what the table service needs to know about each engine.

A ``GameKind`` names the engine class and options model, turns moves and events into JSON-safe
dicts, says who sits at the table and who is to move, and pulls the ledger payments (T12) and the
stat counters out of the events of one move.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from bot.games.base import Seat
from bot.storage.models import Payment, StatDelta


class GameKind(ABC):
    kind: ClassVar[str]
    """The stored kind ('dubb', 'tonk'), also the key in the service's kinds mapping."""
    label: ClassVar[str]
    """The name users see ("Dubb")."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_model: ClassVar[type[BaseModel]]

    def validate_options(self, options: BaseModel | Mapping[str, Any] | None) -> BaseModel:
        """The options as the engine's model; raises pydantic's ``ValidationError``."""
        if isinstance(options, self.options_model):
            return options
        if isinstance(options, BaseModel):
            options = options.model_dump()
        return self.options_model.model_validate(dict(options or {}))

    @abstractmethod
    def new_engine(self, seats: Sequence[Seat], options: BaseModel, seed: int) -> Any: ...

    @abstractmethod
    def load_engine(self, stored: dict[str, Any]) -> Any: ...

    def store_engine(self, engine: Any) -> dict[str, Any]:
        return engine.to_stored()  # type: ignore[no-any-return]

    def start_events(self, engine: Any) -> list[Any]:
        """Events of the deal itself, for games whose engine reports them (none by default)."""
        return []

    @abstractmethod
    def move_to_dict(self, move: Any) -> dict[str, Any]: ...

    @abstractmethod
    def move_from_dict(self, data: Mapping[str, Any]) -> Any: ...

    @abstractmethod
    def event_to_dict(self, event: Any) -> dict[str, Any]: ...

    @abstractmethod
    def to_move(self, engine: Any) -> int | None:
        """The player whose turn it is, or ``None`` when no one is (between hands, game over)."""

    @abstractmethod
    def seats(self, engine: Any) -> list[Seat]:
        """The players still sitting at the table, in seat order (leavers excluded)."""

    def join_move(self, name: str) -> Any | None:
        """The move that seats a new player in a running game, or ``None`` if the game does not
        take players once started."""
        return None

    @abstractmethod
    def leave_move(self) -> Any: ...

    @abstractmethod
    def timeout_move(self) -> Any: ...

    def payments(self, events: Sequence[Any]) -> list[Payment]:
        """The ledger payments in one move's events (T12); none for games without stakes."""
        return []

    def stat_deltas(self, events: Sequence[Any], engine: Any) -> list[StatDelta]:
        """The stat counters one move's events change."""
        return []
