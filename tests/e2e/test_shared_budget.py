"""Two ``python -m bot`` processes on one bot token share its global budget (issue 32).

Discord counts the global limit per bot token, over every process that uses it; a process that
paced itself to the whole limit alone let two of them send twice what the token may, and
Discord answers that with global 429s (and counts them towards the invalid-request ban). Each
process now paces itself to its shards' part of ``GLOBAL_RATE_LIMIT``.

To load them past the limit quickly, the fake's global limit is set to 10 a second, as the
processes are told (as a bot Discord granted another figure would be), and twenty lobbies are
opened at once, ten in each process's server: twenty table posts that one process alone would
send within a second. The fake's record of every request says how many arrived within any one
second, from both processes together.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.ratelimit import RateLimitConfig
from tests.e2e.conftest import TEST_TOKEN, SubprocessBot

pytestmark = pytest.mark.e2e

LIMIT = 10
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
    processes: list[SubprocessBot], driver: Driver, fake: FakeDiscord
) -> None:
    guilds = [driver.add_guild(f"Server {k}", shard_of=(k, COUNT)) for k in range(COUNT)]
    for bot in processes:
        await bot.start()
    # started under Discord's 50 a second (their first start uploads the emojis); from here on
    # the token may make LIMIT requests a second, as both processes were told
    fake.rate_limits = dataclasses.replace(RateLimitConfig.discord_like(), global_limit=LIMIT)
    hosts = []
    for guild in guilds:
        for c in range(CHANNELS):
            channel = driver.add_channel(guild, f"dubb-{c}")
            hosts.append((driver.add_user(f"H{guild.name[-1]}{c}", guilds=[guild]), channel))
    since = time.time()

    opened = await asyncio.gather(*(driver.slash(user, channel, "dubb start", {})
                                    for user, channel in hosts))

    assert all(answer.ephemeral for answer in opened)

    def lobbies() -> int:
        return sum(1 for _, channel in hosts for m in driver.channel_messages(channel)
                   if m.embeds and "waiting for players" in str(m.embeds[0].get("title")))

    await driver.wait_for(lambda: lobbies() == len(hosts), within=30,
                          what="every lobby posted")
    assert fake.rate_limited == []
    budget = fake.global_budget(TEST_TOKEN)
    sent = [t for t in fake.limiter.times(budget) if t >= since]
    assert len(sent) >= len(hosts)
    assert fake.limiter.peak(budget, 1.0, since=since) <= LIMIT
    # each process kept to its own half, rounded down, less the unpaced tenth: 4 a second
    for bot in processes:
        assert "pacing to 4 requests per 1 s (GLOBAL_RATE_LIMIT 10)" in bot.output()
    for bot in processes:
        assert await bot.stop() == 0
    assert all(not bot.errors() for bot in processes)
