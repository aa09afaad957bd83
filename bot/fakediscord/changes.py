"""Waking waiters on state changes: tests wait on events, never on sleeps."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Changes:
    """Every part of the fake calls ``changed()`` after it changes state; ``wait_for``
    re-checks its predicate then, and only then."""

    def __init__(self) -> None:
        self._changed = asyncio.Event()

    def changed(self) -> None:
        """Wake every ``wait_for``; called after each state change."""
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    async def wait_for(
        self, predicate: Callable[[], T], within: float = 10.0, what: str = "condition"
    ) -> T:
        """Return ``predicate()`` once truthy; re-checked on every state change, no polling."""
        try:
            async with asyncio.timeout(within):
                while True:
                    event = self._changed
                    result = predicate()
                    if result:
                        return result
                    await event.wait()
        except TimeoutError:
            raise AssertionError(f"timed out after {within:g}s waiting for {what}") from None
