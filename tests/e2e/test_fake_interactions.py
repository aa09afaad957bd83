"""Interactions through the fake with a bare discord.py client: commands, components, deadlines."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.fakediscord import Driver, DriverError, FakeDiscord, InteractionFailed
from tests.e2e.conftest import BareClients, World

pytestmark = pytest.mark.e2e


class Counter(discord.ui.View):
    """A persistent view: its custom ids route after a client restart."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Add one", custom_id="counter:add")
    async def add(self, interaction: discord.Interaction, _: discord.ui.Button[Counter]) -> None:
        assert interaction.message is not None
        count = int(interaction.message.content.split()[-1]) + 1
        await interaction.response.edit_message(content=f"count {count}", view=self)

    @discord.ui.button(label="Later", custom_id="counter:later")
    async def later(self, interaction: discord.Interaction, _: discord.ui.Button[Counter]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="count edited later")

    @discord.ui.select(
        custom_id="counter:pick",
        options=[discord.SelectOption(label=f"Set {n}", value=str(n)) for n in range(3)],
    )
    async def pick(
        self, interaction: discord.Interaction, select: discord.ui.Select[Counter]
    ) -> None:
        await interaction.response.edit_message(content=f"count {select.values[0]}", view=self)


class Question(discord.ui.Modal, title="Name your table"):
    name: discord.ui.TextInput[Question] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"table {self.name.value}", ephemeral=True)


