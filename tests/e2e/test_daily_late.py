"""A daily board and a shared daily result are answers for the whole channel; where their work
outlasts the deadline's watch (``bot.discord.deadline``), the watch acknowledges the click with
"thinking…" first, and Discord's first follow-up takes that message's place, keeping its
privacy. The board is likely slow just after midnight: the first board of a day settles every
unfinished daily of the days before.

Each test holds the slow step (``tests.e2e.held``) until Discord has seen the click answered,
so the answer is always the late one."""

from __future__ import annotations

from datetime import date

import pytest

from bot.daily.secret import day_commitment
from bot.discord import daily as daily_room
from bot.fakediscord import Driver
from bot.fakediscord.model import StoredMessage
from bot.fakediscord.results import InteractionResult
from bot.storage import Finish
from tests.e2e.automation import start_clocked
from tests.e2e.conftest import BotRunner, World
from tests.e2e.held import HeldUntilAnswered
from tests.e2e.table_card import card
from tests.fakeclock import START

pytestmark = pytest.mark.e2e

DAY = date(2026, 1, 1)
DEFERRED_CHANNEL_MESSAGE = 5
SECRET = bytes(range(32))


async def _anna_finished(bot_runner: BotRunner, world: World) -> None:
    """The bot on the day's clock, Anna's daily of the day stored finished (2 better than the
    expert), as ``test_daily.py`` stores them: no game is played here."""
    await start_clocked(bot_runner)
    assert bot_runner.bot is not None
    store = bot_runner.bot.store
    day = DAY.isoformat()
    await store.daily.day_secret("dubb", day, SECRET.hex(), day_commitment("dubb", DAY, SECRET),
                                 START)
    assert await store.daily.claim_baseline("dubb", day, START, 600.0)
    await store.daily.store_baseline("dubb", day, 3, [], 0.0, START)
    await store.daily.start_attempt("dubb", day, world.anna.id, world.guild.id, "Anna", [],
                                    START)
    assert await store.daily.save_attempt("dubb", day, world.anna.id, counted=0, moves=[],
                                          now=START, finish=Finish("played", 1, 2))


def _held(bot_runner: BotRunner, method: str) -> HeldUntilAnswered:
    """The next call of the Dubb daily service's ``method`` held until the click is answered."""
    assert bot_runner.bot is not None
    return HeldUntilAnswered(daily_room.service_of(bot_runner.bot.controllers["dubb"]), method)


async def _answered_late(driver: Driver, held: HeldUntilAnswered,
                         result: InteractionResult) -> StoredMessage:
    """The click's answer once the held step ran: acknowledged first ("thinking…"), then
    replaced by the answer itself."""
    held.clicked.set_result(result.record)
    message = await driver.wait_for(
        lambda: result.message if result.message is not None and not result.message.loading
        else None, what="the answer in place of thinking…")
    assert held.answered_first is True
    assert not result.failed and result.type == DEFERRED_CHANNEL_MESSAGE
    return message


async def test_a_late_board_is_shown_to_the_channel(
        bot_runner: BotRunner, driver: Driver, world: World) -> None:
    await _anna_finished(bot_runner, world)
    held = _held(bot_runner, "board")
    result = await driver.slash(world.bo, world.channel, "dubb daily", {"board": "today"},
                                wait=False)
    board = await _answered_late(driver, held, result)

    assert not result.ephemeral
    assert all(board.visible_to(u.id) for u in (world.anna, world.bo, world.cem))
    assert board in driver.channel_messages(world.channel)
    embed = card(board)
    assert embed["title"] == "Dubb daily — today"
    assert embed["description"].startswith("1. **Anna** +2 · 1 daily")


async def test_a_late_shared_result_is_posted_in_the_channel(
        bot_runner: BotRunner, driver: Driver, world: World) -> None:
    await _anna_finished(bot_runner, world)
    played = await driver.slash(world.anna, world.channel, "dubb daily")
    assert played.ephemeral and played.message is not None
    assert played.content.startswith("You have played today's Dubb daily.")
    held = _held(bot_runner, "streak")
    result = await driver.click(world.anna, played.message, "Share result", wait=False)
    shared = await _answered_late(driver, held, result)

    assert not result.ephemeral
    assert all(shared.visible_to(u.id) for u in (world.bo, world.cem))
    assert shared in driver.channel_messages(world.channel)
    assert shared.content == ("Anna played the Dubb daily of 2026-01-01: +2 against the "
                              "expert. Streak: 1 day in a row.")
    assert [a.filename for a in shared.attachments] == ["dubb-daily-2026-01-01.png"]
