"""The Activity with the bot in two processes on one PostgreSQL database (shards, issue 17): a
move made in one process reaches an Activity stream served by the other, through PostgreSQL's
NOTIFY (``bot.activity.hub``). Each "process" is its own ``KortbordBot`` in this event loop,
with its own Activity server, table service and caches, as in tests/e2e/test_shards.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.snowflake import shard_of
from tests.e2e.activity_client import action, pages
from tests.e2e.conftest import BOOT_TIMEOUT, BotRunner, World
from tests.e2e.dubb_table import counter_of, open_table, table_message

pytestmark = pytest.mark.e2e

COUNT = 2


@pytest.fixture
async def processes(
    fake: FakeDiscord, driver: Driver, world: World, discord_redirect: None, tmp_path: Path,
    postgres_url: str,
) -> AsyncIterator[list[BotRunner]]:
    """Two bots with the Activity on, one shard each, on one PostgreSQL database: the one that
    owns the test's server first."""
    driver.enable_activities()
    runners = [BotRunner(fake, driver, tmp_path / f"unused-{i}.sqlite3") for i in range(COUNT)]
    owner = shard_of(world.guild.id, COUNT)
    for runner, shard in zip(runners, (owner, 1 - owner), strict=True):
        runner.database_url = postgres_url
        runner.activity = True
        runner.shards = (COUNT, [shard])
        bot = await runner.start()
        async with asyncio.timeout(BOOT_TIMEOUT):
            await bot.wait_until_ready()
    yield runners
    for runner in runners:
        await runner.stop()


def port(runner: BotRunner) -> int:
    assert runner.bot is not None and runner.bot.activity_server is not None
    return runner.bot.activity_server.port


async def test_a_move_in_one_process_reaches_a_stream_served_by_the_other(
    processes: list[BotRunner], driver: Driver, world: World
) -> None:
    owner, other = processes
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    instance = (await driver.click(world.anna, table.table, "Play in an Activity")
                ).activity_instance
    assert instance is not None
    driver.join_activity(world.bo, instance)
    async with pages(port(other)) as on_other, pages(port(owner)) as on_owner:
        anna, bo = on_other(), on_owner()
        await anna.sign_in(driver, world.anna, instance)
        await bo.sign_in(driver, world.bo, instance)
        async with anna.stream() as annas, bo.stream() as bos:
            scene = await annas.until(lambda s: s["state"] == "playing", "the game")
            moved = {"button": 0, "activity": 0}
            while min(moved.values()) == 0 and not table.over():
                version = scene["version"]
                counter = counter_of(table_message(driver, world.channel))
                assert counter is not None
                theirs = await bos.until(lambda s, v=version: s["version"] >= v, "Bo's scene")
                if any(a["kind"] == "move" for a in theirs["actions"]) and not moved["activity"]:
                    # Bo moves in the Activity served by the process that owns the server
                    status, answer = await bo.act(theirs, action(theirs, "move"))
                    assert status == 200, answer
                    moved["activity"] += 1
                else:
                    # a button in the channel: the owning process applies it
                    await table.turn_by_buttons()
                    moved["button"] += 1
                await table.wait_counter(counter + 1)
                # the other process's stream hears of it
                scene = await annas.until(lambda s, v=version: s["version"] > v,
                                          "the move on the other process's stream")
