"""Dubb on Discord: every wrong action gets a short private answer and changes nothing."""

from __future__ import annotations

import pytest

from bot.fakediscord import Driver
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import counter_of, open_table, table_id_of, to_move

pytestmark = pytest.mark.e2e


async def _state(bot: BotRunner, channel_id: int) -> tuple[int, dict]:
    assert bot.bot is not None
    snapshot = await bot.bot.service.get(channel_id)
    assert snapshot is not None and snapshot.engine is not None
    return snapshot.counter, snapshot.engine.to_stored()


async def test_out_of_turn_and_spectator_actions_are_refused(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    table = await open_table(driver, world.channel, world.anna, [world.bo, world.cem])
    before = await _state(bot, world.channel.id)
    mover = to_move(table.table)
    waiting = next(u for uid, u in table.players.items() if uid != mover)

    drew = await driver.click(waiting, table.table, "Draw")
    assert drew.ephemeral and "turn" in drew.content.lower()
    slash = await driver.slash(waiting, world.channel, "dubb draw")
    assert slash.ephemeral and "turn" in slash.content.lower()

    spectator_hand = await driver.click(world.mod, table.table, "Your hand")
    assert spectator_hand.ephemeral and "not playing" in spectator_hand.content
    spectator_pass = await driver.click(world.mod, table.table, "Pass")
    assert spectator_pass.ephemeral and "not playing" in spectator_pass.content
    spectator_join = await driver.click(world.mod, table.table, "Rules")
    assert spectator_join.ephemeral and "Dubb in a nutshell" in spectator_join.content

    assert await _state(bot, world.channel.id) == before


async def test_bad_card_text_and_illegal_plays_are_explained(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    before = await _state(bot, world.channel.id)
    mover = table.players[to_move(table.table) or 0]

    nonsense = await driver.slash(mover, world.channel, "dubb play", {"cards": "zz"})
    assert nonsense.ephemeral and "not a card" in nonsense.content
    mixed = await driver.slash(mover, world.channel, "dubb play", {"cards": "2 3"})
    assert mixed.ephemeral and ("same rank" in mixed.content or "don't hold" in mixed.content)
    drawing_first = await driver.slash(mover, world.channel, "dubb draw")
    assert drawing_first.ephemeral and "lowest rank" in drawing_first.content
    assert "D4" not in drawing_first.content

    assert await _state(bot, world.channel.id) == before


async def test_a_stale_panel_refreshes_itself_instead_of_moving(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    mover = table.players[to_move(table.table) or 0]
    old_panel = await driver.click(mover, table.table, "Your hand")
    assert old_panel.message is not None and old_panel.message.selects()
    old_select = old_panel.message.selects()[0]
    # a restart forgets which panels are open, so the newer one cannot retire it (issue 36)
    await bot.restart()
    await table.turn_by_commands()  # the same move made another way: the panel is now stale
    before = await _state(bot, world.channel.id)

    stale = await driver.select(
        mover, old_panel.message, [old_select["options"][-1]["value"]],
        custom_id=old_select["custom_id"], allow_stale=True,
    )
    assert stale.type == 7 and "moved on" in old_panel.message.shown
    assert await _state(bot, world.channel.id) == before


async def test_an_old_table_button_is_refused(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    """With pings off nobody's turn moves the table down, so it is edited in place: a client
    that missed those edits still shows an earlier turn's Draw button, which is no longer on the
    message — it is refused and changes nothing."""
    for user in (world.anna, world.bo):
        off = await driver.slash(user, world.channel, "kortbord pings", {"choice": "off"})
        assert off.ephemeral and "won't be pinged" in off.content
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    message = table.table
    table_id = table_id_of(message)
    first = to_move(message)
    await table.turn_by_buttons()
    while to_move(table.table) == first:
        await table.turn_by_buttons()
    assert table.table is message and not driver.pings(channel=world.channel)
    before = await _state(bot, world.channel.id)
    mover = table.players[to_move(table.table) or 0]
    stale = await driver.click(
        mover, table.table, f"kb:dubb:{table_id}:draw:0", allow_stale=True
    )
    assert stale.ephemeral and "isn't here any more" in stale.content
    assert await _state(bot, world.channel.id) == before


async def test_a_double_click_applies_one_move(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    table = await open_table(driver, world.channel, world.anna, [world.bo, world.cem])
    await table.turn_by_buttons()  # past the D4 opening play, so drawing is allowed
    counter = counter_of(table.table)
    assert counter is not None
    mover = table.players[to_move(table.table) or 0]
    panel = await driver.click(mover, table.table, "Your hand")
    assert panel.message is not None
    label = "Draw" if any(b["label"] == "Draw" for b in panel.message.buttons()) else "Pass"
    one, two = await driver.double_click(mover, panel.message, label)
    assert {one.type, two.type} == {7}
    after, _ = await _state(bot, world.channel.id)
    assert after == counter + 1
    assert "moved on" in panel.message.shown or "You" in panel.message.shown

