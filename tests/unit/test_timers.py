"""The deadline scheduler (issue 8) against an in-memory table of deadlines and a clock the test
moves by hand: deadlines fire when due and only once, earliest first; one that passed while the
bot was down fires once at start-up; ``rearm`` picks up a deadline set while it slept; a
deadline whose handler fails is tried again later, never in a busy loop."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import pytest

from bot.storage import DueDeadline, TableRecord
from bot.table.timers import RETRY_SECONDS, DeadlineScheduler
from tests.fakeclock import FakeClock

TURN = 30.0


class Deadlines:
    """The stored deadlines as the table service reports them: one per table, a turn timer set
    against a move counter, or a lobby's expiry."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.tables: dict[int, TableRecord] = {}
        self.reads = 0

    def turn(self, table_id: int, at: float, counter: int = 0) -> None:
        self.tables[table_id] = _record(table_id, "playing", counter=counter, turn_deadline=at,
                                        deadline_counter=counter)

    def lobby(self, table_id: int, at: float) -> None:
        self.tables[table_id] = _record(table_id, "lobby", lobby_expires_at=at)

    def move_on(self, due: DueDeadline) -> None:
        """What firing a turn does: the automatic move, and the next player's timer."""
        record = self.tables[due.table_id]
        counter = record.counter + 1
        self.turn(due.table_id, self.clock.now() + TURN, counter)

    def close(self, table_id: int) -> None:
        self.tables[table_id] = self.tables[table_id].model_copy(update={
            "status": "cancelled", "lobby_expires_at": None, "turn_deadline": None,
        })

    def _pending(self) -> list[DueDeadline]:
        out = []
        for r in self.tables.values():
            if r.status == "playing" and r.turn_deadline is not None:
                out.append(DueDeadline(table_id=r.id, guild_id=1, channel_id=r.channel_id,
                                       what="turn", at=r.turn_deadline,
                                       counter=r.deadline_counter))
            if r.status == "lobby" and r.lobby_expires_at is not None:
                out.append(DueDeadline(table_id=r.id, guild_id=1, channel_id=r.channel_id,
                                       what="lobby", at=r.lobby_expires_at, counter=None))
        return sorted(out, key=lambda d: (d.at, d.table_id))

    async def due_deadlines(self, now: float | None = None) -> list[DueDeadline]:
        self.reads += 1
        limit = self.clock.now() if now is None else now
        return [d for d in self._pending() if d.at <= limit]

    async def next_deadline(self) -> float | None:
        pending = self._pending()
        return pending[0].at if pending else None

    async def unfinished_tables(self) -> list[TableRecord]:
        return [r for r in self.tables.values() if r.status in ("lobby", "playing")]


def _record(table_id: int, status: str, **fields: object) -> TableRecord:
    base: dict[str, object] = {
        "id": table_id, "guild_id": 1, "channel_id": 100 + table_id, "kind": "dubb",
        "status": status, "host_id": 7, "options": {}, "seats": (), "message_id": None,
        "seed": None, "counter": 0, "created_at": 0.0, "updated_at": 0.0,
        "lobby_expires_at": None, "turn_seconds": int(TURN), "turn_deadline": None,
        "deadline_counter": None,
    }
    base.update(fields)
    return TableRecord.model_validate(base)


class Fired:
    """Records every deadline fired; ``then`` says what firing does to the stored deadlines."""

    def __init__(self, then: Callable[[DueDeadline], None] | None = None) -> None:
        self.deadlines: list[DueDeadline] = []
        self.then = then
        self.changed = asyncio.Event()

    async def __call__(self, due: DueDeadline) -> None:
        self.deadlines.append(due)
        self.changed.set()
        if self.then is not None:
            self.then(due)

    def of(self, table_id: int) -> list[DueDeadline]:
        return [d for d in self.deadlines if d.table_id == table_id]

    async def wait(self, count: int) -> None:
        while len(self.deadlines) < count:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 5)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def stored(clock: FakeClock) -> Deadlines:
    return Deadlines(clock)


async def test_a_turn_deadline_fires_when_due_and_only_once(clock: FakeClock,
                                                            stored: Deadlines) -> None:
    start = clock.now()
    stored.turn(1, start + TURN)
    fired = Fired(stored.move_on)
    scheduler = DeadlineScheduler(stored, fired, clock)

    assert await scheduler.run_once() == start + TURN
    clock.advance(TURN - 1)
    assert await scheduler.run_once() == start + TURN
    assert fired.deadlines == []

    clock.advance(1)
    assert await scheduler.run_once() == start + 2 * TURN
    assert [(d.table_id, d.what, d.counter, d.at) for d in fired.deadlines] == [
        (1, "turn", 0, start + TURN)
    ]
    # the table moved on: its next timer is for the next move
    assert await scheduler.run_once() == start + 2 * TURN
    assert len(fired.deadlines) == 1


async def test_due_deadlines_fire_earliest_first_lobbies_and_turns_alike(
    clock: FakeClock, stored: Deadlines
) -> None:
    now = clock.now()
    stored.turn(1, now - 5)
    stored.lobby(2, now - 20)
    stored.turn(3, now + 100)
    stored.turn(4, now - 10)
    fired = Fired(lambda d: stored.close(d.table_id) if d.what == "lobby" else stored.move_on(d))
    scheduler = DeadlineScheduler(stored, fired, clock)
    # next: the timers of the moves that the fired turns made
    assert await scheduler.run_once() == now + TURN
    assert [(d.table_id, d.what) for d in fired.deadlines] == [(2, "lobby"), (4, "turn"),
                                                               (1, "turn")]


