"""The flow every game shares on Discord: lobby, table message, hand panel, moves, errors.

A game's command group hands an interaction and (for moves) an engine move to its
``TableController``; the controller calls the table service, answers the interaction (always,
within the deadline) and publishes the new table. What differs per game — how a table, a hand
panel and events look, its own components and commands — is the game's ``GameFace``, which
``GameSpec.face`` names and ``load_face`` loads.
"""

from __future__ import annotations

import importlib
import logging
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

import discord
from discord.ext import commands

from bot.discord import checks
from bot.discord.common import (
    LobbySeat,
    closed_embed,
    labelled,
    lobby_embed,
    lobby_view,
    shown_name,
)
from bot.discord.errors import UserFacingError
from bot.discord.publisher import Showing, TablePublisher, TableRender
from bot.discord.routing import Handler, Route, Router
from bot.games.base import GameSpec, Seat
from bot.storage import SeatInfo
from bot.table import TableService
from bot.table.computers import computer_label, free_computer
from bot.table.errors import NoTableError, StaleMoveError
from bot.table.service import (
    ABANDONED,
    EMPTY,
    IDLE,
    LOBBY_TTL_SECONDS,
    STOPPED,
    ApplyResult,
    TableSnapshot,
)
from bot.table.settings import SettingsService

_log = logging.getLogger(__name__)

RECENT_LINES = 6

STALE_PANEL_NOTICE = "⚠️ The table moved on since this was shown — here is where things stand now."


def closed_text(note: Mapping[str, Any] | None) -> str:
    """How a closed table says why it closed (the note is stored, so it reads the same after a
    restart)."""
    why = (note or {}).get("why")
    if why == STOPPED:
        what = "lobby" if note and note.get("lobby") else "game"
        return f"The {what} was stopped by {shown_name(str(note and note.get('by')))}."
    if why == IDLE:
        return (f"The lobby closed: the game did not start within "
                f"{LOBBY_TTL_SECONDS // 60} minutes.")
    if why == ABANDONED:
        return "Nobody but computer players was left at the table, so the game ended."
    if why == EMPTY:
        return "The lobby closed: nobody is left."
    return "The table closed."



OnChange = Callable[[TableSnapshot], None]
"""Told about every table the controller shows (timers re-arm, computers look for their turn)."""


class GameFace(Protocol):
    """How one game shows itself on Discord. Faces only read views; they change nothing."""

    def options_line(self, options: Any, players: int) -> str:
        """The table's options in a few words, for the lobby (``players`` seated so far)."""
        ...

    def table_render(self, snapshot: TableSnapshot, recent: Sequence[str],
                     names: Mapping[int, str]) -> TableRender:
        """The public table of a game in play (or over); ``recent`` are its latest lines."""
        ...

    def describe(self, events: Sequence[Mapping[str, Any]], names: Mapping[int, str]
                 ) -> list[str]:
        """Events in their public form as lines of plain words."""
        ...

    def starts_round(self, event: Mapping[str, Any]) -> bool:
        """Whether this public event begins a new round (a new deal): the latest lines then
        start afresh, since an earlier round's cards are dealt again."""
        ...

    def hand_panel(self, snapshot: TableSnapshot, player_id: int, names: Mapping[int, str], *,
                   notice: str | None, arg: str | None) -> tuple[str, discord.ui.View]:
        """The private panel: the player's cards and exactly their legal moves."""
        ...

    def move_notice(self, events: Sequence[Any], player_id: int) -> str | None:
        """What only the mover learns from their move (the card they drew), or ``None``."""
        ...

    def left_text(self, events: Sequence[Any], snapshot: TableSnapshot) -> str | None:
        """What a player who left a game in play is told, or ``None`` for the plain text."""
        ...

    def routes(self, controller: TableController) -> Mapping[str, Handler]:
        """The game's own components, by action (the shared ones are the controller's)."""
        ...

    def cog(self, bot: commands.Bot, controller: TableController) -> commands.Cog:
        """The game's command group."""
        ...


