"""How a Tonk table plays and scores in an event: a round is a number of hands. The event deals
each next hand itself, in the next dealer's name (T3), as the table did before issue 36, and
once the round's hands are played the host closes the table. Places go by net chips at the
table (T12), players with the same net share a place; players who left rank last (T11)."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import groupby
from typing import Any

from bot.games.tonk.engine import TonkEngine
from bot.games.tonk.moves import TableDeals
from bot.games.tonk.terms import Phase


class TonkEventRules:
    plays_hands = True

    def places(self, engine: Any, money: Mapping[int, int] | None) -> list[tuple[int, ...]]:
        assert isinstance(engine, TonkEngine)
        nets = money or {}
        players = sorted(engine.names, key=lambda p: -nets.get(p, 0))
        return [tuple(group) for _, group in groupby(players, key=lambda p: nets.get(p, 0))]

    def next_move(self, engine: Any, hands: int) -> tuple[int, Any] | None:
        assert isinstance(engine, TonkEngine)
        if (engine.phase is Phase.HAND_OVER and engine.next_dealer is not None
                and engine.deals_done < hands):
            # the table's own deal: unlike a player's, it does not end the dealer's run of
            # timed-out turns, so a no-show is still removed after three (T11)
            return engine.next_dealer, TableDeals()
        return None

    def round_over(self, engine: Any, hands: int) -> bool:
        assert isinstance(engine, TonkEngine)
        return engine.phase is Phase.HAND_OVER and engine.deals_done >= hands
