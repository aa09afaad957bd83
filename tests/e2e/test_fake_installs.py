"""The fake models where an app reaches people (issue 45): installed to a server or to a
person, in servers, the bot's DM and group DMs; what each interaction says of it, what the bot
token may do there, the follow-up limit and forced-ephemeral answers."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from bot.fakediscord import Driver, DriverError, FakeDiscord
from bot.fakediscord.model import (
    ATTACH_FILES,
    EMBED_LINKS,
    EVERYONE_DEFAULT,
    MENTION_EVERYONE,
    USE_EXTERNAL_APPS,
    USE_EXTERNAL_EMOJIS,
)
from tests.e2e.conftest import BareClients, World

pytestmark = pytest.mark.e2e

def anywhere_commands(tree: app_commands.CommandTree) -> None:
    anywhere = app_commands.Group(
        name="anywhere", description="Works wherever its user is",
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=True))

    @anywhere.command(name="hello", description="Say hello")
    async def hello(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("hello")

    @anywhere.command(name="button", description="A public message with a button")
    async def button(interaction: discord.Interaction) -> None:
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Press", custom_id="anywhere:press"))
        await interaction.response.send_message("press it", view=view)

    @anywhere.command(name="many", description="Six follow-ups")
    async def many(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        outcomes = []
        for n in range(6):
            try:
                await interaction.followup.send(f"follow-up {n + 1}", wait=True)
                outcomes.append("sent")
            except discord.HTTPException as exc:
                outcomes.append(f"{exc.status}/{exc.code}")
        # an edit of the response is no follow-up: it tells the test what each try came to
        await interaction.edit_original_response(content="done " + " ".join(outcomes))

    @tree.command(name="settings", description="Server only")
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    async def settings(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("settings", ephemeral=True)

    tree.add_command(anywhere)


async def test_a_group_dm_interaction_says_where_it_is_and_who_installed_the_app(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(anywhere_commands)
    driver.install_for(world.anna)
    group = driver.add_group_dm(world.anna, [world.bo, world.cem], name="Cards")

    result = await driver.slash(world.anna, group, "anywhere hello")

    sent = result.record.payload
    assert sent["context"] == 2
    assert "guild_id" not in sent and "member" not in sent
    assert sent["user"]["id"] == str(world.anna.id)
    assert sent["authorizing_integration_owners"] == {"1": str(world.anna.id)}
    assert int(sent["app_permissions"]) == ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE
    assert sent["channel"]["type"] == 3
    assert {r["id"] for r in sent["channel"]["recipients"]} == {str(world.bo.id),
                                                                 str(world.cem.id)}
    # the answer is public in the group DM: everyone there sees it
    assert not result.ephemeral
    assert result.message.visible_to(world.cem.id)

    dm = driver.bot_dm(world.anna)
    in_dm = await driver.slash(world.anna, dm, "anywhere hello")
    assert in_dm.record.payload["context"] == 1
    assert int(in_dm.record.payload["app_permissions"]) == (
        ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE | USE_EXTERNAL_EMOJIS)

    # in a server that added the bot, both installs may authorise it
    in_server = await driver.slash(world.anna, world.channel, "anywhere hello")
    assert in_server.record.payload["authorizing_integration_owners"] == {
        "0": str(world.guild.id), "1": str(world.anna.id)}
    assert in_server.record.payload["context"] == 0


async def test_commands_are_offered_only_where_their_installs_and_contexts_reach(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(anywhere_commands)
    driver.install_for(world.anna)
    group = driver.add_group_dm(world.anna, [world.bo])

    with pytest.raises(DriverError, match="not installed for bo"):
        await driver.slash(world.bo, group, "anywhere hello")
    with pytest.raises(DriverError, match="not offered in context 2"):
        await driver.slash(world.anna, group, "settings")
    driver.install_for(world.cem)
    with pytest.raises(DriverError, match="not in the"):
        await driver.slash(world.cem, group, "anywhere hello")
    # Bo never installed it, but the server did: there he has it
    assert (await driver.slash(world.bo, world.channel, "anywhere hello")).content == "hello"


async def test_the_bot_token_reaches_no_channel_the_bot_is_not_in(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    client, _ = await bare_clients.start(anywhere_commands)
    driver.allow_rest_errors()
    group = driver.add_group_dm(world.anna, [world.bo])
    elsewhere = driver.add_guild("Never added it", with_bot=False)
    channel = driver.add_channel(elsewhere, "cards")

    for target in (group, channel):
        with pytest.raises(discord.Forbidden) as refused:
            await client.http.send_message(target.id, params=discord.http.handle_message_parameters(
                content="hi"))
        assert refused.value.code == 50001
        with pytest.raises(discord.Forbidden):
            await client.http.logs_from(target.id, 10)
    assert not [m for m in fake.messages.values() if m.channel_id in (group.id, channel.id)]


async def test_an_app_installed_only_to_the_person_gets_five_follow_ups(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(anywhere_commands)
    driver.allow_rest_errors()
    driver.install_for(world.anna)
    group = driver.add_group_dm(world.anna, [world.bo])

    group_dm = await driver.slash(world.anna, group, "anywhere many")
    in_server = await driver.slash(world.anna, world.channel, "anywhere many")

    for result in (group_dm, in_server):
        await fake.wait_for(lambda r=result: r.message.content.startswith("done"), 5, "tries")
    assert group_dm.message.content == "done " + "sent " * 5 + "400/40094"
    # where the server installed the app, the limit does not apply
    assert in_server.message.content == "done" + " sent" * 6


async def test_answers_are_forced_private_where_the_person_may_not_use_external_apps(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(anywhere_commands)
    strict = driver.add_guild("Strict", with_bot=False,
                              everyone_permissions=EVERYONE_DEFAULT & ~USE_EXTERNAL_APPS)
    relaxed = driver.add_guild("Relaxed", with_bot=False)
    for guild in (strict, relaxed):
        driver.join(world.anna, guild)
    driver.install_for(world.anna)

    forced = await driver.slash(world.anna, driver.add_channel(strict, "cards"),
                                "anywhere hello")
    public = await driver.slash(world.anna, driver.add_channel(relaxed, "cards"),
                                "anywhere hello")

    assert forced.ephemeral and not public.ephemeral
    assert forced.record.payload["authorizing_integration_owners"] == {"1": str(world.anna.id)}
    assert public.record.payload["context"] == 0


async def test_anyone_in_the_group_dm_presses_a_button_as_the_install_that_made_it(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    client, _ = await bare_clients.start(anywhere_commands)

    @client.event
    async def on_interaction(interaction: discord.Interaction) -> None:
        if (interaction.data or {}).get("custom_id") == "anywhere:press":
            await interaction.response.send_message("pressed", ephemeral=True)

    driver.install_for(world.anna)
    group = driver.add_group_dm(world.anna, [world.bo])
    posted = await driver.slash(world.anna, group, "anywhere button")
    assert posted.message is not None

    # Bo never installed the app, yet its message's button works for him, as Anna's install
    pressed = await driver.click(world.bo, posted.message, "Press")

    assert pressed.content == "pressed" and pressed.ephemeral
    assert pressed.record.payload["authorizing_integration_owners"] == {"1": str(world.anna.id)}
    assert pressed.record.payload["user"]["id"] == str(world.bo.id)
