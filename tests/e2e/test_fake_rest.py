"""The fake's REST API: Discord's status codes, error bodies and headers; faults; messages."""

from __future__ import annotations

import io
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.model import (
    BOT_DEFAULT,
    CREATE_PUBLIC_THREADS,
    EVERYONE_DEFAULT,
    SEND_MESSAGES_IN_THREADS,
)
from tests.e2e.conftest import TEST_TOKEN, BareClients, World

pytestmark = pytest.mark.e2e

RATE_LIMIT_HEADERS = (
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "X-RateLimit-Reset-After",
    "X-RateLimit-Bucket",
)


async def call(
    fake: FakeDiscord, method: str, path: str, body: Any = None, *, token: str = TEST_TOKEN
) -> tuple[int, dict[str, str], Any]:
    headers = {"Authorization": f"Bot {token}"} if token else {}
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, fake.api_base + path, json=body, headers=headers) as response,
    ):
        data = await response.json() if response.status != 204 else None
        return response.status, dict(response.headers), data


def button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def string_select(custom_id: str, count: int) -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(count)]
    return {"type": 3, "custom_id": custom_id, "options": options}


async def test_every_response_has_rate_limit_headers_and_json_errors(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.allow_rest_errors()
    ok_status, ok_headers, me = await call(fake, "GET", "/users/@me")
    bad_status, bad_headers, bad = await call(fake, "GET", "/users/@me", token="")
    missing_status, _, missing = await call(
        fake, "GET", f"/channels/{world.channel.id}/messages/{world.channel.id}"
    )

    assert ok_status == 200 and me["id"] == str(fake.bot_user.id)
    for headers in (ok_headers, bad_headers):
        assert all(name in headers for name in RATE_LIMIT_HEADERS)
        assert headers["Content-Type"] == "application/json"
    assert (bad_status, bad) == (401, {"message": "401: Unauthorized", "code": 0})
    assert (missing_status, missing) == (404, {"message": "Unknown Message", "code": 10008})


@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        ({"content": "x" * 2001}, ["content"], "BASE_TYPE_MAX_LENGTH"),
        (
            {"components": [row(button(f"b{i}")) for i in range(6)]},
            ["components"],
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"components": [row(*[button(f"b{i}") for i in range(6)])]},
            ["components", "0", "components"],
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {"components": [row(button("a"), string_select("s", 2))]},
            ["components", "0", "components"],
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
        ),
        (
            {"components": [row(string_select("s", 26))]},
            ["components", "0", "components", "0", "options"],
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {"components": [row(button("c" * 101))]},
            ["components", "0", "components", "0", "custom_id"],
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {"components": [row(button("same")), row(button("same"))]},
            ["components", "1", "components", "0", "custom_id"],
            "COMPONENT_CUSTOM_ID_DUPLICATED",
        ),
        (
            {"components": [row({"type": 2, "style": 1, "label": "no id"})]},
            ["components", "0", "components", "0", "custom_id"],
            "BASE_TYPE_REQUIRED",
        ),
        ({"embeds": [{"title": "t" * 257}]}, ["embeds", "0", "title"], "BASE_TYPE_MAX_LENGTH"),
    ],
)
async def test_invalid_message_bodies_get_discords_error_shape(
    fake: FakeDiscord,
    driver: Driver,
    world: World,
    body: dict[str, Any],
    path: list[str],
    code: str,
) -> None:
    driver.allow_rest_errors()
    status, _, error = await call(fake, "POST", f"/channels/{world.channel.id}/messages", body)

    assert status == 400
    assert (error["code"], error["message"]) == (50035, "Invalid Form Body")
    node = error["errors"]
    for part in path:
        node = node[part]
    assert node["_errors"][0]["code"] == code
    assert fake.channel_messages(world.channel.id) == []


async def test_an_empty_message_is_refused(fake: FakeDiscord, driver: Driver, world: World) -> None:
    driver.allow_rest_errors()
    status, _, error = await call(fake, "POST", f"/channels/{world.channel.id}/messages", {})

    assert (status, error) == (400, {"message": "Cannot send an empty message", "code": 50006})


