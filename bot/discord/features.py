"""The Discord layer's rooms, wired in one place: each room registers its own components and
declares the subcommands every game's group shares; a game's face adds its own of both.

A room is a module with ``routes(controller)`` (its components, by action) and
``commands(controller)`` (its shared subcommands). Moves have no room of their own here: every
move is a game's (its face routes them, through ``bot.discord.moves``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from discord import app_commands

from bot.discord import (
    activity,
    challenge,
    coach,
    daily,
    hands,
    history,
    leaderboards,
    lobby,
    replay_share,
)
from bot.discord.controller import TableController
from bot.discord.routing import Handler, Router
from bot.discord.shared import SharedCommand


class Room(Protocol):
    def routes(self, controller: TableController) -> Mapping[str, Handler]: ...

    def commands(self, controller: TableController) -> list[SharedCommand]: ...


ROOMS: tuple[Room, ...] = (lobby, challenge, hands, history, coach, leaderboards, daily,
                          replay_share, activity)


def register_routes(router: Router, controller: TableController) -> None:
    """Route the components of every room and of the game's face to ``controller``'s game
    (a face's own action of the same name wins)."""
    handlers: dict[str, Handler] = {}
    for room in ROOMS:
        handlers.update(room.routes(controller))
    handlers.update(controller.face.routes(controller))
    for action, handler in handlers.items():
        router.register(controller.game.kind, action, handler)


def add_commands(group: app_commands.Group, controller: TableController) -> None:
    """Add the shared subcommands the game takes to its command ``group``, in the order its
    face gives (``SharedWords``): Discord shows them as it did when each game declared its
    own."""
    words = controller.face.shared
    for room in ROOMS:
        for shared in room.commands(controller):
            command = words.command(shared)
            if command is not None:
                group.add_command(command)
    for name in words.order:
        command = group.get_command(name)
        if command is None:
            raise ValueError(f"{group.name} has no subcommand {name}")
        # the group keeps its subcommands in the order they were added
        group.remove_command(name)
        group.add_command(command)


def add_user_commands(tree: app_commands.CommandTree[Any], controller: TableController) -> None:
    """The game's user command ("Play <game> with…" on a person), if its face names one."""
    name = controller.face.shared.user_command
    if name is not None:
        tree.add_command(challenge.user_command(controller, name))
