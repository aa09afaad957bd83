"""The fake's channel webhooks: Manage Webhooks, names, the 15 a channel, execute and edit
through the webhook's own token (per IP, not the bot's budget), threads, and a member
deleting one."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.model import MANAGE_WEBHOOKS
from tests.e2e.conftest import TEST_TOKEN, World

pytestmark = pytest.mark.e2e

BUTTONS = [{"type": 1, "components": [
    {"type": 2, "style": 1, "label": "Your hand", "custom_id": "hand:1:"}]}]


async def call(fake: FakeDiscord, method: str, path: str, body: Any = None, *,
               bot: bool = True) -> tuple[int, dict[str, str], Any]:
    headers = {"Authorization": f"Bot {TEST_TOKEN}"} if bot else {}
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, fake.api_base + path, json=body, headers=headers) as response,
    ):
        data = await response.json() if response.status != 204 else None
        return response.status, dict(response.headers), data


async def make(fake: FakeDiscord, world: World, name: str = "kortbord") -> dict[str, Any]:
    status, _, hook = await call(fake, "POST", f"/channels/{world.channel.id}/webhooks",
                                 {"name": name})
    assert status == 200, hook
    return hook


async def test_a_webhook_needs_manage_webhooks_in_the_channel(
        fake: FakeDiscord, driver: Driver, world: World) -> None:
    driver.allow_rest_errors()
    path = f"/channels/{world.channel.id}/webhooks"
    refused = await call(fake, "POST", path, {"name": "kortbord"})
    listed = await call(fake, "GET", path)
    driver.set_bot_webhooks(world.channel, True)
    made = await call(fake, "POST", path, {"name": "kortbord"})
    mine = await call(fake, "GET", path)
    driver.set_bot_webhooks(world.channel, False)
    after = await call(fake, "GET", f"/webhooks/{made[2]['id']}")

    assert (refused[0], refused[2]["code"]) == (403, 50013)
    assert (listed[0], listed[2]["code"]) == (403, 50013)
    assert made[0] == 200
    hook = made[2]
    assert (hook["type"], hook["name"], hook["channel_id"]) == (1, "kortbord",
                                                                str(world.channel.id))
    assert hook["application_id"] == str(fake.application.id) and hook["token"]
    assert [h["id"] for h in mine[2]] == [hook["id"]]
    assert mine[2][0]["token"] == hook["token"]  # shown to the application that made it
    assert (after[0], after[2]["code"]) == (403, 50013)


@pytest.mark.parametrize("name", ["Clyde", "my DISCORD hook", "", "x" * 81])
async def test_webhook_names_follow_discords_rules(
        fake: FakeDiscord, driver: Driver, world: World, name: str) -> None:
    driver.allow_rest_errors()
    driver.set_bot_webhooks(world.channel, True)
    status, _, error = await call(fake, "POST", f"/channels/{world.channel.id}/webhooks",
                                  {"name": name})
    assert (status, error["code"]) == (400, 50035)
    assert "name" in error["errors"]


async def test_fifteen_webhooks_a_channel_and_none_in_a_thread(
        fake: FakeDiscord, driver: Driver, world: World) -> None:
    driver.allow_rest_errors()
    driver.set_bot_webhooks(world.channel, True)
    for _ in range(15):
        await make(fake, world)
    status, _, error = await call(fake, "POST", f"/channels/{world.channel.id}/webhooks",
                                  {"name": "kortbord"})
    thread = driver.add_channel(world.guild, "table", thread=True, parent=world.channel)
    in_thread = await call(fake, "POST", f"/channels/{thread.id}/webhooks", {"name": "k"})

    assert (status, error["code"]) == (400, 30007)
    assert (in_thread[0], in_thread[2]["code"]) == (400, 50024)


async def test_a_webhook_posts_edits_and_deletes_its_own_messages_on_the_ip_budget(
        fake: FakeDiscord, driver: Driver, world: World) -> None:
    driver.allow_rest_errors()
    driver.set_bot_webhooks(world.channel, True)
    hook = await make(fake, world)
    base = f"/webhooks/{hook['id']}/{hook['token']}"
    bot_before = sum(len(v) for k, v in fake.limiter.sent.items() if k.startswith("bot:"))
    status, headers, sent = await call(
        fake, "POST", f"{base}?wait=true",
        {"content": f"{world.anna.mention}, your turn", "components": BUTTONS,
         "allowed_mentions": {"users": [str(world.anna.id)]}}, bot=False)
    edited = await call(fake, "PATCH", f"{base}/messages/{sent['id']}", {"content": "later"},
                        bot=False)
    bot_edit = await call(fake, "PATCH", f"/channels/{world.channel.id}/messages/{sent['id']}",
                          {"content": "mine?"})
    bot_after = sum(len(v) for k, v in fake.limiter.sent.items() if k.startswith("bot:"))
    deleted = await call(fake, "DELETE", f"{base}/messages/{sent['id']}", bot=False)
    again = await call(fake, "GET", f"{base}/messages/{sent['id']}", bot=False)

    assert status == 200
    assert sent["webhook_id"] == hook["id"] and sent["application_id"] == str(fake.application.id)
    assert sent["author"]["id"] == hook["id"] and sent["author"]["username"] == "kortbord"
    assert sent["author"]["bot"] is True
    assert sent["components"][0]["components"][0]["custom_id"] == "hand:1:"
    assert headers["X-RateLimit-Limit"] and headers["X-RateLimit-Bucket"]
    assert [p.user_id for p in driver.pings(world.anna)] == [world.anna.id]
    assert edited[0] == 200 and edited[2]["content"] == "later"
    assert (bot_edit[0], bot_edit[2]["code"]) == (403, 50005)
    assert bot_after - bot_before == 1  # only the bot's own try to edit counted as the bot's
    assert any(k.startswith("ip:") for k in fake.limiter.sent)
    assert deleted[0] == 204
    assert (again[0], again[2]["code"]) == (404, 10008)


async def test_a_webhook_writes_into_its_channels_threads_by_thread_id(
        fake: FakeDiscord, driver: Driver, world: World) -> None:
    driver.allow_rest_errors()
    driver.set_bot_webhooks(world.channel, True)
    hook = await make(fake, world)
    thread = driver.add_channel(world.guild, "table", thread=True, parent=world.channel)
    other = driver.add_channel(world.guild, "elsewhere")
    base = f"/webhooks/{hook['id']}/{hook['token']}"
    status, _, sent = await call(fake, "POST", f"{base}?wait=true&thread_id={thread.id}",
                                 {"content": "table"}, bot=False)
    without = await call(fake, "GET", f"{base}/messages/{sent['id']}", bot=False)
    within = await call(fake, "GET", f"{base}/messages/{sent['id']}?thread_id={thread.id}",
                        bot=False)
    wrong = await call(fake, "POST", f"{base}?wait=true&thread_id={other.id}",
                       {"content": "x"}, bot=False)

    assert status == 200 and sent["channel_id"] == str(thread.id)
    assert (without[0], without[2]["code"]) == (404, 10008)
    assert within[0] == 200
    assert (wrong[0], wrong[2]["code"]) == (400, 50035)


async def test_a_deleted_webhook_is_unknown_and_a_wrong_token_invalid(
        fake: FakeDiscord, driver: Driver, world: World) -> None:
    driver.allow_rest_errors()
    driver.set_bot_webhooks(world.channel, True)
    hook = await make(fake, world)
    wrong = await call(fake, "POST", f"/webhooks/{hook['id']}/nope?wait=true", {"content": "x"},
                       bot=False)
    assert driver.delete_webhooks(world.channel) == 1
    gone = await call(fake, "POST", f"/webhooks/{hook['id']}/{hook['token']}?wait=true",
                      {"content": "x"}, bot=False)
    listed = await call(fake, "GET", f"/channels/{world.channel.id}/webhooks")

    assert (wrong[0], wrong[2]["code"]) == (401, 50027)
    assert (gone[0], gone[2]["code"]) == (404, 10015)
    assert listed[2] == []


async def test_a_members_webhook_is_no_applications_and_sends_no_buttons(
        fake: FakeDiscord, driver: Driver, world: World) -> None:
    driver.allow_rest_errors()
    driver.set_bot_webhooks(world.channel, True)
    fake.set_overwrite(world.channel, world.anna.id, 1, allow=MANAGE_WEBHOOKS)
    theirs = fake.create_webhook(world.channel, {"name": "Anna's hook"}, world.anna)
    _, _, listed = await call(fake, "GET", f"/channels/{world.channel.id}/webhooks")
    status, _, error = await call(fake, "POST", f"/webhooks/{theirs.id}/{theirs.token}?wait=true",
                                  {"content": "x", "components": BUTTONS}, bot=False)

    # an incoming webhook's token is shown to whoever may manage it: only the application
    # tells a bot's own from a member's
    assert listed[0]["application_id"] is None and listed[0]["token"] == theirs.token
    assert (status, error["code"]) == (400, 50035)
