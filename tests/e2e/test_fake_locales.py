"""Locales: users' and servers' languages in interactions, and localized command declarations
validated and stored as Discord does."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.fakediscord import Driver, DriverError, FakeDiscord
from bot.fakediscord.locales import LOCALES
from tests.e2e.conftest import TEST_TOKEN, BareClients

pytestmark = pytest.mark.e2e

SWEDISH = {"deal": "dela", "Deal cards": "Dela ut kort", "count": "antal", "How many": "Hur många"}


class Swedish(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is discord.Locale.swedish:
            return SWEDISH.get(string.message)
        return None


def localized_tree(tree: app_commands.CommandTree) -> None:
    @tree.command(
        name=app_commands.locale_str("deal"), description=app_commands.locale_str("Deal cards")
    )
    @app_commands.describe(count=app_commands.locale_str("How many"))
    @app_commands.rename(count=app_commands.locale_str("count"))
    async def deal(interaction: discord.Interaction, count: int) -> None:
        await interaction.response.send_message(
            f"{count}|{interaction.locale.value}|"
            f"{interaction.guild_locale.value if interaction.guild_locale else None}",
            ephemeral=True,
        )

    async def load_translator() -> None:
        await tree.set_translator(Swedish())

    tree.client.setup_hook = load_translator  # type: ignore[method-assign]


async def test_interactions_carry_the_users_and_the_servers_locale(
    fake: FakeDiscord, driver: Driver, bare_clients: BareClients
) -> None:
    guild = driver.add_guild("Dansk bord", preferred_locale="da")
    channel = driver.add_channel(guild, "general")
    stina = driver.add_user("Stina", locale="sv-SE")
    bob = driver.add_user("Bob")
    client, tree = await bare_clients.start(sync=False)
    localized_tree(tree)
    await tree.set_translator(Swedish())
    await tree.sync()

    as_swede = await driver.slash(stina, channel, "dela", {"antal": 2})
    as_default = await driver.slash(bob, channel, "deal", {"count": 3})
    with pytest.raises(DriverError, match="not synced"):
        await driver.slash(bob, channel, "dela", {"count": 3})
    driver.set_locale(stina, "fi")
    updated: asyncio.Future[discord.Guild] = asyncio.get_running_loop().create_future()

    async def on_guild_update(_: discord.Guild, after: discord.Guild) -> None:
        if not updated.done():
            updated.set_result(after)

    client.event(on_guild_update)
    driver.set_preferred_locale(guild, "de")
    async with asyncio.timeout(10):
        after = await updated
    later = await driver.slash(stina, channel, "deal", {"count": 1})

    assert as_swede.content == "2|sv-SE|da"
    assert as_swede.record.data["name"] == "deal"
    assert as_swede.record.data["options"] == [{"name": "count", "type": 4, "value": 2}]
    assert as_default.content == "3|en-US|da"
    assert later.content == "1|fi|de"
    assert after.preferred_locale is discord.Locale.german
    assert as_swede.record.payload["guild"]["locale"] == "da"
    stored = fake.commands()[0]
    assert stored["name_localizations"] == {"sv-SE": "dela"}
    assert stored["description_localizations"] == {"sv-SE": "Dela ut kort"}
    assert stored["options"][0]["name_localizations"] == {"sv-SE": "antal"}


async def put_commands(fake: FakeDiscord, commands: list[dict[str, Any]]) -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession() as http,
        http.put(
            f"{fake.api_base}/applications/{fake.application.id}/commands",
            json=commands,
            headers={"Authorization": f"Bot {TEST_TOKEN}"},
        ) as response,
    ):
        return response.status, await response.json()


def command(**extra: Any) -> dict[str, Any]:
    return {"name": "deal", "description": "Deal cards", "type": 1, **extra}


def option(name: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "An option", "type": 3, **extra}


@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        (
            command(name_localizations={"sv": "dela"}),
            ["0", "name_localizations", "sv"],
            "BASE_TYPE_CHOICES",
        ),
        (
            command(name_localizations={"de": "Geben"}),
            ["0", "name_localizations", "de"],
            "APPLICATION_COMMAND_INVALID_NAME",
        ),
        (
            command(name_localizations={"fr": "distribuer les cartes"}),
            ["0", "name_localizations", "fr"],
            "APPLICATION_COMMAND_INVALID_NAME",
        ),
        (
            command(name_localizations={"fi": "j" * 33}),
            ["0", "name_localizations", "fi"],
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            command(description_localizations={"da": "d" * 101}),
            ["0", "description_localizations", "da"],
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            command(description_localizations={"da": ""}),
            ["0", "description_localizations", "da"],
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            command(options=[option("count", name_localizations={"xx-YY": "antal"})]),
            ["0", "options", "0", "name_localizations", "xx-YY"],
            "BASE_TYPE_CHOICES",
        ),
        (
            command(options=[option("count", description_localizations={"ja": "x" * 101})]),
            ["0", "options", "0", "description_localizations", "ja"],
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            command(
                options=[
                    option(
                        "game",
                        choices=[
                            {"name": "Tonk", "value": "t", "name_localizations": {"el": "τ" * 101}}
                        ],
                    )
                ]
            ),
            ["0", "options", "0", "choices", "0", "name_localizations", "el"],
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            command(options=[option("count"), option("size", name_localizations={"de": "count"})]),
            ["0", "options", "1", "name_localizations", "de"],
            "APPLICATION_COMMAND_OPTION_NAME_NOT_UNIQUE",
        ),
        (
            command(
                options=[
                    option("count", name_localizations={"de": "anzahl"}),
                    option("size", name_localizations={"de": "anzahl"}),
                ]
            ),
            ["0", "options", "1", "name_localizations", "de"],
            "APPLICATION_COMMAND_OPTION_NAME_NOT_UNIQUE",
        ),
    ],
)
async def test_invalid_localizations_are_refused(
    fake: FakeDiscord, driver: Driver, body: dict[str, Any], path: list[str], code: str
) -> None:
    driver.allow_rest_errors()

    status, error = await put_commands(fake, [body])

    assert (status, error["code"]) == (400, 50035)
    node = error["errors"]
    for part in path:
        node = node[part]
    assert node["_errors"][0]["code"] == code
    assert fake.commands() == []


async def test_every_discord_locale_and_script_is_accepted_and_defaults_are_dropped(
    fake: FakeDiscord,
) -> None:
    names = {locale: f"deal{n}" for n, locale in enumerate(LOCALES)}
    scripts = {"el": "μοίρασε", "ru": "раздать", "ja": "配る", "hi": "बाँटो", "th": "แจกไพ่"}
    names.update({**scripts, "en-US": "deal"})
    body = command(
        name_localizations=names,
        options=[
            option(
                "game",
                choices=[{"name": "Tonk", "value": "t", "name_localizations": {"sv-SE": "Tonk"}}],
            )
        ],
    )

    status, answer = await put_commands(fake, [body])

    assert status == 200, answer
    stored = fake.commands()[0]
    assert "en-US" not in stored["name_localizations"]  # identical to the default: ignored
    assert stored["name_localizations"]["ja"] == "配る"
    assert stored["options"][0]["choices"][0]["name_localizations"] == {}
    assert len(LOCALES) == 32


async def test_a_batch_get_shows_the_requesters_locale_unless_asked_for_all(
    fake: FakeDiscord,
) -> None:
    await put_commands(
        fake,
        [
            command(
                name_localizations={"zh-CN": "发牌"},
                options=[option("count", name_localizations={"zh-CN": "数量"})],
            )
        ],
    )
    url = f"{fake.api_base}/applications/{fake.application.id}/commands"
    headers = {"Authorization": f"Bot {TEST_TOKEN}"}
    async with aiohttp.ClientSession() as http:
        async with http.get(url, headers={**headers, "X-Discord-Locale": "zh-CN"}) as got:
            batch = await got.json()
        async with http.get(url, headers=headers, params={"with_localizations": "true"}) as got:
            full = await got.json()

    assert batch[0]["name_localized"] == "发牌" and "name_localizations" not in batch[0]
    assert batch[0]["options"][0]["name_localized"] == "数量"
    assert full[0]["name_localizations"] == {"zh-CN": "发牌"}


def test_unknown_locales_are_refused_in_the_world(driver: Driver) -> None:
    with pytest.raises(ValueError, match="no Discord locale"):
        driver.add_user("Sven", locale="sv")
    with pytest.raises(ValueError, match="no Discord locale"):
        driver.add_guild("Bord", preferred_locale="en")