@pytest.mark.parametrize(
    ("command", "path", "code"),
    [
        ({"name": "Dubb", "description": "x"}, ["0", "name"], "APPLICATION_COMMAND_INVALID_NAME"),
        ({"name": "dubb", "description": ""}, ["0", "description"], "BASE_TYPE_BAD_LENGTH"),
        (
            {
                "name": "dubb",
                "description": "x",
                "options": [
                    {"type": 3, "name": "a", "description": "a"},
                    {"type": 3, "name": "b", "description": "b", "required": True},
                ],
            },
            ["0", "options", "1", "required"],
            "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
        ),
        (
            {
                "name": "dubb",
                "description": "x",
                "options": [
                    {
                        "type": 3,
                        "name": "a",
                        "description": "a",
                        "autocomplete": True,
                        "choices": [{"name": "x", "value": "x"}],
                    },
                ],
            },
            ["0", "options", "0", "autocomplete"],
            "APPLICATION_COMMAND_AUTOCOMPLETE_WITH_CHOICES",
        ),
        (
            {
                "name": "dubb",
                "description": "x",
                "options": [
                    {"type": 1, "name": "start", "description": "s"},
                    {"type": 3, "name": "a", "description": "a"},
                ],
            },
            ["0", "options"],
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
        ),
    ],
)
async def test_invalid_commands_are_refused(
    fake: FakeDiscord, driver: Driver, command: dict[str, Any], path: list[str], code: str
) -> None:
    driver.allow_rest_errors()
    status, _, error = await call(
        fake, "PUT", f"/applications/{fake.application.id}/commands", [command]
    )

    assert (status, error["code"]) == (400, 50035)
    node = error["errors"]
    for part in path:
        node = node[part]
    assert node["_errors"][0]["code"] == code
    assert fake.global_commands == {}


async def test_command_ids_survive_a_resync(fake: FakeDiscord) -> None:
    command = {"name": "dubb", "description": "Play Dubb", "type": 1}
    path = f"/applications/{fake.application.id}/commands"

    _, _, first = await call(fake, "PUT", path, [command])
    _, _, second = await call(fake, "PUT", path, [command, {**command, "name": "tonk"}])
    _, _, listed = await call(fake, "GET", path)

    assert second[0]["id"] == first[0]["id"]
    assert {c["name"] for c in listed} == {"dubb", "tonk"}


