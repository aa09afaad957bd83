"""How a daily went, turn by turn, in numbers that show no card (the shared result's sparkline,
``docs/daily.md``): the cards the person held as each of their turns began."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from bot.daily.play import PERSON, DailyGame
from bot.gamekit.contract import GameSpec


def cards_at_turns(game: GameSpec, day: date, secret: bytes,
                   moves: Sequence[Mapping[str, Any]]) -> list[int]:
    """The number of cards in the person's hand as each of their turns began: a turn begins at
    their move after anyone else's (a turn of a draw and a discard is one turn)."""
    daily = DailyGame(game, day, secret, "")
    held: list[int] = []
    mover = None
    for m in moves:
        # the table's own move (dealing the next hand) is in someone's name but nobody's turn
        player = None if m.get("table") else int(m["player"])
        if player == PERSON and mover != PERSON:
            held.append(len(daily.engine.hand(PERSON)))
        mover = player
        daily.replay_move(m)
    return held
