"""Discord's part of an Activity in the fake, over real HTTP: the OAuth2 code exchange, Bearer
tokens, Activity instances, LAUNCH_ACTIVITY (callback 12) and the Entry Point command."""

from __future__ import annotations

import asyncio
import base64
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.driver import DriverError
from bot.fakediscord.model import USE_EMBEDDED_ACTIVITIES
from tests.e2e.conftest import TEST_TOKEN, BareClients, World

pytestmark = pytest.mark.e2e


async def call(fake: FakeDiscord, method: str, path: str, *, auth: str | None = None,
               json: Any = None, form: dict[str, str] | None = None,
               basic: tuple[str, str] | None = None) -> tuple[int, Any]:
    headers = {} if auth is None else {"Authorization": auth}
    if basic is not None:
        pair = f"{basic[0]}:{basic[1]}".encode()
        headers["Authorization"] = "Basic " + base64.b64encode(pair).decode()
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, fake.api_base + path, json=json, data=form,
                     headers=headers) as response,
    ):
        return response.status, (await response.json() if response.status != 204 else None)


def exchange_form(fake: FakeDiscord, code: str, **extra: str) -> dict[str, str]:
    return {"client_id": str(fake.application.id), "client_secret": fake.client_secret,
            "grant_type": "authorization_code", "code": code, **extra}


