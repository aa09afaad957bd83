"""People first: while the bot is answering a person (a click, a slash command), the work that
nobody is waiting on — a computer player's move, the edit of a table message — waits for that
answer to go out (issue 16).

Why. asyncio runs every callback that became ready, in turn, before it looks again; under load a
person's answer queued behind whatever the loop had already taken up: computers thinking and
drawing their panels, tables being drawn. Those have no one waiting on them by the millisecond
(a computer pauses 1.5 s before its move anyway, and a table edit goes out when its channel's
rate limit lets it), so they now step aside: at 200 tables the answers' p99 fell by a sixth to
two fifths, a quarter on average (``scripts/bench_discord.py``, old and new code in one run).

How. ``serve`` counts the current task as serving a person until it ends. ``wait_turn`` returns
at once when nobody is being served, else when the last such task has ended, and waiters are let
go one per pass of the loop, so that they do not all run in one long pass in front of the next
person. Nobody waits longer than ``PATIENCE``: a steady stream of people slows the background
work down but never stops it.

One heavy step per pass. Drawing a hand panel or a table (text, a picture, the request that
sends it) is the longest stretch the bot runs without awaiting anything: 1–5 ms. Several of
them often became ready together — clicks read from one gateway packet, table edits granted by
the pacer at once, computers whose pauses ended together — and ran back to back in one pass of
the loop, 10–20 ms in which nothing else could run, not even a due timer or a read. So each
such stretch first asks ``step``: one goes per pass, people's before the background's, and the
timers and reads that came due meanwhile run between two of them. With the panels' drawing and
sending split into steps too, the loop lag's p99 at 200 tables halved, from 19–24 ms to 10–11 ms
(``scripts/bench_discord.py``, old and new code in one run).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque

PATIENCE = 0.25
"""The longest that background work waits for people, in seconds: short enough not to be seen
in a computer's move or a table's edit, long enough to cover a burst of clicks."""


class PeopleFirst:
    """One per bot: the tasks serving people now, and the background work waiting for them."""

    def __init__(self, patience: float = PATIENCE) -> None:
        self._patience = patience
        self._serving: set[asyncio.Task[object]] = set()
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._waking = False
        self._people_steps: deque[tuple[asyncio.Future[None], float]] = deque()
        self._other_steps: deque[tuple[asyncio.Future[None], float]] = deque()
        """Steps waiting, each with when it began to wait."""
        self._stepping = False
        """A heavy step went in this pass: the next waits for ``_next_step``."""

    @property
    def serving(self) -> int:
        """How many tasks are serving a person now."""
        return len(self._serving)

    def serve(self) -> None:
        """Count the current task as serving a person until it ends (once, however often this
        is called from it)."""
        task = asyncio.current_task()
        if task is None or task in self._serving or task.done():
            return
        self._serving.add(task)
        task.add_done_callback(self._served)

    def _served(self, task: asyncio.Task[object]) -> None:
        self._serving.discard(task)
        if not self._serving and self._waiting and not self._waking:
            self._waking = True
            asyncio.get_running_loop().call_soon(self._wake_one)

    def _wake_one(self) -> None:
        """Let the longest waiting go; the next one follows in the next pass of the loop,
        after the step of the one let go (unless a person came meanwhile)."""
        self._waking = False
        if self._serving:
            return
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                break
        if self._waiting:
            self._waking = True
            asyncio.get_running_loop().call_soon(self._wake_one)

    async def wait_turn(self) -> None:
        """Return when no person is being served and no earlier waiter is still waiting, or
        after ``PATIENCE`` seconds at most."""
        if not self._serving and not self._waiting:
            return
        loop = asyncio.get_running_loop()
        turn: asyncio.Future[None] = loop.create_future()
        # let go by the last person's task ending (``_served``), or by the one ahead of it
        self._waiting.append(turn)
        late = loop.call_later(self._patience, _let_go, turn)
        try:
            await turn
        finally:
            late.cancel()
            # let go by its patience, or cancelled: out of the line (a few entries at most)
            with contextlib.suppress(ValueError):
                self._waiting.remove(turn)

    async def step(self) -> None:
        """Return when this task may take the loop's heavy step of the pass: at once when no
        other was taken in this pass, else in a later pass, people's steps (a task counted by
        ``serve``) before the background's, each in the order they came — but a background step
        that has waited ``PATIENCE`` goes next, so that people keep it waiting, never stopped."""
        loop = asyncio.get_running_loop()
        if not self._stepping and not self._people_steps and not self._other_steps:
            self._stepping = True
            loop.call_soon(self._next_step)
            return
        turn: asyncio.Future[None] = loop.create_future()
        queue = self._people_steps if asyncio.current_task() in self._serving else self._other_steps
        queue.append((turn, loop.time()))
        # a cancelled waiter stays in its queue, done; ``_next_step`` passes over it
        await turn

    def _next_step(self) -> None:
        """The pass after a step went: let the next one go (it runs in the pass after this
        one, behind the timers and reads due by then), and come again for the one after it."""
        self._stepping = False
        loop = asyncio.get_running_loop()
        queues = (self._people_steps, self._other_steps)
        if self._other_steps and self._other_steps[0][1] <= loop.time() - self._patience:
            queues = (self._other_steps, self._people_steps)
        for queue in queues:
            while queue:
                turn, _ = queue.popleft()
                if not turn.done():
                    turn.set_result(None)
                    self._stepping = True
                    loop.call_soon(self._next_step)
                    return


def _let_go(turn: asyncio.Future[None]) -> None:
    if not turn.done():
        turn.set_result(None)
