"""Table options of a Tonk table (T1), fixed when the table starts."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class TonkOptions(BaseModel):
    """T1: the stake and the variations of part A, all off by default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    stake: int = Field(default=1, ge=1, le=1_000_000)
    upcard: bool = True
    must_spread: bool = False
    double_needs_spread: bool = False
    hit_lock: bool = False
