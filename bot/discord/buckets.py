"""discord.py's rate-limit buckets, swept in linear time.

discord.py's HTTP client (the bot token's requests) keeps a ``Ratelimit`` per route and major
parameter. Each time it makes a new one while it holds 256 or more, it walks all of them for
those unused for five minutes (``HTTPClient._try_clear_expired_ratelimits``). Every channel the
bot writes to as itself brings new buckets (its webhook's look-up and creation, the sweep for
stray messages, a delete), so in a cold start in 1,000 channels each of some 2,000 set-up
requests walked up to 2,000 buckets: quadratic, about 1.4 s of CPU for 3,000 new buckets
(issue 49). ``sweep_less`` makes the same walk only once the buckets have grown by half since
the last one: a constant cost per new bucket, while at most half as many again are kept as
discord.py keeps.
"""

from __future__ import annotations

from typing import Any

FLOOR = 256
"""discord.py's own: fewer buckets are never swept."""
GROWTH = 1.5
"""The next sweep waits until the buckets number this many times those the last one left."""


def sweep_less(http: Any) -> None:
    """Make ``http`` (a ``discord.http.HTTPClient``) sweep its expired buckets only when they
    have grown by half since its last sweep (``GROWTH``), with discord.py's own sweep."""
    sweep = http._try_clear_expired_ratelimits
    due = FLOOR

    def sweep_when_grown() -> None:
        nonlocal due
        if len(http._buckets) < due:
            return
        sweep()
        due = max(FLOOR, int(len(http._buckets) * GROWTH))

    http._try_clear_expired_ratelimits = sweep_when_grown
