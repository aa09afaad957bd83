"""``/kortbord``: ping and help — the bot's own health check and the entry to the games."""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import KortbordBot

HELP_TEXT = (
    "**kortbord** plays two card games in this channel:\n"
    "• **Dubb** — get rid of your cards; the last player holding cards loses. "
    "Start with `/dubb start`.\n"
    "• **Tonk** — knock rummy for chips; `/tonk start`, standings with `/tonk ledger`.\n"
    "Your cards are only ever shown to you: press **Your hand** on the table."
)


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

    @kortbord.command(name="help", description="What the bot does and how to start a game")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(HELP_TEXT, ephemeral=True)


async def setup(bot: KortbordBot) -> None:
    bot.add_dynamic_items(PingAgainButton)
    await bot.add_cog(Meta(bot))
