"""A change whose answer fails is still shown, and play goes on; so does one whose showing
fails.

On an overloaded bot a click's answer can come after Discord's 3 seconds: Discord refuses it
(404 10062 Unknown interaction) and the person sees "This interaction failed". The move (the
start, the stop) was made all the same; the table must show it, and a computer to move next must
move. Before, the failed answer skipped the table's write: the table showed the move before, the
computer never moved, and the game stood still (seen in the two-process shard test on a slow
run). Here the fake's deadline is cut to nothing for the one click, so its answer is too late.
Likewise a showing that fails (a drawing, a database read) must not keep the computer from
moving: the next change shows the table; and a lobby whose post fails is still timed, so that
it closes instead of holding the channel."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.driver import InteractionFailed
from bot.fakediscord.interactions import INTERACTION_DEADLINE
from bot.fakediscord.model import StoredMessage
from bot.table.service import LOBBY_TTL_SECONDS
from tests.e2e import dubb_table
from tests.e2e.automation import snapshot, start_clocked
from tests.e2e.conftest import BotRunner, ErrorLog, World
from tests.e2e.dubb_table import DubbTable

pytestmark = pytest.mark.e2e


def _anna_to_move(table: DubbTable, anna: int, after: int) -> StoredMessage | None:
    """The table once it is Anna's turn at a move counter past ``after`` (or the game ended)."""
    message = table.table
    if table.over():
        return message
    counter = dubb_table.counter_of(message)
    if counter is not None and counter > after and dubb_table.to_move(message) == anna:
        return message
    return None


async def _opened(bot_runner: BotRunner, driver: Driver, world: World) -> StoredMessage:
    """Anna's lobby with a computer seated."""
    await start_clocked(bot_runner, seed=11)
    await driver.slash(world.anna, world.channel, "dubb start", {"computers": 1})
    return await dubb_table.wait_table(driver, world.channel)


async def _started(bot_runner: BotRunner, driver: Driver, world: World
                   ) -> tuple[DubbTable, StoredMessage, int]:
    """Anna's game against a computer, the table once it is her turn, and its move counter."""
    anna = world.anna
    await driver.click(anna, await _opened(bot_runner, driver, world), "Start")
    table = DubbTable(driver, world.channel, {anna.id: anna})
    shown = await driver.wait_for(lambda: _anna_to_move(table, anna.id, -1), what="Anna's turn")
    counter = dubb_table.counter_of(shown)
    assert counter is not None
    return table, shown, counter


def _fails_once(real: Callable[[Any], Awaitable[Any]]
                ) -> tuple[Callable[[Any], Awaitable[Any]], list[Any]]:
    """``real``, whose first call raises instead (a bug of the bot's, a database that errs),
    and the list that gets that call's argument."""
    failed: list[Any] = []

    async def call(arg: Any) -> Any:
        if not failed:
            failed.append(arg)
            raise RuntimeError("failed once, for the test")
        return await real(arg)

    return call, failed


@contextlib.asynccontextmanager
async def _too_late(driver: Driver, fake: FakeDiscord) -> AsyncIterator[None]:
    """The one click inside fails: Discord's deadline is cut to nothing while it is made."""
    driver.allow_failed_interactions()
    fake.interaction_deadline = 0.0
    with pytest.raises(InteractionFailed):
        yield
    fake.interaction_deadline = INTERACTION_DEADLINE


