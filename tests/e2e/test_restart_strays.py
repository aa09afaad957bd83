"""After a restart a table is written first and swept after (issue 49), and a process killed
anywhere in between still leaves the channel one table message.

A restarted table's stale messages (the stored one its first write replaced, which only the
bot's token can delete, and any post a killed process never recorded) are deleted in the
background after that write. Where they may stand is recorded before the write and kept until
they are gone, so the next process sweeps them. The kills are cheap stand-ins for SIGKILL
(``tests/e2e/test_crash.py`` has the real ones): the bot is stopped with the request or record
it is at held, and nothing in flight is let finish."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.discord import publisher
from bot.discord.showing import HOOK_LIFETIME
from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.model import StoredMessage
from bot.table.service import TableService
from tests.e2e import dubb_table
from tests.e2e.conftest import BotRunner, World
from tests.e2e.test_channel_webhooks import TURN, by_bot_token, clocked, open_turn_table, through

pytestmark = pytest.mark.e2e

HISTORY = "/channels/{channel_id}/messages"


def _tables(driver: Driver, world: World, table_id: int) -> list[StoredMessage]:
    """The table's messages standing in the channel (each with its buttons)."""
    return [m for m in driver.channel_messages(world.channel)
            if m.buttons() and dubb_table.table_id_of(m) == table_id]


def _looks(calls: list[Any]) -> list[int]:
    """Where the bot read the channel's history among ``calls``."""
    return [i for i, c in enumerate(calls) if c.method == "GET" and c.route == HISTORY]


async def test_a_restart_killed_before_its_record_or_its_sweep_leaves_one_table(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    driver.set_bot_webhooks(world.channel, True)
    driver.allow_rest_errors()  # the held looks
    # a kill lets no write in flight finish
    monkeypatch.setattr(publisher, "CLOSE_GRACE", 0.1)
    clock = clocked(fake, bot_runner)
    await bot_runner.start()
    table = await open_turn_table(driver, world)
    table_id = dubb_table.table_id_of(table.table)
    await driver.wait_for(lambda: driver.webhooks(world.channel), what="the channel webhook")
    [hook] = driver.webhooks(world.channel)
    stored = table.table  # posted through a person's interaction

    # 1. the turn runs out while the bot is down, longer than the token of the interaction
    # that posted the table is good (so nothing but the bot's token can delete that message);
    # the restarted bot posts the table anew through the channel webhook and is killed before
    # it records that message
    await bot_runner.stop()
    clock.advance(HOOK_LIFETIME + TURN)
    record = TableService.message_moved
    posted = asyncio.Event()

    async def killed_first(*args: Any, **kwargs: Any) -> None:
        posted.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(TableService, "message_moved", killed_first)
    await bot_runner.start()
    async with asyncio.timeout(10):
        await posted.wait()  # the table was posted anew: it is its record that never comes
    await bot_runner.stop()
    monkeypatch.setattr(TableService, "message_moved", record)
    unrecorded = _tables(driver, world, table_id)[-1]
    assert [m.id for m in _tables(driver, world, table_id)] == [stored.id, unrecorded.id]

    # 2. the next process writes the table first, then looks for strays: killed while its
    # look is held, it has recorded where strays may stand
    looks = fake.inject_faults(1.0, status=500,
                               match=lambda method, route: method == "GET" and route == HISTORY)
    first = len(fake.rest_calls)
    await bot_runner.start()
    await driver.wait_for(lambda: _looks(fake.rest_calls[first:]), what="the look for strays")
    await bot_runner.stop()
    calls = fake.rest_calls[first:]
    written = [i for i, c in enumerate(through(calls, hook.id)) if c.method == "POST"]
    assert written, "the table was not written"
    # no look or delete of the bot token's went ahead of the table's write
    ahead = calls[:calls.index(through(calls, hook.id)[written[0]])]
    assert [c for c in by_bot_token(ahead) if c.route.startswith(HISTORY)] == []
    standing = _tables(driver, world, table_id)
    assert len(standing) == 3 and standing[:2] == [stored, unrecorded]
    fake.faults.remove(looks)

    # 3. the process after it sweeps from the first restart's record: one table is left, the
    # one recorded, and it plays on
    first = len(fake.rest_calls)
    await bot_runner.start()
    left = await driver.wait_for(
        lambda: (t := _tables(driver, world, table_id)) and len(t) == 1 and t,
        what="one table message")
    calls = fake.rest_calls[first:]
    assert left == [standing[2]]
    edits = [c for c in through(calls, hook.id) if c.method == "PATCH"]
    assert edits and calls.index(edits[0]) < _looks(calls)[0]
    counter = dubb_table.counter_of(left[0])
    assert counter is not None
    clock.advance(TURN)
    moved = await table.wait_counter(counter + 1)
    # posted anew to ping, the table's message before it is deleted through the webhook
    await driver.wait_for(lambda: _tables(driver, world, table_id) == [moved],
                          what="the moved table alone")
    assert bot_runner.bot is not None
    record_now = await bot_runner.bot.service.store.table(table_id)
    assert record_now is not None and record_now.strays_from is None
