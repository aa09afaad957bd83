"""Validation of a Dubb game's stored form (``DubbEngine.to_stored``), versions 1 to 3: they
differ only in how the shuffles are kept — version 1 the RNG's whole state, version 2 the number
of numbers drawn from the seed, version 3 the committed deals' source (``bot.deals``).

Pydantic checks shapes and types here, at the storage boundary, so the engine's hot path can
work on plain lists; ``DubbEngine.from_stored`` then checks the game's own invariants.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from bot.games.dubb.events import EndReason
from bot.games.dubb.options import DubbOptions

FORMAT_VERSIONS = (1, 2, 3)
MAX_RNG_DRAWS = 1_000_000
"""Far above any game's (every pile turn reshuffles at most two packs, and moves are capped,
D13), low enough that restoring the RNG stays quick even for damaged data."""


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


class StoredDubb(_Strict):
    format_version: Literal[1, 2, 3]
    kind: Literal["dubb"]
    seats: list[StoredSeat] = Field(min_length=2, max_length=6)
    options: DubbOptions
    cards_each: int = Field(ge=1)
    seed: int | None = None
    """Versions 1 and 2."""
    deals: dict[str, Any] | None = None
    """Version 3 only."""
    rng_state: tuple[int, list[int], float | None] | None = None
    """Version 1 only."""
    rng_draws: int | None = Field(default=None, ge=0, le=MAX_RNG_DRAWS)
    """Version 2 only."""
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
    def _per_seat(self) -> StoredDubb:
        v = self.format_version
        if (self.rng_state is not None) != (v == 1) or (self.rng_draws is not None) != (
                v == 2) or (self.deals is not None) != (v == 3) or (self.seed is None) != (v == 3):
            raise ValueError("version 1 keeps the RNG as seed and rng_state, version 2 as seed "
                             "and rng_draws, version 3 as deals")
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


def load_stored(data: dict[str, Any]) -> StoredDubb:
    """Validate ``data``; ``ValueError`` with a readable reason if it is not a stored game."""
    if not isinstance(data, dict):
        raise ValueError(f"a stored Dubb game is a dict, not {type(data).__name__}")
    version = data.get("format_version")
    if version not in FORMAT_VERSIONS:
        raise ValueError(f"unsupported Dubb format_version {version!r} (expected one of "
                         f"{FORMAT_VERSIONS})")
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
        return StoredDubb.model_validate(prepared)
    except ValidationError as e:
        raise ValueError(f"not a valid stored Dubb game: {e}") from e
