"""The private hand panel as a Components V2 layout (issue 44): every write of every panel in a
whole Dubb game and a Tonk hand — the first answer, its edits in place, the turn's refresh
through the interaction's webhook and the retirement of an older panel — carries the flag and
nothing else (the fake rejects an invalid layout), and keeps it on every edit."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.discord.face import Panel
from bot.fakediscord import Driver, StoredMessage, User
from bot.fakediscord.records import LogEntry
from bot.i18n import tr
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import open_table, to_move
from tests.e2e.handled import handled
from tests.e2e.layout_games import play_a_dubb_game_and_a_tonk_hand

pytestmark = pytest.mark.e2e

V2 = 1 << 15
LOADING = 1 << 7
RETIRED = tr("en", "This panel is out of date: your newer one is further down. (**Your hand** "
             "on the table opens it again.)")


def _panel_writes(driver: Driver) -> list[LogEntry]:
    """Every version of every private message that showed a hand panel at some point: one
    with the panel's Refresh button (custom id action ``hand``), Discord's own "thinking…"
    aside."""
    panels = {
        e.message_id
        for e in driver.log
        if e.audience is not None and any(
            str(b.get("custom_id", "")).split(":")[3:4] == ["hand"]
            for b in _interactive(e.components))
    }
    return [e for e in driver.log if e.message_id in panels and e.action != "delete"
            and not e.flags & LOADING]


def _interactive(components: list[dict[str, object]]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for c in components:
        if c.get("type") in (2, 3):
            out.append(c)
        out += _interactive(c.get("components") or [])  # type: ignore[arg-type]
    return out


async def test_every_panel_write_of_a_dubb_game_and_a_tonk_hand_is_a_layout(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    await play_a_dubb_game_and_a_tonk_hand(bot, driver, world)

    writes = _panel_writes(driver)
    assert len({e.message_id for e in writes}) > 4 and len(writes) > 10
    # with the flag, and nothing else (each write was also checked by the fake's validation of
    # layouts and against Discord's description)
    assert [e.seq for e in writes if not e.flags & V2 or e.content or e.embeds] == []
    assert all(e.components[0]["type"] == 17 for e in writes)
    # the hand's picture, where shown, sits in the container's gallery with its alt text
    pictured = [e for e in writes if e.attachments]
    assert pictured
    for e in pictured:
        [gallery] = [c for c in e.components[0]["components"] if c["type"] == 12]
        assert gallery["items"][0]["description"]
    # a panel replaced by a newer one said so, still as a layout (edited through its webhook)
    assert any(RETIRED in e.text for e in writes)
    # old custom ids: the moves still answer from the layout (the game above was played on it)
    assert any("kb:tonk:" in str(e.components) for e in writes)


async def test_a_refresh_that_waited_leaves_a_panel_retired_meanwhile_retired(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    """The turn's refresh of an open panel, which keeps its unchanged picture, is drawn while
    the player opens a newer panel and the older one is retired (its picture taken away): the
    refresh must neither bring the retired panel back nor point at a picture it no longer
    carries (Discord: 400, UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND)."""
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    mover = table.players[to_move(table.table) or 0]
    waiting = world.bo if mover is world.anna else world.anna
    opened = await driver.click(waiting, table.table, "Your hand")
    assert opened.message is not None
    older = await driver.click(waiting, opened.message, "Refresh")  # in place: message known
    assert older.type == 7 and older.message is not None and older.message.attachments
    assert bot.bot is not None
    panels = bot.bot.controllers["dubb"].panels
    drawing, go = asyncio.Event(), asyncio.Event()
    draw = panels.draw

    async def held(*args: Any, notice: str | None, **kwargs: Any) -> Panel:
        if notice is not None and notice.startswith("🔔"):  # the turn's refresh
            drawing.set()
            await go.wait()
        return await draw(*args, notice=notice, **kwargs)

    panels.draw = held  # type: ignore[method-assign]
    try:
        move = await driver.click(mover, table.table, "Your hand")
        assert move.message is not None
        await _first_move(driver, mover, move.message)
        await asyncio.wait_for(drawing.wait(), 10)
        newer = await driver.click(waiting, table.table, "Your hand")
        assert newer.message is not None and newer.message.id != older.message.id
        retired = older.message
        await driver.wait_for(lambda: RETIRED in retired.shown, what="the older panel retired")
    finally:
        go.set()
        panels.draw = draw  # type: ignore[method-assign]
    await handled()  # the move's handling: the table's publishing after the refresh
    assert RETIRED in retired.shown and "Your turn" not in retired.shown
    assert not retired.attachments and not retired.buttons() and not retired.selects()
    assert "Your turn" in newer.message.shown  # the newer panel is the one that says it


async def _first_move(driver: Driver, user: User, panel: StoredMessage) -> None:
    if panel.selects():
        select = panel.selects()[0]
        result = await driver.select(user, panel, [select["options"][0]["value"]],
                                     custom_id=select["custom_id"])
    else:
        result = await driver.click(user, panel, next(
            label for label in ("Draw", "Pass") if any(
                b.get("label") == label for b in panel.buttons())))
    assert result.type in (6, 7), result.content
