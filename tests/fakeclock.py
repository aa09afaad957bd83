"""A clock that moves only when a test says so, for the bot's turn timers and lobby expiry.

``FakeClock`` is a ``bot.table.timers.Clock``: ``now()`` is Unix time as the test set it, and
``sleep_until(at)`` waits until ``advance`` has moved the clock to ``at`` — nothing ever waits
for real time to pass.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools

START = 1_767_225_600.0  # 2026-01-01 00:00 UTC
PATIENCE = 60.0
"""Real seconds ``someone_sleeping`` waits for a sleep before it fails: a bot that stopped
sleeping on the clock would otherwise hang the test (once, in a full run, past pytest-timeout)."""


class FakeClock:
    def __init__(self, start: float = START) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._slept = asyncio.Event()

    def now(self) -> float:
        return self._now

    async def sleep_until(self, at: float) -> None:
        if at <= self._now:
            await asyncio.sleep(0)
            return
        wake = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (at, next(self._order), wake))
        self._slept.set()
        await wake

    async def someone_sleeping(self) -> float:
        """Wait until a sleep is waiting for the clock, and return when the earliest one ends."""
        while True:
            pending = [at for at, _, wake in self._sleepers if not wake.done()]
            if pending:
                return min(pending)
            self._slept.clear()
            try:
                await asyncio.wait_for(self._slept.wait(), PATIENCE)
            except TimeoutError:
                raise AssertionError(f"nothing slept on the fake clock for {PATIENCE:g} s "
                                     "of real time") from None

    def advance(self, seconds: float) -> None:
        """Move the clock on and wake every sleep that has run out (they run at the test's next
        await)."""
        if seconds < 0:
            raise ValueError("time does not go backwards")
        self._now += seconds
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, wake = heapq.heappop(self._sleepers)
            if not wake.done():
                wake.set_result(None)
