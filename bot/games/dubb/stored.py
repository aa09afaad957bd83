"""Validation of a Dubb game's stored form (``DubbGame.to_stored``), version 1.

Pydantic checks shapes and types here, at the storage boundary, so the engine's hot path can
work on plain lists; ``DubbGame.from_stored`` then checks the game's own invariants.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from bot.games.dubb.events import EndReason
from bot.games.dubb.options import DubbOptions

FORMAT_VERSION = 1


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class StoredSeat(_Strict):
    player_id: int
    name: str


class StoredPlay(_Strict):
    seat: int = Field(ge=0)
    rank: int = Field(ge=2, le=14)
    cards: list[int] = Field(min_length=1)


class StoredEnd(_Strict):
    reason: EndReason
    ranking: list[int]
    loser: int = Field(ge=0)


class StoredDubbV1(_Strict):
    format_version: Literal[1]
    kind: Literal["dubb"]
    seats: list[StoredSeat] = Field(min_length=2, max_length=6)
    options: DubbOptions
    cards_each: int = Field(ge=1)
    seed: int
    rng_state: tuple[int, list[int], float | None]
    hands: list[list[int]]
    draw_pile: list[int]
    pile: list[StoredPlay]
    status: list[Literal["active", "pending", "out", "left"]]
    out_order: list[int]
    left_order: list[int]
    to_move: int | None
    first_move: bool
    move_count: int = Field(ge=0)
    strikes: list[int]
    end: StoredEnd | None

    @model_validator(mode="after")
    def _per_seat(self) -> StoredDubbV1:
        n = len(self.seats)
        for name in ("hands", "status", "strikes"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name} must have one entry per seat ({n})")
        seats_named = [p.seat for p in self.pile] + self.out_order + self.left_order
        if self.to_move is not None:
            seats_named.append(self.to_move)
        if self.end is not None:
            seats_named += [*self.end.ranking, self.end.loser]
        if any(not 0 <= x < n for x in seats_named):
            raise ValueError("a seat index is out of range")
        if (self.to_move is None) != (self.end is not None):
            raise ValueError("a game has a player to move exactly when it is not over")
        return self


def load_stored(data: dict[str, Any]) -> StoredDubbV1:
    """Validate ``data``; ``ValueError`` with a readable reason if it is not a stored game."""
    if not isinstance(data, dict):
        raise ValueError(f"a stored Dubb game is a dict, not {type(data).__name__}")
    version = data.get("format_version")
    if version != FORMAT_VERSION:
        raise ValueError(f"unsupported Dubb format_version {version!r} (expected {FORMAT_VERSION})")
    # options are stored as a plain dict; the model is frozen and strict everywhere else
    prepared = dict(data)
    if isinstance(prepared.get("options"), dict):
        try:
            prepared["options"] = DubbOptions.model_validate(prepared["options"])
        except ValidationError as e:
            raise ValueError(f"bad options in stored Dubb game: {e}") from e
    if isinstance(prepared.get("rng_state"), list):
        prepared["rng_state"] = tuple(prepared["rng_state"])
    try:
        return StoredDubbV1.model_validate(prepared)
    except ValidationError as e:
        raise ValueError(f"not a valid stored Dubb game: {e}") from e
