"""The pacer's own CPU in a cold burst (issue 49), two ways:

- **a stream**: interaction-webhook requests at 300 a second, each on a token of its own (a
  window each, busy for a second after its answer), granted and released one by one on a clock
  moved by hand;
- **a burst**: a thousand tables' writes queued at once (a thousand lobbies posted through
  their interactions, beyond the 48 webhook requests the pacer lets be under way), with a few of
  the bot token's requests among them (webhook set-ups), each released when granted, as their
  answers come back.

Prints the CPU seconds per 10,000 requests and the windows the pacer keeps.

    .venv/bin/python scripts/bench_pacer.py
"""

from __future__ import annotations

import asyncio
import time

from bot.discord.pacing import Grant, Kind, RequestPacer

REQUESTS = 30_000
RATE = 300.0
"""Requests a second, each on a new token: a thousand new tables' lobbies, starts and moves."""
BURST = 1_000
"""Requests queued at once in the burst: a thousand new channels' lobbies."""
BURSTS = 10


async def stream() -> None:
    now = [0.0]
    pacer = RequestPacer(clock=lambda: now[0])
    started = time.process_time()
    for token in range(REQUESTS):
        (await pacer.acquire(10**6 + token, Kind.HOOK)).release()
        now[0] += 1 / RATE
    spent = time.process_time() - started
    print(f"a stream: {spent / REQUESTS * 1e4:.3f} s of CPU per 10,000 requests; "
          f"{len(pacer._channels)} windows kept")


async def burst() -> None:
    now = [0.0]
    pacer = RequestPacer(clock=lambda: now[0])
    started = time.process_time()
    for round_ in range(BURSTS):
        base = 10**6 + round_ * BURST
        tickets = [pacer.ticket(base + n, Kind.READ if n % 50 == 0 else Kind.HOOK)
                   for n in range(BURST)]
        answered = 0
        while answered < BURST:
            granted: list[Grant] = [t.future.result() for t in tickets
                                    if t.future.done() and not t.future.cancelled()]
            tickets = [t for t in tickets if not t.future.done()]
            for grant in granted:
                grant.release()  # each answer lets the next ones through
                answered += 1
            now[0] += 0.02
            pacer._grant()  # the timer the pacer armed, fired by hand on the moved clock
        now[0] += 2.0
    spent = time.process_time() - started
    print(f"a burst of {BURST} at once: {spent / (BURST * BURSTS) * 1e4:.3f} s of CPU per "
          f"10,000 requests; {len(pacer._channels)} windows kept")


async def main() -> None:
    await stream()
    await burst()


if __name__ == "__main__":
    asyncio.run(main())
