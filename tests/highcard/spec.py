"""High card as the host sees it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.gamekit.contract import GameSpec, Payment, StatCounter, StatDelta
from tests.highcard.engine import (
    Events,
    GameOver,
    HighCardGame,
    HighCardOptions,
    Leave,
    Moves,
    Timeout,
)

PLAYED, WINS = "played", "wins"


class ShowStrategy:
    name = "show"
    remembers = False

    def choose(self, view: Any, rng: random.Random) -> Any:
        return view.legal_moves[0]

    def remember(self, events: Sequence[Mapping[str, Any]]) -> None:
        pass


class Rules:
    def join_move(self, name: str) -> None:
        return None

    def leave_move(self) -> Leave:
        return Leave()

    def timeout_move(self) -> Timeout:
        return Timeout()

    def idle_move(self, engine: Any) -> None:
        return None

    def payments(self, events: Sequence[Any]) -> list[Payment]:
        return []

    def stat_deltas(self, events: Sequence[Any], engine: Any) -> list[StatDelta]:
        deltas: list[StatDelta] = []
        for e in events:
            if isinstance(e, GameOver):
                deltas += [StatDelta(p, PLAYED) for p in e.players]
                if e.winner is not None:
                    deltas.append(StatDelta(e.winner, WINS))
        return deltas


SPEC = GameSpec(
    kind="highcard",
    name="High card",
    summary="show your card; the higher one wins.",
    min_players=2,
    max_players=2,
    options=HighCardOptions,
    engine=HighCardGame,
    moves=Moves(),
    events=Events(),
    rules=Rules(),
    strategies={"show": ShowStrategy},
    computer="show",
    counters=(StatCounter(PLAYED, "games played"), StatCounter(WINS, "wins")),
    face="tests.highcard.face:FACE",
    default_turn_seconds=60,
)
