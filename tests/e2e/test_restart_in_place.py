"""A restart costs a table no request of the bot token's where none is needed (issue 49).

The interaction token that posted a table message is stored with it while good, so a restart
within its 15 minutes edits the table in place through it: no post anew, no delete of the old
message, which only the bot's token could otherwise make. A clean stop records that every post
was recorded, so the next start reads no channel for strays; after a kill (no such record) it
reads as before. ``tests/e2e/test_restart_strays.py`` kills the bot mid-write."""

from __future__ import annotations

import pytest

from bot.discord.publisher import TablePublisher
from bot.discord.showing import HOOK_LIFETIME
from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.records import RestCall
from tests.e2e import dubb_table
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import DubbTable
from tests.e2e.test_channel_webhooks import TURN, by_bot_token, clocked, open_turn_table
from tests.fakeclock import FakeClock

pytestmark = pytest.mark.e2e

HISTORY = "/channels/{channel_id}/messages"


def _of_channel(calls: list[RestCall], channel_id: int) -> list[RestCall]:
    """The requests of the bot token's about the channel (its messages, its webhooks)."""
    return [c for c in by_bot_token(calls) if c.path.startswith(f"/channels/{channel_id}/")]


def _looks(calls: list[RestCall]) -> list[RestCall]:
    return [c for c in calls if c.method == "GET" and c.route == HISTORY]


async def _hooked_table(bot_runner: BotRunner, fake: FakeDiscord, driver: Driver,
                        world: World) -> tuple[FakeClock, DubbTable, int]:
    """A bot on the fake's clock, and a table at its first turn in a channel whose webhook
    the bot has set up: the clock, the table and its move counter."""
    driver.set_bot_webhooks(world.channel, True)
    clock = clocked(fake, bot_runner)
    await bot_runner.start()
    table = await open_turn_table(driver, world)
    await driver.wait_for(lambda: driver.webhooks(world.channel), what="the channel webhook")
    counter = dubb_table.counter_of(table.table)
    assert counter is not None
    return clock, table, counter


async def test_a_restart_within_the_tokens_life_edits_the_table_in_place_on_no_bot_request(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.set_bot_webhooks(world.channel, True)
    clocked(fake, bot_runner)
    await bot_runner.start()
    # without pings a move edits the table in place
    await dubb_table.pings_off(driver, world.channel, [world.anna, world.bo])
    table = await open_turn_table(driver, world)
    await driver.wait_for(lambda: driver.webhooks(world.channel), what="the channel webhook")
    stored = table.table
    assert stored.webhook_id == fake.application.id  # a follow-up of a person's interaction
    counter = dubb_table.counter_of(stored)
    assert counter is not None

    await bot_runner.stop()
    first = len(fake.rest_calls)
    await bot_runner.start()
    await table.turn_by_buttons()
    await table.turn_by_buttons()
    calls = fake.rest_calls[first:]

    # the same message, edited through the token that posted it, known from the database;
    # nothing of the bot token's about the table: no look for strays, no post, no delete
    shown = await table.wait_counter(counter + 2)
    assert shown.id == stored.id and not stored.deleted
    assert [m for m in driver.channel_messages(world.channel) if m.buttons()] == [shown]
    assert _of_channel(calls, world.channel.id) == []
    edits = [c for c in calls if c.method == "PATCH" and c.path.startswith(
        f"/webhooks/{fake.application.id}/") and c.path.endswith(f"/messages/{stored.id}")]
    assert edits


async def test_after_a_clean_stop_no_channel_is_read_for_strays(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    clock, table, counter = await _hooked_table(bot_runner, fake, driver, world)
    stored = table.table

    # down longer than the token that posted the table is good: only the bot's token can
    # delete that message once the table is posted anew (to ping the next person)
    await bot_runner.stop()
    clock.advance(HOOK_LIFETIME + TURN)
    first = len(fake.rest_calls)
    await bot_runner.start()
    moved = await table.wait_counter(counter + 1)
    await driver.wait_for(lambda: stored.deleted, what="the old table message deleted")
    calls = fake.rest_calls[first:]

    assert moved.id != stored.id
    assert [m for m in driver.channel_messages(world.channel) if m.buttons()] == [moved]
    # its delete was the one request of the bot token's: no look for strays
    assert [c.method for c in _of_channel(calls, world.channel.id)] == ["DELETE"]


async def test_after_a_kill_the_restarted_bot_still_reads_the_channel_for_strays(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    clock, table, counter = await _hooked_table(bot_runner, fake, driver, world)

    async def killed(self: TablePublisher) -> None:
        """A killed process records nothing at its end."""

    with monkeypatch.context() as patched:
        patched.setattr(TablePublisher, "_release", killed)
        await bot_runner.stop()
    clock.advance(TURN)
    first = len(fake.rest_calls)
    await bot_runner.start()
    await table.wait_counter(counter + 1)
    await driver.wait_for(lambda: _looks(fake.rest_calls[first:]), what="the look for strays")
