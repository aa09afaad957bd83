"""A move whose database write waits longer than Discord's 3-second deadline is acknowledged
in time (issue 32: a burst of clicks at many tables queues every table's write behind the
others'; at 1,000 tables the opening burst failed 151 clicks, "This interaction failed", though
each move was made).

The test holds one move's write until Discord has seen an answer to the click (at most 4 s):
the bot must acknowledge the click before its write is done, then show the move.
"""

from __future__ import annotations

import pytest

from bot.fakediscord import Driver
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import counter_of, open_table, to_move
from tests.e2e.held import HeldUntilAnswered

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("by", ["panel", "slash"])
async def test_a_move_whose_write_is_slow_is_answered_within_the_deadline(
    bot: BotRunner, driver: Driver, world: World, by: str
) -> None:
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    players = {world.anna.id: world.anna, world.bo.id: world.bo}
    message = table.table
    before = counter_of(message)
    assert before is not None
    user = players[to_move(message) or 0]
    assert bot.bot is not None
    # the first move of a game is a play (D4): the first one offered
    if by == "panel":
        panel = await driver.click(user, message, "Your hand")
        assert panel.message is not None
        shown = panel.message.shown
        select = panel.message.selects()[0]
        held = HeldUntilAnswered(bot.bot.service.store, "commit_move")
        result = await driver.select(user, panel.message, [select["options"][0]["value"]],
                                     custom_id=select["custom_id"], wait=False)
    else:
        choices = await driver.autocomplete(user, world.channel, "dubb play", {"cards": ""},
                                            focused="cards")
        held = HeldUntilAnswered(bot.bot.service.store, "commit_move")
        result = await driver.slash(user, world.channel, "dubb play",
                                    {"cards": choices[0]["value"]}, wait=False)
    held.clicked.set_result(result.record)

    await table.wait_counter(before + 1)
    assert held.answered_first is True
    assert not result.failed
    if by == "panel":
        # acknowledged as an update of the panel (no "thinking…"), which then shows the move
        assert result.type == 6
        panel_message = panel.message
        await driver.wait_for(lambda: panel_message.shown != shown, what="the panel's update")
    else:
        # a private "thinking…" answer, which becomes the hand panel
        assert result.type == 5
        await driver.wait_for(lambda: result.message is not None and not result.message.loading
                              and bool(result.message.shown), what="the deferred panel")
        assert result.ephemeral
