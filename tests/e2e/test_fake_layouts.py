"""The fake's Components V2 (``IS_COMPONENTS_V2``, 1 << 15) as Discord's Component Reference
documents it: where each layout and content component may stand, media and alt text, unique
component ids, 40 components and 4,000 characters of text in a message, the legacy fields the
flag shuts out, the flag kept on every edit, ``attachment://`` only for files the message
carries, and a channel webhook's layout heard only with ``with_components=true``."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.fakediscord import Driver, FakeDiscord
from tests.e2e.conftest import TEST_TOKEN, BareClients, World

pytestmark = pytest.mark.e2e

V2 = 1 << 15
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
PICTURE = "https://example.com/table.png"


async def call(
    fake: FakeDiscord, method: str, path: str, body: Any = None, *, bot: bool = True
) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {TEST_TOKEN}"} if bot else {}
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, fake.api_base + path, json=body, headers=headers) as response,
    ):
        return response.status, (await response.json() if response.status != 204 else None)


def text(content: str, **extra: Any) -> dict[str, Any]:
    return {"type": 10, "content": content, **extra}


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Draw", "custom_id": custom_id}


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def section(*texts: dict[str, Any], accessory: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": 9, "components": list(texts), "accessory": accessory or button("s")}


def gallery(count: int, url: str = PICTURE, description: str = "The table") -> dict[str, Any]:
    item = {"media": {"url": url}, "description": description}
    return {"type": 12, "items": [item] * count}


def container(*children: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": 17, "components": list(children), **extra}


def layout(*components: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"flags": V2, "components": list(components), **extra}


def first_error(error: dict[str, Any], path: list[str]) -> str:
    node = error["errors"]
    for part in path:
        node = node[part]
    code: str = node["_errors"][0]["code"]
    return code


async def test_a_documented_layout_is_taken_numbered_and_sent_back_as_written(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    body = layout(
        container(
            text("## Dubb · 2 decks"),
            section(
                text("**Anna** · 7 cards"),
                text("to move"),
                accessory={"type": 11, "media": {"url": PICTURE}, "description": "Anna"},
            ),
            {"type": 14, "divider": True, "spacing": 2},
            gallery(1),
            row(button("draw"), button("pass")),
            accent_color=0x2E7D32,
            id=7,
        )
    )

    status, sent = await call(fake, "POST", f"/channels/{world.channel.id}/messages", body)

    assert status == 200, sent
    assert sent["flags"] & V2 and sent["content"] == "" and sent["embeds"] == []
    top = sent["components"][0]
    assert (top["type"], top["id"], top["accent_color"]) == (17, 7, 0x2E7D32)
    ids = [top["id"], *(c["id"] for c in top["components"])]
    assert len(set(ids)) == len(ids) and 7 in ids  # numbered around the id given
    assert top["components"][3]["items"][0]["description"] == "The table"


async def test_a_layout_at_every_limit_is_taken(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    # 40 components: the container, 10 sections of 3 (itself, a text, a button), 8 texts and
    # the gallery; 4,000 characters: 10 * 100 + 8 * 375
    sections = [section(text("x" * 100), accessory=button(f"b{i}")) for i in range(10)]
    texts = [text("y" * 375) for _ in range(8)]
    body = layout(container(*sections, *texts), gallery(10))

    status, sent = await call(fake, "POST", f"/channels/{world.channel.id}/messages", body)

    assert status == 200, sent
    assert len(sent["components"][1]["items"]) == 10


LEGACY_ROW = [row(button("a"))]


@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        (layout(text("hi"), content="hi"), ["content"], "MESSAGE_CANNOT_USE_LEGACY_FIELDS"),
        (
            layout(text("hi"), embeds=[{"title": "t"}]),
            ["embeds"],
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS",
        ),
        (layout(text("hi"), sticker_ids=["1"]), ["sticker_ids"], "MESSAGE_CANNOT_USE_LEGACY"),
        ({"components": [text("hi")]}, ["components", "0", "type"], "UNION_TYPE_CHOICES"),
        (layout({"type": 15}), ["components", "0", "type"], "UNION_TYPE_CHOICES"),
        (
            layout({"type": 11, "media": {"url": PICTURE}}),
            ["components", "0", "type"],
            "UNION_TYPE_CHOICES",
        ),
        (
            layout(row(text("in a row"))),
            ["components", "0", "components", "0", "type"],
            "UNION_TYPE_CHOICES",
        ),
        (
            layout(section(text("a"), text("b"), text("c"), text("d"))),
            ["components", "0", "components"],
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            layout(section({"type": 14})),
            ["components", "0", "components", "0", "type"],
            "UNION_TYPE_CHOICES",
        ),
        (
            layout(section(text("a"), accessory=gallery(1))),
            ["components", "0", "accessory", "type"],
            "UNION_TYPE_CHOICES",
        ),
        (
            layout(container(container(text("deep")))),
            ["components", "0", "components", "0", "type"],
            "UNION_TYPE_CHOICES",
        ),
        (layout(container()), ["components", "0", "components"], "BASE_TYPE_MIN_LENGTH"),
        (
            layout(container(text("a"), accent_color=0x1000000)),
            ["components", "0", "accent_color"],
            "NUMBER_TYPE_MAX",
        ),
        (layout(gallery(11)), ["components", "0", "items"], "BASE_TYPE_BAD_LENGTH"),
        (layout(gallery(0)), ["components", "0", "items"], "BASE_TYPE_BAD_LENGTH"),
        (
            layout(gallery(1, description="a" * 1025)),
            ["components", "0", "items", "0", "description"],
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            layout({"type": 12, "items": [{"media": {}}]}),
            ["components", "0", "items", "0", "media", "url"],
            "BASE_TYPE_REQUIRED",
        ),
        (
            layout({"type": 13, "file": {"url": PICTURE}}),
            ["components", "0", "file", "url"],
            "UNFURLED_MEDIA_ITEM_ATTACHMENT_ONLY",
        ),
        (
            layout({"type": 14, "spacing": 3}),
            ["components", "0", "spacing"],
            "BASE_TYPE_CHOICES",
        ),
        (
            layout(text("a", id=3), container(text("b", id=3))),
            ["components", "1", "components", "0", "id"],
            "COMPONENT_ID_DUPLICATED",
        ),
        (
            layout(text("a" * 2000), container(text("b" * 2001))),
            ["components"],
            "COMPONENT_TEXT_DISPLAY_TOTAL_LENGTH_EXCEEDED",
        ),
        (
            layout(container(*(text("x") for _ in range(40)))),
            ["components"],
            "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
        ),
        (
            layout(gallery(1, url="attachment://table.png")),
            ["components", "0", "items", "0", "media", "url"],
            "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
        ),
    ],
)
async def test_a_layout_against_the_rules_is_refused_and_nothing_is_written(
    fake: FakeDiscord,
    driver: Driver,
    world: World,
    body: dict[str, Any],
    path: list[str],
    code: str,
) -> None:
    driver.allow_rest_errors()
    driver.allow_contract_breaches()  # some of these break the description as well

    status, error = await call(fake, "POST", f"/channels/{world.channel.id}/messages", body)

    assert (status, error["code"]) == (400, 50035), error
    assert first_error(error, path).startswith(code)
    assert fake.channel_messages(world.channel.id) == []


async def test_the_flag_stays_on_every_edit_and_legacy_fields_stay_out(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.allow_rest_errors()
    messages = f"/channels/{world.channel.id}/messages"
    _, sent = await call(fake, "POST", messages, layout(text("lobby")))

    cleared = await call(
        fake, "PATCH", f"{messages}/{sent['id']}", {"flags": 0, "components": [text("playing")]}
    )
    legacy = await call(fake, "PATCH", f"{messages}/{sent['id']}", {"content": "old style"})

    assert cleared[0] == 200 and cleared[1]["flags"] & V2
    assert cleared[1]["components"][0]["content"] == "playing"
    assert legacy[0] == 400
    assert first_error(legacy[1], ["content"]) == (
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"
    )


async def test_an_old_message_turns_v2_only_with_its_content_and_embeds_emptied(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.allow_rest_errors()
    messages = f"/channels/{world.channel.id}/messages"
    _, old = await call(fake, "POST", messages, {"content": "table", "embeds": [{"title": "Dubb"}]})
    where = f"{messages}/{old['id']}"

    kept = await call(fake, "PATCH", where, {"flags": V2, "components": [text("new")]})
    turned = await call(
        fake,
        "PATCH",
        where,
        {"flags": V2, "content": None, "embeds": [], "components": [text("new")]},
    )

    assert kept[0] == 400
    assert first_error(kept[1], ["content"]).startswith("MESSAGE_CANNOT_USE_LEGACY")
    assert first_error(kept[1], ["embeds"]).startswith("MESSAGE_CANNOT_USE_LEGACY")
    assert turned[0] == 200 and turned[1]["flags"] & V2
    assert (turned[1]["content"], turned[1]["embeds"]) == ("", [])


async def test_discord_py_layout_views_with_their_picture_are_taken(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    def setup(tree: app_commands.CommandTree) -> None:
        @tree.command(name="table", description="Show the table")
        async def table(interaction: discord.Interaction) -> None:
            view = discord.ui.LayoutView()
            view.add_item(
                discord.ui.Container(
                    discord.ui.TextDisplay("## Dubb"),
                    discord.ui.MediaGallery(
                        discord.MediaGalleryItem(
                            "attachment://table.png", description="Two players, 7 cards each"
                        )
                    ),
                    discord.ui.ActionRow(discord.ui.Button(label="Join", custom_id="join")),
                    accent_colour=discord.Colour.green(),
                )
            )
            picture = discord.File(io.BytesIO(PNG), "table.png")
            await interaction.response.send_message(view=view, file=picture)

    await bare_clients.start(setup)

    result = await driver.slash(world.anna, world.channel, "table")

    message = result.message
    assert message is not None and message.flags & V2
    picture = message.attachments[0]
    item = message.components[0]["components"][1]["items"][0]
    assert item["media"]["url"] == picture.url  # the reference became the file's address
    assert item["description"] == "Two players, 7 cards each"


async def test_a_channel_webhooks_layout_needs_with_components(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.allow_rest_errors()
    driver.set_bot_webhooks(world.channel, True)
    status, hook = await call(
        fake, "POST", f"/channels/{world.channel.id}/webhooks", {"name": "kortbord"}
    )
    assert status == 200, hook
    base = f"/webhooks/{hook['id']}/{hook['token']}"

    unheard = await call(fake, "POST", f"{base}?wait=true", layout(text("t")), bot=False)
    heard = await call(
        fake, "POST", f"{base}?wait=true&with_components=true", layout(text("t")), bot=False
    )
    where = f"{base}/messages/{heard[1]['id']}"
    edit_unheard = await call(fake, "PATCH", where, {"components": [text("u")]}, bot=False)
    edit_heard = await call(
        fake, "PATCH", f"{where}?with_components=true", {"components": [text("u")]}, bot=False
    )

    assert (unheard[0], unheard[1]["code"]) == (400, 50006)  # its components ignored: empty
    assert heard[0] == 200 and heard[1]["flags"] & V2
    assert edit_unheard[1]["components"][0]["content"] == "t"
    assert edit_heard[1]["components"][0]["content"] == "u"


async def test_a_layouts_text_pings_and_its_alt_text_is_read_like_any_text(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.allow_unknown_emojis()
    messages = f"/channels/{world.channel.id}/messages"
    body = layout(
        container(
            text(f"{world.anna.mention} to move <:nine:1234567890123456789>"),
            gallery(1, description="9♥"),
        ),
        allowed_mentions={"users": [str(world.anna.id)]},
    )

    status, sent = await call(fake, "POST", messages, body)
    await call(fake, "PATCH", f"{messages}/{sent['id']}", {"components": [text(world.bo.mention)]})

    assert status == 200
    assert [p.user_id for p in driver.pings()] == [world.anna.id]  # an edit notifies nobody
    stored = fake.messages[int(sent["id"])]
    assert [m.id for m in stored.mentions] == [world.bo.id]  # read again from the new text
    assert [(u.name, u.emoji_id) for u in fake.unknown_emojis] == [("nine", 1234567890123456789)]
    assert "9♥" in driver.log[0].text  # leak scans see alt text


async def test_a_defer_takes_no_layout_flag_and_the_follow_up_brings_the_layout(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    driver.allow_rest_errors()
    refused: list[tuple[int, Any]] = []

    def setup(tree: app_commands.CommandTree) -> None:
        @tree.command(name="think", description="Think, then show")
        async def think(interaction: discord.Interaction) -> None:
            where = f"/interactions/{interaction.id}/{interaction.token}/callback"
            refused.append(await call(fake, "POST", where, {"type": 5, "data": {"flags": V2}}))
            await interaction.response.defer(thinking=True)
            view = discord.ui.LayoutView()
            view.add_item(discord.ui.TextDisplay("## Tonk — hand 2"))
            await interaction.followup.send(view=view)

    await bare_clients.start(setup)
    result = await driver.slash(world.anna, world.channel, "think")

    assert refused[0][0] == 400
    assert first_error(refused[0][1], ["data", "flags"]) == "INTERACTION_DEFERRED_FLAGS_INVALID"
    assert result.message is not None
    shown = fake.messages[result.message.id]
    assert shown.flags & V2 and shown.components[0]["content"] == "## Tonk — hand 2"


async def test_an_edit_that_keeps_the_picture_may_show_it_and_one_that_drops_it_may_not(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    """Edit Message: without ``attachments`` the message keeps its files; with it, exactly the
    files listed (by id) stay. A layout's ``attachment://name`` names a file the message carries
    once edited — a kept one too. A file a layout shows is left out of the message's
    ``attachments``: its media comes back as the file's address with its ``attachment_id``,
    the id an edit lists to keep it. A file the edit took away is
    UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND."""
    driver.allow_rest_errors()
    answers: list[tuple[str, int]] = []
    edited = asyncio.Event()

    def shown(words: str) -> list[dict[str, Any]]:
        return [container(text(words), gallery(1, "attachment://hand.png", "7♥ 8♥"))]

    def setup(tree: app_commands.CommandTree) -> None:
        @tree.command(name="hand", description="Show the hand")
        async def hand(interaction: discord.Interaction) -> None:
            first = discord.ui.LayoutView()
            first.add_item(discord.ui.TextDisplay("yours"))
            first.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(
                "attachment://hand.png", description="7♥ 8♥")))
            await interaction.response.send_message(
                view=first, file=discord.File(io.BytesIO(PNG), "hand.png"), ephemeral=True)
            where = f"/webhooks/{interaction.application_id}/{interaction.token}/messages/@original"
            _, sent = await call(fake, "GET", where, bot=False)
            file_id = sent["components"][1]["items"][0]["media"]["attachment_id"]
            for words, fields in (("kept", {}), ("listed", {"attachments": [{"id": file_id}]}),
                                  ("dropped", {"attachments": []})):
                status, _ = await call(fake, "PATCH", where,
                                       {"components": shown(words), **fields}, bot=False)
                answers.append((words, status))
            edited.set()

    await bare_clients.start(setup)
    result = await driver.slash(world.anna, world.channel, "hand")
    await asyncio.wait_for(edited.wait(), 10)

    assert answers == [("kept", 200), ("listed", 200), ("dropped", 400)]
    message = result.message
    assert message is not None and message.shown == "listed"
    [picture] = message.attachments
    media = message.components[0]["components"][1]["items"][0]["media"]
    assert (media["url"], media["attachment_id"]) == (picture.url, str(picture.id))
