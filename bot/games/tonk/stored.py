"""Validation of a Tonk table's stored form — the one place where untrusted dicts come in."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
)

from bot.games.tonk.options import TonkOptions
from bot.games.tonk.spreads import FULL_DECK


def _card(c: int) -> int:
    if c not in FULL_DECK:
        raise ValueError(f"{c} is not a card code")
    return c


Card = Annotated[StrictInt, AfterValidator(_card)]
Cards = list[Card]
_CONFIG = ConfigDict(extra="forbid")


class _Seat(BaseModel):
    model_config = _CONFIG
    player_id: StrictInt
    name: StrictStr = Field(min_length=1)


class _Cut(BaseModel):
    model_config = _CONFIG
    rounds: list[list[tuple[StrictInt, Card]]]
    dealer: StrictInt


class _Spread(BaseModel):
    model_config = _CONFIG
    id: StrictInt = Field(ge=1)
    owner: StrictInt
    cards: Cards


class StoredTonk(BaseModel):
    model_config = _CONFIG
    format_version: Literal[1, 2, 3]
    kind: Literal["tonk"]
    options: dict[str, Any]
    seed: StrictInt | None = None
    """Versions 1 and 2: the Mersenne Twister's seed, and how many shuffles it made."""
    shuffles: StrictInt = Field(default=0, ge=0)
    deals: dict[str, Any] | None = None
    """Version 3: the committed deals' source (``bot.deals.CommittedDeals``)."""
    seats: list[_Seat]
    departed: list[tuple[StrictInt, StrictStr]] = []
    phase: Literal["start", "after_draw", "hand_over", "table_closed"]
    hand_number: StrictInt = Field(ge=0)
    dealer: StrictInt | None
    next_dealer: StrictInt | None
    cut: _Cut | None
    players: list[StrictInt]
    hands: list[Cards]
    stock: Cards
    discards: Cards
    spreads: list[_Spread]
    next_spread_id: StrictInt = Field(ge=1)
    to_move: StrictInt | None
    taken_discard: Card | None
    laid_new_spread: StrictBool
    hit_locked: list[StrictInt]
    turns: StrictInt = Field(ge=0)
    timeouts: list[tuple[StrictInt, StrictInt]]
    last_hand_result: dict[str, Any] | None


def validate_stored(data: dict[str, Any]) -> tuple[StoredTonk, TonkOptions]:
    """The stored form checked for shape and types; raises ``ValueError`` when it is not one.

    Lists stand for tuples (JSON has no tuples); integers must be integers.
    """
    try:
        stored = StoredTonk.model_validate(data)
        options = TonkOptions.model_validate(stored.options, strict=True)
    except Exception as exc:
        raise ValueError(f"not a stored Tonk table: {exc}") from exc
    if (stored.format_version == 3) != (stored.deals is not None) or (
            stored.deals is None) == (stored.seed is None):
        raise ValueError("not a stored Tonk table: version 3 keeps deals, older ones a seed")
    if len(stored.players) != len(stored.hands):
        raise ValueError("not a stored Tonk table: players and hands differ in number")
    return stored, options
