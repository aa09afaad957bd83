"""The room where a player looks at their hand: ``Your hand`` on the table, the panel's own
menus, and the ``hand`` command; privately, in place on a panel the click came from."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.discord.answers import on_ephemeral, user_lang
from bot.discord.controller import TableController
from bot.discord.deadline import in_time
from bot.discord.errors import UserFacingError
from bot.discord.routing import Handler, Route
from bot.discord.shared import SharedCommand
from bot.discord.translator import cmd


async def show_hand(controller: TableController, interaction: discord.Interaction,
                    route: Route | None = None, *, arg: str | None = None,
                    notice: str | None = None, edit: bool = False) -> None:
    """The user's hand panel: their cards and exactly their legal moves (``arg``: the face's
    filter, such as a rank), with ``notice`` on top; edited in place when ``edit`` and the
    click came from a panel."""
    async with in_time(interaction, update=edit and on_ephemeral(interaction)):
        await _show_hand(controller, interaction, route, arg=arg, notice=notice, edit=edit)


async def _show_hand(controller: TableController, interaction: discord.Interaction,
                     route: Route | None, *, arg: str | None, notice: str | None,
                     edit: bool) -> None:
    snapshot = await controller.table_for(interaction, route)
    player = interaction.user.id
    if snapshot.is_lobby:
        raise UserFacingError("The game hasn't started yet: your cards come when it does.")
    # a player who left a game may still look at what they held
    if snapshot.seat_of(player) is None and player not in controller.names(snapshot):
        raise UserFacingError("You're not playing at this table.")
    panel = await controller.panels.draw(snapshot, player, user_lang(interaction),
                                         notice=notice, arg=arg)
    answered = await controller.panels.answer(interaction, snapshot.table_id, panel, edit=edit)
    if snapshot.seat_of(player) is not None:
        await controller.panels.retire(controller.panels.keep(interaction, snapshot, answered))
    await controller.bring_up_to_date(snapshot, interaction)


def routes(controller: TableController) -> Mapping[str, Handler]:
    """``Your hand`` on the table (a new panel) or on a panel (in place)."""

    async def hand(i: discord.Interaction, route: Route, _: list[str]) -> None:
        await show_hand(controller, i, route, edit=on_ephemeral(i))

    return {"hand": hand}


def commands(controller: TableController) -> list[SharedCommand]:
    async def hand(interaction: discord.Interaction) -> None:
        await show_hand(controller, interaction)

    return [SharedCommand(cmd("hand"), hand,
                          cmd("Show your hand and your moves (only you see it)"))]
