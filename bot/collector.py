"""Python's garbage collector, set for a bot that runs for weeks: the one process-wide choice
``python -m bot`` makes once start-up is done (issue 16).

Under load a full collection walked every object the process had ever made — modules, the
catalogs, discord.py's tables — and stalled the event loop for 80–150 ms, two or three times a
minute: every interaction waiting behind it missed its moment. What start-up made lives as
long as the process, so it is frozen out of the collector's walks (``gc.freeze``, as the
documentation suggests for long-running servers). The thresholds stay Python's: collecting the
young less often (tried: every 10,000 allocations) made each collection longer, a worse stall.

Only the process entry calls this: tests run many bots in one process, and freezing there
would keep every earlier test's garbage for good."""

from __future__ import annotations

import gc


def settle() -> None:
    """Collect what start-up left behind and freeze the rest."""
    gc.collect()
    gc.freeze()
