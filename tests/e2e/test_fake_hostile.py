"""A hostile client: what a modified Discord client can send, what Discord refuses before the
bot sees it (component validation, its own option limits), and what it delivers."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from bot.fakediscord import Driver, DriverError, FakeDiscord, InteractionRejected, StoredMessage
from tests.e2e.conftest import BareClients, World

pytestmark = pytest.mark.e2e


def echo_components(client: discord.Client, seen: list[dict[str, Any]]) -> None:
    """Answers every component interaction, saying what arrived."""

    async def on_interaction(interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        data = dict(interaction.data or {})  # type: ignore[arg-type]
        seen.append(data)
        assert interaction.message is not None
        await interaction.response.send_message(
            f"{data.get('custom_id')}|{data.get('values')}|{interaction.message.id}",
            ephemeral=True,
        )

    client.event(on_interaction)


def table_message(fake: FakeDiscord, world: World) -> StoredMessage:
    """A bot message with a button, a disabled button, a string select and a user select."""
    rows = [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": "Draw", "custom_id": "table:1:draw:7"},
                {
                    "type": 2,
                    "style": 2,
                    "label": "Old",
                    "custom_id": "table:1:old",
                    "disabled": True,
                },
            ],
        },
        {
            "type": 1,
            "components": [
                {
                    "type": 3,
                    "custom_id": "table:1:play",
                    "max_values": 2,
                    "options": [{"label": c, "value": c} for c in ("7h", "7s", "8h")],
                }
            ],
        },
        {"type": 1, "components": [{"type": 5, "custom_id": "table:1:invite"}]},
    ]
    channel = fake.channels[world.channel.id]
    return fake.create_message(channel, fake.bot_user, {"content": "table", "components": rows})


@pytest.fixture
async def echoing(
    fake: FakeDiscord, world: World, bare_clients: BareClients
) -> list[dict[str, Any]]:
    client, _ = await bare_clients.start()
    seen: list[dict[str, Any]] = []
    echo_components(client, seen)
    return seen


@pytest.mark.parametrize(
    ("custom_id", "values", "component_type"),
    [
        ("table:2:draw:7", None, 2),  # another table's button
        ("table:1:draw:6", None, 2),  # an earlier turn's button, no longer on the message
        ("table:1:draw:7", None, 3),  # the right id with the wrong type
        ("table:1:old", None, 2),  # disabled
        ("table:1:play", ["9c"], 3),  # a card the select does not offer
        ("table:1:play", ["7h", "7s", "8h"], 3),  # more than max_values
        ("table:1:play", ["7h", "7h"], 3),  # the same value twice
        ("table:1:draw:7", ["x"], 2),  # values on a button
        ("table:1:invite", ["1234567890123456789"], 5),  # nobody in the server
    ],
)
async def test_discord_refuses_components_that_are_not_on_the_message(
    fake: FakeDiscord,
    driver: Driver,
    world: World,
    echoing: list[dict[str, Any]],
    custom_id: str,
    values: list[str] | None,
    component_type: int,
) -> None:
    message = table_message(fake, world)

    with pytest.raises(InteractionRejected) as refused:
        await driver.forge_click(world.anna, message, custom_id, values, component_type)

    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert refused.value.errors["data"]["_errors"][0]["code"] == "COMPONENT_VALIDATION_FAILED"
    assert driver.interactions() == [] and echoing == []


async def test_what_is_on_the_message_is_delivered_as_a_real_click_would_be(
    fake: FakeDiscord, driver: Driver, world: World, echoing: list[dict[str, Any]]
) -> None:
    message = table_message(fake, world)

    button = await driver.forge_click(world.anna, message, "table:1:draw:7")
    played = await driver.forge_click(world.bo, message, "table:1:play", ["8h", "7h"], 3)
    invited = await driver.forge_click(world.bo, message, "table:1:invite", [str(world.cem.id)], 5)

    assert button.content == f"table:1:draw:7|None|{message.id}"
    assert played.content == f"table:1:play|['8h', '7h']|{message.id}"
    assert invited.record.data["resolved"]["members"].keys() == {str(world.cem.id)}
    assert [d["custom_id"] for d in echoing] == ["table:1:draw:7", "table:1:play", "table:1:invite"]


@pytest.mark.parametrize(
    "custom_id",
    ["table:2:draw:7", "table:1:draw:-1", "x" * 100, "kort\u00e9\u202e:1", "{'$ne': 1}", " "],
)
async def test_beyond_discords_check_any_custom_id_is_delivered_with_the_message_as_stored(
    fake: FakeDiscord,
    driver: Driver,
    world: World,
    echoing: list[dict[str, Any]],
    custom_id: str,
) -> None:
    message = table_message(fake, world)

    result = await driver.forge_click(
        world.anna, message, custom_id, ["7h"], 3, validated_by_discord=False
    )

    assert result.content == f"{custom_id}|['7h']|{message.id}"
    sent = result.record.payload
    assert sent["message"]["id"] == str(message.id) and sent["channel_id"] == str(world.channel.id)
    assert sent["member"]["user"]["id"] == str(world.anna.id)


async def test_the_form_is_checked_for_every_client(
    fake: FakeDiscord, driver: Driver, world: World, echoing: list[dict[str, Any]]
) -> None:
    message = table_message(fake, world)
    secret = fake.create_message(
        fake.channels[world.channel.id],
        fake.bot_user,
        {"content": "yours", "components": message.components},
        ephemeral_for=world.bo.id,
    )

    for custom_id, values, kind in [
        ("x" * 101, None, 2),
        ("", None, 2),
        ("ok", None, 4),
        ("ok", ["v"] * 26, 3),
        ("ok", ["v" * 101], 3),
    ]:
        with pytest.raises(InteractionRejected) as refused:
            await driver.forge_click(
                world.anna, message, custom_id, values, kind, validated_by_discord=False
            )
        assert refused.value.code == 50035
    with pytest.raises(InteractionRejected) as hidden:
        await driver.forge_click(world.anna, secret, "table:1:draw:7", validated_by_discord=False)

    assert (hidden.value.status, hidden.value.code) == (404, 10008)
    assert echoing == []


def declared(tree: app_commands.CommandTree) -> None:
    @tree.command(name="bet", description="Bet on a table")
    @app_commands.choices(game=[app_commands.Choice(name="Tonk", value="tonk")])
    async def bet(
        interaction: discord.Interaction,
        game: str,
        stake: app_commands.Range[int, 1, 10],
        note: app_commands.Range[str, 1, 20],
    ) -> None:
        await interaction.response.send_message(f"{game}|{stake}|{len(note)}", ephemeral=True)

    @tree.command(name="find", description="Find a card")
    async def find(interaction: discord.Interaction, card: str) -> None:
        await interaction.response.send_message(card[:10], ephemeral=True)

    @find.autocomplete("card")
    async def find_card(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f"typed {len(current)}", value="x")]


async def test_values_outside_the_declaration_reach_the_bot_only_without_client_checks(
    driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(declared)
    wild = {"game": "poker", "stake": -5, "note": "n" * 6000}

    with pytest.raises(DriverError, match="must be one of"):
        await driver.slash(world.anna, world.channel, "bet", wild)
    delivered = await driver.slash(world.anna, world.channel, "bet", wild, validate=False)
    with pytest.raises(DriverError, match="6000"):
        await driver.slash(
            world.anna, world.channel, "bet", {**wild, "note": "n" * 6001}, validate=False
        )
    with pytest.raises(DriverError, match="whole number"):
        await driver.slash(world.anna, world.channel, "bet", {**wild, "stake": "5"}, validate=False)
    with pytest.raises(DriverError, match="2\\*\\*53"):
        too_big = {**wild, "stake": 2**53}
        await driver.slash(world.anna, world.channel, "bet", too_big, validate=False)

    # discord.py trusts Discord's checks: the command ran with what arrived
    assert delivered.content == "poker|-5|6000"
    options = delivered.record.data["options"]
    assert [o["value"] for o in options] == ["poker", -5, "n" * 6000]


async def test_autocomplete_passes_any_typed_text(
    driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(declared)

    for typed in ("", "'; DROP TABLE", "\u202e7h", "x" * 6000):
        choices = await driver.autocomplete(
            world.anna, world.channel, "find", {"card": typed}, focused="card"
        )
        assert choices == [{"name": f"typed {len(typed)}", "value": "x"}]
    with pytest.raises(DriverError, match="6000"):
        await driver.autocomplete(
            world.anna, world.channel, "find", {"card": "x" * 6001}, focused="card"
        )