async def test_a_failing_handler_is_retried_later_and_does_not_hold_up_other_tables(
    clock: FakeClock, stored: Deadlines, caplog: pytest.LogCaptureFixture
) -> None:
    now = clock.now()
    stored.turn(1, now - 1)
    stored.turn(2, now + 5)

    async def fire(due: DueDeadline) -> None:
        await fired(due)
        if due.table_id == 1:
            raise RuntimeError("the database is on fire")
        stored.move_on(due)

    fired = Fired()
    scheduler = DeadlineScheduler(stored, fire, clock)
    with caplog.at_level(logging.ERROR, logger="bot.table.timers"):
        # table 1 stays due, but the scheduler looks past it to table 2's deadline
        assert await scheduler.run_once() == now + 5
    assert "could not be handled" in caplog.text
    assert len(fired.of(1)) == 1
    assert await scheduler.run_once() == now + 5
    assert len(fired.of(1)) == 1

    clock.advance(5)
    assert await scheduler.run_once() == now + RETRY_SECONDS
    assert (len(fired.of(1)), len(fired.of(2))) == (1, 1)

    clock.advance(RETRY_SECONDS - 5)
    await scheduler.run_once()
    assert len(fired.of(1)) == 2


async def test_a_deadline_left_in_place_fires_again_only_once_the_table_moves(
    clock: FakeClock, stored: Deadlines
) -> None:
    """A computer player's deadline: firing asks the computer to move, which happens a moment
    later; the deadline set for the next move fires in its own time."""
    now = clock.now()
    stored.turn(1, now)
    fired = Fired()
    scheduler = DeadlineScheduler(stored, fired, clock)
    assert await scheduler.run_once() == now + RETRY_SECONDS
    assert await scheduler.run_once() == now + RETRY_SECONDS
    assert len(fired.deadlines) == 1

    stored.move_on(fired.deadlines[0])
    assert await scheduler.run_once() == now + TURN
    clock.advance(TURN)
    await scheduler.run_once()
    assert [d.counter for d in fired.deadlines] == [0, 1]


async def test_a_deadline_that_passed_while_the_bot_was_down_fires_once_at_start(
    clock: FakeClock, stored: Deadlines
) -> None:
    stored.turn(1, clock.now() - 10 * TURN)
    fired = Fired(stored.move_on)
    scheduler = DeadlineScheduler(stored, fired, clock)
    scheduler.start()
    try:
        await fired.wait(1)
        # then it sleeps until the next player's timer
        assert await clock.someone_sleeping() == clock.now() + TURN
        assert len(fired.deadlines) == 1
        clock.advance(TURN)
        await fired.wait(2)
        assert [d.counter for d in fired.deadlines] == [0, 1]
    finally:
        await scheduler.close()


async def test_rearm_picks_up_a_deadline_set_while_the_scheduler_sleeps(
    clock: FakeClock, stored: Deadlines
) -> None:
    now = clock.now()
    fired = Fired(stored.move_on)
    scheduler = DeadlineScheduler(stored, fired, clock)
    scheduler.start()
    try:
        stored.turn(1, now + 1000)
        scheduler.rearm()
        assert await clock.someone_sleeping() == now + 1000
        stored.turn(2, now + 10)
        scheduler.rearm()
        clock.advance(10)
        await fired.wait(1)
        assert [d.table_id for d in fired.deadlines] == [2]
    finally:
        await scheduler.close()


async def test_a_deadline_pushed_later_needs_no_look_and_an_earlier_one_is_picked_up(
    clock: FakeClock, stored: Deadlines
) -> None:
    """Issue 16: a move pushes its table's deadline later, which the scheduler finds when it
    wakes for the old one; only a deadline before its next wake makes it look at once."""
    now = clock.now()
    fired = Fired(lambda due: stored.close(due.table_id))
    scheduler = DeadlineScheduler(stored, fired, clock)
    scheduler.start()
    try:
        stored.turn(1, now + 1000)
        scheduler.rearm()
        assert await clock.someone_sleeping() == now + 1000
        stored.turn(1, now + 2000, counter=1)
        scheduler.deadline_set(now + 2000)
        assert not scheduler._wake.is_set()
        stored.turn(2, now + 10)
        scheduler.deadline_set(now + 10)
        clock.advance(10)
        await fired.wait(1)
        assert [d.table_id for d in fired.deadlines] == [2]
        # the wake planned for the old deadline finds the new one
        clock.advance(1990)
        await fired.wait(2)
        assert [(d.table_id, d.counter) for d in fired.deadlines] == [(2, 0), (1, 1)]
    finally:
        await scheduler.close()

async def test_an_unreadable_store_is_looked_at_again_later(
    clock: FakeClock, stored: Deadlines, caplog: pytest.LogCaptureFixture
) -> None:
    calls = 0

    async def broken(now: float | None = None) -> list[DueDeadline]:
        nonlocal calls
        calls += 1
        raise OSError("disk I/O error")

    stored.due_deadlines = broken  # type: ignore[method-assign]
    scheduler = DeadlineScheduler(stored, Fired(), clock)
    with caplog.at_level(logging.ERROR, logger="bot.table.timers"):
        scheduler.start()
        try:
            assert await clock.someone_sleeping() == clock.now() + RETRY_SECONDS
            assert calls == 1
        finally:
            await scheduler.close()
    assert "could not read the stored deadlines" in caplog.text
