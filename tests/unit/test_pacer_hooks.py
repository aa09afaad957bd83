"""The pacer's interaction-webhook writes (issue 32): outside the global limit, so a full global
window never holds them up, and limited per interaction token instead."""

from __future__ import annotations

import asyncio

from bot.discord.pacing import Kind, Limits, RequestPacer
from tests.fakeclock import FakeClock


def pacer(clock: FakeClock) -> RequestPacer:
    return RequestPacer(Limits(requests=2, per=1.0, hook_requests=2, hook_per=1.0, margin=0.0),
                        clock=clock.now)


async def test_a_full_global_window_holds_up_the_bots_requests_but_not_a_webhooks() -> None:
    clock = FakeClock()
    paced = pacer(clock)
    taken = [await paced.acquire(channel, Kind.WRITE) for channel in (1, 2)]
    for grant in taken:
        grant.release()

    held = paced.ticket(3, Kind.WRITE)
    hooked = [paced.ticket(99, Kind.HOOK) for _ in range(3)]
    await asyncio.sleep(0)

    assert not held.future.done()
    # two per token per window: the third waits for the token's own window, not the global one
    assert [t.future.done() for t in hooked] == [True, True, False]
    assert hooked[0].future.result().kind is Kind.HOOK
    other_token = paced.ticket(98, Kind.HOOK)
    assert other_token.future.done()
    held.future.cancel()
    hooked[2].future.cancel()
    await asyncio.sleep(0)  # a cancelled ticket leaves the queue in its done callback
    assert paced.waiting == 0


async def test_webhook_requests_in_flight_are_capped_over_every_token() -> None:
    clock = FakeClock()
    paced = RequestPacer(Limits(hooks_in_flight=2, margin=0.0), clock=clock.now)

    tickets = [paced.ticket(token, Kind.HOOK) for token in (1, 2, 3)]
    await asyncio.sleep(0)
    granted = [t.future.done() for t in tickets]
    tickets[0].future.result().release()
    await asyncio.sleep(0)

    assert granted == [True, True, False]
    assert tickets[2].future.done()


async def test_channel_webhook_writes_skip_the_global_window_but_keep_to_the_addresss() -> None:
    clock = FakeClock()
    paced = RequestPacer(Limits(requests=1, per=1.0, hook_requests=2, hook_per=1.0,
                                address_requests=3, margin=0.0), clock=clock.now)
    (await paced.acquire(1, Kind.WRITE)).release()  # the global window is full

    held = paced.ticket(2, Kind.WRITE)
    # two webhooks: two each per window, three in all on the address
    hooked = [paced.ticket(webhook, Kind.WEBHOOK) for webhook in (7, 7, 7, 8, 8)]
    interaction = paced.ticket(99, Kind.HOOK)
    await asyncio.sleep(0)
    granted = [t.future.done() for t in hooked]
    held_then = held.future.done()
    for ticket in hooked:
        if ticket.future.done():
            ticket.future.result().release()
    clock.advance(1.0)
    paced._grant()  # the timer the pacer armed, fired by hand on the fake clock
    await asyncio.sleep(0)

    assert not held_then
    assert granted == [True, True, False, True, False]
    # interaction webhooks are not the address's: the full address window does not hold them
    assert interaction.future.done()
    assert all(t.future.done() for t in hooked)
    assert hooked[0].future.result().kind is Kind.WEBHOOK


async def test_the_windows_of_a_burst_of_tokens_are_forgotten_once_idle_not_kept() -> None:
    """Each interaction token has a window of its own: in a burst of thousands, those whose
    second is over are forgotten (pruned only as their number doubles, not at every answer,
    which walked every busy window each time), and a token's window still holds it to its
    limit however many came between."""
    clock = FakeClock()
    paced = RequestPacer(Limits(hook_per=1.0, margin=0.0), clock=clock.now)
    for token in range(3000):
        (await paced.acquire(10_000 + token, Kind.HOOK)).release()
        clock.advance(1 / 300)  # 300 a second: some 300 windows busy at any moment
    kept = len(paced._channels)
    assert 300 <= kept <= 1000
    busy = paced.limits.hook_requests
    for _ in range(busy):
        (await paced.acquire(1, Kind.HOOK)).release()
    over = paced.ticket(1, Kind.HOOK)
    await asyncio.sleep(0)
    assert not over.future.done()  # the token's own window is full
    over.future.cancel()


async def test_waiting_webhook_requests_go_urgent_first_and_hold_up_no_bot_request() -> None:
    clock = FakeClock()
    paced = RequestPacer(Limits(hooks_in_flight=1, margin=0.0), clock=clock.now)
    first = await paced.acquire(1, Kind.HOOK)  # the one place taken
    routine = [paced.ticket(token, Kind.HOOK) for token in (2, 3)]
    urgent = paced.ticket(4, Kind.HOOK, urgent=True)
    write = paced.ticket(5, Kind.WRITE)
    await asyncio.sleep(0)
    assert write.future.done()  # the webhook requests waiting are no reason to wait

    order = []
    grant = first
    for _ in range(3):
        grant.release()
        await asyncio.sleep(0)
        done = [t for t in (urgent, *routine) if t.future.done() and t not in order]
        assert len(done) == 1
        order.append(done[0])
        grant = done[0].future.result()
    assert order == [urgent, *routine]
