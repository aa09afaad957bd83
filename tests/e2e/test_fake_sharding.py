"""Sharding as Discord documents it: IDENTIFY's ``shard``, routing by ``(guild_id >> 22) %
num_shards``, ``GET /gateway/bot``, close codes 4010/4011; with discord.py's AutoShardedClient."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.fakediscord import Driver, FakeDiscord, Guild
from bot.fakediscord.snowflake import shard_of
from tests.e2e.conftest import TEST_TOKEN, World
from tests.e2e.test_fake_gateway import RawGateway

pytestmark = pytest.mark.e2e


class ConcurrentShards(discord.AutoShardedClient):
    """Starts its shards together, as ``max_concurrency`` from ``GET /gateway/bot`` allows
    (the fake advertises enough; discord.py's default hook waits 5 s between shards)."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


@dataclass
class ShardedBot:
    client: ConcurrentShards
    task: asyncio.Task[None]
    interactions: list[tuple[int, int | None]] = field(default_factory=list)
    messages: list[int] = field(default_factory=list)


class ShardedBots:
    def __init__(self, fake: FakeDiscord, driver: Driver) -> None:
        self.fake = fake
        self.driver = driver
        self.running: list[ShardedBot] = []

    async def start(
        self, *, shard_count: int | None, shard_ids: Sequence[int] | None = None, sync: bool
    ) -> ShardedBot:
        client = ConcurrentShards(
            intents=discord.Intents.default(),
            shard_count=shard_count,
            shard_ids=list(shard_ids) if shard_ids is not None else None,
        )
        tree = app_commands.CommandTree(client)
        bot = ShardedBot(client, asyncio.create_task(asyncio.sleep(0)))

        @tree.command(name="where", description="Say which shard answered")
        async def where(interaction: discord.Interaction) -> None:
            bot.interactions.append((interaction.guild_id or 0, interaction.client.shard_id))
            shard = interaction.guild.shard_id if interaction.guild else None
            await interaction.response.send_message(f"shard {shard}", ephemeral=True)

        async def on_message(message: discord.Message) -> None:
            if message.guild is not None and message.author.id != self.fake.bot_user.id:
                bot.messages.append(message.guild.id)
                self.fake.changed()  # wakes the test's wait_for

        async def setup_hook() -> None:
            if sync:
                await tree.sync()

        client.event(on_message)
        client.setup_hook = setup_hook  # type: ignore[method-assign]
        expected = len(shard_ids) if shard_ids is not None else self.fake.recommended_shards
        before = len(self.fake.gateway.live_sessions())
        bot.task = asyncio.create_task(client.start(TEST_TOKEN))
        self.running.append(bot)
        await self.driver.wait_for(
            lambda: len(self.fake.gateway.live_sessions()) >= before + expected
            or bot.task.done(),
            what=f"{expected} shard session(s)",
        )
        if bot.task.done():
            await bot.task
        return bot

    async def close_all(self) -> None:
        for bot in self.running:
            await bot.client.close()
            with contextlib.suppress(Exception):
                await bot.task


@pytest.fixture
async def sharded(
    fake: FakeDiscord, driver: Driver, discord_redirect: None
) -> AsyncIterator[ShardedBots]:
    fake.max_concurrency = 16
    bots = ShardedBots(fake, driver)
    yield bots
    await bots.close_all()


def guilds_on_shards(driver: Driver, count: int) -> list[Guild]:
    """One server per shard of ``count``, each with #general and a member, Anna."""
    guilds = [driver.add_guild(f"Server {k}", shard_of=(k, count)) for k in range(count)]
    for guild in guilds:
        driver.add_channel(guild, "general")
    driver.add_user("Anna")
    return guilds


def general(driver: Driver, guild: Guild) -> Any:
    return next(c for c in driver.fake.channels.values() if c.guild_id == guild.id)


def test_guild_ids_land_on_the_shard_asked_for(driver: Driver) -> None:
    guilds = [driver.add_guild(f"g{n}", shard_of=(n % 3, 3)) for n in range(7)]

    assert [shard_of(g.id, 3) for g in guilds] == [n % 3 for n in range(7)]
    assert [g.id for g in guilds] == sorted(g.id for g in guilds)


async def test_gateway_bot_recommends_shards_and_counts_session_starts(
    fake: FakeDiscord, world: World
) -> None:
    fake.recommended_shards = 4
    headers = {"Authorization": f"Bot {TEST_TOKEN}"}
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{fake.api_base}/gateway/bot", headers=headers) as response:
            before = await response.json()
        gateway = await RawGateway.connect(http, fake)
        await gateway.identify()
        async with http.get(f"{fake.api_base}/gateway/bot", headers=headers) as response:
            after = await response.json()
        await gateway.ws.close()

    assert before["url"] == fake.gateway_url.rstrip("/") and before["shards"] == 4
    assert before["session_start_limit"] == {
        "total": 1000,
        "remaining": 1000,
        "reset_after": 86_400_000,
        "max_concurrency": 1,
    }
    assert after["session_start_limit"]["remaining"] == 999


async def identify_raw(fake: FakeDiscord, shard: Any) -> tuple[RawGateway, aiohttp.ClientSession]:
    http = aiohttp.ClientSession()
    gateway = await RawGateway.connect(http, fake)
    await gateway.receive()  # HELLO
    await gateway.send(2, {"token": "t", "intents": 1, "shard": shard, "properties": {}})
    return gateway, http


async def test_ready_and_guild_creates_carry_only_the_shards_guilds(
    fake: FakeDiscord, driver: Driver
) -> None:
    guilds = guilds_on_shards(driver, 2)

    gateway, http = await identify_raw(fake, [1, 2])
    ready = await gateway.receive()
    guild_create = await gateway.receive()
    later = driver.add_channel(guilds[0], "not-for-shard-1")  # shard 0's event
    mine = driver.add_channel(guilds[1], "for-shard-1")
    channel_create = await gateway.receive()
    await gateway.ws.close()
    await http.close()

    assert ready["d"]["shard"] == [1, 2]
    assert ready["d"]["guilds"] == [{"id": str(guilds[1].id), "unavailable": True}]
    assert (guild_create["t"], guild_create["d"]["id"]) == ("GUILD_CREATE", str(guilds[1].id))
    assert (channel_create["t"], channel_create["d"]["id"]) == ("CHANNEL_CREATE", str(mine.id))
    assert later.id != mine.id


@pytest.mark.parametrize("shard", [[2, 2], [0, 0], [-1, 2], [0], [0, 2, 1], ["0", 2], [True, 2]])
async def test_an_invalid_shard_closes_4010(fake: FakeDiscord, shard: Any) -> None:
    gateway, http = await identify_raw(fake, shard)
    closed = await gateway.ws.receive()
    await http.close()

    assert (closed.type, closed.data) == (aiohttp.WSMsgType.CLOSE, 4010)


async def test_too_many_guilds_on_one_connection_closes_4011(
    fake: FakeDiscord, driver: Driver
) -> None:
    fake.guilds_per_shard = 1
    guilds_on_shards(driver, 2)

    unsharded, http = await identify_raw(fake, None)
    refused = await unsharded.ws.receive()
    await http.close()
    sharded, http = await identify_raw(fake, [0, 2])
    accepted = await sharded.receive()
    await sharded.ws.close()
    await http.close()

    assert refused.data == 4011
    assert accepted["t"] == "READY"


async def test_an_auto_sharded_client_uses_the_recommended_count_and_each_shard_its_guilds(
    fake: FakeDiscord, driver: Driver, sharded: ShardedBots
) -> None:
    fake.recommended_shards = 4
    guilds = guilds_on_shards(driver, 4)
    anna = next(u for u in fake.users.values() if u.username == "anna")

    bot = await sharded.start(shard_count=None, sync=True)
    answers = [await driver.slash(anna, general(driver, g), "where") for g in guilds]

    assert bot.client.shard_count == 4
    assert sorted(s.shard for s in fake.gateway.live_sessions()) == [(k, 4) for k in range(4)]
    assert [a.content for a in answers] == [f"shard {k}" for k in range(4)]
    for guild in guilds:
        cached = bot.client.get_guild(guild.id)
        assert cached is not None and cached.shard_id == shard_of(guild.id, 4)


@pytest.mark.parametrize("count", [2, 4])
async def test_two_processes_with_half_the_shards_each_see_only_their_guilds(
    fake: FakeDiscord, driver: Driver, sharded: ShardedBots, count: int
) -> None:
    guilds = guilds_on_shards(driver, count)
    anna = next(u for u in fake.users.values() if u.username == "anna")
    half = count // 2

    low = await sharded.start(shard_count=count, shard_ids=range(half), sync=True)
    high = await sharded.start(shard_count=count, shard_ids=range(half, count), sync=False)
    for guild in guilds:
        await driver.slash(anna, general(driver, guild), "where")
        driver.say(anna, general(driver, guild), "hello")
    await driver.wait_for(
        lambda: len(low.messages) + len(high.messages) == count, what="the messages"
    )

    ids = [g.id for g in guilds]
    assert [g for g, _ in low.interactions] == ids[:half]
    assert [g for g, _ in high.interactions] == ids[half:]
    assert low.messages == ids[:half] and high.messages == ids[half:]
    assert {g.id for g in low.client.guilds} == set(ids[:half])
    assert {g.id for g in high.client.guilds} == set(ids[half:])


async def test_an_interaction_for_a_shard_nobody_runs_fails_and_says_why(
    fake: FakeDiscord, driver: Driver, sharded: ShardedBots
) -> None:
    fake.interaction_deadline = 0.2
    guilds = guilds_on_shards(driver, 2)
    anna = next(u for u in fake.users.values() if u.username == "anna")
    await sharded.start(shard_count=2, shard_ids=[0], sync=True)
    driver.allow_failed_interactions()

    answered = await driver.slash(anna, general(driver, guilds[0]), "where")
    with pytest.raises(AssertionError, match="no bot session owning this server's shard"):
        await driver.slash(anna, general(driver, guilds[1]), "where")

    assert answered.content == "shard 0"
