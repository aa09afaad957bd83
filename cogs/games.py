"""Every registered game's command group, as each game's face builds it, with the subcommands
every game shares (``bot.discord.features``) and its ``event`` subgroup for games that run
events."""

from __future__ import annotations

from discord import app_commands

from bot.client import KortbordBot
from bot.discord import features


async def setup(bot: KortbordBot) -> None:
    for controller in bot.controllers.values():
        cog = controller.face.cog(bot, controller)
        group = next(c for c in cog.get_app_commands() if isinstance(c, app_commands.Group))
        features.add_commands(group, controller)
        features.add_user_commands(bot.tree, controller)
        if controller.game.event is not None:
            group.add_command(bot.events.commands(controller.game))
        await bot.add_cog(cog)
