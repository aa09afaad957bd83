"""Gateway intents: an event reaches a session only if its IDENTIFY asked for the intent Discord
ties the event to (GUILDS, GUILD_MEMBERS, GUILD_MESSAGES; INTERACTION_CREATE needs none)."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.gateway import (
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILD_WEBHOOKS,
    INTENT_GUILDS,
    INTENT_MESSAGE_CONTENT,
)
from tests.e2e.conftest import TEST_TOKEN, World
from tests.e2e.test_fake_gateway import RawGateway

pytestmark = pytest.mark.e2e

COMMAND = {"id": "1", "name": "x", "type": 1}


async def events_after(
    fake: FakeDiscord, driver: Driver, world: World, intents: int, actions: Any
) -> list[tuple[str, Any]]:
    """IDENTIFY with ``intents``, run ``actions()``, then an interaction as an end marker;
    return every dispatch after READY up to and including that marker."""
    async with aiohttp.ClientSession() as http:
        gateway = await RawGateway.connect(http, fake)
        await gateway.identify(intents=intents)
        actions()
        channel = fake.channels[world.channel.id]
        fake.create_interaction(2, world.anna, channel, COMMAND)
        seen: list[tuple[str, Any]] = []
        while not seen or seen[-1][0] != "INTERACTION_CREATE":
            payload = await gateway.receive()
            seen.append((payload["t"], payload["d"]))
        await gateway.ws.close()
    driver.allow_failed_interactions()
    return seen


def world_changes(driver: Driver, world: World) -> None:
    driver.add_channel(world.guild, "new-channel")
    driver.add_user("Newcomer")
    driver.say(world.anna, world.channel, "hello")


async def test_no_intents_means_only_interactions(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    seen = await events_after(fake, driver, world, 0, lambda: world_changes(driver, world))

    assert [name for name, _ in seen] == ["INTERACTION_CREATE"]


async def test_guilds_brings_guild_and_channel_events_only(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    seen = await events_after(
        fake, driver, world, INTENT_GUILDS, lambda: world_changes(driver, world)
    )

    assert [name for name, _ in seen] == ["GUILD_CREATE", "CHANNEL_CREATE", "INTERACTION_CREATE"]


async def test_guild_messages_brings_messages_without_content_unless_asked(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    fake.application.privileged_intents = INTENT_MESSAGE_CONTENT
    blank = await events_after(
        fake, driver, world, INTENT_GUILD_MESSAGES, lambda: world_changes(driver, world)
    )
    full = await events_after(
        fake,
        driver,
        world,
        INTENT_GUILD_MESSAGES | INTENT_MESSAGE_CONTENT,
        lambda: driver.say(world.bo, world.channel, "secret plan"),
    )

    assert [name for name, _ in blank] == ["MESSAGE_CREATE", "INTERACTION_CREATE"]
    assert blank[0][1]["content"] == ""
    assert (full[0][0], full[0][1]["content"]) == ("MESSAGE_CREATE", "secret plan")


async def test_guild_members_brings_member_joins(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    fake.application.privileged_intents = INTENT_GUILD_MEMBERS
    seen = await events_after(
        fake, driver, world, INTENT_GUILD_MEMBERS, lambda: world_changes(driver, world)
    )

    assert [name for name, _ in seen] == ["GUILD_MEMBER_ADD", "INTERACTION_CREATE"]
    assert seen[0][1]["user"]["username"] == "newcomer"


async def test_the_whole_member_list_needs_guild_members(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    async with aiohttp.ClientSession() as http:
        gateway = await RawGateway.connect(http, fake)
        await gateway.identify(intents=INTENT_GUILDS)
        await gateway.receive()  # GUILD_CREATE
        await gateway.send(8, {"guild_id": str(world.guild.id), "query": "", "limit": 0})
        await gateway.send(
            8, {"guild_id": str(world.guild.id), "user_ids": [str(world.bo.id)], "nonce": "n"}
        )
        chunk = await gateway.receive()
        await gateway.ws.close()

    # the full-list request got nothing; the one for named users got its chunk
    assert (chunk["t"], chunk["d"]["nonce"]) == ("GUILD_MEMBERS_CHUNK", "n")
    assert [m["user"]["id"] for m in chunk["d"]["members"]] == [str(world.bo.id)]


async def test_listing_members_over_rest_needs_the_intent_enabled(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.allow_rest_errors()
    url = f"{fake.api_base}/guilds/{world.guild.id}/members?limit=10"
    headers = {"Authorization": f"Bot {TEST_TOKEN}"}
    async with aiohttp.ClientSession() as http:
        async with http.get(url, headers=headers) as refused:
            refused_body = await refused.json()
        fake.application.privileged_intents = INTENT_GUILD_MEMBERS
        async with http.get(url, headers=headers) as listed:
            members = await listed.json()

    assert (refused.status, refused_body["code"]) == (403, 50001)
    assert len(members) == len(world.guild.members)


async def test_guild_webhooks_brings_webhooks_update_and_guilds_the_overwrite(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    def webhook_changes() -> None:
        driver.set_bot_webhooks(world.channel, True)
        fake.create_webhook(world.channel, {"name": "kortbord"}, fake.bot_user)
        driver.delete_webhooks(world.channel)

    seen = await events_after(fake, driver, world, INTENT_GUILD_WEBHOOKS, webhook_changes)
    assert [name for name, _ in seen] == ["WEBHOOKS_UPDATE", "WEBHOOKS_UPDATE",
                                          "INTERACTION_CREATE"]
    assert seen[0][1] == {"guild_id": str(world.guild.id), "channel_id": str(world.channel.id)}

    seen = await events_after(fake, driver, world, INTENT_GUILDS,
                              lambda: driver.set_bot_webhooks(world.channel, False))
    names = [name for name, _ in seen]
    assert names == ["GUILD_CREATE", "CHANNEL_UPDATE", "INTERACTION_CREATE"]
    [overwrite] = seen[1][1]["permission_overwrites"]
    assert overwrite == {"id": str(fake.bot_user.id), "type": 1, "allow": "0",
                         "deny": str(1 << 29)}