def game_commands(tree: app_commands.CommandTree) -> None:
    game = app_commands.Group(name="game", description="A test game")
    admin = app_commands.Group(name="admin", description="Admin tools", parent=game)

    @game.command(name="start", description="Start a game")
    @app_commands.describe(decks="How many decks")
    @app_commands.choices(
        decks=[app_commands.Choice(name="one", value=1), app_commands.Choice(name="two", value=2)]
    )
    async def start(
        interaction: discord.Interaction,
        decks: app_commands.Choice[int],
        jokers: bool = False,
        name: str = "table",
        opponent: discord.Member | None = None,
    ) -> None:
        text = f"{decks.value}|{jokers}|{name}|{opponent.display_name if opponent else '-'}"
        await interaction.response.send_message(f"{text} count 0", view=Counter())

    @game.command(name="play", description="Play cards")
    async def play(interaction: discord.Interaction, cards: str) -> None:
        await interaction.response.send_message(f"played {cards}", ephemeral=True)

    @play.autocomplete("cards")
    async def play_cards(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        options = ["7h", "7s", "8h", "joker"]
        return [app_commands.Choice(name=o, value=o) for o in options if o.startswith(current)]

    @game.command(name="panel", description="An ephemeral panel")
    async def panel(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("count 0", view=Counter(), ephemeral=True)

    @game.command(name="slow", description="Think first")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("first thought", ephemeral=True)
        await interaction.followup.send("second thought", ephemeral=True)

    @game.command(name="rename", description="Open a form")
    async def rename(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Question())

    @admin.command(name="reset", description="Reset everything")
    async def reset(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("reset", ephemeral=True)

    @tree.command(name="wipe", description="Moderators only")
    @app_commands.default_permissions(manage_messages=True)
    async def wipe(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("wiped", ephemeral=True)

    tree.add_command(game)
    tree.client.add_view(Counter())  # type: ignore[attr-defined]


async def test_nested_options_arrive_typed_as_discord_sends_them(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(game_commands)

    result = await driver.slash(
        world.anna,
        world.channel,
        "game start",
        {"decks": 2, "jokers": True, "name": "Kök", "opponent": world.bo},
    )

    assert result.content == "2|True|Kök|Bo count 0"
    assert not result.ephemeral
    sent = result.record.data
    assert sent["options"] == [
        {
            "name": "start",
            "type": 1,
            "options": [
                {"name": "decks", "type": 4, "value": 2},
                {"name": "jokers", "type": 5, "value": True},
                {"name": "name", "type": 3, "value": "Kök"},
                {"name": "opponent", "type": 6, "value": str(world.bo.id)},
            ],
        }
    ]
    assert set(sent["resolved"]["members"]) == {str(world.bo.id)}


async def test_the_driver_refuses_what_a_discord_user_could_not_send(
    driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(game_commands)

    with pytest.raises(DriverError, match="was not synced"):
        await driver.slash(world.anna, world.channel, "dubb start")
    with pytest.raises(DriverError, match="has no subcommand 'begin'"):
        await driver.slash(world.anna, world.channel, "game begin")
    with pytest.raises(DriverError, match="needs a subcommand"):
        await driver.slash(world.anna, world.channel, "game")
    with pytest.raises(DriverError, match="has no option"):
        await driver.slash(world.anna, world.channel, "game start", {"decks": 1, "speed": 3})
    with pytest.raises(DriverError, match="needs option 'decks'"):
        await driver.slash(world.anna, world.channel, "game start")
    with pytest.raises(DriverError, match="must be one of"):
        await driver.slash(world.anna, world.channel, "game start", {"decks": 3})
    with pytest.raises(DriverError, match="does not offer"):
        await driver.slash(world.anna, world.channel, "wipe")
    wiped = await driver.slash(world.mod, world.channel, "wipe")
    reset = await driver.slash(world.anna, world.channel, "game admin reset")
    assert (wiped.content, reset.content) == ("wiped", "reset")


async def test_autocomplete_sends_the_focused_text_and_returns_choices(
    driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(game_commands)

    choices = await driver.autocomplete(
        world.anna, world.channel, "game play", {"cards": "7"}, focused="cards"
    )

    assert choices == [{"name": "7h", "value": "7h"}, {"name": "7s", "value": "7s"}]
    record = driver.interactions()[-1]
    assert record.data["options"][0]["options"] == [
        {"name": "cards", "type": 3, "value": "7", "focused": True}
    ]


async def test_an_ephemeral_panel_updates_in_place_and_only_its_owner_sees_it(
    driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(game_commands)
    panel = await driver.slash(world.anna, world.channel, "game panel")
    assert panel.ephemeral and panel.message is not None

    clicked = await driver.click(world.anna, panel.message, "Add one")
    picked = await driver.select(world.anna, panel.message, ["Set 2"])

    assert clicked.type == 7 and picked.type == 7
    assert clicked.message is panel.message and panel.message.content == "count 2"
    component_payload = clicked.record.payload["message"]
    assert component_payload["flags"] & 64 and component_payload["id"] == str(panel.message.id)
    assert driver.visible_to(world.anna, world.channel) == [panel.message]
    assert driver.visible_to(world.bo, world.channel) == []
    assert driver.channel_messages(world.channel) == []
    assert {e.audience for e in driver.log} == {world.anna.id}
    with pytest.raises(DriverError, match="cannot see"):
        await driver.click(world.bo, panel.message, "Add one")


async def test_a_deferred_update_then_edit_original_edits_the_component_message(
    driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(game_commands)
    table = await driver.slash(world.anna, world.channel, "game start", {"decks": 1})
    assert table.message is not None

    later = await driver.click(world.bo, table.message, "Later")
    await driver.wait_for(lambda: table.message.content == "count edited later")  # type: ignore[union-attr]

    assert later.type == 6
    assert driver.channel_messages(world.channel) == [table.message]


async def test_the_first_follow_up_after_thinking_replaces_the_loading_message(
    driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(game_commands)

    result = await driver.slash(world.anna, world.channel, "game slow")
    followups = await result.wait_followups(1)

    assert result.type == 5
    assert result.message is not None and result.message.content == "first thought"
    assert result.message.ephemeral and not result.message.loading
    assert [m.content for m in followups] == ["second thought"]
    assert [m.content for m in driver.ephemerals(world.anna)] == ["first thought", "second thought"]


async def test_a_modal_round_trip(driver: Driver, world: World, bare_clients: BareClients) -> None:
    await bare_clients.start(game_commands)

    opened = await driver.slash(world.anna, world.channel, "game rename")
    submitted = await driver.submit_modal(world.anna, opened, {"name": "Bordet"})

    assert opened.type == 9 and opened.modal is not None
    assert opened.modal["title"] == "Name your table"
    assert submitted.content == "table Bordet"


async def test_two_clicks_at_once_are_two_interactions(
    driver: Driver, world: World, bare_clients: BareClients
) -> None:
    await bare_clients.start(game_commands)
    table = await driver.slash(world.anna, world.channel, "game start", {"decks": 1})
    assert table.message is not None

    first, second = await driver.double_click(world.bo, table.message, "Add one")

    assert first.id != second.id
    assert {first.type, second.type} == {7}
    # both presses carry the message as it was when clicked, so both count from 0
    assert first.record.payload["message"]["content"].endswith("count 0")
    assert second.record.payload["message"]["content"].endswith("count 0")
    assert table.message.content == "count 1"


async def test_buttons_keep_working_for_a_new_client(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    first, _ = await bare_clients.start(game_commands)
    table = await driver.slash(world.anna, world.channel, "game start", {"decks": 1})
    assert table.message is not None
    await first.close()

    await bare_clients.start(game_commands, sync=False)
    clicked = await driver.click(world.bo, table.message, "Add one")

    assert clicked.message is table.message and table.message.content == "count 1"


async def test_an_answer_after_the_deadline_is_a_failed_interaction(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    fake.interaction_deadline = 0.2
    outcome: dict[str, Any] = {}
    answered = asyncio.Event()

    def setup(tree: app_commands.CommandTree) -> None:
        @tree.command(name="late", description="Answer too late")
        async def late(interaction: discord.Interaction) -> None:
            record = fake.interactions[interaction.id]
            await fake.wait_for(lambda: record.failed, what="the deadline")
            try:
                await interaction.response.send_message("too late")
            except discord.NotFound as exc:
                outcome["code"] = exc.code
            answered.set()

    await bare_clients.start(setup)
    driver.allow_failed_interactions()

    with pytest.raises(InteractionFailed, match=r"no callback within 0\.2 s"):
        await driver.slash(world.anna, world.channel, "late")
    async with asyncio.timeout(10):
        await answered.wait()

    assert outcome == {"code": 10062}
    assert driver.channel_messages(world.channel) == []
    assert any("This interaction failed" in p for p in Driver(fake).problems())


async def test_a_second_callback_is_refused_with_40060(
    fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.allow_rest_errors()
    channel = fake.channels[world.channel.id]
    record = fake.create_interaction(2, world.anna, channel, {"id": "1", "name": "x", "type": 1})
    url = f"{fake.api_base}/interactions/{record.id}/{record.token}/callback"
    body = {"type": 4, "data": {"content": "hi", "flags": 64}}

    async with aiohttp.ClientSession() as http:
        async with http.post(url, json=body, params={"with_response": "true"}) as first:
            first_body = await first.json()
        async with http.post(url, json=body) as second:
            second_body = await second.json()
        async with http.post(
            f"{fake.api_base}/webhooks/{fake.application.id}/{record.token}",
            json={"content": "more"},
            params={"wait": "true"},
        ) as followup:
            followup_body = await followup.json()

    assert first.status == 200
    assert first_body["interaction"]["response_message_ephemeral"] is True
    assert first_body["resource"]["type"] == 4
    assert first_body["resource"]["message"]["content"] == "hi"
    assert (second.status, second_body) == (
        400,
        {"message": "Interaction has already been acknowledged.", "code": 40060},
    )
    assert followup.status == 200 and followup_body["content"] == "more"
    assert followup_body["flags"] == 0


async def test_an_invalid_callback_body_is_rejected_and_reported(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    fake.interaction_deadline = 0.2

    def setup(tree: app_commands.CommandTree) -> None:
        @tree.command(name="bad", description="Send a bad select")
        async def bad(interaction: discord.Interaction) -> None:
            view = discord.ui.View()
            view.add_item(discord.ui.Button(label="x" * 81, custom_id="long"))
            try:
                await interaction.response.send_message("menu", view=view)
            except discord.HTTPException as exc:
                assert exc.code == 50035

    await bare_clients.start(setup)
    driver.allow_failed_interactions()
    driver.allow_rest_errors()

    with pytest.raises(InteractionFailed, match="rejected with 400"):
        await driver.slash(world.anna, world.channel, "bad")
