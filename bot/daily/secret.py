"""The secret each day's deal follows from, and the commitment shown before the day starts
(``docs/daily.md``). The secret is a table secret of ``bot.deals`` (32 random bytes), for the
table numbered by the day (``deal_number``): every hand of the day's daily is dealt from it as a
table's hands are, with the same commitments per hand, so ``python -m bot.verify`` checks a
daily's export as it checks a table's. The day's own commitment binds the secret itself:
``SHA-256("kortbord/daily/v1" || kind || day || secret)``, the day written ``YYYY-MM-DD``."""

from __future__ import annotations

import hashlib
from datetime import date

from bot.daily.day import deal_number
from bot.deals import CommittedDeals, new_master

_DAY = b"kortbord/daily/v1"


def new_secret() -> bytes:
    return new_master()


def day_commitment(kind: str, day: date, secret: bytes) -> str:
    """What ``/… daily`` shows of ``day``'s secret before it is revealed, as 64 hex digits."""
    words = kind.encode() + b"\x00" + day.isoformat().encode() + b"\x00"
    return hashlib.sha256(_DAY + words + secret).hexdigest()


def day_deals(day: date, secret: bytes) -> CommittedDeals:
    """The day's deals, from hand 1."""
    return CommittedDeals(secret, deal_number(day))
