"""The duplicate score: the person's result against the expert's in the same seat of the same
deal, so that the luck of the deal cancels (``docs/daily.md``)."""

from __future__ import annotations

from bot.daily.play import daily_rules
from bot.gamekit.contract import GameSpec


def score_of(game: GameSpec, outcome: int, baseline: int) -> int:
    """How much better than the expert: places (fewer is better) or chips (more is)."""
    rules, _ = daily_rules(game)
    return baseline - outcome if rules.measure == "place" else outcome - baseline