def echo_command(tree: app_commands.CommandTree) -> None:
    @tree.command(name="echo", description="Repeat a text in the channel")
    async def echo(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        try:
            sent = await interaction.channel.send(text)
        except discord.HTTPException as exc:
            await interaction.followup.send(f"failed {exc.status} {exc.code}", ephemeral=True)
            return
        await interaction.followup.send(f"sent {sent.id}", ephemeral=True)


async def test_discord_py_retries_injected_429s(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(echo_command)
    fake.fail_next(2, status=429, match=lambda m, r: r == "/channels/{channel_id}/messages")
    fake.fail_next(1, status=429, match=lambda m, r: r.endswith("/callback"))

    result = await driver.slash(world.anna, world.channel, "echo", {"text": "hello"})

    messages = driver.channel_messages(world.channel)
    assert [m.content for m in messages] == ["hello"]
    assert result.content == f"sent {messages[0].id}"
    injected = [c for c in fake.rest_calls if c.injected]
    assert [c.status for c in injected] == [429, 429, 429]


async def test_a_seeded_share_of_429s_is_absorbed(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(echo_command)
    fake.inject_faults(0.3, status=429, seed=7, retry_after=0.01)

    # four: discord.py holds the request that empties the channel's 5-per-5-seconds bucket
    # until the bucket resets
    for n in range(4):
        await driver.slash(world.anna, world.channel, "echo", {"text": f"m{n}"})

    assert [m.content for m in driver.channel_messages(world.channel)] == [
        f"m{n}" for n in range(4)
    ]
    assert sum(c.injected for c in fake.rest_calls) >= 3


async def test_discord_py_retries_an_injected_500(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(echo_command)
    fake.fail_next(1, status=500, match=lambda m, r: r == "/channels/{channel_id}/messages")

    await driver.slash(world.anna, world.channel, "echo", {"text": "after a 500"})

    assert [m.content for m in driver.channel_messages(world.channel)] == ["after a 500"]
    assert [c.status for c in fake.rest_calls if c.injected] == [500]


async def test_a_too_long_message_reaches_discord_py_as_error_50035(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    driver.allow_rest_errors()
    await bare_clients.start(echo_command)

    result = await driver.slash(world.anna, world.channel, "echo", {"text": "x" * 2001})

    assert result.content == "failed 400 50035"
    assert driver.channel_messages(world.channel) == []


async def test_bot_without_send_permission_is_refused(
    fake: FakeDiscord, driver: Driver, bare_clients: BareClients
) -> None:
    view_only = 1 << 10 | 1 << 16
    guild = driver.add_guild("Read only", bot_permissions=view_only, everyone_permissions=view_only)
    channel = driver.add_channel(guild, "general")
    anna = driver.add_user("Anna")
    await bare_clients.start(echo_command)

    result = await driver.slash(anna, channel, "echo", {"text": "hello"})

    assert result.content == "failed 403 50013"


async def test_history_and_fetch_see_public_messages_only(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    seen: dict[str, Any] = {}

    def setup(tree: app_commands.CommandTree) -> None:
        @tree.command(name="secret", description="Answer privately")
        async def secret(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("only you", ephemeral=True)

        @tree.command(name="look", description="Read the channel")
        async def look(interaction: discord.Interaction) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            public = await interaction.channel.send("public")
            seen["history"] = [m.content async for m in interaction.channel.history(limit=10)]
            fetched = await interaction.channel.fetch_message(public.id)
            seen["fetched"] = fetched.content
            try:
                await interaction.channel.fetch_message(int(seen["secret_id"]))
            except discord.NotFound as exc:
                seen["secret"] = exc.code
            await interaction.response.send_message("done", ephemeral=True)

    await bare_clients.start(setup)
    private = await driver.slash(world.anna, world.channel, "secret")
    assert private.message is not None
    seen["secret_id"] = private.message.id

    await driver.slash(world.bo, world.channel, "look")

    assert seen == {
        "secret_id": private.message.id,
        "history": ["public"],
        "fetched": "public",
        "secret": 10008,
    }


async def test_mentions_ping_once_on_creation_only(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    def setup(tree: app_commands.CommandTree) -> None:
        @tree.command(name="turn", description="Announce a turn")
        async def turn(interaction: discord.Interaction, who: discord.Member) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            loud = await interaction.channel.send(f"{who.mention}, your turn")
            quiet = await interaction.channel.send(
                f"{who.mention} again", allowed_mentions=discord.AllowedMentions.none()
            )
            await loud.edit(content=f"{who.mention}, your turn (edited)")
            assert quiet.mentions == []
            await interaction.response.send_message("ok", ephemeral=True)

    await bare_clients.start(setup)

    await driver.slash(world.anna, world.channel, "turn", {"who": world.bo})

    assert [p.user_id for p in driver.pings()] == [world.bo.id]
    loud, quiet = driver.channel_messages(world.channel)
    assert loud.content.endswith("(edited)") and [u.id for u in loud.mentions] == [world.bo.id]
    assert quiet.mentions == []
    assert loud.edited_timestamp is not None


async def test_files_go_up_as_multipart_and_come_back_as_attachments(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    def setup(tree: app_commands.CommandTree) -> None:
        @tree.command(name="deal", description="Send a file")
        async def deal(interaction: discord.Interaction) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send("log", file=discord.File(io.BytesIO(b"public"), "a.txt"))
            await interaction.response.send_message(
                "yours", file=discord.File(io.BytesIO(b"private"), "hand.txt"), ephemeral=True
            )

    await bare_clients.start(setup)

    result = await driver.slash(world.anna, world.channel, "deal")

    public = driver.channel_messages(world.channel)[0]
    assert result.message is not None and result.ephemeral
    assert [a.filename for a in public.attachments] == ["a.txt"]
    assert [a.filename for a in result.message.attachments] == ["hand.txt"]
    async with aiohttp.ClientSession() as http, http.get(public.attachments[0].url) as got:
        assert await got.read() == b"public"


async def test_interaction_webhooks_and_their_15_minute_token(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.allow_rest_errors()
    channel = fake.channels[world.channel.id]
    record = fake.create_interaction(2, world.anna, channel, {"id": "1", "name": "x", "type": 1})
    hook = f"/webhooks/{fake.application.id}/{record.token}"
    callback = f"/interactions/{record.id}/{record.token}/callback"

    early = await call(fake, "POST", f"{hook}?wait=true", {"content": "too early"}, token="")
    await call(fake, "POST", callback, {"type": 4, "data": {"content": "table"}}, token="")
    original = await call(fake, "GET", f"{hook}/messages/@original", token="")
    edited = await call(fake, "PATCH", f"{hook}/messages/@original", {"content": "v2"}, token="")
    secret = await call(
        fake, "POST", f"{hook}?wait=true", {"content": "psst", "flags": 64}, token=""
    )
    secret_id = secret[2]["id"]
    deleted = await call(fake, "DELETE", f"{hook}/messages/{secret_id}", token="")
    moved_on = fake.clock() + 15 * 60 + 1
    fake.clock = lambda: moved_on
    expired = await call(fake, "PATCH", f"{hook}/messages/@original", {"content": "v3"}, token="")

    assert (early[0], early[2]["code"]) == (404, 10015)
    assert (original[0], original[2]["content"]) == (200, "table")
    assert (edited[0], edited[2]["content"], edited[2]["edited_timestamp"] is not None) == (
        200,
        "v2",
        True,
    )
    assert secret[2]["flags"] == 64 and deleted[0] == 204
    assert (expired[0], expired[2]) == (401, {"message": "Invalid Webhook Token", "code": 50027})
    assert [m.content for m in driver.channel_messages(world.channel)] == ["v2"]
    assert [e.action for e in driver.log_visible_to(world.anna)] == [
        "create",
        "edit",
        "create",
        "delete",
    ]
    assert driver.log_visible_to(world.bo)[-1].content == "v2"


async def test_threads_started_without_a_message_follow_discords_permissions(
    fake: FakeDiscord, driver: Driver
) -> None:
    """``POST /channels/{id}/threads``: public threads need Create Public Threads, private
    ones (the default type in API v10) Create Private Threads, only in a text channel; the
    new thread comes back as 201 and with THREAD_CREATE, and the bot may post in it with Send
    Messages in Threads."""
    driver.allow_rest_errors()
    # the request without a name breaks Discord's description on purpose
    driver.allow_contract_breaches()
    allowed = driver.add_guild("Threads")
    games = driver.add_channel(allowed, "games")
    status, _, thread = await call(fake, "POST", f"/channels/{games.id}/threads",
                                   {"name": "Round 1 · table 1", "type": 11})
    assert status == 201 and thread["type"] == 11 and thread["parent_id"] == str(games.id)
    assert thread["owner_id"] == str(fake.bot_user.id) and "thread_metadata" in thread
    created = fake.channels[int(thread["id"])]
    assert created in allowed.threads()
    status, _, posted = await call(fake, "POST", f"/channels/{thread['id']}/messages",
                                   {"content": "hello"})
    assert status == 200
    # no type: a private thread, which needs a permission the bot was not given
    status, _, body = await call(fake, "POST", f"/channels/{games.id}/threads", {"name": "x"})
    assert (status, body["code"]) == (403, 50013)
    # not in a thread
    status, _, body = await call(fake, "POST", f"/channels/{thread['id']}/threads",
                                 {"name": "x", "type": 11})
    assert (status, body["code"]) == (400, 50024)
    status, _, body = await call(fake, "POST", f"/channels/{games.id}/threads", {"type": 11})
    assert (status, body["code"]) == (400, 50035) and "name" in body["errors"]

    refused = driver.add_guild(
        "No threads", bot_permissions=BOT_DEFAULT & ~(CREATE_PUBLIC_THREADS
                                                      | SEND_MESSAGES_IN_THREADS),
        everyone_permissions=EVERYONE_DEFAULT & ~(CREATE_PUBLIC_THREADS
                                                  | SEND_MESSAGES_IN_THREADS))
    closed = driver.add_channel(refused, "games")
    status, _, body = await call(fake, "POST", f"/channels/{closed.id}/threads",
                                 {"name": "x", "type": 11})
    assert (status, body["code"]) == (403, 50013)
    existing = driver.add_channel(refused, "old", thread=True, parent=closed)
    status, _, body = await call(fake, "POST", f"/channels/{existing.id}/messages",
                                 {"content": "hi"})
    assert (status, body["code"]) == (403, 50013)
    assert posted["channel_id"] == thread["id"]
