"""The sharded bot's pieces that need no Discord: which bot the settings make, and how fast its
shards may IDENTIFY."""

from __future__ import annotations

import pytest
from discord.ext import commands

from bot.client import KortbordBot
from bot.config import Settings
from bot.sharding import IDENTIFY_INTERVAL, IdentifyPacer, ShardedKortbordBot, make_bot


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_shards_of_one_bucket_identify_five_seconds_apart_others_at_once() -> None:
    clock = Clock()
    pacer = IdentifyPacer(2, now=clock)
    assert pacer.delay(0) == 0.0
    pacer.identified(0)
    assert pacer.delay(1) == 0.0  # bucket 1 % 2
    pacer.identified(1)
    assert pacer.delay(2) == IDENTIFY_INTERVAL  # bucket 0 again
    clock.now += 3.0
    assert pacer.delay(2) == pytest.approx(IDENTIFY_INTERVAL - 3.0)
    clock.now += 2.0
    assert pacer.delay(2) == 0.0 and pacer.delay(3) == 0.0


def test_a_missing_max_concurrency_means_one_at_a_time() -> None:
    clock = Clock()
    pacer = IdentifyPacer(0, now=clock)
    pacer.identified(5)
    assert pacer.delay(6) == IDENTIFY_INTERVAL


def _settings(**shards: object) -> Settings:
    return Settings(_env_file=None, discord_token="x", **shards)  # type: ignore[call-arg]


async def test_the_settings_choose_the_bot() -> None:
    async with make_bot(_settings()) as plain:
        assert type(plain) is KortbordBot and not isinstance(plain, commands.AutoShardedBot)
    async with make_bot(_settings(shard_count=4, shard_ids="2,3")) as sharded:
        assert isinstance(sharded, ShardedKortbordBot)
        assert isinstance(sharded, commands.AutoShardedBot)
        assert (sharded.shard_count, sharded.shard_ids) == (4, [2, 3])
    async with make_bot(_settings(shard_count=2)) as every:
        assert (every.shard_count, every.shard_ids) == (2, [0, 1])
