"""The public table as a Components V2 layout (issue 44): every write of a whole Dubb game and
a Tonk hand is one; and a table posted in the old layout (turn line, embed, a row of buttons)
before an upgrade becomes a layout at its next write, nothing lost: its old buttons still
work, and afterwards the channel holds the table once, as a layout."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from bot.fakediscord import Driver, FakeDiscord
from bot.storage import Store
from tests.e2e.conftest import TEST_TOKEN, BotRunner, World
from tests.e2e.dubb_table import open_table, pings_off, table_id_of, title
from tests.e2e.layout_games import play_a_dubb_game_and_a_tonk_hand
from tests.e2e.table_card import card, row_buttons, turn_line

pytestmark = pytest.mark.e2e

V2 = 1 << 15


async def call(fake: FakeDiscord, method: str, path: str, body: Any = None) -> Any:
    headers = {"Authorization": f"Bot {TEST_TOKEN}"}
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, fake.api_base + path, json=body, headers=headers) as response,
    ):
        assert response.status in (200, 204), await response.text()
        return await response.json() if response.status == 200 else None


@pytest.mark.parametrize("pings", [True, False], ids=["posted-again", "edited-in-place"])
async def test_a_table_in_the_old_layout_becomes_a_layout_at_its_next_write(
    fake: FakeDiscord, bot_runner: BotRunner, driver: Driver, world: World, pings: bool
) -> None:
    await bot_runner.start()
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    if not pings:
        # a turn then edits the table in place instead of posting it anew to ping
        await pings_off(driver, world.channel, [world.anna, world.bo])
    shown = table.table
    table_id = table_id_of(shown)
    before = card(shown)
    assert before is not None
    await bot_runner.stop()

    # what the bot wrote before the upgrade: the turn line, an embed and a row of buttons
    channel = f"/channels/{world.channel.id}/messages"
    row = [
        {"type": 2, "style": b["style"], "label": b["label"], "custom_id": b["custom_id"]}
        for b in row_buttons(shown)
    ]
    old = await call(
        fake,
        "POST",
        channel,
        {
            "content": turn_line(shown),
            "embeds": [{"title": before["title"], "description": "the table, as it was drawn"}],
            "components": [{"type": 1, "components": row}],
            "allowed_mentions": {"parse": []},
        },
    )
    await call(fake, "DELETE", f"{channel}/{shown.id}")
    store = await Store.open(bot_runner.database_path)
    try:
        await store.set_message_id(table_id, int(old["id"]))
    finally:
        await store.close()

    await bot_runner.start()
    assert table.table.id == int(old["id"]) and table.table.embeds  # still the old one
    await table.turn_by_buttons()  # Your hand and the move, from the old message's button

    def tables() -> list[Any]:
        return [m for m in driver.channel_messages(world.channel) if title(m).startswith("Dubb")]

    # a table posted anew deletes the one it replaces right after
    await driver.wait_for(lambda: len(tables()) == 1, what="one table in the channel")
    [shown_now] = tables()
    assert card(shown_now) is not None and not shown_now.embeds
    old_message = fake.messages[int(old["id"])]
    if pings:
        assert old_message.deleted  # posted again to ping the next player, the old one gone
    else:
        assert shown_now.id == old_message.id  # the same message, now a layout


def _table_writes(driver: Driver, world: World) -> list[Any]:
    """Every version of every public message the bot wrote with a table's buttons (``kb:``
    custom ids) or an embed."""
    return [
        e
        for e in driver.log
        if e.audience is None
        and e.action != "delete"
        and e.author_id not in (world.anna.id, world.bo.id, world.cem.id, world.mod.id)
        and ("kb:" in str(e.components) or e.embeds)
    ]


async def test_every_table_write_of_a_dubb_game_and_a_tonk_hand_is_a_layout(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    await play_a_dubb_game_and_a_tonk_hand(bot, driver, world)

    writes = _table_writes(driver, world)
    assert len(writes) > 10
    # with the flag, and nothing else: no content, no embeds (every write was also checked by
    # the fake's validation of layouts and against Discord's description)
    assert [e.seq for e in writes if not e.flags & V2 or e.content or e.embeds] == []
    assert all(e.components[0]["type"] == 17 for e in writes)
