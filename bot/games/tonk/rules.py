"""What Tonk's moves mean to the host: the moves it makes for a player, the ledger payments of a
hand (T12) and the stats a hand writes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.gamekit.contract import Payment, StatCounter, StatDelta
from bot.games.tonk.engine import TonkEngine
from bot.games.tonk.events import HandEnded
from bot.games.tonk.moves import Join, Leave, TableCloses, Timeout
from bot.games.tonk.settlement import HandEnd, HandResult
from bot.games.tonk.terms import Phase

HANDS_PLAYED = "hands_played"
HANDS_WON = "hands_won"
TONKS = "tonks"
WON_BY_PREFIX = "won_by:"
"""Counters named ``won_by:<how>`` count hands won in that way (e.g. ``won_by:tonk_out``)."""
COUNTERS = (
    StatCounter(HANDS_PLAYED, "hands played"),
    StatCounter(HANDS_WON, "hands won"),
    StatCounter(TONKS, "tonks"),
    *(StatCounter(WON_BY_PREFIX + how.value, f"won by {how.value}") for how in HandEnd),
)


class TonkRules:
    """Tonk tables play hand after hand; players join between hands (T1); every ``HandEnded``
    carries the hand's payments (T12)."""

    def join_move(self, name: str) -> Join:
        return Join(name)

    def leave_move(self) -> Leave:
        return Leave()

    def timeout_move(self) -> Timeout:
        return Timeout()

    def idle_move(self, engine: Any) -> tuple[int, TableCloses] | None:
        """Between hands nobody is to move; when nobody deals within the turn time the table
        closes, in the next dealer's name: nobody pays and nobody is dealt in (issue 36; T1,
        T3: players leave between hands at no cost, and a player deals)."""
        if (isinstance(engine, TonkEngine) and engine.phase is Phase.HAND_OVER
                and engine.next_dealer is not None):
            return engine.next_dealer, TableCloses()
        return None

    def payments(self, events: Sequence[Any]) -> list[Payment]:
        return [
            Payment(e.result.hand_number, p.payer, p.payee, p.amount, p.reason.value)
            for e in events if isinstance(e, HandEnded)
            for p in e.result.payments
        ]

    def stat_deltas(self, events: Sequence[Any], engine: Any) -> list[StatDelta]:
        deltas: list[StatDelta] = []
        for e in events:
            if not isinstance(e, HandEnded):
                continue
            result = e.result
            # every hand that ends counts as played by everyone dealt into it, draws and
            # forfeits included
            deltas += [StatDelta(p, HANDS_PLAYED) for p in result.players]
            how = result.how
            for winner in hand_winners(result):
                deltas.append(StatDelta(winner, HANDS_WON))
                deltas.append(StatDelta(winner, WON_BY_PREFIX + how.value))
                if how in (HandEnd.TONK_ON_DEAL, HandEnd.TONK_OUT):
                    deltas.append(StatDelta(winner, TONKS))
        return deltas


def hand_winners(result: HandResult) -> list[int]:
    """Who won a hand: the player who went out or held 49/50 (T4, T7), the dropper who was
    lowest, after a caught drop the other player(s) holding the lowest total (T10), after a
    stock-out everyone tied for lowest (T8); nobody after a draw on the deal or a forfeit."""
    how = result.how
    if how in (HandEnd.TONK_ON_DEAL, HandEnd.TONK_OUT, HandEnd.OUT_BY_DISCARD):
        return [] if result.winner is None else [result.winner]
    if how is HandEnd.DROP_WON:
        return [] if result.dropper is None else [result.dropper]
    if how is HandEnd.DROP_CAUGHT:
        others = [p for p in result.players if p != result.dropper]
        low = min(result.total_of(p) for p in others)
        return [p for p in others if result.total_of(p) == low]
    if how is HandEnd.STOCK_OUT:
        low = min(result.totals)
        return [p for p in result.players if result.total_of(p) == low]
    return []
