"""The secret each day's deal follows from, and the commitment shown before the day starts
(``docs/daily.md``). The secret is a table secret of ``bot.deals`` (32 random bytes), for the
table numbered by the day (``deal_number``): every hand of the day's daily is dealt from it as a
table's hands are, with the same commitments per hand, so ``python -m bot.verify`` checks a
daily's export as it checks a table's. The day's own commitment binds the secret itself:
``bot.deals.day_commitment``."""

from __future__ import annotations

from datetime import date

from bot import deals
from bot.daily.day import deal_number
from bot.deals import CommittedDeals, new_master


def new_secret() -> bytes:
    return new_master()


def day_commitment(kind: str, day: date, secret: bytes) -> str:
    """What ``/… daily`` shows of ``day``'s secret before it is revealed, as 64 hex digits."""
    return deals.day_commitment(kind, day.isoformat(), secret)


def day_deals(day: date, secret: bytes) -> CommittedDeals:
    """The day's deals, from hand 1."""
    return CommittedDeals(secret, deal_number(day))