async def test_a_code_is_exchanged_once_for_a_bearer_token_that_names_the_person(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.allow_rest_errors()  # the replay's 400 is the point
    driver.set_locale(world.anna, "sv-SE")
    code = driver.authorize(world.anna, ["identify", "guilds"])

    status, token = await call(fake, "POST", "/oauth2/token", form=exchange_form(fake, code))
    replay, again = await call(fake, "POST", "/oauth2/token", form=exchange_form(fake, code))
    me_status, me = await call(fake, "GET", "/users/@me",
                               auth=f"Bearer {token['access_token']}")
    _, authorization = await call(fake, "GET", "/oauth2/@me",
                                  auth=f"Bearer {token['access_token']}")

    assert status == 200
    assert token["token_type"] == "Bearer" and token["scope"] == "identify guilds"
    assert token["expires_in"] == 604800 and token["refresh_token"]
    assert (replay, again["error"]) == (400, "invalid_grant")
    assert me_status == 200 and me["id"] == str(world.anna.id) and me["locale"] == "sv-SE"
    assert authorization["application"]["id"] == str(fake.application.id)
    assert authorization["scopes"] == ["identify", "guilds"]
    assert authorization["user"]["id"] == str(world.anna.id)
    assert fake.oauth.exchanges == 1


async def test_the_client_authenticates_by_basic_or_body_and_a_wrong_secret_is_invalid_client(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.allow_rest_errors()
    app = str(fake.application.id)
    code = driver.authorize(world.anna)
    wrong = await call(fake, "POST", "/oauth2/token", basic=(app, "not-the-secret"),
                       form={"grant_type": "authorization_code", "code": code})
    right = await call(fake, "POST", "/oauth2/token", basic=(app, fake.client_secret),
                       form={"grant_type": "authorization_code", "code": code})
    absent = await call(fake, "POST", "/oauth2/token",
                        form={"grant_type": "authorization_code", "code": code})

    assert wrong == (401, {"error": "invalid_client"})
    assert right[0] == 200
    assert absent == (401, {"error": "invalid_client"})


async def test_codes_are_bound_to_their_client_and_redirect_uri_and_refresh_tokens_work(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.allow_rest_errors()
    stranger = fake.add_oauth_client("Someone Else's Activity")
    theirs = driver.authorize(world.anna, client_id=stranger.id)
    with_uri = driver.authorize(world.bo, redirect_uri="https://example.org/cb")

    not_ours = await call(fake, "POST", "/oauth2/token", form=exchange_form(fake, theirs))
    other_uri = await call(fake, "POST", "/oauth2/token", form=exchange_form(
        fake, with_uri, redirect_uri="https://example.org/elsewhere"))
    same_uri = await call(fake, "POST", "/oauth2/token", form=exchange_form(
        fake, with_uri, redirect_uri="https://example.org/cb"))
    refresh = {"client_id": str(fake.application.id), "client_secret": fake.client_secret,
               "grant_type": "refresh_token", "refresh_token": same_uri[1]["refresh_token"]}
    refreshed = await call(fake, "POST", "/oauth2/token", form=refresh)
    refreshed_again = await call(fake, "POST", "/oauth2/token", form=refresh)
    unsupported = await call(fake, "POST", "/oauth2/token", form={
        **exchange_form(fake, "x"), "grant_type": "password"})

    assert not_ours[0] == 400 and not_ours[1]["error"] == "invalid_grant"
    assert other_uri[0] == 400 and other_uri[1]["error"] == "invalid_grant"
    assert same_uri[0] == 200
    assert refreshed[0] == 200 and refreshed[1]["access_token"] != same_uri[1]["access_token"]
    assert refreshed_again[0] == 400
    assert unsupported[1]["error"] == "unsupported_grant_type"


async def test_a_token_of_another_app_names_that_app_and_bad_or_expired_tokens_are_401(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.allow_rest_errors()
    stranger = fake.add_oauth_client("Someone Else's Activity")
    code = driver.authorize(world.anna, client_id=stranger.id)
    _, token = await call(fake, "POST", "/oauth2/token", form={
        "client_id": str(stranger.id), "client_secret": stranger.secret,
        "grant_type": "authorization_code", "code": code})
    bearer = f"Bearer {token['access_token']}"

    _, authorization = await call(fake, "GET", "/oauth2/@me", auth=bearer)
    unknown = await call(fake, "GET", "/users/@me", auth="Bearer made-up")
    on_a_bot_route = await call(fake, "GET", f"/channels/{world.channel.id}", auth=bearer)
    bot_on_oauth_me = await call(fake, "GET", "/oauth2/@me", auth=f"Bot {TEST_TOKEN}")
    fake.oauth.expire(token["access_token"])
    expired = await call(fake, "GET", "/users/@me", auth=bearer)

    assert authorization["application"]["id"] == str(stranger.id)
    assert [r[0] for r in (unknown, on_a_bot_route, bot_on_oauth_me, expired)] == [401] * 4
    assert unknown[1] == {"message": "401: Unauthorized", "code": 0}


def launcher(tree: app_commands.CommandTree) -> None:
    @tree.command(name="play", description="Open the table as an Activity")
    async def play(interaction: discord.Interaction) -> None:
        await interaction.response.launch_activity()


async def test_launch_activity_opens_one_instance_per_channel_that_the_bot_can_look_up(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    voice = driver.add_channel(world.guild, "Lounge", voice=True)
    driver.enable_activities(entry_point=False)
    await bare_clients.start(launcher)

    first = await driver.slash(world.anna, voice, "play")
    second = await driver.slash(world.bo, voice, "play")
    elsewhere = await driver.slash(world.cem, world.channel, "play")
    instance = first.activity_instance
    assert instance is not None and first.type == 12
    status, found = await call(
        fake, "GET", f"/applications/{fake.application.id}/activity-instances/{instance.id}",
        auth=f"Bot {TEST_TOKEN}")

    assert second.activity_instance is instance
    assert elsewhere.activity_instance is not None and elsewhere.activity_instance is not instance
    assert status == 200
    assert found == {
        "application_id": str(fake.application.id),
        "instance_id": instance.id,
        "launch_id": str(instance.launch_id),
        "location": {"id": f"gc-{world.guild.id}-{voice.id}", "kind": "gc",
                     "channel_id": str(voice.id), "guild_id": str(world.guild.id)},
        "users": [str(world.anna.id), str(world.bo.id)],
    }
    assert fake.application.flags & (1 << 17)


async def test_unknown_ended_and_other_apps_instances_are_404(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    driver.allow_rest_errors()
    driver.enable_activities(entry_point=False)
    await bare_clients.start(launcher)
    instance = (await driver.slash(world.anna, world.channel, "play")).activity_instance
    assert instance is not None
    app = fake.application.id

    forged = await call(fake, "GET", f"/applications/{app}/activity-instances/i-1-gc-2-3",
                        auth=f"Bot {TEST_TOKEN}")
    other_app = await call(fake, "GET", f"/applications/{app + 1}/activity-instances/"
                           f"{instance.id}", auth=f"Bot {TEST_TOKEN}")
    driver.leave_activity(world.anna, instance)
    ended = await call(fake, "GET", f"/applications/{app}/activity-instances/{instance.id}",
                       auth=f"Bot {TEST_TOKEN}")

    assert [r[0] for r in (forged, other_app, ended)] == [404, 404, 404]
    assert driver.activity_in(world.channel) is None


class Launcher(discord.ui.Modal, title="Open the table"):
    name: discord.ui.TextInput[Launcher] = discord.ui.TextInput(label="Name", custom_id="name")

    def __init__(self, refusals: list[int]) -> None:
        super().__init__()
        self.refusals = refusals

    async def on_submit(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as exc:
            self.refusals.append(exc.status)
            await interaction.response.send_message("no", ephemeral=True)


async def test_launch_activity_is_refused_without_activities_and_after_a_modal(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    driver.allow_rest_errors()
    driver.allow_failed_interactions()
    refusals: list[int] = []

    def setup(tree: app_commands.CommandTree) -> None:
        @tree.command(name="play", description="Open the table as an Activity")
        async def play(interaction: discord.Interaction) -> None:
            try:
                await interaction.response.launch_activity()
            except discord.HTTPException as exc:
                refusals.append(exc.status)

        @tree.command(name="ask", description="Ask, then open")
        async def ask(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(Launcher(refusals))

    await bare_clients.start(setup)
    result = await driver.slash(world.anna, world.channel, "play", wait=False)
    await fake.wait_for(lambda: refusals, 10, "the refusal")
    driver.enable_activities(entry_point=False)
    opened = await driver.slash(world.anna, world.channel, "ask")
    submitted = await driver.submit_modal(world.anna, opened, {"name": "x"})

    assert refusals == [400, 400]
    assert result.activity_instance is None and submitted.activity_instance is None
    assert not fake.activities.instances


async def test_the_entry_point_command_launches_by_discord_or_by_the_app(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.enable_activities()
    entry = fake.entry_point()
    assert entry is not None and (entry["type"], entry["handler"]) == (4, 2)

    by_discord = await driver.launch_activity(world.anna, world.channel)
    assert by_discord.users == [world.anna] and not fake.interactions

    status, _ = await call(
        fake, "PATCH", f"/applications/{fake.application.id}/commands/{entry['id']}",
        auth=f"Bot {TEST_TOKEN}", json={"handler": 1})
    assert status == 200 and fake.entry_point()["handler"] == 1  # type: ignore[index]
    launching = asyncio.create_task(driver.launch_activity(world.bo, world.channel))
    await fake.wait_for(lambda: fake.interactions, 10, "the Entry Point interaction")
    record = next(iter(fake.interactions.values()))
    answered = await call(fake, "POST", f"/interactions/{record.id}/{record.token}/callback"
                          "?with_response=true", json={"type": 12})

    assert record.data == {"id": entry["id"], "name": "launch", "type": 4}
    assert await launching is by_discord
    assert answered[0] == 200
    assert answered[1]["resource"] == {"type": 12, "activity_instance": {"id": by_discord.id}}
    assert answered[1]["interaction"]["activity_instance_id"] == by_discord.id
    assert by_discord.users == [world.anna, world.bo]


async def test_one_global_entry_point_that_a_bulk_overwrite_must_keep(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.allow_rest_errors()
    driver.enable_activities()
    app = fake.application.id
    bot = f"Bot {TEST_TOKEN}"
    slash = {"name": "dubb", "description": "Play Dubb", "type": 1}
    entry = {"name": "launch", "description": "Play at the table", "type": 4, "handler": 2}

    dropped = await call(fake, "PUT", f"/applications/{app}/commands", auth=bot, json=[slash])
    kept = await call(fake, "PUT", f"/applications/{app}/commands", auth=bot,
                      json=[slash, entry])
    second = await call(fake, "POST", f"/applications/{app}/commands", auth=bot,
                        json={**entry, "name": "open"})
    in_guild = await call(fake, "POST", f"/applications/{app}/guilds/{world.guild.id}/commands",
                          auth=bot, json=entry)
    options = await call(fake, "POST", f"/applications/{app}/commands", auth=bot, json={
        **entry, "options": [{"type": 3, "name": "x", "description": "x"}]})
    handler_on_slash = await call(fake, "POST", f"/applications/{app}/commands", auth=bot,
                                  json={**slash, "handler": 2})

    assert dropped[0] == 400 and dropped[1]["code"] == 50240
    assert kept[0] == 200 and {c["type"] for c in kept[1]} == {1, 4}
    assert [r[0] for r in (second, in_guild, options, handler_on_slash)] == [400] * 4


async def test_no_entry_point_without_activities_and_launching_needs_a_place_it_fits(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    with pytest.raises(DriverError, match="no Entry Point"):
        await driver.launch_activity(world.anna, world.channel)
    driver.enable_activities()
    thread = driver.add_channel(world.guild, "side", thread=True)
    with pytest.raises(DriverError, match="type 11"):
        await driver.launch_activity(world.anna, thread)


async def test_the_launcher_needs_use_activities_in_a_servers_channel(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.enable_activities()
    fake.set_overwrite(world.channel, world.guild.id, 0, deny=USE_EMBEDDED_ACTIVITIES)

    with pytest.raises(DriverError, match="Use Activities"):
        await driver.launch_activity(world.anna, world.channel)
    fake.set_overwrite(world.channel, world.guild.id, 0)
    assert (await driver.launch_activity(world.anna, world.channel)).users == [world.anna]