async def test_a_move_answered_too_late_is_shown_and_the_computer_moves_on(
    bot_runner: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    anna = world.anna
    table, shown, counter = await _started(bot_runner, driver, world)
    panel = await driver.click(anna, shown, "Your hand")
    assert panel.message is not None
    label = "Draw" if panel.message.button("Draw") is not None else "Pass"
    selects = panel.message.selects()

    async with _too_late(driver, fake):
        if selects:
            await driver.select(anna, panel.message, [selects[0]["options"][0]["value"]],
                                custom_id=selects[0]["custom_id"])
        else:
            await driver.click(anna, panel.message, label)

    # Anna's move, then the computer's: her turn again, further on
    again = await driver.wait_for(lambda: _anna_to_move(table, anna.id, counter + 1),
                                  what="the move shown and the computer's answer to it")
    assert bot_runner.bot is not None
    stored = await snapshot(bot_runner, world.channel)
    assert stored is None or stored.message_id == again.id
    moves = await bot_runner.bot.service.moves(dubb_table.table_id_of(again))
    made = [m.player_id for m in moves if m.seq > counter]
    assert made[0] == anna.id and -1 in made, (counter, [(m.seq, m.player_id) for m in moves])
    if not table.over():
        # and she plays on as if nothing had happened
        await table.turn_by_buttons()
        await driver.slash(anna, world.channel, "dubb stop")


async def test_a_start_answered_too_late_shows_the_game(
    bot_runner: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    anna = world.anna
    lobby = await _opened(bot_runner, driver, world)
    async with _too_late(driver, fake):
        await driver.click(anna, lobby, "Start")
    table = DubbTable(driver, world.channel, {anna.id: anna})
    await driver.wait_for(lambda: _anna_to_move(table, anna.id, -1),
                          what="the game shown started, and Anna's turn")
    await table.turn_by_buttons()
    await driver.slash(anna, world.channel, "dubb stop")


async def test_a_stop_answered_too_late_closes_the_table(
    bot_runner: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    table, _, _ = await _started(bot_runner, driver, world)
    async with _too_late(driver, fake):
        await driver.slash(world.anna, world.channel, "dubb stop")
    closed = await driver.wait_for(
        lambda: table.table if dubb_table.title(table.table) == "Dubb — closed" else None,
        what="the table to close")
    assert [b["label"] for b in closed.buttons()] == ["Play again", "Replay", "Review"]
    assert await snapshot(bot_runner, world.channel) is None


async def test_a_move_whose_showing_fails_once_is_shown_by_the_next(
    bot_runner: BotRunner, driver: Driver, world: World, bot_errors: ErrorLog
) -> None:
    anna = world.anna
    table, _, counter = await _started(bot_runner, driver, world)
    assert bot_runner.bot is not None
    controller = bot_runner.bot.controllers["dubb"]
    controller.drawing, failed = _fails_once(controller.drawing)  # type: ignore[method-assign]
    await table.turn_by_buttons()  # her answer comes; the table's drawing of her move fails
    assert [snapshot.counter for snapshot in failed] == [counter + 1]
    # the computer moved all the same, and its move's table shows both
    await driver.wait_for(lambda: _anna_to_move(table, anna.id, counter + 1),
                          what="the computer's move shown")
    [logged] = bot_errors.records
    assert "could not show move" in logged.getMessage()
    bot_errors.expect()
    await driver.slash(anna, world.channel, "dubb stop")


async def test_a_lobby_whose_post_fails_still_closes_on_time(
    bot_runner: BotRunner, driver: Driver, world: World, bot_errors: ErrorLog
) -> None:
    """The lobby is stored before its post; a post that fails leaves a lobby nobody sees,
    which holds the channel (one table a channel) until its 15 minutes are up — they must be
    timed, though no table was shown."""
    clock = await start_clocked(bot_runner, seed=11)
    assert bot_runner.bot is not None
    publisher = bot_runner.bot.publisher
    publisher.post_new, failed = _fails_once(publisher.post_new)  # type: ignore[method-assign]
    answer = await driver.slash(world.anna, world.channel, "dubb start")
    assert answer.ephemeral and "something went wrong" in answer.content
    assert failed and await snapshot(bot_runner, world.channel) is not None
    bot_errors.expect()
    clock.advance(LOBBY_TTL_SECONDS)
    await driver.wait_for(lambda: any(dubb_table.title(m) == "Dubb — closed"
                                      for m in driver.channel_messages(world.channel)),
                          what="the lobby closed")
    assert await snapshot(bot_runner, world.channel) is None
    reopened = await driver.slash(world.anna, world.channel, "dubb start")
    assert "waiting for players" in reopened.content
