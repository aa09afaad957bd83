"""The bot asks the gateway for the guilds intent only (issue 16): slash commands and components
reach it whatever its intents, so it is not sent the messages of its servers — its own table
posts and edits included."""

from __future__ import annotations

import pytest

from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.gateway import INTENT_GUILDS
from tests.e2e.conftest import BotRunner, World
from tests.e2e.table_card import card

pytestmark = pytest.mark.e2e


async def test_the_bot_gets_no_message_events(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    await bot_runner.start()
    opened = await driver.slash(world.anna, world.channel, "dubb start")
    assert not opened.ephemeral, opened.content  # the lobby itself answers
    await driver.wait_for_message(world.channel, lambda m: card(m) is not None)
    driver.say(world.bo, world.channel, "hello")

    sessions = fake.gateway.live_sessions()
    assert [s.intents for s in sessions] == [INTENT_GUILDS]
    events = {payload["t"] for payload in sessions[0].buffer}
    assert "INTERACTION_CREATE" in events
    assert not {e for e in events if e.startswith("MESSAGE_")}
