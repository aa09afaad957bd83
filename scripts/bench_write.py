"""Benchmark one table write's HTTP cost (not a test): the bot's CPU for an edit of a table
message with its picture, through discord.py's webhook adapter as the publisher sends it, part
by part as aiohttp writes a form, and as one body (``bot.discord.wire``).

A server in another process stands in for Discord: it reads each request whole and answers
with a message of the size Discord sends back. Each round measures both ways in turn (which
goes first alternates), ``--requests`` edits each, four at a time; the figure is the client's
CPU (user and system) per edit. The machine is shared and noisy, so the rounds are paired and
the difference is given with its 95 % confidence interval.

    .venv/bin/python scripts/bench_write.py [--rounds 8] [--requests 2000] [--picture 12000]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import math
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
import discord  # noqa: E402
from aiohttp import web  # noqa: E402
from discord.webhook.async_ import AsyncWebhookAdapter, handle_message_parameters  # noqa: E402

from bot.discord.layout import Layout  # noqa: E402
from bot.discord.wire import one_body  # noqa: E402
from bot.runloop import run  # noqa: E402

ANSWER = {"id": "1", "type": 0, "content": "", "components": [
    {"type": 17, "components": [{"type": 10, "content": "x" * 300}] * 8}]}


def _serve(port: int, ready: Any) -> None:
    async def edit(request: web.Request) -> web.Response:
        await request.read()
        return web.json_response(ANSWER)

    async def main() -> None:
        app = web.Application()
        app.router.add_route("PATCH", "/api/v10/webhooks/{id}/{token}/messages/{message}", edit)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        ready.set()
        await asyncio.Event().wait()

    asyncio.run(main())


async def _measure(base: str, whole: bool, requests: int, picture: bytes) -> float:
    """CPU µs per edit."""
    discord.webhook.async_.Route.BASE = base
    adapter = AsyncWebhookAdapter()
    layout = {"type": 17, "components": [
        *[{"type": 10, "content": "Bo spelade 7♥. " * 20}] * 6,
        {"type": 12, "items": [{"media": {"url": "attachment://table.png"}}]}]}
    async with aiohttp.ClientSession() as session:
        sending = one_body(session) if whole else session

        async def edit(token: int) -> None:
            with handle_message_parameters(
                    file=discord.File(io.BytesIO(picture), "table.png", description="the pile"),
                    view=Layout(layout), allowed_mentions=discord.AllowedMentions.none()
            ) as params:
                await adapter.edit_webhook_message(
                    1, f"token{token}", 2, session=sending, payload=params.payload,
                    multipart=params.multipart, files=params.files)

        for token in range(200):  # connections open, caches warm
            await edit(token % 4)
        started = time.process_time()
        for _ in range(requests // 4):
            await asyncio.gather(*(edit(token) for token in range(4)))
        return (time.process_time() - started) / requests * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--picture", type=int, default=12000, help="the picture's bytes")
    args = parser.parse_args()
    port = 18000 + os.getpid() % 1000
    ready = multiprocessing.Event()
    server = multiprocessing.Process(target=_serve, args=(port, ready), daemon=True)
    server.start()
    ready.wait(10)
    base = f"http://127.0.0.1:{port}/api/v10"
    picture = os.urandom(args.picture)
    figures: dict[bool, list[float]] = {False: [], True: []}
    try:
        for round_ in range(args.rounds):
            for whole in ((False, True) if round_ % 2 == 0 else (True, False)):
                figures[whole].append(run(
                    _measure(base, whole, args.requests, picture)))
            print(f"round {round_ + 1}: part by part {figures[False][-1]:.1f} µs, "
                  f"one body {figures[True][-1]:.1f} µs", flush=True)
    finally:
        server.terminate()
    diffs = [b - a for a, b in zip(figures[False], figures[True], strict=True)]
    half = (1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))) if len(diffs) > 1 else 0.0
    print(json.dumps({"part_by_part_us": round(statistics.median(figures[False]), 1),
                      "one_body_us": round(statistics.median(figures[True]), 1)}))
    print(f"one body against part by part, paired: {statistics.mean(diffs):+.1f} ± {half:.1f} "
          f"µs an edit (95 %), medians {statistics.median(figures[False]):.1f} → "
          f"{statistics.median(figures[True]):.1f} µs")


if __name__ == "__main__":
    main()
