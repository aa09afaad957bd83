"""The pacer's background requests (issue 49: a channel's webhook set up after its table is up):
granted after every other request of the bot's, and only while the global window keeps places
free, so a burst of them never stands ahead of a write that comes a moment later."""

from __future__ import annotations

import asyncio

from bot.discord.pacing import Kind, Limits, RequestPacer
from tests.fakeclock import FakeClock


def pacer(clock: FakeClock, requests: int = 4) -> RequestPacer:
    # a quarter of 4 left free: background requests take at most 3 places of the window
    return RequestPacer(Limits(requests=requests, per=1.0, margin=0.0,
                               background_reserve=0.25), clock=clock.now)


async def test_background_requests_leave_places_of_the_window_free() -> None:
    clock = FakeClock()
    paced = pacer(clock)
    setups = [paced.ticket(0, Kind.READ, background=True) for _ in range(6)]
    await asyncio.sleep(0)
    granted = [t.future.done() for t in setups]
    for ticket in setups[:3]:
        ticket.future.result().release()

    # a write that comes now still finds its place at once
    write = paced.ticket(1, Kind.WRITE)
    await asyncio.sleep(0)

    assert granted == [True, True, True, False, False, False]
    assert write.future.done()
    # the next window: background requests again, up to the reserve
    write.future.result().release()
    clock.advance(1.0)
    paced._grant()  # the timer the pacer armed, fired by hand on the fake clock
    await asyncio.sleep(0)
    assert [t.future.done() for t in setups[3:]] == [True, True, True]


async def test_writes_queued_go_before_background_requests_queued_earlier() -> None:
    clock = FakeClock()
    paced = pacer(clock)
    for channel in range(4):
        (await paced.acquire(channel, Kind.WRITE)).release()  # the window is full
    setups = [paced.ticket(0, Kind.READ, background=True) for _ in range(3)]
    writes = [paced.ticket(10 + n, Kind.WRITE) for n in range(3)]
    urgent = paced.ticket(20, Kind.WRITE, urgent=True)
    clock.advance(1.0)
    paced._grant()
    await asyncio.sleep(0)

    # four places: the urgent write, the three routine ones; the set-ups wait
    assert urgent.future.done() and all(t.future.done() for t in writes)
    assert not any(t.future.done() for t in setups)
    assert paced.waiting == 3


async def test_a_background_request_something_waits_for_goes_with_the_routine_ones() -> None:
    clock = FakeClock()
    paced = pacer(clock, requests=2)
    (await paced.acquire(1, Kind.WRITE)).release()
    # one place of two left: no more background requests this window
    setup = paced.ticket(0, Kind.READ, background=True)
    later = paced.ticket(0, Kind.READ, background=True)
    await asyncio.sleep(0)
    waited = setup.future.done()

    paced.foreground(setup)
    await asyncio.sleep(0)

    assert not waited
    assert setup.future.done() and not setup.background
    assert not later.future.done()
    later.future.cancel()
    await asyncio.sleep(0)
    assert paced.waiting == 0
