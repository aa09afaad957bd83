"""Answering an interaction: in the user's language, privately, in time, and on a hand panel
in place when the click came from one.

Every room answers through these; none of them reads or changes a table.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.http import Route as HttpRoute
from discord.webhook.async_ import (
    async_context,
    handle_message_parameters,
    interaction_message_response_params,
)

from bot.cardart import CardImage
from bot.discord.cycles import empty_view
from bot.discord.deadline import answering
from bot.discord.face import Panel
from bot.discord.layout import Layout, panel_layout
from bot.discord.pictures import attachment
from bot.discord.rows import Rows
from bot.discord.wire import one_body
from bot.i18n import lang_of

LATE_SECONDS = 1.5
"""An interaction this old before its write is acknowledged first (``defer_if_late``)."""

ORIGINAL: Any = "@original"
"""The message id that names an interaction's original answer on its follow-up webhook
(Discord's "Edit Original Interaction Response" is that route with ``@original``)."""


def user_lang(interaction: discord.Interaction) -> str:
    """The user's Discord language, for what only they see."""
    return lang_of(interaction.locale)


def on_ephemeral(interaction: discord.Interaction) -> bool:
    """Whether a component sits on a private hand panel (answered by editing it in place)."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


def pictured(image: CardImage | None, shown: CardImage | None) -> dict[str, Any]:
    """The ``attachments`` of an edit that makes a message show ``image`` where it shows
    ``shown`` (``None``: no picture, or not known): none at all keeps the message's file, so
    an unchanged picture is neither encoded into the request nor uploaded again."""
    if image is not None and image == shown:
        return {}
    return {"attachments": [attachment(image)] if image else []}


async def edit_answer(webhook: discord.Webhook, *,
                      view: Rows | discord.ui.View | Layout | None,
                      **fields: Any) -> None:
    """Edit an interaction's answer (a hand panel) through the interaction's webhook, straight
    through discord.py's webhook adapter: the message Discord sends back is not needed, and
    ``Webhook.edit_message`` would build a ``WebhookMessage`` of it and store the view, which
    the routed components (``bot.discord.routing``) do not need (issue 16, as the table's
    writes)."""
    assert webhook.token is not None
    with handle_message_parameters(view=view, **fields) as params:
        empty_view(view)
        await async_context.get().edit_webhook_message(
            webhook.id, webhook.token, ORIGINAL, session=one_body(webhook.session),
            proxy=webhook.proxy, proxy_auth=webhook.proxy_auth, payload=params.payload,
            multipart=params.multipart, files=params.files, with_components=view is not None)


async def update_panel(interaction: discord.Interaction, *,
                       view: Rows | discord.ui.View | Layout | None,
                       **fields: Any) -> None:
    """Answer a click on a private panel by editing that panel (``UPDATE_MESSAGE``) without
    asking Discord for the message back. ``InteractionResponse.edit_message`` always asks
    (``with_response``) and builds a ``Message`` of the answer, which nothing here reads: about
    3% of the bot's CPU under load (issue 16). Discord answers such a callback with 204."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    webhook = interaction.followup  # the interaction's session, as discord.py's answer uses
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        view=view, previous_allowed_mentions=interaction.client.allowed_mentions, **fields)
    empty_view(view)
    route = HttpRoute("POST", "/interactions/{webhook_id}/{webhook_token}/callback",
                      webhook_id=interaction.id, webhook_token=interaction.token)
    await async_context.get().request(
        route, one_body(webhook.session), proxy=webhook.proxy, proxy_auth=webhook.proxy_auth,
        payload=None if params.files else params.payload, multipart=params.multipart,
        files=params.files)
    # what discord.py's own answer records: is_done() and type read it, so that nothing answers
    # this interaction twice (tests/unit/test_panel_answer.py pins it)
    response._response_type = discord.InteractionResponseType.message_update


async def update_clicked(interaction: discord.Interaction, *,
                         view: Rows | discord.ui.View | Layout | None, **fields: Any) -> None:
    """Answer a click by showing ``view`` and ``fields`` on the message it came from: the
    click's own callback (``update_panel``), or an edit of that message through the
    interaction's webhook where the deadline's watch acknowledged the click first
    (``bot.discord.deadline``)."""
    async with answering(interaction):
        if interaction.response.is_done():
            await edit_answer(interaction.followup, view=view, **fields)
        else:
            await update_panel(interaction, view=view, **fields)


async def answer_panel(interaction: discord.Interaction, panel: Panel, *, edit: bool,
                       shown: CardImage | None = None) -> int | None:
    """Show a hand panel: in place when the interaction came from the user's own private panel
    (which shows the picture ``shown``, when known), else as a new private message — never on a
    public message, whatever the component. Its picture rides on the same answer. Returns the
    panel's message id when it was edited in place."""
    async with answering(interaction):
        return await _send_panel(interaction, panel, edit=edit, shown=shown)


async def _send_panel(interaction: discord.Interaction, panel: Panel, *, edit: bool,
                      shown: CardImage | None) -> int | None:
    # a Components V2 message (issue 44): discord.py sets the flag from the layout on every
    # write, and an edit that sends the layout keeps it (Discord never lets it be removed)
    layout = panel_layout(panel.content, panel.view, panel.image)
    if edit and on_ephemeral(interaction):
        assert interaction.message is not None
        if interaction.response.is_done():
            # acknowledged late (``bot.discord.deadline``): edited through the webhook
            await edit_answer(interaction.followup, content=None, embed=None, view=layout,
                              **pictured(panel.image, shown))
        else:
            await update_panel(interaction, content=None, embed=None, view=layout,
                               **pictured(panel.image, shown))
        return interaction.message.id
    if interaction.response.is_done():
        # "thinking…" (``bot.discord.deadline``): the panel replaces it
        await interaction.edit_original_response(
            content=None, view=layout,
            attachments=[attachment(panel.image)] if panel.image is not None else [])
        return None
    if panel.image is not None:
        await interaction.response.send_message(view=layout, ephemeral=True,
                                                file=attachment(panel.image))
    else:
        await interaction.response.send_message(view=layout, ephemeral=True)
    return None


async def defer_if_late(interaction: discord.Interaction) -> None:
    """Acknowledge now (Discord shows "thinking…") when the interaction has waited so long that
    the database write still to come might miss Discord's 3-second deadline — a busy bot, a
    slow disk. An interaction in time costs no extra request."""
    waited = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    if waited > LATE_SECONDS and not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def send(interaction: discord.Interaction, *, ephemeral: bool = True,
               **fields: Any) -> None:
    """Answer ``interaction`` with a message of ``fields`` (privately unless ``ephemeral`` is
    false): its callback, or a follow-up where the deadline watch acknowledged it first
    (``bot.discord.deadline``)."""
    async with answering(interaction):
        if interaction.response.is_done():
            await interaction.followup.send(ephemeral=ephemeral, **fields)
        else:
            await interaction.response.send_message(ephemeral=ephemeral, **fields)


async def say(interaction: discord.Interaction, text: str) -> None:
    """Answer ``interaction`` privately with ``text``."""
    await send(interaction, content=text)


def may_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_messages)


def display_name(interaction: discord.Interaction) -> str:
    return interaction.user.display_name
