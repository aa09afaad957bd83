"""Share replay (issue 46): on a finished table's replay, one click posts the game, move by move,
as an animated picture in the channel, for everyone, with alt text."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from bot.discord import replay_share
from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.model import USE_EXTERNAL_APPS
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import open_table, title, wait_table

pytestmark = pytest.mark.e2e

TURNS = 12


async def test_share_replay_posts_the_game_in_the_channel_for_everyone(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    anna, bo = world.anna, world.bo
    table = await open_table(driver, world.channel, anna, [bo])
    for _ in range(TURNS):
        await table.turn_by_buttons()
    await driver.slash(anna, world.channel, "dubb stop")
    closed = table.table
    await driver.wait_for(lambda: title(closed) == "Dubb — closed", what="the table closed")
    replay = await driver.click(bo, closed, "Replay")
    assert replay.ephemeral and replay.message is not None
    # the replay's first line: which game, which move of how many
    head, last = replay.content.splitlines()[0].rsplit(" of ", 1)
    number = head.split("#", 1)[1].split(":", 1)[0]

    shared = await driver.click(bo, replay.message, "Share replay")
    [message] = await shared.wait_followups()
    # Bo is told privately; the picture is public, posted in the channel by Bo's click
    assert shared.ephemeral and shared.content == "The replay is posted in the channel."
    assert not message.ephemeral and message.channel_id == world.channel.id
    assert any(m.id == message.id for m in driver.channel_messages(world.channel))
    assert message.content == f"<@{bo.id}> shares the replay of Dubb #{number}."
    [gif] = message.attachments
    assert gif.filename == f"replay-dubb-{number}.gif"
    assert gif.description is not None and gif.description.startswith(
        f"Animated replay of Dubb #{number}: the cards on the table after each move")
    assert len(gif.data) < 2 * 1024 * 1024
    with Image.open(io.BytesIO(gif.data)) as picture:
        assert picture.format == "GIF" and picture.is_animated
        # a frame for the deal and one for each move
        assert picture.n_frames == int(last.rstrip(".")) + 1


async def test_share_replay_is_in_the_tables_language(bot: BotRunner, driver: Driver) -> None:
    """Posted for the channel, it speaks the table's language, whatever the clicker's."""
    guild = driver.add_guild("Kortklubben", preferred_locale="sv-SE")
    channel = driver.add_channel(guild, "kort")
    anna = driver.add_user("Anna", locale="en-US")
    await driver.slash(anna, channel, "dubb start", {"computers": 2, "turn_time": 0})
    lobby = await wait_table(driver, channel)
    await driver.click(anna, lobby, "Starta")
    await driver.slash(anna, channel, "dubb stop")
    await driver.wait_for(lambda: title(lobby).endswith("stängt"), what="the table closed")
    replay = await driver.click(anna, lobby, "Visa repris")
    assert replay.message is not None
    shared = await driver.click(anna, replay.message, "Share replay")
    [message] = await shared.wait_followups()
    # the clicker's own answer is in her language
    assert shared.content == "The replay is posted in the channel."
    assert message.content.startswith(f"<@{anna.id}> delar reprisen av Dubb #")
    assert (message.attachments[0].description or "").startswith("Animerad repris av Dubb")


async def test_share_replay_in_a_group_dm_goes_through_the_click_alone(
    bot: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    """Where the bot is not a member, the picture is the click's own answer: no request with
    the bot token to that channel."""
    for person in (world.anna, world.bo):
        driver.install_for(person)
    group = driver.add_group_dm(world.anna, [world.bo], name="Kortkväll")
    table = await open_table(driver, group, world.anna, [world.bo])
    await table.turn_by_buttons()
    await driver.slash(world.anna, group, "dubb stop")
    await driver.wait_for(lambda: title(table.table).endswith("closed"), what="closed")
    replay = await driver.click(world.bo, table.table, "Replay")
    assert replay.message is not None
    shared = await driver.click(world.bo, replay.message, "Share replay")
    [message] = await shared.wait_followups()
    assert not message.ephemeral and message.attachments
    assert message.channel_id == group.id and message.webhook_id == fake.application.id
    assert [c for c in fake.rest_calls if c.path.startswith(f"/channels/{group.id}")] == []


async def test_a_replay_too_large_to_upload_is_refused_privately(
    bot: BotRunner, driver: Driver, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    await table.turn_by_buttons()
    await driver.slash(world.anna, world.channel, "dubb stop")
    await driver.wait_for(lambda: title(table.table).endswith("closed"), what="closed")
    replay = await driver.click(world.bo, table.table, "Replay")
    assert replay.message is not None
    before = len(driver.channel_messages(world.channel))
    drawn = replay_share.replay_picture

    def huge(*args: object) -> replay_share.ReplayPicture:
        shown = drawn(*args)  # type: ignore[arg-type]
        return replace(shown, data=shown.data + bytes(26 * 1024 * 1024))

    monkeypatch.setattr(replay_share, "replay_picture", huge)
    shared = await driver.click(world.bo, replay.message, "Share replay")
    await driver.wait_for(lambda: shared.content or None, what="the answer")
    assert shared.ephemeral
    assert shared.content == "That replay is too large to post here. Nothing was sent."
    assert shared.followups == []
    # nothing public is left behind
    assert len(driver.channel_messages(world.channel)) == before


async def test_sharing_is_refused_where_every_answer_would_be_private(
    bot: BotRunner, driver: Driver, fake: FakeDiscord
) -> None:
    """A server that never added kortbord, whose members played through their own install and
    then lost Use External Apps: Discord would show the post to the clicker alone, so one
    private line says so, and nothing is posted."""
    guild = driver.add_guild("Strict", with_bot=False)
    hall = driver.add_channel(guild, "hall")
    anna = driver.add_user("Anna", guilds=[guild])
    driver.install_for(anna)
    await driver.slash(anna, hall, "dubb start", {"computers": 2, "turn_time": 0})
    lobby = await wait_table(driver, hall)
    await driver.click(anna, lobby, "Start")
    await driver.slash(anna, hall, "dubb stop")
    await driver.wait_for(lambda: title(lobby).endswith("closed"), what="the table closed")
    replay = await driver.click(anna, lobby, "Replay")
    assert replay.message is not None
    fake.guilds[guild.id].everyone.permissions &= ~USE_EXTERNAL_APPS
    shown = len(driver.channel_messages(hall))

    refused = await driver.click(anna, replay.message, "Share replay")
    assert refused.ephemeral and refused.content == (
        "This server lets kortbord answer you only privately, so the replay can't be shared "
        "here.")
    assert refused.followups == [] and len(driver.channel_messages(hall)) == shown
