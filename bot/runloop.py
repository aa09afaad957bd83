"""The event loop the bot runs on: uvloop where it is installed (a dependency on Linux and macOS),
else asyncio's own.

Why. Under load the bot's loop lag and its answers' tail are set by how long each pass of the
loop takes, and a part of a pass is the loop itself and its transports: reading the gateway,
writing requests, timers, callbacks. uvloop does that work in C on libuv. At 200 tables, the
bot's code unchanged, its loop lag p99 was 6.3–9.1 ms (median 7.9) against 9.9–10.1 ms on
asyncio's loop, its answers' p99 a fifth lower and its CPU per move a tenth lower, in five
comparisons within one run each (``scripts/bench_discord.py``, README "Running at scale").
Red-DiscordBot runs on it too. It has no Windows build: there the bot runs on asyncio's loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def loop_name() -> str:
    """The loop ``run`` uses here: ``uvloop`` or ``asyncio``."""
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return "asyncio"
    return "uvloop"


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)``, on uvloop's loop when it is installed."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)
