"""A click on a private panel is answered by editing the panel without asking Discord for the
message back (issue 16), and discord.py still knows the interaction is answered: nothing may
answer it twice (Discord refuses a second callback with 40060)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.discord.controller import _update_panel


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    requests: list[dict[str, Any]] = []

    async def request(self: AsyncWebhookAdapter, route: Any, session: Any, **kwargs: Any
                      ) -> None:
        requests.append({"method": route.method, "url": route.url, **kwargs})

    monkeypatch.setattr(AsyncWebhookAdapter, "request", request)
    return requests


def clicked() -> Any:
    interaction: Any = SimpleNamespace(
        id=111, token="tok", client=SimpleNamespace(allowed_mentions=None),
        followup=SimpleNamespace(session=object(), proxy=None, proxy_auth=None))
    interaction.response = discord.InteractionResponse(interaction)
    return interaction


async def test_the_panel_is_updated_without_asking_for_the_message_back(
        sent: list[dict[str, Any]]) -> None:
    interaction = clicked()
    await _update_panel(interaction, content="Your hand", embed=None, view=None)
    [request] = sent
    assert request["method"] == "POST"
    assert request["url"].endswith("/interactions/111/tok/callback")
    assert request.get("params") is None  # no with_response: Discord answers 204
    assert request["payload"]["type"] == discord.InteractionResponseType.message_update.value
    assert request["payload"]["data"]["content"] == "Your hand"
    assert interaction.response.is_done()
    assert interaction.response.type is discord.InteractionResponseType.message_update


async def test_an_answered_click_is_not_answered_again(sent: list[dict[str, Any]]) -> None:
    interaction = clicked()
    await _update_panel(interaction, content="Your hand")
    with pytest.raises(discord.InteractionResponded):
        await _update_panel(interaction, content="again")
    with pytest.raises(discord.InteractionResponded):
        await interaction.response.send_message("again", ephemeral=True)
    assert len(sent) == 1
