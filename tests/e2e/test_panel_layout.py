"""The private hand panel as a Components V2 layout (issue 44): every write of every panel in a
whole Dubb game and a Tonk hand — the first answer, its edits in place, the turn's refresh
through the interaction's webhook and the retirement of an older panel — carries the flag and
nothing else (the fake rejects an invalid layout), and keeps it on every edit."""

from __future__ import annotations

import pytest

from bot.fakediscord import Driver
from bot.fakediscord.records import LogEntry
from bot.games.tonk import HandEnd
from bot.i18n import tr
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import open_table
from tests.e2e.tonk_table import POLICY_FOR
from tests.e2e.tonk_table import open_table as open_tonk

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
    dubb = await open_table(driver, world.channel, world.anna, [world.bo])
    while not dubb.over():
        await dubb.turn_by_buttons()
    elsewhere = driver.add_channel(world.guild, "tonk")
    tonk = await open_tonk(bot, driver, elsewhere, world.cem, [world.mod])
    await tonk.play_hand(POLICY_FOR[HandEnd.DROP_CAUGHT], "buttons")

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
