"""Every request reaching the fake is checked against Discord's OpenAPI description
(``tests/contract``); a test fails at teardown on what breaks it, with the route, the path
inside the body and the schema's message. Bare discord.py clients send the broken requests."""

from __future__ import annotations

import io

import discord
from discord.http import Route

from bot.fakediscord import Driver, FakeDiscord
from tests.contract.discord_spec import discord_spec
from tests.e2e.conftest import BareClients, World


def _breaches(driver: Driver) -> list[str]:
    """What the test would fail on at teardown for breaking the description; then let it end."""
    found = [p for p in driver.problems() if "breaks Discord's API description" in p]
    driver.allow_rest_errors()  # the fake refused some of them with 400, as Discord would
    driver.fake.contract_breaches.clear()
    return found


async def _send(driver: Driver, client: discord.Client, route: Route, **kwargs: object) -> None:
    try:
        await client.http.request(route, **kwargs)
    except discord.HTTPException as refused:
        assert refused.status in (400, 404)


async def test_a_button_of_no_style_fails_the_test_and_says_where(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    client, _ = await bare_clients.start()
    body = {"components": [{"type": 1, "components": [
        {"type": 2, "label": "Join", "custom_id": "join"}]}]}

    await _send(driver, client, Route(
        "POST", "/channels/{channel_id}/messages", channel_id=world.channel.id), json=body)

    assert _breaches(driver) == [
        f"POST /channels/{world.channel.id}/messages breaks Discord's API description: "
        "POST /channels/{channel_id}/messages (create_message): at "
        "body.components[0].components[0]: 'style' is a required property"
    ]


async def test_payload_json_of_a_multipart_body_is_checked_too(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    client, _ = await bare_clients.start()
    channel = client.get_partial_messageable(world.channel.id)
    # one select option too many for a string select as Discord describes it (25 at most)
    options = [discord.SelectOption(label=f"card {n}", value=str(n)) for n in range(26)]
    view = discord.ui.View()
    view.add_item(discord.ui.Select(custom_id="cards", options=options[:25]))
    payload = view.to_components()
    payload[0]["components"][0]["options"].append(options[25].to_dict())
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    form = [{"name": "payload_json", "value": discord.utils._to_json(
        {"components": payload, "attachments": [{"id": 0, "filename": "a.txt"}]})},
        {"name": "files[0]", "value": io.BytesIO(b"hi"), "filename": "a.txt",
         "content_type": "text/plain"}]
    await _send(driver, client, route, form=form, files=[discord.File(io.BytesIO(b"hi"))])

    breaches = _breaches(driver)
    assert len(breaches) == 1 and "(create_message): at body.components[0].components[0]" \
        ".options: [" in breaches[0] and "is too long" in breaches[0], breaches


async def test_a_route_discord_does_not_have_fails_the_test(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    client, _ = await bare_clients.start()

    await _send(driver, client, Route(
        "POST", "/channels/{channel_id}/shuffle", channel_id=world.channel.id))

    assert _breaches(driver) == [
        f"POST /channels/{world.channel.id}/shuffle breaks Discord's API description: "
        f"POST /channels/{world.channel.id}/shuffle: Discord's API description has no such "
        "route"
    ]
    fake.rest_calls.clear()  # the fake does not model it either, which also fails a test


async def test_the_fakes_messages_are_as_discord_describes_them(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    """The fake's own answers: the application, and message objects created, edited, fetched
    and listed."""
    fake.contract_answers = True
    client, _ = await bare_clients.start()
    channel = client.get_partial_messageable(world.channel.id)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Join", custom_id="join", emoji="🂠"))
    view.add_item(discord.ui.Button(label="Rules", url="https://example.com/rules"))
    embed = discord.Embed(title="Dubb", description="Anna to play").set_image(
        url="attachment://table.png").add_field(name="Pile", value="7♥")

    sent = await channel.send("Table", embed=embed, view=view, file=discord.File(
        io.BytesIO(b"\x89PNG\r\n\x1a\n"), filename="table.png", description="the table"))
    await sent.edit(content="Table, edited", view=None)
    await channel.fetch_message(sent.id)
    [m async for m in channel.history(limit=10)]

    assert fake.contract_breaches == []


class _Join(discord.ui.View):
    @discord.ui.button(label="Join", custom_id="join")
    async def join(self, interaction: discord.Interaction, _: discord.ui.Button[_Join]) -> None:
        await interaction.response.edit_message(content="Table, joined")


class _Rename(discord.ui.Modal, title="Name your table"):
    name: discord.ui.TextInput[_Rename] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"table {self.name.value}")


def _answering_commands(tree: discord.app_commands.CommandTree) -> None:
    @tree.command(name="think", description="Think first")
    async def think(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("thought")

    @tree.command(name="rename", description="Open a form")
    async def rename(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(_Rename())


async def test_the_fakes_interaction_answers_are_as_discord_describes_them(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    """A deferral's callback response names its loading message and carries no resource (the
    docs give one only for types 4 and 7); a modal submission's message says which interaction
    opened the modal."""
    fake.contract_answers = True
    client, _ = await bare_clients.start(_answering_commands)

    thought = await driver.slash(world.anna, world.channel, "think")
    opened = await driver.slash(world.anna, world.channel, "rename")
    submitted = await driver.submit_modal(world.anna, opened, {"name": "Bordet"})
    channel = client.get_partial_messageable(world.channel.id)
    [m async for m in channel.history(limit=10)]

    assert thought.type == 5 and thought.message is not None
    assert submitted.content == "table Bordet"
    meta = fake.messages[submitted.message.id].interaction_metadata  # type: ignore[union-attr]
    assert meta is not None and meta["type"] == 5
    assert meta["triggering_interaction_metadata"]["id"] == str(opened.record.id)
    assert fake.contract_breaches == []


async def test_the_messages_the_fake_sends_over_the_gateway_are_as_discord_describes_them(
    fake: FakeDiscord, driver: Driver, world: World, bare_clients: BareClients
) -> None:
    """MESSAGE_CREATE and MESSAGE_UPDATE carry message objects, and an INTERACTION_CREATE of a
    component the message it is on: each one a MessageResponse by the description."""
    client, _ = await bare_clients.start(_answering_commands)
    channel = client.get_partial_messageable(world.channel.id)
    sent = await channel.send("Table", view=_Join(), embed=discord.Embed(title="Dubb"))
    await sent.edit(content="Table, edited")
    await driver.slash(world.anna, world.channel, "think")
    await driver.click(world.anna, fake.messages[sent.id], "Join")
    spec = discord_spec()

    checked = 0
    problems: list[str] = []
    for session in fake.gateway.sessions.values():
        for event in session.buffer:
            message = event["d"].get("message") if event["t"] == "INTERACTION_CREATE" \
                else event["d"] if event["t"] in ("MESSAGE_CREATE", "MESSAGE_UPDATE") else None
            if message is not None:
                checked += 1
                problems += spec.check_object("MessageResponse", message)
    assert checked >= 4 and problems == []
