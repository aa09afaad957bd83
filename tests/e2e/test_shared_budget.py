"""Two ``python -m bot`` processes on one bot token share its global budget (issue 32).

Discord counts the global limit per bot token, over every process that uses it; a process that
paced itself to the whole limit alone let two of them send twice what the token may, and
Discord answers that with global 429s (and counts them towards the invalid-request ban). Each
process now paces itself to its shards' part of ``GLOBAL_RATE_LIMIT``.

Tables people play are written through their interactions, outside the global limit; what uses
the bot's own budget is what nobody's interaction can carry, such as a restart's redraw of the
tables left behind. So twenty lobbies are opened, ten in each process's server, both processes
are stopped, every table is marked behind (as a crash leaves them once their interactions'
tokens have run out), and both start again
against a fake whose global limit is 20 a second, as they are told (as a bot Discord granted
another figure would be): forty requests to redraw (an edit and a look for strays each), which
one process alone would send within a second. The fake's record of every request says how many
arrived within any one second, from both processes together.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bot.fakediscord import Channel, Driver, FakeDiscord, User
from bot.fakediscord.ratelimit import RateLimitConfig
from tests.e2e.conftest import TEST_TOKEN, SubprocessBot
from tests.e2e.table_card import title

pytestmark = pytest.mark.e2e

LIMIT = 20
COUNT = 2
CHANNELS = 10
"""Lobbies per server (one server per shard, one process per shard)."""


@pytest.fixture
async def processes(
    fake: FakeDiscord, driver: Driver, tmp_path: Path, postgres_url: str
) -> AsyncIterator[list[SubprocessBot]]:
    bots = []
    for shard in range(COUNT):
        workdir = tmp_path / f"process-{shard}"
        workdir.mkdir()
        bots.append(SubprocessBot(fake, driver, workdir, env={
            "DATABASE_URL": postgres_url, "SHARD_COUNT": str(COUNT), "SHARD_IDS": str(shard),
            "GLOBAL_RATE_LIMIT": str(LIMIT),
        }))
    yield bots
    for bot in bots:
        with contextlib.suppress(AssertionError):
            await bot.stop()


async def test_two_processes_on_one_token_never_exceed_its_global_limit_together(
    processes: list[SubprocessBot], driver: Driver, fake: FakeDiscord, postgres_url: str
) -> None:
    guilds = [driver.add_guild(f"Server {k}", shard_of=(k, COUNT)) for k in range(COUNT)]
    for bot in processes:
        await bot.start()
    hosts = []
    for guild in guilds:
        for c in range(CHANNELS):
            channel = driver.add_channel(guild, f"dubb-{c}")
            hosts.append((driver.add_user(f"H{guild.name[-1]}{c}", guilds=[guild]), channel))
    opened = await asyncio.gather(*(driver.slash(user, channel, "dubb start", {})
                                    for user, channel in hosts))
    assert not any(answer.ephemeral for answer in opened)  # each lobby answers its command
    await driver.wait_for(lambda: _lobbies(driver, hosts) == len(hosts), within=30,
                          what="every lobby posted")
    for bot in processes:
        assert await bot.stop() == 0
    connection = await asyncpg.connect(postgres_url)
    try:
        # as a crash long after the tables' last writes leaves them (issue 49): each behind,
        # no interaction's token good for editing it any more, and the killed runs' claims
        # standing, so that each needs the bot's own edit and its look for strays
        await connection.execute("UPDATE tables SET shown_version = version - 1, "
                                 "message_token = NULL, message_token_at = NULL")
        await connection.execute("INSERT INTO posting_runs (table_id, run_id) "
                                 "SELECT id, 1 FROM tables ON CONFLICT DO NOTHING")
    finally:
        await connection.close()
    fake.rate_limits = dataclasses.replace(RateLimitConfig.discord_like(), global_limit=LIMIT)
    since = time.time()

    for bot in processes:
        await bot.start()

    def redrawn() -> bool:
        edits = [c for c in fake.rest_calls if c.method == "PATCH"
                 and c.route == "/channels/{channel_id}/messages/{message_id}"]
        looks = [c for c in fake.rest_calls if c.method == "GET"
                 and c.route == "/channels/{channel_id}/messages"]
        return len(edits) >= len(hosts) and len(looks) >= len(hosts)

    await driver.wait_for(redrawn, within=30, what="every table redrawn and swept")
    assert fake.rate_limited == []
    budget = fake.global_budget(TEST_TOKEN)
    assert len([t for t in fake.limiter.times(budget) if t >= since]) >= 2 * len(hosts)
    assert fake.limiter.peak(budget, 1.0, since=since) <= LIMIT
    # each process kept to its own half, less the requests of its login, which come before
    # anything can pace them: 7 a second
    for bot in processes:
        assert "pacing to 7 requests per 1 s (GLOBAL_RATE_LIMIT 20)" in bot.output()
    for bot in processes:
        assert await bot.stop() == 0
    assert all(not bot.errors() for bot in processes)


def _lobbies(driver: Driver, hosts: list[tuple[User, Channel]]) -> int:
    return sum(1 for _, channel in hosts for m in driver.channel_messages(channel)
               if "waiting for players" in title(m))
