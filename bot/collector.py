"""Python's garbage collector, set for a bot that runs for weeks: the one process-wide choice
``python -m bot`` makes once start-up is done (issue 16).

Under load a full collection walked every object the process had ever made — modules, the
catalogs, discord.py's tables — and stalled the event loop for 80–150 ms, two or three times a
minute: every interaction waiting behind it missed its moment. What start-up made lives as
long as the process, so it is frozen out of the collector's walks (``gc.freeze``, as the
documentation suggests for long-running servers), and the young generation is collected less
often, which costs less in all and leaves fewer objects to promote.

Only the process entry calls this: tests run many bots in one process, and freezing there
would keep every earlier test's garbage for good."""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 700
"""Allocations between young collections (Python's default is 700)."""


def settle() -> None:
    """Collect what start-up left behind, freeze the rest, and collect the young less often."""
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)
