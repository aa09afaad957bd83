"""Every game's command group as Discord receives it when the bot syncs: the subcommands every
game shares are declared once (``bot.discord.features``) and each game words and orders them,
so that the synced tree is the one each game declared on its own before (issue 43).

``command_tree.json`` beside this file is that tree, names and descriptions in English (their
translations follow from them). A command changed on purpose: ``python -m
tests.unit.test_command_tree`` writes the tree anew."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
from discord.ext import commands

import cogs.games
from bot.discord.controller import TableController, load_face
from bot.discord.events import EventController
from bot.games.registry import GAMES

TREE = Path(__file__).with_name("command_tree.json")


async def synced_tree() -> list[dict[str, Any]]:
    """The games' command groups, built as the bot builds them (nothing else is needed)."""
    bot: Any = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    nothing = cast(Any, None)
    bot.controllers = {spec.kind: TableController(nothing, nothing, spec, load_face(spec),
                                                  nothing) for spec in GAMES.values()}
    bot.events = SimpleNamespace(commands=lambda game: EventController.commands(nothing, game))
    await cogs.games.setup(bot)
    return [command.to_dict(bot.tree) for command in bot.tree.get_commands()]


async def test_every_game_has_the_command_group_it_had() -> None:
    assert await synced_tree() == json.loads(TREE.read_text(encoding="utf-8"))


if __name__ == "__main__":
    TREE.write_text(json.dumps(asyncio.run(synced_tree()), indent=1, ensure_ascii=False) + "\n",
                    encoding="utf-8")
