"""The Activity room: **Play in an Activity** on a table or a lobby opens the channel's table in
Discord's Activity (``bot.activity``) for whoever pressed it, and the app's Entry Point command
opens it from the command list.

The button answers with interaction callback type 12, ``LAUNCH_ACTIVITY``: Discord opens the
Activity in the channel (or the person joins the one running there). The Entry Point command is
Discord's own handler (2, ``DISCORD_LAUNCH_ACTIVITY``): Discord launches the Activity without
asking the bot, so nothing here answers it; discord.py could not dispatch the command anyway
(it knows no command of type 4), and a launch that skips the bot is one request fewer.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import discord

from bot.discord.controller import TableController
from bot.discord.errors import UserFacingError
from bot.discord.routing import GONE_TEXT, Handler, Route
from bot.discord.shared import SharedCommand
from bot.discord.translator import cmd
from bot.i18n import DISCORD_LOCALES, tr

PRIMARY_ENTRY_POINT = 4
"""The Entry Point command's type (``ApplicationCommandType``)."""
DISCORD_LAUNCH_ACTIVITY = 2
"""The Entry Point command's handler: Discord launches the Activity itself."""
ENTRY_POINT_NAME = "launch"
ENTRY_POINT_DESCRIPTION = cmd("Play cards with your friends in an Activity")


_log = logging.getLogger(__name__)

THREADS = frozenset({discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                     discord.ChannelType.news_thread})


def _in_thread(interaction: discord.Interaction) -> bool:
    return getattr(interaction.channel, "type", None) in THREADS


async def launch(interaction: discord.Interaction) -> None:
    """Open the Activity for whoever pressed (callback type 12). Where Discord cannot launch
    one it refuses the callback (400): in a thread, whose tables no longer offer the button
    (``TableController._with_launch``) but an old one may still be pressed, or for someone who
    may not use Activities there (Use Activities). Nothing went wrong on the bot's side, and the
    interaction is still unanswered: they are told so privately."""
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as refused:
        if refused.status != 400:
            raise
        # a warning, not an error: an old button in a thread, or a person without the
        # permission; one in a channel that should launch says the app's Activity is off
        _log.warning("Discord refused to launch the Activity: user=%s guild=%s channel=%s: %s",
                     interaction.user.id, interaction.guild_id, interaction.channel_id,
                     refused.text)
        if _in_thread(interaction):
            raise UserFacingError(GONE_TEXT) from refused
        if interaction.guild_id is not None and not (
                interaction.permissions.use_embedded_activities):
            raise UserFacingError("You don't have the permission to do that here.") from refused
        raise UserFacingError("That is not open to you now. Nothing was changed.") from refused


def routes(controller: TableController) -> Mapping[str, Handler]:
    async def activity(i: discord.Interaction, route: Route, _: list[str]) -> None:
        await launch(i)

    return {"activity": activity}


def commands(controller: TableController) -> list[SharedCommand]:
    return []


def entry_point_command() -> dict[str, Any]:
    """The app's Entry Point command as it is synced with the others (a bulk overwrite of the
    global commands must hold it once Activities are on: Discord refuses one that would drop
    it), its description in every language the bot speaks."""
    message = ENTRY_POINT_DESCRIPTION.message
    return {
        "name": ENTRY_POINT_NAME,
        "type": PRIMARY_ENTRY_POINT,
        "handler": DISCORD_LAUNCH_ACTIVITY,
        "description": message,
        "description_localizations": {
            locale: tr(lang, message) for locale, lang in DISCORD_LOCALES.items()
            if tr(lang, message) != message},
        "integration_types": [0, 1],
        "contexts": [0, 1, 2],
    }
