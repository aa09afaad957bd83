"""The daily's day: a UTC calendar day, its deal's number, when it ends, and streaks of days."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta

_EPOCH = date(1970, 1, 1)


def day_of(now: float) -> date:
    """The UTC day Unix time ``now`` falls in."""
    return datetime.fromtimestamp(now, UTC).date()


def day_start(day: date) -> float:
    return datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()


def day_end(day: date) -> float:
    """When ``day`` is over and its secret may be shown (the next day's midnight, UTC)."""
    return day_start(day + timedelta(days=1))


def deal_number(day: date) -> int:
    """The number the day's deals go by in ``bot.deals`` (days since 1970-01-01, from 1): what
    the committed-deal algorithm calls the table, so a daily checks like any table."""
    return (day - _EPOCH).days + 1


def streak(days: Iterable[date], today: date) -> int:
    """Days in a row with a daily, ending today, or yesterday when today's is still to play
    (a streak is kept until a whole day passes without one)."""
    played = set(days)
    day = today if today in played else today - timedelta(days=1)
    count = 0
    while day in played:
        count += 1
        day -= timedelta(days=1)
    return count
