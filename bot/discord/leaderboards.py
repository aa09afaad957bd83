"""The leaderboards room: a game's ``top`` (the server's leaderboard by skill rating) and
``profile`` (one person's rating, record and rating history) in the current season
(docs/ratings.md); public in the table language unless asked privately."""

from __future__ import annotations

from collections.abc import Mapping

import discord
from discord import app_commands

from bot.discord import ratings
from bot.discord.answers import defer_if_late, user_lang
from bot.discord.common import shown_name
from bot.discord.controller import TableController
from bot.discord.errors import UserFacingError
from bot.discord.routing import Handler
from bot.discord.shared import SharedCommand
from bot.discord.translator import cmd


async def top(controller: TableController, interaction: discord.Interaction, *,
              private: bool = False) -> None:
    """This game's leaderboard in this server's current season (docs/ratings.md)."""
    if interaction.guild_id is None:
        raise UserFacingError("Ratings are kept only in servers: games in a DM or group DM "
                              "are not rated.")
    store = controller.service.store
    season = await store.current_season(interaction.guild_id, controller.game.kind)
    rows = await store.ratings(interaction.guild_id, controller.game.kind, season)
    # shown to the channel in its table language only when public, as the statistics
    lang = user_lang(interaction) if private else await controller.channel_lang(interaction)
    embed = ratings.top_embed(rows, interaction.user.id, controller.game.name, season, lang)
    await interaction.response.send_message(embed=embed, ephemeral=private)


async def profile(controller: TableController, interaction: discord.Interaction,
                  player: discord.abc.User | None, *, private: bool = False) -> None:
    """One person's rating, record and rating-history chart in this season."""
    if interaction.guild_id is None:
        raise UserFacingError("Ratings are kept only in servers: games in a DM or group DM "
                              "are not rated.")
    who = player or interaction.user
    lang = user_lang(interaction) if private else await controller.channel_lang(interaction)
    await defer_if_late(interaction)
    embed, chart = await ratings.profile(
        controller.service.store, interaction.guild_id, controller.game.kind,
        controller.game.name, who.id, shown_name(who.display_name), who.display_name, lang)
    files = [chart] if chart is not None else []
    if interaction.response.is_done():
        await interaction.followup.send(embed=embed, files=files, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, files=files,
                                                ephemeral=private)


def routes(controller: TableController) -> Mapping[str, Handler]:
    """None: the leaderboards are answers to commands only."""
    return {}


def commands(controller: TableController) -> list[SharedCommand]:
    """``top`` and ``profile``: each game words them (they name the game)."""

    @app_commands.rename(private=cmd("private"))
    @app_commands.describe(private=cmd("Show the answer only to you"))
    async def top_(interaction: discord.Interaction, private: bool = False) -> None:
        await top(controller, interaction, private=private)

    @app_commands.rename(player=cmd("player"), private=cmd("private"))
    @app_commands.describe(player=cmd("Whose profile (default: yours)"),
                           private=cmd("Show the answer only to you"))
    async def profile_(interaction: discord.Interaction, player: discord.User | None = None,
                       private: bool = False) -> None:
        await profile(controller, interaction, player, private=private)

    return [SharedCommand(cmd("top"), top_), SharedCommand(cmd("profile"), profile_)]
