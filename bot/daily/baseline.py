"""The duplicate baseline: the expert plays the person's seat of the day's deal against the same
computers, once a day per game (``docs/daily.md``). Its search has a fixed number of rollouts
and no CPU cap, with its random numbers seeded like the computers' (``play.decision_rng``), so
the baseline is the same on any machine and in any process."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from datetime import date
from typing import Any

from bot.daily.play import DailyError, DailyGame
from bot.gamekit.contract import GameSpec
from bot.gamekit.search import Budget, ExpertStrategy

BUDGET = Budget(iterations=200, seconds=math.inf)
"""What each of the expert's decisions spends: the rollouts of a table's expert, never cut short
by the clock (the CPU cap is what would make a search differ between machines)."""
EXPERT_NAME = "Expert"


@dataclass(frozen=True, slots=True)
class Baseline:
    outcome: int
    """The expert's result in the daily's measure."""
    moves: list[dict[str, Any]]
    """Every move of its game, for the replay beside the person's."""
    seconds: float
    """CPU seconds it took (for the record; nothing depends on it)."""


def expert_game(game: GameSpec, day: date, secret: bytes, budget: Budget = BUDGET) -> DailyGame:
    if game.search is None:
        raise DailyError(f"{game.kind} has no expert")
    daily = DailyGame(game, day, secret, EXPERT_NAME, seat=ExpertStrategy(game.search, budget))
    daily.advance()
    return daily


def compute_baseline(game: GameSpec, day: date, secret: bytes,
                     budget: Budget = BUDGET) -> Baseline:
    started = time.process_time()
    daily = expert_game(game, day, secret, budget)
    return Baseline(daily.outcome(), daily.moves_record(), time.process_time() - started)
