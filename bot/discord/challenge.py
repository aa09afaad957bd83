"""The challenge room (issue 45): a lobby that invites one person, opened from any chat where
the app reaches — a right-click on someone, Apps → "Play <game> with…" (a user command, which each
game names in ``SharedWords.user_command``), or ``/… challenge user:``. The lobby opens in the
channel with the game's defaults, and its post names the invited person and notifies them
(unless they turned pings off)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.discord.controller import TableController
from bot.discord.errors import UserFacingError
from bot.discord.lobby import open_lobby
from bot.discord.reach import ANYWHERE_CONTEXTS, ANYWHERE_INSTALLS, place_of
from bot.discord.routing import Handler
from bot.discord.shared import SharedCommand
from bot.discord.translator import cmd


async def challenge(controller: TableController, interaction: discord.Interaction,
                    who: discord.abc.User) -> None:
    """Open a lobby of the game in this channel that invites ``who``."""
    if who.bot or who.id == interaction.user.id:
        raise UserFacingError("Pick someone else to play with: not yourself, and not a bot.")
    place = place_of(interaction)
    defaults = await controller.defaults(place) if place is not None else None
    options: Any = controller.game.options.model_validate(
        defaults.options if defaults is not None else {})
    await open_lobby(controller, interaction, options, invited=who)


def routes(controller: TableController) -> Mapping[str, Handler]:
    return {}


def commands(controller: TableController) -> list[SharedCommand]:
    @app_commands.rename(user=cmd("user"))
    @app_commands.describe(user=cmd("Whom to invite"))
    async def challenge_(interaction: discord.Interaction, user: discord.User) -> None:
        await challenge(controller, interaction, user)

    return [SharedCommand(cmd("challenge"), challenge_,
                          cmd("Open a lobby in this chat and invite someone to it"))]


def user_command(controller: TableController,
                 name: app_commands.locale_str) -> app_commands.ContextMenu:
    """The game's "Play … with…" on a person, ``name`` as the game words it."""

    async def play_with(interaction: discord.Interaction, user: discord.User) -> None:
        await challenge(controller, interaction, user)

    return app_commands.ContextMenu(name=name, callback=play_with,
                                    allowed_installs=ANYWHERE_INSTALLS,
                                    allowed_contexts=ANYWHERE_CONTEXTS)
