"""A game is one folder: ``tests/highcard`` (engine, spec, face and commands, nothing else) is
registered by this test alone and played end to end through the fake Discord — lobby, table,
hand panel, a slash-command move, stats — with no change to any shared code. Its simulator is
the generic one."""

from __future__ import annotations

import pytest

from bot.fakediscord import Driver
from bot.fakediscord.model import StoredMessage
from bot.games.registry import GAMES
from bot.sim.generic import main as simulate
from bot.sim.generic import run
from tests.e2e.conftest import BotRunner, World
from tests.e2e.table_card import title as table_title
from tests.e2e.table_card import turn_line
from tests.highcard import SPEC as HIGHCARD
from tests.highcard.engine import HighCardGame

pytestmark = pytest.mark.e2e


def _title(message: StoredMessage) -> str:
    return table_title(message)


def _table(driver: Driver, world: World) -> StoredMessage | None:
    """The table message, once the game is on: the newest one titled High card."""
    tables = [m for m in driver.channel_messages(world.channel) if _title(m) != ""
              and _title(m).startswith("High card") and "waiting" not in _title(m)]
    return tables[-1] if tables else None


async def test_a_third_game_registered_by_a_test_is_played_end_to_end(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    bot_runner.games = GAMES.with_game(HIGHCARD)
    bot = await bot_runner.start()
    assert "highcard" in {c.name for c in await bot.tree.fetch_commands()}
    anna, bo = world.anna, world.bo

    opened = await driver.slash(anna, world.channel, "highcard start")
    assert not opened.ephemeral and "High card — waiting for players" in opened.content
    table = await driver.wait_for_message(world.channel, lambda m: _title(m).startswith("High"))
    assert _title(table) == "High card — waiting for players" and "one card each" in table.text
    await driver.click(bo, table, "Join")
    await driver.wait_for(lambda: "Bo" in table.text, what="Bo in the lobby")
    await driver.click(anna, table, "Start")
    # the table moves to the bottom of the channel to ping the first player
    table = await driver.wait_for(lambda: _table(driver, world), what="the start")
    assert _title(table) == "High card — in play"

    first, second = (anna, bo) if turn_line(table) == f"<@{anna.id}> to move." else (bo, anna)
    assert turn_line(table) == f"<@{first.id}> to move."
    await driver.wait_for(lambda: driver.pings(first, world.channel), what="the ping")
    panel = await driver.click(first, table, "Your hand")
    assert panel.ephemeral and panel.content.startswith("Your card: ")
    shown = await driver.click(first, panel.message, "Show")
    assert shown.content.startswith("You showed ")
    table = await driver.wait_for(
        lambda: (t := _table(driver, world)) and turn_line(t) == f"<@{second.id}> to move." and t,
        what="the second player's turn")
    assert driver.pings(second, world.channel)

    by_command = await driver.slash(second, world.channel, "highcard show")
    assert by_command.ephemeral and by_command.content.startswith("You showed ")
    table = await driver.wait_for(
        lambda: (t := _table(driver, world)) and _title(t) == "High card — over" and t,
        what="the end")
    assert ("wins" in table.text or "A draw" in table.text) and "🂠" not in table.text

    assert bot.service is not None
    snapshot = await bot.store.table(1)
    assert snapshot is not None and snapshot.status == "finished"
    stats = await driver.slash(anna, world.channel, "highcard stats")
    assert "Anna:" in stats.content and "of 1" in stats.content


def test_the_generic_simulator_plays_a_game_that_brings_no_simulator() -> None:
    stats = run(HIGHCARD, games=200, players=2, seed=3, strategy="show")
    assert (stats.games, stats.moves, stats.violations, stats.unfinished) == (200, 400, 0, 0)
    assert simulate(HIGHCARD, ["--games", "20", "--json"]) == 0
    assert HIGHCARD.engine is HighCardGame
