"""The parts of a Tonk table every other module names: its limits, its phases, a spread."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

MIN_PLAYERS = 2
MAX_PLAYERS = 4
HAND_SIZE = 5
TURN_CAP = 200
"""T8: a hand that completes this many turns ends as if the stock had run out."""
TIMEOUTS_TO_REMOVE = 3
"""T11: the third automatic move in a row removes the player."""
TONK_TOTALS = (49, 50)


class Phase(StrEnum):
    START = "start"
    """T5: the player to move may drop, draw, or (empty stock, T8) end the hand."""
    AFTER_DRAW = "after_draw"
    """T5: lay spreads and hit in any order, then discard to end the turn."""
    HAND_OVER = "hand_over"
    TABLE_CLOSED = "table_closed"


# the phases under plain module names for the engine's and players' inner loops: looking up a
# member on an Enum class takes about ten times as long as a module global in Python 3.11
START, AFTER_DRAW, HAND_OVER, TABLE_CLOSED = (
    Phase.START, Phase.AFTER_DRAW, Phase.HAND_OVER, Phase.TABLE_CLOSED)


@dataclass(frozen=True, slots=True)
class TableSpread:
    """A spread on the table: a small stable id (shown as "S1"), who laid it, its cards."""

    id: int
    owner: int
    cards: tuple[int, ...]

    @property
    def label(self) -> str:
        return f"S{self.id}"


