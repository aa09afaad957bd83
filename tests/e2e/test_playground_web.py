"""The playground's web API with the real bot in-process: what the page reads (an event stream
per user and channel, files) and what it does (commands, suggestions, clicks) — each through
the fake's driver, so a user sees and does only what Discord would let them."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.attachments import Upload
from bot.playground.web import build_app
from bot.playground.world import World, build_world
from tests.e2e.conftest import BotRunner
from tests.e2e.table_card import is_layout, title

pytestmark = pytest.mark.e2e

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16


@pytest.fixture
async def site(
    bot_runner: BotRunner, driver: Driver
) -> AsyncIterator[tuple[TestClient[Any, Any], World]]:
    world = build_world(driver)
    await bot_runner.start()
    async with TestClient(TestServer(build_app(driver, world))) as client:
        yield client, world


class Stream:
    """One ``/api/events`` stream, read event by event."""

    def __init__(self, response: ClientResponse) -> None:
        self.response = response

    async def next(self) -> tuple[str, Any]:
        event, data = "", ""
        async with asyncio.timeout(10):
            while True:
                line = (await self.response.content.readline()).decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data = line[6:]
                elif line == "" and event:
                    return event, json.loads(data)

    async def until(self, wanted: str, predicate: Any) -> Any:
        while True:
            event, data = await self.next()
            if event == wanted and predicate(data):
                return data


async def _post(client: TestClient[Any, Any], path: str, body: dict[str, Any]) -> Any:
    response = await client.post(path, json=body)
    return response.status, await response.json()


async def test_the_world_and_the_hints_come_from_the_synced_commands(
    site: tuple[TestClient[Any, Any], World],
) -> None:
    client, _ = site
    data = await (await client.get("/api/world")).json()

    assert [(c["name"], c["voice"]) for c in data["channels"]] == [
        ("general", False), ("card-table", False), ("back-room", False), ("Lounge", True),
        ("Anna, Bo, Cem (group DM)", False)]
    assert data["client_origin"] == "http://localhost:3333"
    assert [(u["name"], u["moderator"]) for u in data["users"]] == [
        ("Anna", False), ("Bo", False), ("Cem", False), ("Dana", True),
    ]
    assert "dubb start computers:1" in data["hints"]["start"]
    assert "tonk table" in data["hints"]["table"]


async def test_a_command_reaches_the_bot_and_each_user_sees_only_their_own_answers(
    site: tuple[TestClient[Any, Any], World], driver: Driver,
) -> None:
    client, world = site
    anna, bo = world.users[0], world.users[1]
    channel = world.channels[0]
    query = f"channel={channel.id}"
    anna_stream = Stream(await client.get(f"/api/events?as={anna.id}&{query}"))
    bo_stream = Stream(await client.get(f"/api/events?as={bo.id}&{query}"))
    assert await anna_stream.next() == ("reset", {"messages": []})
    assert await bo_stream.next() == ("reset", {"messages": []})

    status, answer = await _post(client, "/api/command", {
        "as": str(anna.id), "channel": str(channel.id), "text": "/dubb start computers:1",
    })
    assert (status, answer) == (200, {"ok": True})

    # the lobby is the command's own answer, which everyone sees with Anna's command above it
    lobby = await bo_stream.until("message", lambda m: is_layout(m["components"]))
    assert not lobby["ephemeral"] and "Astrid" in json.dumps(lobby["components"])
    assert lobby["interaction"] == {"user": "Anna", "command": "dubb start"}
    join = next(c for c in _walk(lobby["components"]) if c.get("label") == "Join")
    status, answer = await _post(client, "/api/click", {
        "as": str(anna.id), "message": lobby["id"], "custom_id": join["custom_id"],
    })
    assert status == 200  # Anna sits there already: the bot tells her privately
    private = await anna_stream.until("message", lambda m: m["ephemeral"])
    assert private["interaction"]["user"] == "Anna"
    start = next(c for c in _walk(lobby["components"]) if c.get("label") == "Start")

    status, answer = await _post(client, "/api/click", {
        "as": str(bo.id), "message": lobby["id"], "custom_id": start["custom_id"],
    })
    assert status == 200  # Bo may press it; the bot tells him privately that he is no host
    refusal = await bo_stream.until("message", lambda m: m["ephemeral"])
    assert "host" in refusal["content"].lower()
    log = [e for e in driver.log if e.channel_id == channel.id and e.audience is not None]
    assert {e.audience for e in log} == {anna.id, bo.id}


async def test_the_group_dm_plays_where_the_bot_is_not_a_member(
    site: tuple[TestClient[Any, Any], World], fake: FakeDiscord,
) -> None:
    client, world = site
    anna, bo = world.users[0], world.users[1]
    group = world.channels[-1]
    bo_stream = Stream(await client.get(f"/api/events?as={bo.id}&channel={group.id}"))
    assert await bo_stream.next() == ("reset", {"messages": []})

    status, answer = await _post(client, "/api/command", {
        "as": str(anna.id), "channel": str(group.id), "text": "/dubb start computers:1",
    })

    assert (status, answer) == (200, {"ok": True})
    lobby = await bo_stream.until("message", lambda m: is_layout(m["components"]))
    assert not lobby["ephemeral"] and "Astrid" in json.dumps(lobby["components"])
    # the lobby came through Anna's interaction: the bot's token never wrote there
    assert not [c for c in fake.rest_calls if c.path.startswith(f"/channels/{group.id}")]


async def test_suggestions_ask_the_bot_for_autocomplete_choices(
    site: tuple[TestClient[Any, Any], World], driver: Driver,
) -> None:
    client, world = site
    anna, channel = world.users[0], world.channels[1]
    status, found = await _post(client, "/api/suggest", {
        "as": str(anna.id), "channel": str(channel.id), "text": "/dubb s",
    })
    assert status == 200 and found["mode"] == "commands"
    assert {"/dubb start", "/dubb stats", "/dubb stop"} <= {i["label"] for i in found["items"]}

    await driver.slash(anna, channel, "dubb start", {"computers": 1})
    lobby = await driver.wait_for_message(channel, lambda m: bool(m.buttons()))
    await driver.click(anna, lobby, "Start")
    await driver.wait_for_message(
        channel, lambda m: "in play" in title(m)
    )
    status, found = await _post(client, "/api/suggest", {
        "as": str(anna.id), "channel": str(channel.id), "text": "/dubb play cards:",
    })
    assert status == 200 and found["mode"] == "values"
    interactions = [r for r in driver.interactions() if r.type == 4]
    assert interactions and interactions[-1].user.id == anna.id
    assert [i["text"] for i in found["items"]] == [
        f"/dubb play cards:{c['value']} " for c in interactions[-1].choices or []
    ]


async def test_what_discord_would_refuse_is_explained(
    site: tuple[TestClient[Any, Any], World],
) -> None:
    client, world = site
    anna, channel = str(world.users[0].id), str(world.channels[0].id)

    status, answer = await _post(client, "/api/command", {
        "as": anna, "channel": channel, "text": "/dubb start computers:lots",
    })
    assert status == 400 and "whole number" in answer["error"]
    status, answer = await _post(client, "/api/command", {
        "as": anna, "channel": channel, "text": "/dubb start computers:9",
    })
    assert status == 400 and "within 0..5" in answer["error"]
    status, answer = await _post(client, "/api/click", {
        "as": anna, "message": "1", "custom_id": "x",
    })
    assert status == 400 and "no message" in answer["error"]
    status, answer = await _post(client, "/api/say", {"as": "1", "channel": channel,
                                                      "text": "hi"})
    assert status == 400 and answer["error"] == "no such user"
    form = await client.post("/api/say", data={"as": anna, "channel": channel, "text": "hi"})
    assert form.status == 400


async def test_a_file_is_served_only_to_those_who_can_see_its_message(
    site: tuple[TestClient[Any, Any], World], fake: FakeDiscord,
) -> None:
    client, world = site
    anna, bo = world.users[0], world.users[1]
    private = fake.create_message(
        world.channels[0], fake.bot_user,
        {"content": "your cards", "attachments": [{"id": 0, "filename": "hand.png"}]},
        files=[Upload(0, "hand.png", "image/png", PNG)], ephemeral_for=anna.id,
    )
    attachment = private.attachments[0]
    path = f"/files/{private.id}/{attachment.id}/hand.png"

    mine = await client.get(f"{path}?as={anna.id}")
    assert mine.status == 200 and await mine.read() == PNG
    assert mine.content_type == "image/png"
    assert (await client.get(f"{path}?as={bo.id}")).status == 404
    assert (await client.get(path)).status == 404


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component at any depth: a layout's buttons are in rows inside its container."""
    out = []
    for component in components:
        out.append(component)
        out += _walk(component.get("components") or [])
    return out

