"""The pacer's own CPU in a cold burst (issue 49): interaction-webhook requests at 300 a second,
each on a token of its own (a window each, busy for a second after its answer), granted and
released on a clock moved by hand. Prints the CPU seconds per 10,000 requests and the windows
the pacer keeps.

    .venv/bin/python scripts/bench_pacer.py
"""

from __future__ import annotations

import asyncio
import time

from bot.discord.pacing import Kind, RequestPacer

REQUESTS = 30_000
RATE = 300.0
"""Requests a second, each on a new token: a thousand new tables' lobbies, starts and moves."""


async def main() -> None:
    now = [0.0]
    pacer = RequestPacer(clock=lambda: now[0])
    started = time.process_time()
    for token in range(REQUESTS):
        (await pacer.acquire(10**6 + token, Kind.HOOK)).release()
        now[0] += 1 / RATE
    spent = time.process_time() - started
    print(f"{spent / REQUESTS * 1e4:.3f} s of CPU per 10,000 requests; "
          f"{len(pacer._channels)} windows kept")


if __name__ == "__main__":
    asyncio.run(main())
