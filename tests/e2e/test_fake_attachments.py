"""Attachments on every route a bot uses: multipart ``payload_json`` + ``files[n]``, the
``attachments`` array on create and edit, ``attachment://`` in embeds, limits, download."""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.fakediscord import Driver, FakeDiscord, StoredMessage
from bot.fakediscord.attachments import Attachment, resolve_references
from bot.fakediscord.jsonvalue import copy_json
from tests.e2e.conftest import TEST_TOKEN, BareClients, World

pytestmark = pytest.mark.e2e

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


def file(name: str, data: bytes = PNG, description: str | None = None) -> discord.File:
    return discord.File(io.BytesIO(data), name, description=description)


async def download(url: str) -> tuple[int, bytes, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.read(), response.content_type


async def test_files_with_alt_text_and_an_embed_image_from_an_attachment(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    def setup(tree: app_commands.CommandTree) -> None:
        @tree.command(name="show", description="Show a card")
        async def show(interaction: discord.Interaction) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            embed = discord.Embed(title="Your card").set_image(url="attachment://card.png")
            await interaction.channel.send(
                "table",
                embed=embed,
                files=[
                    file("card.png", description="Seven of hearts"),
                    file("log.txt", b"moves", "The move log"),
                ],
            )
            await interaction.response.send_message("shown", ephemeral=True)

    await bare_clients.start(setup)
    await driver.slash(world.anna, world.channel, "show")

    message = driver.channel_messages(world.channel)[0]
    card, log = message.attachments
    payload = message.payload()
    assert [(a.filename, a.description, a.content_type) for a in (card, log)] == [
        ("card.png", "Seven of hearts", "image/png"),
        ("log.txt", "The move log", "text/plain; charset=utf-8"),
    ]
    # a file used by the embed is shown there, not listed among the attachments (#4809)
    assert message.embeds[0]["image"]["url"] == card.url
    assert [a["filename"] for a in payload["attachments"]] == ["log.txt"]
    assert (card.size, log.data) == (len(PNG), b"moves")
    assert await download(card.url) == (200, PNG, "image/png")
    assert "Seven of hearts" in message.text and "The move log" in driver.log[0].text


def editing(tree: app_commands.CommandTree, seen: dict[str, Any]) -> None:
    @tree.command(name="edits", description="Edit a message's files")
    async def edits(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        sent = await interaction.channel.send("v1", files=[file("a.png"), file("b.png")])
        seen["v1"] = [a.filename for a in sent.attachments]
        sent = await sent.edit(content="v2")
        seen["v2"] = [a.filename for a in sent.attachments]
        sent = await sent.edit(attachments=[sent.attachments[1], file("c.png", description="C")])
        seen["v3"] = [(a.filename, a.description) for a in sent.attachments]
        sent = await sent.edit(attachments=[])
        seen["v4"] = [a.filename for a in sent.attachments]
        await interaction.response.send_message("done", ephemeral=True)


async def test_an_edit_keeps_lists_or_drops_files_by_the_attachments_array(
    driver: Driver, world: World, bare_clients: BareClients
) -> None:
    seen: dict[str, Any] = {}
    await bare_clients.start(lambda tree: editing(tree, seen))

    await driver.slash(world.anna, world.channel, "edits")

    assert seen == {
        "v1": ["a.png", "b.png"],
        "v2": ["a.png", "b.png"],
        "v3": [("b.png", None), ("c.png", "C")],
        "v4": [],
    }
    versions = [
        [a.filename for a in entry.attachments] for entry in driver.log if entry.audience is None
    ]
    assert versions == [["a.png", "b.png"], ["a.png", "b.png"], ["b.png", "c.png"], []]


class Deck(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Redeal", custom_id="deck:redeal")
    async def redeal(self, interaction: discord.Interaction, _: discord.ui.Button[Deck]) -> None:
        await interaction.response.edit_message(
            content="redealt", attachments=[file("new.png", description="New hand")], view=self
        )


def interaction_files(tree: app_commands.CommandTree) -> None:
    @tree.command(name="deal", description="Files in every kind of interaction answer")
    async def deal(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "hand", file=file("hand.png", description="Your hand"), view=Deck()
        )
        await interaction.followup.send(
            "more", file=file("more.png", description="Extra"), ephemeral=True
        )
        await interaction.edit_original_response(
            attachments=[file("hand2.png", description="Hand, later")]
        )

    tree.client.add_view(Deck())  # type: ignore[attr-defined]


async def test_callbacks_follow_ups_and_original_edits_carry_files(
    driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(interaction_files)

    dealt = await driver.slash(world.anna, world.channel, "deal")
    followups = await dealt.wait_followups(1)
    original = dealt.message
    assert original is not None
    await driver.wait_for(lambda: original.attachments[0].filename == "hand2.png")
    redealt = await driver.click(world.bo, original, "Redeal")

    def described(message: StoredMessage) -> list[tuple[str, str | None]]:
        return [(a.filename, a.description) for a in message.attachments]

    assert described(followups[0]) == [("more.png", "Extra")]
    assert followups[0].attachments[0].ephemeral
    assert redealt.type == 7 and described(original) == [("new.png", "New hand")]
    texts = [entry.text for entry in driver.log]
    assert any("Your hand" in t for t in texts) and any("Hand, later" in t for t in texts)


async def post_files(
    fake: FakeDiscord,
    path: str,
    payload: dict[str, Any],
    files: dict[str, tuple[str, bytes]],
    *,
    method: str = "POST",
) -> tuple[int, Any]:
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for field, (name, data) in files.items():
        form.add_field(field, io.BytesIO(data), filename=name, content_type="image/png")
    async with (
        aiohttp.ClientSession() as http,
        http.request(
            method,
            fake.api_base + path,
            data=form,
            headers={"Authorization": f"Bot {TEST_TOKEN}"},
        ) as response,
    ):
        return response.status, await response.json()


async def test_placeholders_match_the_n_of_files_n(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    status, message = await post_files(
        fake,
        f"/channels/{world.channel.id}/messages",
        {"attachments": [{"id": 7, "description": "seventh"}, {"id": 2, "filename": "two.png"}]},
        {"files[2]": ("x.png", b"2"), "files[7]": ("y.png", b"7")},
    )

    assert status == 200
    assert [(a["filename"], a.get("description")) for a in message["attachments"]] == [
        ("y.png", "seventh"),
        ("two.png", None),
    ]


async def test_an_edit_with_new_files_and_no_array_replaces_them_as_in_api_v10(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    path = f"/channels/{world.channel.id}/messages"
    _, created = await post_files(fake, path, {"content": "x"}, {"files[0]": ("old.png", PNG)})

    status, edited = await post_files(
        fake, f"{path}/{created['id']}", {}, {"files[0]": ("new.png", PNG)}, method="PATCH"
    )

    assert status == 200
    assert [a["filename"] for a in edited["attachments"]] == ["new.png"]


@pytest.mark.parametrize(
    ("payload", "files", "status", "expected"),
    [
        (
            {},
            {f"files[{n}]": (f"{n}.png", b"x") for n in range(11)},
            400,
            {"code": 30015, "message": "Maximum number of attachments in a message reached (10)"},
        ),
        (
            {},
            {"files[0]": ("big.png", b"x" * (10 * 1024 * 1024 + 1))},
            413,
            {"code": 40005, "message": "Request entity too large"},
        ),
        (
            {"attachments": [{"id": 0, "description": "d" * 1025}]},
            {"files[0]": ("a.png", b"x")},
            400,
            ("attachments", "0", "description", "BASE_TYPE_MAX_LENGTH"),
        ),
        (
            {"content": "x", "attachments": [{"id": 3}]},
            {"files[0]": ("a.png", b"x")},
            400,
            ("attachments", "0", "ATTACHMENT_NOT_FOUND"),
        ),
    ],
    ids=["eleven-files", "over-10-MiB", "long-alt-text", "missing-file"],
)
async def test_attachment_limits(
    fake: FakeDiscord,
    driver: Driver,
    world: World,
    payload: dict[str, Any],
    files: dict[str, tuple[str, bytes]],
    status: int,
    expected: Any,
) -> None:
    driver.allow_rest_errors()

    got, error = await post_files(fake, f"/channels/{world.channel.id}/messages", payload, files)

    assert got == status
    if isinstance(expected, dict):
        assert error == expected
    else:
        *path, code = expected
        node = error["errors"]
        for part in path:
            node = node[part]
        assert (error["code"], node["_errors"][0]["code"]) == (50035, code)
    assert driver.channel_messages(world.channel) == []
    assert fake.attachments == {}


def test_references_resolve_in_copies_and_what_they_were_given_stays_as_it_was() -> None:
    cards = Attachment(1, "cards.png", "image/png", b"", "http://fake/1/cards.png")
    notes = Attachment(2, "notes.txt", "text/plain", b"", "http://fake/2/notes.txt")
    embeds = [
        {
            "title": "Table",
            "image": {"url": "attachment://cards.png"},
            "thumbnail": {"url": "attachment://notes.txt"},  # not an image: stays
            "footer": {"text": "f", "icon_url": "attachment://cards.png"},
            "fields": [{"name": "a", "value": "b"}],
        }
    ]
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Draw", "custom_id": "d"}]}
    section = {
        "type": 9,
        "components": [{"type": 10, "content": "hi"}],
        "accessory": {"type": 11, "media": {"url": "attachment://cards.png"}},
    }
    gallery = {"type": 12, "items": [{"media": {"url": "attachment://notes.txt"}}]}
    missing = {"type": 13, "file": {"url": "attachment://missing.txt"}}
    components = [row, section, gallery, missing]
    given = copy.deepcopy((embeds, components))

    new_embeds, new_components = resolve_references(embeds, components, [cards, notes])

    assert (embeds, components) == given
    assert new_embeds == [
        {
            "title": "Table",
            "image": {"url": cards.url, "proxy_url": cards.url},
            "thumbnail": {"url": "attachment://notes.txt"},
            "footer": {"text": "f", "icon_url": cards.url},
            "fields": [{"name": "a", "value": "b"}],
        }
    ]
    assert list(new_embeds[0]) == list(embeds[0])  # keys stay in their order
    # a component's media names its file (Unfurled Media Item's attachment_id)
    assert new_components[1]["accessory"]["media"] == {
        "url": cards.url, "proxy_url": cards.url, "attachment_id": "1"}
    assert new_components[2]["items"] == [
        {"media": {"url": notes.url, "proxy_url": notes.url, "attachment_id": "2"}}]
    # what did not change is shared, not copied
    assert new_components[0] is row and new_components[3] is missing
    assert new_embeds[0]["fields"] is embeds[0]["fields"]
    assert cards.referenced and notes.referenced


def test_json_copies_share_nothing_mutable() -> None:
    value = {"a": [{"b": 1, "c": [2, 3.5, None, True, "x"]}], "d": {"e": (1, [2])}}

    copied = copy_json(value)

    assert copied == value
    assert copied["a"] is not value["a"] and copied["a"][0]["c"] is not value["a"][0]["c"]
    assert copied["d"]["e"][1] is not value["d"]["e"][1]  # a tuple goes through deepcopy
