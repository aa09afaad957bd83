"""Application emojis: the five routes with Discord's payloads and validation, their use in
message content and components, and that they outlive the bot."""

from __future__ import annotations

import base64
from typing import Any

import aiohttp
import discord
import pytest

from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.emojis import MAX_APPLICATION_EMOJIS
from tests.e2e.conftest import TEST_TOKEN, BareClients, World

pytestmark = pytest.mark.e2e

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
GIF = b"GIF89a" + b"\x00" * 64


def data_uri(kind: str, data: bytes) -> str:
    return f"data:{kind};base64,{base64.b64encode(data).decode()}"


async def call(fake: FakeDiscord, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {TEST_TOKEN}"}
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, fake.api_base + path, json=body, headers=headers) as response,
    ):
        return response.status, (await response.json() if response.status != 204 else None)


async def test_discord_py_manages_application_emojis_and_they_outlive_the_bot(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    client, _ = await bare_clients.start()

    spade = await client.create_application_emoji(name="spade", image=PNG)
    joker = await client.create_application_emoji(name="joker", image=GIF)
    await spade.edit(name="spades")
    await joker.delete()
    await client.close()
    restarted, _ = await bare_clients.start(sync=False)
    listed = await restarted.fetch_application_emojis()
    fetched = await restarted.fetch_application_emoji(spade.id)

    assert joker.animated and not spade.animated
    assert [(e.id, e.name) for e in listed] == [(spade.id, "spades")]
    assert fetched.name == "spades" and fetched.user is not None
    assert fetched.user.id == fake.bot_user.id
    status, raw = await call(fake, "GET", f"/applications/{fake.application.id}/emojis")
    assert status == 200 and list(raw) == ["items"]
    assert raw["items"][0] == {
        "id": str(spade.id),
        "name": "spades",
        "roles": [],
        "user": fake.bot_user.payload(),
        "require_colons": True,
        "managed": False,
        "animated": False,
        "available": True,
    }


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"name": "x", "image": data_uri("image/png", PNG)}, "name", "BASE_TYPE_BAD_LENGTH"),
        ({"name": "x" * 33, "image": data_uri("image/png", PNG)}, "name", "BASE_TYPE_BAD_LENGTH"),
        ({"name": "bad-name", "image": data_uri("image/png", PNG)}, "name", "STRING_TYPE_REGEX"),
        (
            {"name": "taken", "image": data_uri("image/png", PNG)},
            "name",
            "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
        ),
        ({"name": "gif_as_png", "image": data_uri("image/png", GIF)}, "image", "IMAGE_INVALID"),
        ({"name": "bmp", "image": data_uri("image/bmp", b"BM" + PNG)}, "image", "IMAGE_INVALID"),
        ({"name": "no_image"}, "image", "BASE_TYPE_REQUIRED"),
    ],
)
async def test_invalid_emojis_are_refused_with_discords_errors(
    fake: FakeDiscord, driver: Driver, body: dict[str, Any], field: str, code: str
) -> None:
    driver.allow_rest_errors()
    path = f"/applications/{fake.application.id}/emojis"
    await call(fake, "POST", path, {"name": "taken", "image": data_uri("image/png", PNG)})

    status, error = await call(fake, "POST", path, body)

    assert (status, error["code"]) == (400, 50035)
    assert error["errors"][field]["_errors"][0]["code"] == code
    assert len(fake.emojis.by_id) == 1


async def test_size_and_count_limits(fake: FakeDiscord, driver: Driver) -> None:
    driver.allow_rest_errors()
    path = f"/applications/{fake.application.id}/emojis"
    big = PNG + b"\x00" * (256 * 1024)

    too_big = await call(fake, "POST", path, {"name": "big", "image": data_uri("image/png", big)})
    for n in range(MAX_APPLICATION_EMOJIS):
        fake.emojis.create({"name": f"e{n}", "image": data_uri("image/png", PNG)})
    extra = {"name": "extra", "image": data_uri("image/png", PNG)}
    one_more = await call(fake, "POST", path, extra)
    unknown = await call(fake, "GET", f"{path}/1234567890123456789")

    assert too_big[0] == 400 and too_big[1]["code"] == 0
    assert one_more == (400, {"message": "Maximum number of emojis reached", "code": 30008})
    assert unknown == (404, {"message": "Unknown Emoji", "code": 10014})


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


async def test_components_may_use_only_the_applications_emojis(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.allow_rest_errors()
    own = fake.emojis.create({"name": "spade", "image": data_uri("image/png", PNG)})
    path = f"/channels/{world.channel.id}/messages"
    good = {"id": str(own.id), "name": "spade"}
    unknown = {"id": "1234567890123456789", "name": "spade"}

    def button(emoji: dict[str, Any]) -> dict[str, Any]:
        return {"type": 2, "style": 1, "custom_id": "b", "emoji": emoji}

    def select(emoji: dict[str, Any]) -> dict[str, Any]:
        option = {"label": "Spades", "value": "s", "emoji": emoji}
        return {"type": 3, "custom_id": "s", "options": [option]}

    accepted = [
        await call(fake, "POST", path, {"components": [row(button(e))]})
        for e in (good, {"name": "♠"})
    ]
    bad_button = await call(fake, "POST", path, {"components": [row(button(unknown))]})
    bad_option = await call(fake, "POST", path, {"components": [row(select({"name": "spade"}))]})

    assert [status for status, _ in accepted] == [200, 200]
    node = bad_button[1]["errors"]["components"]["0"]["components"]["0"]["emoji"]["id"]
    invalid = {"code": "BUTTON_COMPONENT_INVALID_EMOJI", "message": "Invalid emoji"}
    assert node["_errors"] == [invalid]
    option = bad_option[1]["errors"]["components"]["0"]["components"]["0"]["options"]["0"]
    assert option["emoji"]["name"]["_errors"][0]["code"] == "BUTTON_COMPONENT_INVALID_EMOJI"
    assert len(driver.channel_messages(world.channel)) == 2


async def test_an_unknown_emoji_in_content_is_sent_but_fails_the_test(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    own = fake.emojis.create({"name": "spade", "image": data_uri("image/png", PNG)})
    path = f"/channels/{world.channel.id}/messages"

    known = await call(fake, "POST", path, {"content": f"<:spade:{own.id}> leads"})
    unknown = await call(fake, "POST", path, {"content": "<a:heart:1234567890123456789> leads"})

    assert (known[0], unknown[0]) == (200, 200)
    assert [(m.name, m.emoji_id) for m in fake.unknown_emojis] == [("heart", 1234567890123456789)]
    assert any("readers see :heart:" in p for p in Driver(fake).problems())
    driver.allow_unknown_emojis()


async def test_a_bot_button_with_its_own_emoji(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    client, _ = await bare_clients.start()
    spade = await client.create_application_emoji(name="spade", image=PNG)
    channel = client.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(emoji=spade, custom_id="play"))

    await channel.send(f"{spade} to play", view=view)

    message = driver.channel_messages(world.channel)[0]
    assert message.buttons()[0]["emoji"]["id"] == str(spade.id)
    assert fake.unknown_emojis == []
