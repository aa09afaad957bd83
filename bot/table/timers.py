"""Turn timers and lobby expiry: one scheduler task for the whole bot, driven by the deadlines
the table service stores (issue 8).

The scheduler sleeps until the earliest stored deadline, fires every deadline that is due (a
turn timer: the game's automatic move; an idle lobby: it closes) and sleeps again. Moves set
new deadlines, so whoever changes a table calls ``rearm`` and the scheduler looks again. The
deadlines live in the database, so a restart loses none: one that passed while the bot was down
is due at once when the scheduler starts, and fires once — firing moves the table on, and the
service ignores a deadline whose move has already been made.

Most changes only push one table's deadline later (a move starts the next player's timer), and
those need no look now: ``deadline_set`` wakes the scheduler only for a deadline earlier than
the moment it means to wake anyway. A deadline pushed later or cleared is found not due when
the scheduler wakes for it, and it looks again then. Under load this spared two reads of the
database per move (issue 16).

Time comes from a ``Clock`` so that tests drive it by hand instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.logs import log_context
from bot.storage import DueDeadline, TableRecord

_log = logging.getLogger(__name__)

RETRY_SECONDS = 30.0
"""How soon a deadline whose handling failed is tried again."""


class Clock(Protocol):
    """Unix time, and a way to wait for a moment to come. The moment is absolute, so a wait
    begun a little late still ends on time."""

    def now(self) -> float: ...

    async def sleep_until(self, at: float) -> None: ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def sleep_until(self, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.time()))


class DeadlineSource(Protocol):
    """What the scheduler reads from the table service."""

    async def due_deadlines(self, now: float | None = None) -> list[DueDeadline]: ...

    async def next_deadline(self) -> float | None: ...

    async def unfinished_tables(self) -> list[TableRecord]: ...


Fire = Callable[[DueDeadline], Awaitable[None]]
_Key = tuple[int, str, int | None, float]


def _key(due: DueDeadline) -> _Key:
    return (due.table_id, due.what, due.counter, due.at)


def _pending(record: TableRecord) -> list[tuple[_Key, float]]:
    """The deadlines a table record holds, keyed as ``DueDeadline``s would be."""
    out: list[tuple[_Key, float]] = []
    if record.status == "playing" and record.turn_deadline is not None:
        at = record.turn_deadline
        out.append(((record.id, "turn", record.deadline_counter, at), at))
    if record.status == "lobby" and record.lobby_expires_at is not None:
        at = record.lobby_expires_at
        out.append(((record.id, "lobby", None, at), at))
    return out


class DeadlineScheduler:
    """``fire`` is called for each deadline as it comes due, one at a time, earliest first. A
    deadline that ``fire`` leaves in place (it failed, or there was nothing to do yet) is fired
    again ``RETRY_SECONDS`` later, not in a busy loop."""

    def __init__(self, source: DeadlineSource, fire: Fire, clock: Clock) -> None:
        self._source = source
        self._fire = fire
        self._clock = clock
        self._wake = asyncio.Event()
        self._fired: dict[_Key, float] = {}
        self._task: asyncio.Task[None] | None = None
        self._looking = False
        self._wake_at: float | None = None
        """When the scheduler means to look next (``None``: only when woken)."""

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="kortbord-timers")

    def rearm(self) -> None:
        """A deadline may have been set, moved or cleared: look at the stored ones again."""
        self._wake.set()

    def deadline_set(self, at: float | None) -> None:
        """One table's deadline is now ``at`` (``None``: it has none): look again only if it
        comes before the next look (or a look is under way, which may have read too early)."""
        if at is not None and (self._looking or self._wake_at is None or at < self._wake_at):
            self._wake.set()

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def run_once(self) -> float | None:
        """Fire every deadline that is due now and return when the next one comes due, or
        ``None`` if there is none."""
        now = self._clock.now()
        due = await self._source.due_deadlines(now)
        # a deadline no longer stored as due has been dealt with
        still_due = {_key(d) for d in due}
        self._fired = {k: at for k, at in self._fired.items() if k in still_due}
        for deadline in due:
            key = _key(deadline)
            fired_at = self._fired.get(key)
            if fired_at is not None and now - fired_at < RETRY_SECONDS:
                continue
            self._fired[key] = now
            with log_context(guild=deadline.guild_id, channel=deadline.channel_id,
                             table=deadline.table_id):
                try:
                    await self._fire(deadline)
                except Exception:
                    _log.exception("deadline %s of table %d could not be handled",
                                   deadline.what, deadline.table_id)
        return await self._next_wake()

    async def _next_wake(self) -> float | None:
        at = await self._source.next_deadline()
        if at is None or at > self._clock.now() or not self._fired:
            return at
        # the earliest deadline may be one already fired that is still there: look past it
        later = [
            when
            for record in await self._source.unfinished_tables()
            for key, when in _pending(record)
            if key not in self._fired
        ]
        return min([*later, min(self._fired.values()) + RETRY_SECONDS])

    async def _run(self) -> None:
        while True:
            # cleared before looking, so a rearm that comes while we look is not lost
            self._wake.clear()
            self._looking = True
            try:
                wake_at = await self.run_once()
            except Exception:
                _log.exception("could not read the stored deadlines")
                wake_at = self._clock.now() + RETRY_SECONDS
            finally:
                self._looking = False
            self._wake_at = wake_at
            await self._wait(wake_at)

    async def _wait(self, at: float | None) -> None:
        if at is None:
            await self._wake.wait()
            return
        if at <= self._clock.now():
            return
        sleeper = asyncio.ensure_future(self._clock.sleep_until(at))
        woken = asyncio.ensure_future(self._wake.wait())
        try:
            await asyncio.wait({sleeper, woken}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeper.cancel()
            woken.cancel()
