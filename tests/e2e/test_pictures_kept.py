"""Card pictures that did not change stay on their message instead of being uploaded again (issue
16), and a message never shows a stale picture."""

from __future__ import annotations

import pytest

from bot.fakediscord import Driver
from bot.fakediscord.model import StoredMessage
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import counter_of, open_table, pings_off, to_move
from tests.e2e.table_card import card

pytestmark = [pytest.mark.e2e, pytest.mark.machine_speed]


def table_file(message: StoredMessage) -> tuple[int, bytes, str | None] | None:
    """The file the table's layout shows: its id, bytes and alt text."""
    url = (card(message) or {}).get("image", {}).get("url")
    if url is None:
        return None
    [shown] = [a for a in message.attachments if a.url == url]
    return shown.id, shown.data, shown.description


async def test_the_table_always_shows_its_current_picture(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    await pings_off(driver, world.channel, [world.anna, world.bo])
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    assert bot.bot is not None
    controller = bot.bot.controllers["dubb"]
    shown = 0
    before: tuple[int, bytes, str | None] | None = None
    for turn in range(40):
        if table.over():
            break
        if turn % 3 == 2:
            # a draw ends the streak: the picture goes
            mover = table.players[to_move(table.table) or 0]
            panel = await driver.click(mover, table.table, "Your hand")
            assert panel.message is not None
            if any(b.get("label") == "Draw" for b in panel.message.buttons()):
                counter = counter_of(table.table) or 0
                drawn = await driver.click(mover, panel.message, "Draw")
                assert drawn.type == 7, drawn.content
                await table.wait_counter(counter + 1)
            else:
                await table.turn_by_buttons()
        else:
            await table.turn_by_buttons()
        message = table.table
        snapshot = await bot.bot.service.get(world.channel.id)
        assert snapshot is not None and counter_of(message) == snapshot.counter
        assert snapshot.engine is not None
        expected = controller.face.table_picture(snapshot, snapshot.engine.public_view(),
                                                 snapshot.engine.names, "en")
        now = table_file(message)
        if expected is None:
            assert now is None
        else:
            assert now is not None and (now[1], now[2]) == (expected.data, expected.alt)
            if before is not None and (before[1], before[2]) == (now[1], now[2]):
                assert now[0] == before[0]  # the same file: not uploaded again
            shown += 1
        before = now
    assert shown > 0


async def test_a_refreshed_panel_keeps_its_picture_until_the_hand_changes(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    mover = {world.anna.id: world.anna, world.bo.id: world.bo}[to_move(table.table) or 0]
    waiting = world.bo if mover is world.anna else world.anna
    panel = await driver.click(waiting, table.table, "Your hand")
    assert panel.message is not None
    refreshed = await driver.click(waiting, panel.message, "Refresh")
    assert refreshed.type == 7 and refreshed.message is not None
    [first] = refreshed.message.attachments
    again = await driver.click(waiting, refreshed.message, "Refresh")
    assert again.type == 7 and again.message is not None
    [second] = again.message.attachments
    assert second.id == first.id and second.filename == "hand.png"  # kept, not uploaded again

    await table.turn_by_buttons()  # the turn comes to the waiting player: their panel shows it
    assert to_move(table.table) == waiting.id
    refreshed_id = again.message.id

    def turn_shown() -> StoredMessage | None:
        message = driver.fake.messages[refreshed_id]
        return message if "Your turn" in message.shown else None

    shown = await driver.wait_for(turn_shown, what="the panel refreshed for the turn")
    [turn] = shown.attachments
    assert bot.bot is not None
    snapshot = await bot.bot.service.get(world.channel.id)
    assert snapshot is not None
    now = bot.bot.controllers["dubb"].face.hand_picture(snapshot, waiting.id, "en")
    assert now is not None and turn.data == now.data  # the cards they may play, highlighted
    assert (turn.id == first.id) == (turn.data == first.data)
