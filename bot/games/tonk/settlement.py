"""Who pays whom when a Tonk hand ends: the payment list of part A and T4, T6, T8, T10, T11.

``settle`` is pure: it sees only the facts of a finished hand, never a table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class HandEnd(StrEnum):
    """How a hand ended (the issue's list); the value is the stored/JSON form."""

    TONK_ON_DEAL = "tonk_on_deal"
    DRAW_ON_DEAL = "draw_on_deal"
    TONK_OUT = "tonk_out"
    OUT_BY_DISCARD = "out_by_discard"
    DROP_WON = "drop_won"
    DROP_CAUGHT = "drop_caught"
    STOCK_OUT = "stock_out"
    FORFEIT = "forfeit"


class Reason(StrEnum):
    """Why one payment is made; a caught drop produces two kinds."""

    TONK_ON_DEAL = "tonk_on_deal"
    TONK_OUT = "tonk_out"
    OUT_BY_DISCARD = "out_by_discard"
    DROP_WON = "drop_won"
    CAUGHT = "caught"
    """T10: the caught dropper's 2s to a player whose total is ≤ the dropper's."""
    LOWEST_AFTER_DROP = "lowest_after_drop"
    """T10: s to each other player on the lowest total, from every player outside that group."""
    STOCK_OUT = "stock_out"
    FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True)
class Payment:
    payer: int
    payee: int
    amount: int
    reason: Reason

    def to_dict(self) -> dict[str, Any]:
        return {"payer": self.payer, "payee": self.payee, "amount": self.amount,
                "reason": self.reason.value}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Payment:
        return cls(int(data["payer"]), int(data["payee"]), int(data["amount"]),
                   Reason(data["reason"]))


def net(payments: Sequence[Payment]) -> dict[int, int]:
    """Each player's net result; the values always sum to zero (T12)."""
    result: dict[int, int] = {}
    for p in payments:
        result[p.payer] = result.get(p.payer, 0) - p.amount
        result[p.payee] = result.get(p.payee, 0) + p.amount
    return result


def drop_outcome(dropper: int, totals: Mapping[int, int]) -> HandEnd:
    """T10: the dropper wins only with a total strictly below every other player's."""
    lowest_other = min(t for p, t in totals.items() if p != dropper)
    return HandEnd.DROP_WON if totals[dropper] < lowest_other else HandEnd.DROP_CAUGHT


def settle(
    how: HandEnd,
    players: Sequence[int],
    totals: Mapping[int, int],
    stake: int,
    *,
    winner: int | None = None,
    dropper: int | None = None,
    leaver: int | None = None,
    laid_new_spread: bool = False,
    double_needs_spread: bool = False,
) -> list[Payment]:
    """The payments of a finished hand, in seat order.

    ``players`` are the hand's players in seat order and ``totals`` their totals (T2) at the end.
    ``winner`` is the player who went out or held 49/50 on the deal; ``dropper`` the player who
    dropped; ``leaver`` the player who forfeited; ``laid_new_spread`` whether the player who went
    out without a discard laid a new spread in that turn (T6 *double only for a new spread*).
    """
    s = stake
    if how is HandEnd.DRAW_ON_DEAL:
        return []
    if how is HandEnd.TONK_ON_DEAL:
        # T4: the variations never change this payment
        return _from_each_other(players, _need(winner), 2 * s, Reason.TONK_ON_DEAL)
    if how is HandEnd.TONK_OUT:
        # payment 1; T6 halves it when the variation is on and no new spread was laid this turn
        amount = s if double_needs_spread and not laid_new_spread else 2 * s
        return _from_each_other(players, _need(winner), amount, Reason.TONK_OUT)
    if how is HandEnd.OUT_BY_DISCARD:
        return _from_each_other(players, _need(winner), s, Reason.OUT_BY_DISCARD)
    if how is HandEnd.FORFEIT:
        # T11: the leaver pays s to each other player
        lv = _need(leaver)
        return [Payment(lv, p, s, Reason.FORFEIT) for p in players if p != lv]
    if how is HandEnd.STOCK_OUT:
        # payment 5 and T8: every player tied for lowest receives s from each player not tied
        low = min(totals[p] for p in players)
        group = [p for p in players if totals[p] == low]
        return [Payment(payer, payee, s, Reason.STOCK_OUT)
                for payee in group for payer in players if payer not in group]
    d = _need(dropper)
    outcome = drop_outcome(d, {p: totals[p] for p in players})
    if how is not outcome:
        raise ValueError(f"totals say {outcome.value}, not {how.value}")
    if how is HandEnd.DROP_WON:
        return _from_each_other(players, d, s, Reason.DROP_WON)
    # T10: the caught dropper pays 2s to each other player with a total ≤ D, and each other
    # player holding the lowest total L receives s from everyone outside that group
    dt = totals[d]
    others = [p for p in players if p != d]
    low = min(totals[p] for p in others)
    group = [p for p in others if totals[p] == low]
    payments = [Payment(d, p, 2 * s, Reason.CAUGHT) for p in others if totals[p] <= dt]
    payments += [Payment(payer, payee, s, Reason.LOWEST_AFTER_DROP)
                 for payee in group for payer in players if payer not in group]
    return payments


def _from_each_other(players: Sequence[int], payee: int, amount: int,
                     reason: Reason) -> list[Payment]:
    return [Payment(p, payee, amount, reason) for p in players if p != payee]


def _need(player: int | None) -> int:
    if player is None:
        raise ValueError("this way of ending a hand needs its player")
    return player


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand: how it ended, what each player held (revealed), and the payments.

    ``capped`` marks a stock-out forced by T8's 200-turn cap. ``hands`` and ``totals`` follow
    ``players`` (seat order of the hand).
    """

    hand_number: int
    dealer: int
    how: HandEnd
    players: tuple[int, ...]
    totals: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    payments: tuple[Payment, ...]
    winner: int | None = None
    dropper: int | None = None
    leaver: int | None = None
    capped: bool = False

    def total_of(self, player: int) -> int:
        return self.totals[self.players.index(player)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "how": self.how.value,
            "capped": self.capped,
            "winner": self.winner,
            "dropper": self.dropper,
            "leaver": self.leaver,
            "players": [{"player": p, "total": t, "hand": list(h)}
                        for p, t, h in zip(self.players, self.totals, self.hands, strict=True)],
            "payments": [p.to_dict() for p in self.payments],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandResult:
        rows = data["players"]
        return cls(
            hand_number=int(data["hand_number"]),
            dealer=int(data["dealer"]),
            how=HandEnd(data["how"]),
            players=tuple(int(r["player"]) for r in rows),
            totals=tuple(int(r["total"]) for r in rows),
            hands=tuple(tuple(int(c) for c in r["hand"]) for r in rows),
            payments=tuple(Payment.from_dict(p) for p in data["payments"]),
            winner=_opt_int(data.get("winner")),
            dropper=_opt_int(data.get("dropper")),
            leaver=_opt_int(data.get("leaver")),
            capped=bool(data.get("capped", False)),
        )


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)
