"""How a Dubb game ranks its players for the skill ratings: in the order they went out, the
loser last (D11), everyone who left or was removed below everyone who stayed (``GameOver``'s
ranking already says so)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class DubbStandings:
    """Only a game that ended has a result: one stopped midway is not rated, as it records no
    result either (its leavers' losses stay in the stats, not in the ratings)."""

    def places(self, seats: Sequence[int], events: Sequence[Mapping[str, Any]],
               finished: bool) -> list[list[int]] | None:
        if not finished:
            return None
        over = next((e for e in reversed(events) if e.get("type") == "game_over"), None)
        if over is None:
            return None
        # a strict order: Dubb has no ties (D10, D11: one player goes out at a time)
        return [[int(p)] for p in over["ranking"]]
