"""``/kortbord``: ping and help — the bot's own health check and the entry to the games."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import KortbordBot
from bot.discord.errors import UserFacingError
from bot.games.base import GameSpec


def help_text(games: Iterable[GameSpec]) -> str:
    """What the bot plays, one line a game from the registry."""
    lines = [f"• **{g.name}** — {g.summary} Start with `/{g.kind} start`." for g in games]
    return ("**kortbord** plays card games in this channel:\n" + "\n".join(lines)
            + "\nYour cards are only ever shown to you: press **Your hand** on the table.")


def _pong_text(count: int) -> str:
    return f"Pong! ({count})"


class PingAgainButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"kortbord:ping:(?P<n>\d+)"
):
    """Carries its count in the custom id, so it keeps working after a restart."""

    def __init__(self, count: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Ping again",
                style=discord.ButtonStyle.secondary,
                custom_id=f"kortbord:ping:{count}",
            )
        )
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PingAgainButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        count = self.count + 1
        await interaction.response.edit_message(content=_pong_text(count), view=_ping_view(count))


def _ping_view(count: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PingAgainButton(count))
    return view


class Meta(commands.Cog):
    kortbord = app_commands.Group(name="kortbord", description="About the kortbord card-game bot")

    def __init__(self, bot: KortbordBot) -> None:
        self.bot = bot

    @kortbord.command(name="ping", description="Check that the bot is awake (only you see it)")
    async def ping(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(_pong_text(1), view=_ping_view(1), ephemeral=True)

    @kortbord.command(name="pings",
                      description="Whether you are pinged when it is your turn (only you see it)")
    @app_commands.describe(choice="on: a ping each turn; off: no ping, the table still shows "
                                  "whose turn it is")
    async def pings(self, interaction: discord.Interaction,
                    choice: Literal["on", "off"]) -> None:
        if choice not in ("on", "off"):
            raise UserFacingError("Choose on or off.")
        await self.bot.preferences.update_person(interaction.user.id, pings=choice == "on")
        text = ("You'll be pinged when it's your turn." if choice == "on" else
                "You won't be pinged any more; the table still shows when it's your turn.")
        await interaction.response.send_message(text, ephemeral=True)

    @kortbord.command(name="help", description="What the bot does and how to start a game")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(help_text(self.bot.games.values()),
                                                ephemeral=True)


async def setup(bot: KortbordBot) -> None:
    bot.add_dynamic_items(PingAgainButton)
    await bot.add_cog(Meta(bot))
