"""Python's garbage collector, set for a bot that runs for weeks: the one process-wide choice
``python -m bot`` makes once start-up is done (issue 16).

Under load a full collection walked every object the process had ever made — modules, the
catalogs, discord.py's tables — and stalled the event loop for 80–150 ms, two or three times a
minute: every interaction waiting behind it missed its moment. What start-up made lives as
long as the process, so it is frozen out of the collector's walks (``gc.freeze``, as the
documentation suggests for long-running servers).

Full collections are also made rarer: Python considers one after every 10 collections of its
middle generation, and runs it whenever what reached the old generation since the last grew
by a quarter. A burst of new tables grows the live heap from nothing (a thousand lobbies at
once: 80,000–110,000 objects in flight, 30–100 ms to walk each time) and every walk found
nothing to free — the bot breaks its own cycles (``bot.discord.cycles``) — yet they were
about a tenth of the burst's CPU (issue 49). After 100 such collections instead, the burst runs
none; at 200 live tables one runs every few minutes rather than every few seconds, and
cyclic garbage that lived long enough to be old waits that much longer. The young
generations' thresholds stay Python's: collecting them less often (tried: every 10,000
allocations) made each collection longer, a worse stall.

Only the process entry calls this: tests run many bots in one process, and freezing there
would keep every earlier test's garbage for good."""

from __future__ import annotations

import gc

FULL_AFTER = 100
"""Collections of the middle generation before a full one is considered (Python's: 10)."""


def settle() -> None:
    """Collect what start-up left behind and freeze the rest; full collections rarer."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_AFTER)
