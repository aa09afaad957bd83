"""The leaderboards room: a game's ``top`` (the server's leaderboard by skill rating) and
``profile`` (one person's rating, record and rating history) in the current season
(docs/ratings.md); public in the table language unless asked privately."""

from __future__ import annotations

from collections.abc import Mapping

import discord
from discord import app_commands

from bot.discord import ratings
from bot.discord.answers import defer_if_late, user_lang
from bot.discord.common import label, shown_name
from bot.discord.controller import TableController
from bot.discord.errors import UserFacingError
from bot.discord.layout import PROFILE, answer_layout
from bot.discord.routing import Handler, Route
from bot.discord.shared import SharedCommand
from bot.discord.translator import cmd
from bot.i18n import tr


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
    await interaction.response.send_message(view=answer_layout(embed), ephemeral=private)


async def profile(controller: TableController, interaction: discord.Interaction,
                  player: discord.abc.User | None, *, private: bool = False) -> None:
    """One person's rating, record and rating-history chart in this season."""
    who = player or interaction.user
    await _profile(controller, interaction, who.id, who.display_name, private=private)


async def _profile(controller: TableController, interaction: discord.Interaction,
                   player_id: int, name: str, *, private: bool) -> None:
    if interaction.guild_id is None:
        raise UserFacingError("Ratings are kept only in servers: games in a DM or group DM "
                              "are not rated.")
    lang = user_lang(interaction) if private else await controller.channel_lang(interaction)
    await defer_if_late(interaction)
    embed, chart = await ratings.profile(
        controller.service.store, interaction.guild_id, controller.game.kind,
        controller.game.name, player_id, shown_name(name), name, lang)
    files = [chart] if chart is not None else []
    layout = answer_layout(embed, picture=chart)
    if interaction.response.is_done():
        await interaction.followup.send(view=layout, files=files, ephemeral=True)
    else:
        await interaction.response.send_message(view=layout, files=files, ephemeral=private)


async def seat_profile(controller: TableController, interaction: discord.Interaction,
                       route: Route) -> None:
    """A seat's Profile button on the table (``bot.discord.layout.SeatBlocks``): that
    player's profile, privately; a computer is not rated, and says so."""
    if interaction.guild_id is None:
        raise UserFacingError("Ratings are kept only in servers: games in a DM or group DM "
                              "are not rated.")
    record = await controller.service.store.table(route.table_id)
    if record is None or record.guild_id != interaction.guild_id:
        raise UserFacingError("That game is over, so this button does nothing now.")
    player = int(route.arg or 0)
    names = {s.player_id: s.name for s in record.seats}
    live = await controller.service.get(record.channel_id)
    if live is not None and live.table_id == record.id and live.engine is not None:
        names |= live.engine.names  # players who left a game are still named there
    if player not in names:
        raise UserFacingError("That game is over, so this button does nothing now.")
    if player < 0:  # computers have negative ids
        lang = user_lang(interaction)
        await interaction.response.send_message(
            tr(lang, "{name} is a computer player: computers are not rated.",
               name=label(player, names[player])), ephemeral=True)
        return
    await _profile(controller, interaction, player, names[player], private=True)


def routes(controller: TableController) -> Mapping[str, Handler]:
    """A seat's Profile button; the leaderboards are otherwise answers to commands."""

    async def profile_(interaction: discord.Interaction, route: Route, _: list[str]) -> None:
        await seat_profile(controller, interaction, route)

    return {PROFILE: profile_}


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
