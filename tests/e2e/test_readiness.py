"""``/healthz`` and ``/readyz`` (``bot.monitor``) through the fake Discord and a PostgreSQL server
of the test's own: ready once the gateway is connected and the database answers; not ready while
the gateway is down (the fake's outage) or the database is stopped; ready again when each comes
back."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import pytest

from bot.fakediscord import FakeDiscord
from bot.monitor import Monitor
from tests.e2e.conftest import BotRunner, World
from tests.store.pgserver import PgServer

pytestmark = [pytest.mark.e2e]

WITHIN = 30.0
"""Seconds readiness may take to follow a change (discord.py reconnects with a backoff)."""


@pytest.fixture
def own_postgres() -> Iterator[PgServer]:
    """A server this test may stop and start again."""
    server = PgServer.start()
    yield server
    server.stop()


@pytest.fixture
async def monitor(bot_runner: BotRunner, world: World, own_postgres: PgServer
                  ) -> AsyncIterator[Monitor]:
    bot_runner.database_url = own_postgres.url(own_postgres.create_database())
    bot = await bot_runner.start()
    server = Monitor(bot, "127.0.0.1", 0)
    await server.start()
    yield server
    await server.close()
    # the bot stops (bot_runner's teardown) before the server's folder goes


async def _get(monitor: Monitor, path: str) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as session, session.get(
            f"http://127.0.0.1:{monitor.port}{path}") as response:
        return response.status, await response.json()


async def _until(monitor: Monitor, status: int, what: str) -> dict[str, Any]:
    """Ask ``/readyz`` until it answers ``status``; its last answer."""
    async with asyncio.timeout(WITHIN):
        while True:
            got, body = await _get(monitor, "/readyz")
            if got == status:
                return dict(body)
            # the next look waits for the loop's other work (the bot reconnecting) to run
            await asyncio.sleep(0.05)
    raise AssertionError(what)  # pragma: no cover (the timeout raises first)


async def test_ready_follows_the_gateway_and_the_database(
    monitor: Monitor, fake: FakeDiscord, own_postgres: PgServer, bot_errors: Any
) -> None:
    # the bot logs its lost connection and its database errors while they are gone
    bot_errors.expect()
    assert await _get(monitor, "/healthz") == (200, {"alive": True})
    ready = await _until(monitor, 200, "ready at start")
    assert ready == {"shards": 1, "shards_connected": 1, "database": "ok", "ready": True}

    await fake.gateway.outage()
    down = await _until(monitor, 503, "not ready while the gateway is down")
    assert down["shards_connected"] == 0 and down["database"] == "ok"
    assert (await _get(monitor, "/healthz"))[0] == 200
    fake.gateway.recover()
    assert (await _until(monitor, 200, "ready once the gateway is back"))["ready"]

    await asyncio.to_thread(own_postgres.halt)
    stopped = await _until(monitor, 503, "not ready while the database is stopped")
    assert stopped["shards_connected"] == 1
    assert stopped["database"].startswith("not answering")
    await asyncio.to_thread(own_postgres.resume)
    assert (await _until(monitor, 200, "ready once the database is back"))["ready"]


async def test_a_sharded_process_is_ready_when_each_of_its_shards_is(
    bot_runner: BotRunner, world: World, fake: FakeDiscord, bot_errors: Any
) -> None:
    bot_errors.expect()
    bot_runner.shards = (4, [1, 3])
    server = Monitor(await bot_runner.start(), "127.0.0.1", 0)
    await server.start()
    try:
        ready = await _until(server, 200, "ready at start")
        assert (ready["shards"], ready["shards_connected"]) == (2, 2)
        await fake.gateway.outage()
        assert (await _until(server, 503, "not ready while the gateway is down"))[
            "shards_connected"] < 2
        fake.gateway.recover()
        assert (await _until(server, 200, "ready once the gateway is back"))[
            "shards_connected"] == 2
    finally:
        await server.close()
