"""The subcommands every game's command group shares (``join``, ``hand``, ``history``, …): a
room declares each once (``SharedCommand``), and each game words them (``SharedWords``), since
their descriptions name the game and the host never does (``bot.discord.features`` adds them).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from discord import app_commands


@dataclass(frozen=True)
class SharedCommand:
    """One shared subcommand: its name (``cmd``), its callback (the interaction, then its
    options, renamed and described with ``app_commands.rename`` and ``describe`` as any
    command's), and its description where every game words it alike."""

    name: app_commands.locale_str
    callback: Callable[..., Awaitable[None]]
    description: app_commands.locale_str | None = None


@dataclass(frozen=True)
class SharedWords:
    """How one game's group takes the shared subcommands: ``order`` names every subcommand of
    the group in the order it shows them, the game's own among the shared ones (a shared one
    left out is not in the group); ``descriptions`` word those that name the game."""

    order: Sequence[str]
    descriptions: Mapping[str, str | app_commands.locale_str]
    user_command: app_commands.locale_str | None = None
    """The game's name for the user command that invites a person to a lobby ("Play {game}
    with…", ``bot.discord.challenge``); ``None``: the game has none."""

    def command(self, shared: SharedCommand) -> app_commands.Command[Any, ..., None] | None:
        """``shared`` as this game's subcommand, or ``None`` when the game leaves it out."""
        name = shared.name.message
        if name not in self.order:
            return None
        description = self.descriptions.get(name, shared.description)
        if description is None:
            raise ValueError(f"the shared subcommand {name} needs the game's description")
        return app_commands.Command(name=shared.name, description=description,
                                    callback=shared.callback)
