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
    assert not opened.ephemeral, opened.content  # the lobby itself answers
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


async def test_a_lobby_whose_answer_is_too_late_is_posted_all_the_same(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    # the lobby is the command's own answer; where the command's work outlasted Discord's
    # deadline (a slow disk, a busy bot), that answer is refused and the lobby goes the next way
    driver.allow_failed_interactions()
    assert bot.bot is not None
    held = HeldUntilAnswered(bot.bot.service, "open_lobby")
    result = await driver.slash(world.anna, world.channel, "dubb start", {"computers": 1},
                                wait=False)
    held.clicked.set_result(result.record)
    lobby = await dubb_table.wait_table(driver, world.channel)

    assert held.answered_first is False and result.failed  # Discord: "This interaction failed"
    assert dubb_table.title(lobby) == "Dubb — waiting for players"
    assert [m for m in driver.channel_messages(world.channel) if m.buttons()] == [lobby]
    started = await driver.click(world.anna, lobby, "Start")
    assert not started.failed


@pytest.mark.parametrize("game", ["dubb", "tonk"])
async def test_a_started_tables_latest_lines_are_those_of_its_move_log(
    bot: BotRunner, driver: Driver, world: World, game: str
) -> None:
    # the start keeps its lines without reading the log back (a thousand starts at once): the
    # same lines the log gives, as after a restart. Two people, no computer: nothing moves
    # after the start until one of them does
    await driver.slash(world.anna, world.channel, f"{game} start")
    lobby = await driver.wait_for_message(
        world.channel, lambda m: dubb_table.title(m).startswith(game.capitalize()))
    assert not (await driver.click(world.bo, lobby, "Join")).failed
    started = await driver.click(world.anna, lobby, "Start")
    assert not started.failed
    assert bot.bot is not None
    controller = bot.bot.controllers[game]
    snapshot = await bot.bot.service.get(world.channel.id)
    assert snapshot is not None and snapshot.engine is not None and snapshot.counter == 0
    kept = await controller.recent_lines(snapshot)
    logged = controller.latest_lines(await bot.bot.service.moves(snapshot.table_id),
                                     controller.names(snapshot),
                                     controller.table_lang(snapshot))

    assert kept == logged
    assert bool(kept) == (game == "tonk")  # Tonk tells its deal (a hand can end on it)
