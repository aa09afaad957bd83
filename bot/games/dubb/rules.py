"""What Dubb's moves mean to the host: the moves it makes for a player, and the stats a game
writes (Dubb is not played for stakes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.gamekit.contract import Payment, StatCounter, StatDelta
from bot.games.dubb.events import GameOver, PlayerLeft
from bot.games.dubb.moves import Leave, Timeout

GAMES_PLAYED = "games_played"
LOSSES = "losses"
COUNTERS = (StatCounter(GAMES_PLAYED, "games played"), StatCounter(LOSSES, "losses"))


class DubbRules:
    """One Dubb game per table; no one joins once it has started (D1)."""

    def join_move(self, name: str) -> None:
        return None

    def leave_move(self) -> Leave:
        return Leave()

    def timeout_move(self) -> Timeout:
        return Timeout()

    def idle_move(self, engine: Any) -> None:
        """Someone is always to move until the game is over."""
        return None

    def payments(self, events: Sequence[Any]) -> list[Payment]:
        return []

    def stat_deltas(self, events: Sequence[Any], engine: Any) -> list[StatDelta]:
        # leaving is a loss when it happens, so it counts even if the game is later stopped;
        # the end then records everyone else and a loser who did not leave
        deltas: list[StatDelta] = []
        for e in events:
            if isinstance(e, PlayerLeft):
                deltas.append(StatDelta(e.player, GAMES_PLAYED))
                deltas.append(StatDelta(e.player, LOSSES))
            elif isinstance(e, GameOver):
                deltas += [StatDelta(p, GAMES_PLAYED) for p in e.ranking if p not in e.leavers]
                if e.loser not in e.leavers:
                    deltas.append(StatDelta(e.loser, LOSSES))
        return deltas
