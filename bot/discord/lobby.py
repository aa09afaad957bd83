"""The lobby room: opening a table and seating people and computers, starting and stopping it,
and Play again on a finished one; the lobby's buttons and the ``join``, ``leave`` and ``stop``
commands."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import discord

from bot.discord import checks
from bot.discord.answers import defer_if_late, display_name, may_manage, say, user_lang
from bot.discord.common import level_text, shown_name
from bot.discord.controller import TableController, closed_text
from bot.discord.deadline import in_time
from bot.discord.errors import UserFacingError
from bot.discord.reach import check_public_table, place_of
from bot.discord.routing import Handler, Route
from bot.discord.shared import SharedCommand
from bot.discord.showing import Hook, TableRender
from bot.discord.translator import cmd
from bot.gamekit.contract import Seat
from bot.i18n import tr
from bot.storage import SeatInfo
from bot.table.computers import (
    DEFAULT_LEVEL,
    computer_label,
    free_computer,
    game_levels,
    level_name,
)
from bot.table.service import STOPPED, ApplyResult, TableSnapshot
from bot.table.settings import GameDefaults


async def _check_channel(controller: TableController, interaction: discord.Interaction
                         ) -> None:
    place = place_of(interaction)
    assert place is not None and interaction.channel_id is not None
    # a thread follows its channel
    channel = getattr(interaction.channel, "parent_id", None) or interaction.channel_id
    if not await controller.settings.may_host(place, channel):
        raise UserFacingError("Games can't be started in this channel: the server's "
                              "managers chose other channels for them.")


async def open_lobby(controller: TableController, interaction: discord.Interaction,
                     options: Any, *, turn_seconds: int | None = None, computers: int = 0,
                     rated: bool = True, level: str | None = None,
                     invited: discord.abc.User | None = None) -> None:
    """Open a lobby with the user as host, ``computers`` computer players of ``level``
    seated (``None``: the server's default level) and a turn time of ``turn_seconds`` (0: no
    timer; ``None``: the server's default for this game, else the game's); ``rated: False``
    keeps it out of the skill ratings; ``invited``: the person the lobby names as invited
    (``bot.discord.challenge``). The command's answer is the lobby itself (acknowledged late:
    a private line, and the lobby posted)."""
    place = place_of(interaction)
    if interaction.channel_id is None or place is None:
        raise UserFacingError("Games are played in server channels.")
    check_public_table(interaction)
    await _check_channel(controller, interaction)
    await defer_if_late(interaction)
    if turn_seconds is None:
        turn_seconds = (await controller.defaults(place)).turn_seconds
    if turn_seconds is None:
        turn_seconds = controller.game.default_turn_seconds
    checks.turn_seconds(turn_seconds)
    most = controller.game.max_players - 1
    if not 0 <= computers <= most:
        raise UserFacingError("A {game} table seats {seats}: from 0 to {most} computer "
                              "players besides you.", game=controller.game.name,
                              seats=controller.game.max_players, most=most)
    level = _level(controller, level, await controller.defaults(place))
    seated: list[SeatInfo] = []
    for _ in range(computers):
        player_id, name = free_computer(seated, level)
        seated.append(SeatInfo(player_id=player_id, name=name, is_computer=True))
    snapshot = await controller.service.open_lobby(
        place, interaction.channel_id, controller.game.kind, interaction.user.id,
        display_name(interaction), options, turn_seconds=turn_seconds,
        guests=[Seat(s.player_id, s.name) for s in seated],
        # ratings live only in servers (README, "Play anywhere")
        locale=await controller.channel_lang(interaction),
        rated=rated and interaction.guild_id is not None,
    )
    await _opened(controller, interaction, snapshot, invited)


async def _opened(controller: TableController, interaction: discord.Interaction,
                  snapshot: TableSnapshot, invited: discord.abc.User | None = None) -> None:
    late = interaction.response.is_done()
    if late:
        # acknowledged privately while the lobby was opened (``defer_if_late``): that answer
        # says where it is, and the lobby is posted as the table's first message
        await interaction.followup.send(tr(
            user_lang(interaction), "{game} lobby opened below. Others can press **Join**.",
            game=controller.game.name), ephemeral=True)
    invitation = None if invited is None else tr(
        controller.table_lang(snapshot), "{host} invites {guest} to play {game}: press **Join** "
        "to sit down.", host=shown_name(display_name(interaction)), guest=invited.mention,
        game=controller.game.name)

    def draw() -> TableRender:
        # the lobby's first post names whom it invites; its later versions need not
        return replace(controller.lobby_render(snapshot), content=invitation)

    showing = await controller.showing(snapshot, draw, via=interaction)
    if not late:
        # the lobby is the command's own answer (issue 49): one request where a private line
        # and the lobby's post took two, and it shows as soon as Discord has it
        showing = replace(showing, hook=Hook.answering(interaction))
    if invited is not None and await controller.settings.pings(snapshot.guild_id, invited.id):
        # the invitation notifies them, unless they turned pings off; whose turn comes first
        # is pinged all the same (the turn passes from nobody's to theirs)
        showing = replace(showing, ping=invited.id)
    try:
        await controller.publisher.post_new(showing)
    finally:
        # the lobby is stored whether or not its post went out: its 15 minutes are timed all
        # the same, so one that nobody could see closes instead of holding the channel
        controller.changed(snapshot)


async def play_again(controller: TableController, interaction: discord.Interaction,
                     table_id: int) -> None:
    """A new lobby in the same channel with the same options and the same people and
    computers seated (those now at another table excepted); whoever pressed is the host."""
    place = place_of(interaction)
    if place is None or interaction.channel_id is None:
        raise UserFacingError("Games are played in server channels.")
    record = await controller.service.store.table(table_id)
    if (record is None or record.guild_id != place or record.is_live
            or not record.has_started):
        raise UserFacingError("That game is over, so this button does nothing now.")
    await _check_channel(controller, interaction)
    await defer_if_late(interaction)
    me = interaction.user.id
    guests: list[Seat] = []
    for seat in record.seats:
        if seat.player_id == me:
            continue
        if not seat.is_computer and await controller.service.table_of_player(
                place, seat.player_id) is not None:
            continue
        guests.append(Seat(seat.player_id, seat.name))
    snapshot = await controller.service.open_lobby(
        place, interaction.channel_id, controller.game.kind, me,
        display_name(interaction), record.options, turn_seconds=record.turn_seconds,
        guests=guests[: controller.game.max_players - 1], locale=record.locale,
        rated=record.rated,
    )
    await _opened(controller, interaction, snapshot)


def _level(controller: TableController, level: str | None, defaults: GameDefaults) -> str:
    """The computer level asked for, else the server's default for this game, else
    ``normal``; ``UserFacingError`` for one this game does not offer."""
    offered = game_levels(controller.game)
    if level is None:
        chosen = level_name(defaults.computer_level)
        return chosen if chosen in offered else DEFAULT_LEVEL
    if level not in offered:
        raise UserFacingError("That is not a computer level of this game. Nothing was "
                              "changed.")
    return level


async def add_computer(controller: TableController, interaction: discord.Interaction,
                       route: Route | None = None, level: str | None = None) -> None:
    """The host seats one more computer player (issue 8) of ``level`` (issue 34;
    ``None``: the server's default level)."""
    snapshot = await controller.table_for(interaction, route)
    if not snapshot.is_lobby:
        raise UserFacingError("Computer players are seated in the lobby, before the start.")
    place = place_of(interaction)
    assert place is not None
    level = _level(controller, level, await controller.defaults(place))
    player_id, name = free_computer(snapshot.seats, level)
    result = await controller.service.add_computer(
        snapshot.channel_id, interaction.user.id, player_id, name
    )
    lang = user_lang(interaction)
    await _after_change(controller, interaction, result, tr(
        lang, "{name} ({level}) sat down at the table.", name=computer_label(name),
        level=level_text(level, lang)))


async def join(controller: TableController, interaction: discord.Interaction,
               route: Route | None = None) -> None:
    snapshot = await controller.table_for(interaction, route)
    result = await controller.service.join(
        snapshot.channel_id, interaction.user.id, display_name(interaction)
    )
    await _after_change(controller, interaction, result,
                        tr(user_lang(interaction), "You joined the table."))


async def leave(controller: TableController, interaction: discord.Interaction,
                route: Route | None = None) -> None:
    snapshot = await controller.table_for(interaction, route)
    result = await controller.service.leave(snapshot.channel_id, interaction.user.id)
    if result.snapshot.status == "cancelled":
        await _closed(controller, interaction, result.snapshot)
        return
    lang = user_lang(interaction)
    text = (None if snapshot.is_lobby
            else controller.face.left_text(result.events, snapshot, lang))
    if text is None:
        text = (tr(lang, "You left the table.") if snapshot.is_lobby
                else tr(lang, "You left the game."))
    await _after_change(controller, interaction, result, text)


async def start(controller: TableController, interaction: discord.Interaction,
                route: Route | None = None) -> None:
    # a thousand lobbies shown at once are started at once (issue 49): kept in time
    async with in_time(interaction, update=False):
        snapshot = await controller.table_for(interaction, route)
        result = await controller.service.start(snapshot.channel_id, interaction.user.id)
        await _after_change(controller, interaction, result,
                            tr(user_lang(interaction), "The game has started."), opening=True)


async def cancel(controller: TableController, interaction: discord.Interaction,
                 route: Route | None = None) -> None:
    # read without loading the game: stopping must work even when the stored game doesn't
    # load any more (issue 8)
    if interaction.channel_id is None:
        raise UserFacingError("Games are played in server channels.")
    record = await controller.service.live_record(interaction.channel_id)
    if record is None or record.kind != controller.game.kind:
        raise UserFacingError("There is no {game} game in this channel.",
                              game=controller.game.name)
    if route is not None and route.table_id != record.id:
        raise UserFacingError("That button belongs to an earlier game in this channel.")
    closed = await controller.service.cancel(
        record.channel_id, interaction.user.id, may_manage(interaction),
        note={"why": STOPPED, "by": display_name(interaction),
              "lobby": record.status == "lobby"},
    )
    await _closed(controller, interaction, closed)


async def _closed(controller: TableController, interaction: discord.Interaction,
                  snapshot: TableSnapshot) -> None:
    # a cancelled table's publishing is its closing (``TableController.publish``)
    async with controller.shown_after(snapshot, interaction):
        await say(interaction, closed_text(snapshot.closed_note, user_lang(interaction)))


async def _after_change(controller: TableController, interaction: discord.Interaction,
                        result: ApplyResult, text: str, *, opening: bool = False) -> None:
    controller.remember(result.snapshot, result.events, opening=opening)
    async with controller.shown_after(result.snapshot, interaction):
        await say(interaction, text)


def routes(controller: TableController) -> Mapping[str, Handler]:
    """The lobby's buttons and menu, and Play again on a finished table."""

    async def join_(i: discord.Interaction, route: Route, _: list[str]) -> None:
        await join(controller, i, route)

    async def leave_(i: discord.Interaction, route: Route, _: list[str]) -> None:
        await leave(controller, i, route)

    async def start_(i: discord.Interaction, route: Route, _: list[str]) -> None:
        await start(controller, i, route)

    async def cancel_(i: discord.Interaction, route: Route, _: list[str]) -> None:
        await cancel(controller, i, route)

    async def add_computer_(i: discord.Interaction, route: Route, values: list[str]) -> None:
        # the button sends no values (the default level), the lobby's menu one level
        await add_computer(controller, i, route, values[0] if values else None)

    async def again(i: discord.Interaction, route: Route, _: list[str]) -> None:
        await play_again(controller, i, route.table_id)

    return {"join": join_, "leave": leave_, "start": start_, "cancel": cancel_,
            "add_computer": add_computer_, "again": again}


def commands(controller: TableController) -> list[SharedCommand]:
    """``join``, ``leave`` and ``stop``: each game words them (a lobby, a table between
    hands, what leaving costs)."""

    async def join_(interaction: discord.Interaction) -> None:
        await join(controller, interaction)

    async def leave_(interaction: discord.Interaction) -> None:
        await leave(controller, interaction)

    async def stop(interaction: discord.Interaction) -> None:
        await cancel(controller, interaction)

    return [SharedCommand(cmd("join"), join_), SharedCommand(cmd("leave"), leave_),
            SharedCommand(cmd("stop"), stop)]
