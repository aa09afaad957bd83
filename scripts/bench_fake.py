"""Benchmark the fake Discord (not a test): how many bot requests per second it answers.

    .venv/bin/python scripts/bench_fake.py [--tables 200] [--seconds 10] [--warmup 2]
        [--history 200] [--pictures 1.0]

``--tables`` channels each hold a table message with five buttons and ``--history`` older
messages. One worker per table plays a bot's part as fast as it can: a user clicks a button
(an INTERACTION_CREATE dispatched to a connected zlib-stream gateway session, which a reader
inflates and parses), the "bot" answers with callback type 7 (an UPDATE_MESSAGE rebuilding the
components), and every third click also posts a message to the channel and deletes the one
before, as the kortbord bot does with its turn announcements. A ``--pictures`` share of the
callbacks (all of them by default) carries the table's picture as the bot sends it:
multipart/form-data, exactly as discord.py builds it (``payload_json`` and a ``files[0]`` PNG
of about 8 KB with alt text, which the embed shows as ``attachment://cards.png``). With every
callback so, 60% of the requests are multipart, as under the bot's load in
``scripts/bench_discord.py``. Rate limits are off, so the figure is the fake's own cost per
request (its server and the client run in one event loop and share one core, as in the
end-to-end tests). Reports, for the ``--seconds`` after ``--warmup`` seconds (which hold the
burst of every worker's first request at once): requests/s, the process's CPU time per request
(unlike requests/s, hardly moved by other processes on a shared machine), and latency
percentiles, for all requests and for the multipart ones.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import statistics
import sys
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.fakediscord import Driver, FakeDiscord, RateLimitConfig
from bot.fakediscord.model import Channel, StoredMessage, User

TOKEN = "bench-token"
# a card picture as the bot attaches it: PNG, about 8 KB (bot/cardart/compose.py), incompressible
PICTURE = b"\x89PNG\r\n\x1a\n" + os.urandom(8 * 1024)
PICTURE_ALT = "Your hand: 7 of hearts, 7 of spades, 8 of hearts, queen of clubs, ace of spades"


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


def table_body(turn: int, *, picture: bool = False) -> dict[str, Any]:
    embed: dict[str, Any] = {"title": "Tonk", "description": f"Turn {turn}\n" + "♠ ♥ ♦ ♣ " * 20}
    body: dict[str, Any] = {"embeds": [embed], "components": table_components(turn)}
    if picture:
        embed["image"] = {"url": "attachment://cards.png"}
        body["attachments"] = [{"id": 0, "description": PICTURE_ALT}]
    return body


def multipart(payload: dict[str, Any]) -> aiohttp.FormData:
    """``payload`` with the picture as ``files[0]``, built as discord.py 2.x builds it
    (``discord/http.py``: ``handle_message_parameters`` and ``HTTPClient.request``)."""
    form = aiohttp.FormData(quote_fields=False)
    form.add_field(name="payload_json", value=json.dumps(payload, separators=(",", ":")))
    form.add_field(
        name="files[0]",
        value=io.BytesIO(PICTURE),
        filename="cards.png",
        content_type="application/octet-stream",
    )
    return form


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


@dataclass
class Tally:
    """Latencies of the requests sent in the measured window (from ``start``)."""

    start: float
    latencies: list[float] = field(default_factory=list)
    multipart: list[float] = field(default_factory=list)

    def add(self, sent: float, *, multipart: bool = False) -> None:
        if sent < self.start:
            return
        latency = time.perf_counter() - sent
        self.latencies.append(latency)
        if multipart:
            self.multipart.append(latency)


async def worker(
    http: aiohttp.ClientSession,
    fake: FakeDiscord,
    driver: Driver,
    channel: Channel,
    table: StoredMessage,
    player: User,
    stop: float,
    pictures: float,
    tally: Tally,
) -> None:
    headers = {"Authorization": f"Bot {TOKEN}"}
    base = fake.api_base
    turn = 0
    last_notice: str | None = None
    while time.perf_counter() < stop:
        turn += 1
        button = table.buttons()[turn % 5]["custom_id"]
        result = await driver.click(player, table, button, wait=False)
        record = result.record
        # the same share of callbacks in every worker, spread evenly over its turns
        picture = int(turn * pictures) != int((turn - 1) * pictures)
        body = {"type": 7, "data": table_body(turn, picture=picture)}
        calls: list[tuple[str, str, Any, bool]] = [
            ("POST", f"{base}/interactions/{record.id}/{record.token}/callback", body, picture)
        ]
        if turn % 3 == 0:
            notice = {"content": f"<@{player.id}>, your turn"}
            calls.append(("POST", f"{base}/channels/{channel.id}/messages", notice, False))
        for method, url, payload, with_file in calls:
            sent: dict[str, Any] = {"data": multipart(payload)} if with_file else {"json": payload}
            t0 = time.perf_counter()
            async with http.request(method, url, headers=headers, **sent) as response:
                data = await response.json() if response.status != 204 else None
                assert response.status < 300, (response.status, data)
            tally.add(t0, multipart=with_file)
            if method == "POST" and url.endswith("/messages"):
                if last_notice is not None:
                    t0 = time.perf_counter()
                    url = f"{base}/channels/{channel.id}/messages/{last_notice}"
                    async with http.delete(url, headers=headers) as response:
                        assert response.status == 204
                    tally.add(t0)
                last_notice = data["id"]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--history", type=int, default=200)
    parser.add_argument(
        "--pictures",
        type=float,
        default=1.0,
        help="share of the callbacks that carry a PNG as multipart/form-data (0 to 1)",
    )
    args = parser.parse_args()
    if not 0 <= args.pictures <= 1:
        parser.error("--pictures is a share, from 0 to 1")

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
        tally = Tally(time.perf_counter() + args.warmup)
        stop = tally.start + args.seconds
        workers = asyncio.gather(
            *(
                worker(http, fake, driver, c, t, p, stop, args.pictures, tally)
                for c, t, p in zip(channels, tables, players, strict=True)
            )
        )
        await asyncio.sleep(args.warmup)
        cpu_start = time.process_time()
        await workers
        elapsed = time.perf_counter() - tally.start
        cpu = time.process_time() - cpu_start
        reader.cancel()
    await fake.stop()

    latencies, multipart_latencies = tally.latencies, tally.multipart
    total = len(latencies)
    print(
        f"{total} requests in {elapsed:.1f} s: {total / elapsed:,.0f} requests/s; "
        f"CPU {cpu / total * 1e6:,.0f} µs per request (the fake's and the client's)"
    )
    print(
        f"latency p50 {statistics.median(latencies) * 1000:.1f} ms, "
        f"p99 {pct(latencies, 99) * 1000:.1f} ms; "
        f"{gateway.events} gateway events read; {len(fake.messages)} messages stored"
    )
    if multipart_latencies:
        print(
            f"{len(multipart_latencies)} multipart requests with a picture: "
            f"latency p50 {statistics.median(multipart_latencies) * 1000:.1f} ms, "
            f"p99 {pct(multipart_latencies, 99) * 1000:.1f} ms; "
            f"{len(fake.attachments)} attachments stored"
        )


if __name__ == "__main__":
    asyncio.run(main())
