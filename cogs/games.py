"""Every registered game's command group, as each game's face builds it."""

from __future__ import annotations

from bot.client import KortbordBot


async def setup(bot: KortbordBot) -> None:
    for controller in bot.controllers.values():
        await bot.add_cog(controller.face.cog(bot, controller))
