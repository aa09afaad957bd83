"""A clock that moves only when a test says so, for the bot's turn timers and lobby expiry.

``FakeClock`` is a ``bot.table.timers.Clock``: ``now()`` is Unix time as the test set it, and
``sleep_until(at)`` waits until ``advance`` has moved the clock to ``at`` — nothing ever waits
for real time to pass.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import os

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

    async def someone_sleeping(self, within: float | None = None) -> float:
        """Wait until a sleep is waiting for the clock (one that ends at most ``within``
        seconds from now, if given), and return when the earliest such one ends."""
        while True:
            pending = [at for at, _, wake in self._sleepers if not wake.done()
                       and (within is None or at <= self._now + within)]
            if pending:
                return min(pending)
            self._slept.clear()
            try:
                await asyncio.wait_for(self._slept.wait(), PATIENCE)
            except TimeoutError:
                bound = "" if within is None else f" (to wake within {within:g} s)"
                raise AssertionError(
                    f"nothing slept on the fake clock{bound} for {PATIENCE:g} s of real time; "
                    "the tasks then:\n" + _awaiting()) from None

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


def _awaiting() -> str:
    """Each task on the loop and where it waits (the innermost line of ours): what a test
    that waits for a sleep in vain needs to know, the task that should have slept being stuck
    elsewhere or gone."""
    return "\n".join(f"  {task.get_name()}: {_where(task.get_coro())}"
                     for task in sorted(asyncio.all_tasks(), key=lambda t: t.get_name()))


def _where(coro: object) -> str:
    """The innermost line of the project's own code that ``coro`` awaits at, and what it awaits
    there (``Task.get_stack`` stops at the task's own coroutine)."""
    frames = []
    while (frame := getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)):
        frames.append(frame)
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    if not frames:
        return "running"
    ours = [f for f in frames if not os.path.relpath(f.f_code.co_filename).startswith(
        ("..", ".venv"))] or frames
    place = ours[-1]
    code = place.f_code
    where = f"{os.path.relpath(code.co_filename)}:{place.f_lineno} in {code.co_name}"
    return where if place is frames[-1] else f"{where}, awaiting {frames[-1].f_code.co_name}"
