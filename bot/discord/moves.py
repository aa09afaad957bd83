"""The moves room: a player's move, by a button on the table or their hand panel, or by a
command; applied through the table service, answered with the player's panel (in place when
the click came from it) and published on the table.

A game's face turns its components and commands into moves (``button`` for a component that
makes one fixed move); this room is the same for every game."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.answers import on_ephemeral, say, user_lang
from bot.discord.controller import TableController
from bot.discord.deadline import in_time
from bot.discord.errors import UserFacingError
from bot.discord.hands import show_hand
from bot.discord.routing import Handler, Route
from bot.i18n import N_, tr
from bot.table.errors import StaleMoveError

STALE_PANEL_NOTICE = N_("⚠️ The table moved on since this was shown. Here is where things "
                        "stand now.")


async def move(controller: TableController, interaction: discord.Interaction, move: Any, *,
               route: Route | None = None, from_panel: bool = False) -> None:
    """Apply ``move`` for the user and answer: in place on the hand panel it came from, or
    with a fresh private panel (table buttons, slash commands)."""
    # under load the table's read, the write and the panel's drawing can outlast Discord's
    # deadline: the watch acknowledges the click in time (``bot.discord.deadline``)
    async with in_time(interaction, update=from_panel and on_ephemeral(interaction)):
        await _move(controller, interaction, move, route=route, from_panel=from_panel)


async def _move(controller: TableController, interaction: discord.Interaction, move: Any, *,
                route: Route | None, from_panel: bool) -> None:
    snapshot = await controller.table_for(interaction, route)
    if snapshot.is_lobby:
        raise UserFacingError("The game hasn't started yet.")
    player = interaction.user.id
    if snapshot.seat_of(player) is None:
        raise UserFacingError("You're not playing at this table.")
    counter = route.counter if route is not None else None
    lang = user_lang(interaction)
    try:
        result = await controller.service.apply(snapshot.channel_id, player, move, counter)
    except StaleMoveError as stale:
        if from_panel:
            await show_hand(controller, interaction, route, edit=True,
                            notice=tr(lang, STALE_PANEL_NOTICE))
            return
        await say(interaction, stale.message.render(lang))
        # where only clicks write the table (a group DM), this one brings it up to date: its
        # other buttons may be as old, and nobody's click would (a table left between hands
        # by a restart after the deal's commit offers only the deal's button, which is stale)
        now = await controller.service.get(snapshot.channel_id)
        if now is not None and now.table_id == snapshot.table_id:
            await controller.bring_up_to_date(now, interaction)
        return
    # the engine is live and shared: read everything for this move before the next await
    notice = controller.face.move_notice(result.events, player, lang) or tr(lang, "Done.")
    controller.remember(result.snapshot, result.events)
    async with controller.shown_after(result.snapshot, interaction):
        panel = await controller.panels.draw(result.snapshot, player, lang, notice=notice,
                                             arg=None)
        answered = await controller.panels.answer(interaction, result.snapshot.table_id, panel,
                                                  edit=from_panel)
        retired = controller.panels.keep(interaction, result.snapshot, answered)
    await controller.panels.retire(retired)


def button(controller: TableController, fixed: Any) -> Handler:
    """A button that makes one fixed move, on the table or on a hand panel."""

    async def handler(i: discord.Interaction, route: Route, _: list[str]) -> None:
        await move(controller, i, fixed, route=route, from_panel=on_ephemeral(i))

    return handler
