"""How a Dubb table plays and scores in an event: one game to its end, places in the order the
players went out, the loser last (D10, D11). Players who left or were removed by the turn
timer rank below everyone who stayed: leaving counts as a loss (``DubbResult``), and the host
scores them last."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.dubb.engine import DubbEngine


class DubbEventRules:
    plays_hands = False

    def places(self, engine: Any, money: Mapping[int, int] | None) -> list[tuple[int, ...]]:
        assert isinstance(engine, DubbEngine)
        result = engine.result
        if result is None:
            # a game stopped part-way has no order yet: everyone still seated shares first place
            return [tuple(s.player_id for s in engine.seats)]
        return [(player,) for player in result.ranking]

    def next_move(self, engine: Any, hands: int) -> tuple[int, Any] | None:
        return None

    def round_over(self, engine: Any, hands: int) -> bool:
        return False
