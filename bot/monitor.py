"""``/metrics``, ``/healthz`` and ``/readyz`` on ``METRICS_HOST:METRICS_PORT``.

Served by aiohttp on the bot's own event loop (aiohttp comes with discord.py): ``/readyz`` asks
the database, which lives on this loop, and the gauges read at a scrape (live tables, shards
connected) are the bot's own state, read without locks. prometheus-client's own server would
run in a thread and could do neither without handing work back to the loop. A scrape costs the
loop well under a millisecond (a few dozen series); the event loop's lag is sampled twice a
second while the server runs.

- ``/healthz``: 200 while the process runs its loop (a liveness check).
- ``/readyz``: 200 when every shard this process owns has its gateway connection open and the
  database answers within ``DATABASE_TIMEOUT``; else 503. The body says which part is missing.
- ``/metrics``: ``bot.metrics`` and the process's own, in Prometheus's text format.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from bot import metrics

if TYPE_CHECKING:
    from bot.client import KortbordBot

_log = logging.getLogger("kortbord.monitor")

DATABASE_TIMEOUT = 2.0
"""Seconds the database has to answer a readiness check or a count of the live tables."""
LAG_INTERVAL = 0.5
"""Seconds between two samples of the event loop's lag."""


class Monitor:
    """The HTTP server; ``start()`` binds it (port 0: a free port, then ``port`` says which)."""

    def __init__(self, bot: KortbordBot, host: str, port: int) -> None:
        self.bot = bot
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None
        self._lag: asyncio.Task[None] | None = None
        self._live_series: set[tuple[str, str]] = set()

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        # the port bound, when 0 asked for a free one
        self.port = int(self._runner.addresses[0][1])
        self._lag = asyncio.create_task(_sample_lag(), name="kortbord-loop-lag")
        _log.info("metrics and health checks on http://%s:%d/ (/metrics, /healthz, /readyz)",
                  self.host, self.port)

    async def close(self) -> None:
        if self._lag is not None:
            self._lag.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._lag
        if self._runner is not None:
            await self._runner.cleanup()

    async def readiness(self) -> tuple[bool, dict[str, Any]]:
        """Whether this process is ready, and what was found."""
        owned, connected = self.bot.gateway_state()
        found: dict[str, Any] = {"shards": owned, "shards_connected": connected}
        store = getattr(self.bot, "store", None)
        if store is None:
            found["database"] = "not open yet"
        else:
            try:
                async with asyncio.timeout(DATABASE_TIMEOUT):
                    await store.ping()
                found["database"] = "ok"
            except Exception as exc:  # whatever the driver raises, the database is not there
                found["database"] = f"not answering ({type(exc).__name__})"
        ready = owned > 0 and connected == owned and found["database"] == "ok"
        found["ready"] = ready
        return ready, found

    async def _healthz(self, request: web.Request) -> web.Response:
        return web.json_response({"alive": True})

    async def _readyz(self, request: web.Request) -> web.Response:
        ready, found = await self.readiness()
        return web.Response(text=json.dumps(found), status=200 if ready else 503,
                            content_type="application/json")

    async def _metrics(self, request: web.Request) -> web.Response:
        await self._refresh()
        return web.Response(body=generate_latest(REGISTRY),
                            headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _refresh(self) -> None:
        """The gauges read at a scrape: shards connected and live tables."""
        owned, connected = self.bot.gateway_state()
        metrics.SHARDS.set(owned)
        metrics.SHARDS_CONNECTED.set(connected)
        store = getattr(self.bot, "store", None)
        if store is None:
            return
        try:
            async with asyncio.timeout(DATABASE_TIMEOUT):
                counts = await store.live_table_counts(shards=self.bot.settings.shards)
        except Exception:  # the last counts stay; /readyz says what is wrong
            return
        seen = set()
        for kind, status, n in counts:
            metrics.LIVE_TABLES.labels(kind, status).set(n)
            seen.add((kind, status))
        for gone in self._live_series - seen:
            metrics.LIVE_TABLES.labels(*gone).set(0)
        self._live_series |= seen


async def _sample_lag() -> None:
    while True:
        started = time.perf_counter()
        await asyncio.sleep(LAG_INTERVAL)
        metrics.EVENT_LOOP_LAG_SECONDS.observe(
            max(0.0, time.perf_counter() - started - LAG_INTERVAL))
