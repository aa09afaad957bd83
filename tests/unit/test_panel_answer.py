"""A click on a private panel is answered by editing the panel without asking Discord for the
message back (issue 16), and discord.py still knows the interaction is answered: nothing may
answer it twice (Discord refuses a second callback with 40060)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.discord.answers import edit_answer, update_panel


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


def panel_view() -> discord.ui.View:
    # a discord.py view, as a game's face may still draw one (the bot's own are ``Rows``:
    # plain data, no cycle)
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Draw", custom_id="kb:dubb:1:draw"))
    return view


async def test_the_panel_is_updated_without_asking_for_the_message_back(
        sent: list[dict[str, Any]]) -> None:
    interaction, view = clicked(), panel_view()
    await update_panel(interaction, content="Your hand", embed=None, view=view)
    [request] = sent
    assert request["method"] == "POST"
    assert request["url"].endswith("/interactions/111/tok/callback")
    assert request.get("params") is None  # no with_response: Discord answers 204
    assert request["payload"]["type"] == discord.InteractionResponseType.message_update.value
    assert request["payload"]["data"]["content"] == "Your hand"
    [row] = request["payload"]["data"]["components"]
    assert [b["custom_id"] for b in row["components"]] == ["kb:dubb:1:draw"]
    # sent, the view is emptied: a view and its items point at each other, and would wait
    # for the cyclic garbage collector (issue 16)
    assert view.children == []
    assert interaction.response.is_done()
    assert interaction.response.type is discord.InteractionResponseType.message_update


async def test_an_answered_click_is_not_answered_again(sent: list[dict[str, Any]]) -> None:
    interaction = clicked()
    await update_panel(interaction, content="Your hand", view=None)
    with pytest.raises(discord.InteractionResponded):
        await update_panel(interaction, content="again", view=None)
    with pytest.raises(discord.InteractionResponded):
        await interaction.response.send_message("again", ephemeral=True)
    assert len(sent) == 1


async def test_a_refreshed_panel_is_sent_with_its_view_and_the_view_is_emptied(
        monkeypatch: pytest.MonkeyPatch) -> None:
    edits: list[dict[str, Any]] = []

    async def edit(self: AsyncWebhookAdapter, *args: Any, **kwargs: Any) -> None:
        edits.append(kwargs)

    monkeypatch.setattr(AsyncWebhookAdapter, "edit_webhook_message", edit)
    webhook: Any = SimpleNamespace(id=5, token="tok", session=object(), proxy=None,
                                   proxy_auth=None)
    view = panel_view()
    await edit_answer(webhook, content="🔔 Your turn.", view=view)
    [sent] = edits
    [row] = sent["payload"]["components"]
    assert [b["custom_id"] for b in row["components"]] == ["kb:dubb:1:draw"]
    assert view.children == []