def load_face(spec: GameSpec) -> GameFace:
    """The face ``spec.face`` names (``"package.module:attribute"``)."""
    module_name, _, attribute = spec.face.partition(":")
    face: GameFace = getattr(importlib.import_module(module_name), attribute)
    return face


def on_ephemeral(interaction: discord.Interaction) -> bool:
    """Whether a component sits on a private hand panel (answered by editing it in place)."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def _answer_panel(interaction: discord.Interaction, content: str, view: discord.ui.View, *,
                        edit: bool) -> None:
    """Show a hand panel: in place when the interaction came from the user's own private panel,
    else as a new private message — never on a public message, whatever the component."""
    if edit and on_ephemeral(interaction):
        await interaction.response.edit_message(content=content, embed=None, view=view)
    else:
        await interaction.response.send_message(content, view=view, ephemeral=True)


def may_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_messages)


def display_name(interaction: discord.Interaction) -> str:
    return interaction.user.display_name


class TableController:
    """One game's tables on Discord: ``game`` is its spec, ``face`` how it looks."""

    def __init__(self, service: TableService, publisher: TablePublisher, game: GameSpec,
                 face: GameFace, settings: SettingsService, *,
                 on_change: OnChange | None = None) -> None:
        self.service = service
        self.publisher = publisher
        self.settings = settings
        self.game = game
        self.face = face
        self.on_change = on_change
        self._recent: dict[int, deque[str]] = {}

    # -- routing -------------------------------------------------------------------------------

    def register_routes(self, router: Router) -> None:
        """Route the components every game has (the lobby's buttons, Your hand) to this table
        controller, and the game's own ones to its face."""

        async def join(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.join(i, route)

        async def leave(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.leave(i, route)

        async def start(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.start(i, route)

        async def cancel(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.cancel(i, route)

        async def add_computer(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.add_computer(i, route)

        async def hand(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.show_hand(i, route, edit=on_ephemeral(i))

        common: dict[str, Handler] = {
            "join": join, "leave": leave, "start": start, "cancel": cancel,
            "add_computer": add_computer, "hand": hand,
        }
        for action, handler in {**common, **self.face.routes(self)}.items():
            router.register(self.game.kind, action, handler)

    def move_button(self, move: Any) -> Handler:
        """A button that makes one fixed move, on the table or on a hand panel."""

        async def handler(i: discord.Interaction, route: Route, _: list[str]) -> None:
            await self.move(i, move, route=route, from_panel=on_ephemeral(i))

        return handler

    # -- reading the table ---------------------------------------------------------------------

    async def table_for(self, interaction: discord.Interaction, route: Route | None = None
                        ) -> TableSnapshot:
        """The channel's table of this game; for a component, the very table it was drawn for."""
        if interaction.channel_id is None or interaction.guild_id is None:
            raise UserFacingError("Games are played in server channels.")
        snapshot = await self.service.get(interaction.channel_id)
        if snapshot is None or snapshot.kind != self.game.kind:
            if route is not None:
                raise UserFacingError("That game is over — this button no longer does anything.")
            raise UserFacingError(f"There is no {self.game.name} game in this channel. "
                                  f"Start one with `/{self.game.kind} start`.")
        if route is not None and route.table_id != snapshot.table_id:
            raise UserFacingError("That button belongs to an earlier game in this channel.")
        return snapshot

    def names(self, snapshot: TableSnapshot) -> dict[int, str]:
        """Everyone who sat at the table as it names them, computer players as "🤖 Astrid";
        players who left a game are still named (the engine keeps them)."""
        if snapshot.engine is None:
            return labelled((s.player_id, s.name) for s in snapshot.seats)
        return labelled(snapshot.engine.names.items())

    async def recent_lines(self, snapshot: TableSnapshot) -> list[str]:
        lines = self._recent.get(snapshot.table_id)
        if lines is None:
            # after a restart the latest lines come back from the move log: those of the
            # round in play (an earlier round's cards were dealt again)
            records = await self.service.moves(snapshot.table_id)
            public = [[self.game.events.public(e) for e in r.events] for r in records]
            start = max((i for i, events in enumerate(public)
                         if any(self.face.starts_round(e) for e in events)), default=0)
            lines = deque(maxlen=RECENT_LINES)
            names = self.names(snapshot)
            for events in public[max(start, len(public) - RECENT_LINES * 2):]:
                lines.extend(self.face.describe(events, names))
            self._recent[snapshot.table_id] = lines
        return list(lines)

    def _remember(self, snapshot: TableSnapshot, events: Sequence[Any]) -> None:
        lines = self._recent.get(snapshot.table_id)
        if lines is None:
            # not read back since a restart: the move log already holds these events, and the
            # next render reads them from there
            return
        codec = self.game.events
        public = [codec.public(codec.to_dict(e)) for e in events]
        if any(self.face.starts_round(e) for e in public):
            lines.clear()
        lines.extend(self.face.describe(public, self.names(snapshot)))

    def lobby_render(self, snapshot: TableSnapshot) -> TableRender:
        embed = lobby_embed(
            title=self.game.name,
            options_line=self.face.options_line(snapshot.options, len(snapshot.seats)),
            seats=[LobbySeat(s.player_id, s.name, s.is_computer) for s in snapshot.seats],
            host_id=snapshot.host_id,
            min_players=self.game.min_players,
            max_players=self.game.max_players,
            expires_at=snapshot.lobby_expires_at,
            turn_seconds=snapshot.turn_seconds,
        )
        return TableRender(embed=embed, view=lobby_view(self.game.kind, snapshot.table_id))

    async def render(self, snapshot: TableSnapshot) -> TableRender:
        if snapshot.is_lobby:
            return self.lobby_render(snapshot)
        recent = await self.recent_lines(snapshot)
        return self.face.table_render(snapshot, recent, self.names(snapshot))

    async def showing(self, snapshot: TableSnapshot, render: TableRender) -> Showing:
        """``render`` of ``snapshot`` for the publisher, pinging the person to move unless they
        (or their server) turned pings off."""
        person = render.to_move
        ping = (person if person is not None
                and await self.settings.pings(snapshot.guild_id, person) else None)
        return Showing(
            table_id=snapshot.table_id, channel_id=snapshot.channel_id,
            message_id=snapshot.message_id, version=snapshot.version, counter=snapshot.counter,
            render=render, ping=ping, pinged=snapshot.pinged,
            behind=snapshot.shown_version != snapshot.version,
            final=snapshot.status not in ("lobby", "playing"),
        )

    async def publish(self, snapshot: TableSnapshot) -> None:
        if snapshot.is_playing and all(s.is_computer for s in snapshot.seats):
            # issue 8: a table with no person left ends instead of playing on among computers
            await self._end_abandoned(snapshot)
            return
        if snapshot.status == "cancelled":
            await self.close_table(snapshot)
            return
        render = await self.render(snapshot)
        self.publisher.publish(await self.showing(snapshot, render))
        if snapshot.status not in ("lobby", "playing"):
            self._drop_table(snapshot.table_id)
        self._changed(snapshot)

    async def show_automatic(self, result: ApplyResult) -> None:
        """Show a move the bot made for someone: a computer player's, or a turn timer's."""
        self._remember(result.snapshot, result.events)
        await self.publish(result.snapshot)

    async def close_table(self, snapshot: TableSnapshot) -> None:
        """Show a table that was stopped or closed itself (its ``closed_note`` says how), with
        its latest lines."""
        embed = closed_embed(f"{self.game.name} — closed", closed_text(snapshot.closed_note))
        lines = await self.recent_lines(snapshot) if snapshot.engine is not None else []
        if lines:
            embed.add_field(name="Latest", value="\n".join(lines), inline=False)
        self._drop_table(snapshot.table_id)
        self.publisher.publish(await self.showing(snapshot, TableRender(embed=embed, view=None)))
        self._changed(snapshot)

    async def redraw(self, snapshot: TableSnapshot) -> None:
        """Show a table as it stands, live or long over (a start-up catching up)."""
        await self.publish(snapshot)

    async def _end_abandoned(self, snapshot: TableSnapshot) -> None:
        await self.recent_lines(snapshot)
        try:
            closed = await self.service.cancel(snapshot.channel_id, snapshot.host_id, True,
                                               note={"why": "abandoned"})
        except NoTableError:
            return
        await self.close_table(closed)

    def _drop_table(self, table_id: int) -> None:
        """Forget what is kept in memory for a table that has closed."""
        self._recent.pop(table_id, None)

    def _changed(self, snapshot: TableSnapshot) -> None:
        if self.on_change is not None:
            self.on_change(snapshot)

    # -- lobby ---------------------------------------------------------------------------------

    async def open_lobby(self, interaction: discord.Interaction, options: Any, *,
                         turn_seconds: int = 0, computers: int = 0) -> None:
        """Open a lobby with the user as host, ``computers`` computer players seated and a
        turn time of ``turn_seconds`` (0: no timer). The user is answered as soon as the lobby
        exists, before it is posted."""
        if interaction.channel_id is None or interaction.guild_id is None:
            raise UserFacingError("Games are played in server channels.")
        checks.turn_seconds(turn_seconds)
        most = self.game.max_players - 1
        if not 0 <= computers <= most:
            raise UserFacingError(
                f"A {self.game.name} table seats {self.game.max_players}: from 0 to {most} "
                "computer players besides you."
            )
        seated: list[SeatInfo] = []
        for _ in range(computers):
            player_id, name = free_computer(seated)
            seated.append(SeatInfo(player_id=player_id, name=name, is_computer=True))
        snapshot = await self.service.open_lobby(
            interaction.guild_id, interaction.channel_id, self.game.kind, interaction.user.id,
            display_name(interaction), options, turn_seconds=turn_seconds,
            computers=[Seat(s.player_id, s.name) for s in seated],
        )
        await interaction.response.send_message(
            f"{self.game.name} lobby opened below — others can press **Join**.", ephemeral=True
        )
        await self.publisher.post_new(await self.showing(snapshot, self.lobby_render(snapshot)))
        self._changed(snapshot)

    async def add_computer(self, interaction: discord.Interaction,
                           route: Route | None = None) -> None:
        """The host seats one more computer player (issue 8)."""
        snapshot = await self.table_for(interaction, route)
        if not snapshot.is_lobby:
            raise UserFacingError("Computer players are seated in the lobby, before the start.")
        player_id, name = free_computer(snapshot.seats)
        result = await self.service.add_computer(
            snapshot.channel_id, interaction.user.id, player_id, name
        )
        await self._after_change(interaction, result,
                                 f"{computer_label(name)} sat down at the table.")

    async def join(self, interaction: discord.Interaction, route: Route | None = None) -> None:
        snapshot = await self.table_for(interaction, route)
        result = await self.service.join(
            snapshot.channel_id, interaction.user.id, display_name(interaction)
        )
        await self._after_change(interaction, result, "You joined the table.")

    async def leave(self, interaction: discord.Interaction, route: Route | None = None) -> None:
        snapshot = await self.table_for(interaction, route)
        result = await self.service.leave(snapshot.channel_id, interaction.user.id)
        if result.snapshot.status == "cancelled":
            await self._closed(interaction, result.snapshot)
            return
        text = None if snapshot.is_lobby else self.face.left_text(result.events, snapshot)
        if text is None:
            text = "You left the table." if snapshot.is_lobby else "You left the game."
        await self._after_change(interaction, result, text)

    async def start(self, interaction: discord.Interaction, route: Route | None = None) -> None:
        snapshot = await self.table_for(interaction, route)
        result = await self.service.start(snapshot.channel_id, interaction.user.id)
        await self._after_change(interaction, result, "The game has started.")

    async def cancel(self, interaction: discord.Interaction, route: Route | None = None) -> None:
        # read without loading the game: stopping must work even when the stored game doesn't
        # load any more (issue 8)
        if interaction.channel_id is None:
            raise UserFacingError("Games are played in server channels.")
        record = await self.service.live_record(interaction.channel_id)
        if record is None or record.kind != self.game.kind:
            raise UserFacingError(f"There is no {self.game.name} game in this channel.")
        if route is not None and route.table_id != record.id:
            raise UserFacingError("That button belongs to an earlier game in this channel.")
        closed = await self.service.cancel(
            record.channel_id, interaction.user.id, may_manage(interaction),
            note={"why": STOPPED, "by": display_name(interaction),
                  "lobby": record.status == "lobby"},
        )
        await self._closed(interaction, closed)

    async def _closed(self, interaction: discord.Interaction, snapshot: TableSnapshot) -> None:
        await interaction.response.send_message(closed_text(snapshot.closed_note),
                                                ephemeral=True)
        await self.close_table(snapshot)

    async def _after_change(
        self, interaction: discord.Interaction, result: ApplyResult, text: str
    ) -> None:
        self._remember(result.snapshot, result.events)
        await interaction.response.send_message(text, ephemeral=True)
        await self.publish(result.snapshot)

    async def repost(self, interaction: discord.Interaction) -> None:
        snapshot = await self.table_for(interaction)
        await interaction.response.send_message("The table is below.", ephemeral=True)
        render = await self.render(snapshot)
        await self.publisher.post_new(replace(await self.showing(snapshot, render), ping=None),
                                      repost=True)

    # -- hands and moves -----------------------------------------------------------------------

    async def show_hand(
        self, interaction: discord.Interaction, route: Route | None = None, *,
        arg: str | None = None, notice: str | None = None, edit: bool = False,
    ) -> None:
        snapshot = await self.table_for(interaction, route)
        if snapshot.is_lobby:
            raise UserFacingError("The game hasn't started yet — your cards come when it does.")
        if snapshot.seat_of(interaction.user.id) is None and not self._ever_seated(
            snapshot, interaction.user.id
        ):
            raise UserFacingError("You're not playing at this table.")
        content, view = self.face.hand_panel(
            snapshot, interaction.user.id, self.names(snapshot), notice=notice, arg=arg
        )
        await _answer_panel(interaction, content, view, edit=edit)

    def _ever_seated(self, snapshot: TableSnapshot, player_id: int) -> bool:
        return player_id in self.names(snapshot)

    async def move(
        self,
        interaction: discord.Interaction,
        move: Any,
        *,
        route: Route | None = None,
        from_panel: bool = False,
    ) -> None:
        """Apply ``move`` for the user and answer: in place on the hand panel it came from, or
        with a fresh ephemeral panel (table buttons, slash commands)."""
        snapshot = await self.table_for(interaction, route)
        if snapshot.is_lobby:
            raise UserFacingError("The game hasn't started yet.")
        player = interaction.user.id
        if snapshot.seat_of(player) is None:
            raise UserFacingError("You're not playing at this table.")
        counter = route.counter if route is not None else None
        try:
            result = await self.service.apply(snapshot.channel_id, player, move, counter)
        except StaleMoveError:
            if from_panel:
                await self.show_hand(interaction, route, notice=STALE_PANEL_NOTICE, edit=True)
                return
            raise UserFacingError(
                "That button is from an earlier turn — the table has moved on. Nothing was changed."
            ) from None
        # the engine is live and shared: read everything for this move before the next await
        notice = self.face.move_notice(result.events, player) or "Done."
        self._remember(result.snapshot, result.events)
        content, view = self.face.hand_panel(result.snapshot, player,
                                             self.names(result.snapshot), notice=notice,
                                             arg=None)
        await _answer_panel(interaction, content, view, edit=from_panel)
        await self.publish(result.snapshot)
