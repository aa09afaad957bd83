"""A table that lives for hours: Discord limits edits to messages older than an hour (429,
code 30046, ``bot/fakediscord/ratelimit.py`` ``OldMessageEdits``), so the bot posts the table
anew before it is that old instead of editing it for ever (``bot/discord/publisher.py``); and an
interaction's token works for 15 minutes, so a hand panel shown longer ago is left alone
(``PANEL_FRESH_SECONDS`` in ``bot/discord/controller.py``), never edited into 401 50027."""

from __future__ import annotations

import time

import pytest

from bot.fakediscord import Driver, FakeDiscord
from tests.e2e import dubb_table
from tests.e2e.conftest import BotRunner, World
from tests.fakeclock import FakeClock

pytestmark = pytest.mark.e2e


def _clocked(fake: FakeDiscord, bot_runner: BotRunner) -> FakeClock:
    """The bot's clock moves by hand; Discord's goes on in real time (its rate-limit windows
    reset as the bot expects) and jumps with the bot's, so message ids tell the age."""
    began = time.time()
    clock = FakeClock(start=began)
    fake.clock = lambda: time.time() + (clock.now() - began)
    bot_runner.clock = clock
    return clock


async def test_a_table_played_past_an_hour_is_posted_anew_not_edited_into_30046(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    clock = _clocked(fake, bot_runner)
    await bot_runner.start()
    players = [world.anna, world.bo]
    # without pings every move edits the table in place: the case that ages the message
    await dubb_table.pings_off(driver, world.channel, players)
    table = await dubb_table.open_table(driver, world.channel, world.anna, [world.bo],
                                        turn_time=0)
    first = table.table.id

    clock.advance(61 * 60)
    # moves in quick succession, past the hour: more edits than the old-message limit allows
    moves = 0
    while not table.over() and moves < 8:
        await table.turn_by_buttons()
        moves += 1

    assert moves >= 4, "the game ended before the old-message limit could bind"
    assert [h for h in fake.rate_limited if "30046" in h.scope] == []
    assert table.table.id != first
    assert fake.messages[first].deleted


async def test_hand_panels_older_than_their_token_are_not_edited(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    clock = _clocked(fake, bot_runner)
    await bot_runner.start()
    table = await dubb_table.open_table(driver, world.channel, world.anna, [world.bo],
                                        turn_time=0)
    # both open their hands; the turn coming back refreshes a panel while its token works
    for _ in range(3):
        await table.turn_by_buttons()
    refreshed = [c for c in fake.rest_calls if c.method == "PATCH" and "@original" in c.path]
    assert refreshed, "no panel was refreshed while its token worked"

    clock.advance(15 * 60 + 1)
    moves = 0
    while not table.over() and moves < 4:
        await table.turn_by_buttons()
        moves += 1

    assert moves >= 2, "the game ended before a turn came back to an old panel"
    assert [c for c in fake.rest_calls if c.status == 401] == []
