"""A cold start (issue 49): a thousand people start tables at the same moment in channels the bot
never played in. Their lobbies now show at once (``test_channel_webhooks.py``: the first write
does not wait for the channel's webhook), so their Start clicks come at once too, and a burst
of them outlasted Discord's 3-second deadline on a busy machine: "This interaction failed", and
the table stayed a lobby. Start is watched as moves are (``bot.discord.deadline``).

The test holds the game's start until Discord has seen an answer to the click (at most 4 s)."""

from __future__ import annotations

import pytest

from bot.fakediscord import Driver
from tests.e2e import dubb_table
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import DubbTable
from tests.e2e.held import HeldUntilAnswered

pytestmark = pytest.mark.e2e


async def test_a_start_that_is_slow_is_answered_within_the_deadline(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    opened = await driver.slash(world.anna, world.channel, "dubb start", {"computers": 1})
    assert opened.ephemeral, opened.content
    lobby = await dubb_table.wait_table(driver, world.channel)
    assert bot.bot is not None
    held = HeldUntilAnswered(bot.bot.service, "start")

    result = await driver.click(world.anna, lobby, "Start", wait=False)
    held.clicked.set_result(result.record)
    table = DubbTable(driver, world.channel, {world.anna.id: world.anna})
    await table.wait_counter(0)

    assert held.answered_first is True
    assert not result.failed
    # a private "thinking…" answer, which then says the game started
    assert result.type == 5
    await driver.wait_for(lambda: result.message is not None and not result.message.loading
                          and "started" in result.message.shown, what="the deferred answer")
    assert result.ephemeral
