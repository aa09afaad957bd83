"""Benchmark the fake Discord (not a test): how many bot requests per second it answers.

    .venv/bin/python scripts/bench_fake.py [--tables 200] [--seconds 10] [--history 200]

``--tables`` channels each hold a table message with five buttons and ``--history`` older
messages. One worker per table plays a bot's part as fast as it can: a user clicks a button
(an INTERACTION_CREATE dispatched to a connected zlib-stream gateway session, which a reader
inflates and parses), the "bot" answers with callback type 7 (an UPDATE_MESSAGE rebuilding the
components), and every third click also posts a message to the channel and deletes the one
before, as the kortbord bot does with its turn announcements. Rate limits are off, so the
figure is the fake's own cost per request (its server and the client run in one event loop and
share one core, as in the end-to-end tests). Reports requests/s and latency percentiles.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.fakediscord import Driver, FakeDiscord, RateLimitConfig
from bot.fakediscord.model import Channel, StoredMessage, User

TOKEN = "bench-token"


def table_components(turn: int) -> list[dict[str, Any]]:
    labels = ["Your hand", "Draw", "Pass", "Knock", "Leave"]
    return [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": label, "custom_id": f"t:{turn}:{n}"}
                for n, label in enumerate(labels)
            ],
        }
    ]


def table_body(turn: int) -> dict[str, Any]:
    embed = {"title": "Tonk", "description": f"Turn {turn}\n" + "♠ ♥ ♦ ♣ " * 20}
    return {"embeds": [embed], "components": table_components(turn)}


class Gateway:
    """A bot's gateway session: reads and inflates every dispatch."""

    def __init__(self) -> None:
        self.events = 0

    async def run(
        self, http: aiohttp.ClientSession, fake: FakeDiscord, ready: asyncio.Event
    ) -> None:
        inflate = zlib.decompressobj()
        url = f"{fake.gateway_url}?v=10&encoding=json&compress=zlib-stream"
        async with http.ws_connect(url, max_msg_size=0) as ws:
            hello = await ws.receive()
            inflate.decompress(hello.data)  # one zlib stream for the whole connection
            identify = {"token": TOKEN, "intents": 1 | 1 << 9, "properties": {}}
            await ws.send_str(json.dumps({"op": 2, "d": identify}))
            async for message in ws:
                payload = json.loads(inflate.decompress(message.data))
                self.events += 1
                if payload.get("t") == "READY":
                    ready.set()


async def worker(
    http: aiohttp.ClientSession,
    fake: FakeDiscord,
    driver: Driver,
    channel: Channel,
    table: StoredMessage,
    player: User,
    stop: float,
    latencies: list[float],
) -> int:
    headers = {"Authorization": f"Bot {TOKEN}"}
    base = fake.api_base
    requests = 0
    turn = 0
    last_notice: str | None = None
    while time.perf_counter() < stop:
        turn += 1
        button = table.buttons()[turn % 5]["custom_id"]
        result = await driver.click(player, table, button, wait=False)
        record = result.record
        body = {"type": 7, "data": table_body(turn)}
        calls: list[tuple[str, str, Any]] = [
            ("POST", f"{base}/interactions/{record.id}/{record.token}/callback", body)
        ]
        if turn % 3 == 0:
            notice = {"content": f"<@{player.id}>, your turn"}
            calls.append(("POST", f"{base}/channels/{channel.id}/messages", notice))
        for method, url, payload in calls:
            t0 = time.perf_counter()
            async with http.request(method, url, json=payload, headers=headers) as response:
                data = await response.json() if response.status != 204 else None
                assert response.status < 300, (response.status, data)
            latencies.append(time.perf_counter() - t0)
            requests += 1
            if method == "POST" and url.endswith("/messages"):
                if last_notice is not None:
                    t0 = time.perf_counter()
                    url = f"{base}/channels/{channel.id}/messages/{last_notice}"
                    async with http.delete(url, headers=headers) as response:
                        assert response.status == 204
                    latencies.append(time.perf_counter() - t0)
                    requests += 1
                last_notice = data["id"]
    return requests


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--history", type=int, default=200)
    args = parser.parse_args()

    fake = FakeDiscord(token=TOKEN, rate_limits=RateLimitConfig.unlimited())
    await fake.start()
    driver = Driver(fake)
    guild = driver.add_guild("Bench")
    channels = [driver.add_channel(guild, f"table-{n}") for n in range(args.tables)]
    players = [driver.add_user(f"P{n}") for n in range(args.tables)]
    t0 = time.perf_counter()
    tables = []
    for channel in channels:
        for n in range(args.history):
            fake.create_message(channel, fake.bot_user, {"content": f"old {n}"})
        tables.append(fake.create_message(channel, fake.bot_user, table_body(0)))
    print(
        f"{args.tables} tables, {len(fake.messages)} stored messages "
        f"(setup {time.perf_counter() - t0:.1f} s); {os.cpu_count()} CPUs, "
        f"load {', '.join(f'{x:.2f}' for x in os.getloadavg())}",
        flush=True,
    )

    gateway = Gateway()
    ready = asyncio.Event()
    # a connection per worker, as a bot's keep-alive pool would have under this load
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        reader = asyncio.create_task(gateway.run(http, fake, ready))
        await ready.wait()
        latencies: list[float] = []
        start = time.perf_counter()
        stop = start + args.seconds
        counts = await asyncio.gather(
            *(
                worker(http, fake, driver, c, t, p, stop, latencies)
                for c, t, p in zip(channels, tables, players, strict=True)
            )
        )
        elapsed = time.perf_counter() - start
        reader.cancel()
    await fake.stop()

    total = sum(counts)
    print(f"{total} requests in {elapsed:.1f} s: {total / elapsed:,.0f} requests/s")
    print(
        f"latency p50 {statistics.median(latencies) * 1000:.1f} ms, "
        f"p99 {pct(latencies, 99) * 1000:.1f} ms; "
        f"{gateway.events} gateway events read; {len(fake.messages)} messages stored"
    )


if __name__ == "__main__":
    asyncio.run(main())
