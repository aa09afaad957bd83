"""Events on Discord: ``/<game> event new`` opens an event with its registration message
(Register, Unregister, Start, Cancel); once the host starts it, each round's tables are played
in threads of their own, created through Discord's "Start Thread without Message", and the
standings are posted after every round. How places score, how rounds are seated and the
tie-breaks are ``bot.table.tourney``'s; the event's state is ``bot.table.events``'.

``advance`` is the one step that moves an event on, and it can be taken again at any time: it
scores the tables that ended, opens the tables that do not exist yet (thread, then game), makes
the event's own moves at tables that wait for one (a game that plays hands: the next deal, or
closing the table once its hands are played) and seats the next round when every table of this
one has its score. It runs whenever an event's table changes and at start-up, so a process
killed in the middle of a round completes the round when it is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord import checks
from bot.discord.answers import display_name, say, send, update_clicked, user_lang
from bot.discord.checks import MAX_TURN_SECONDS
from bot.discord.common import (
    CONTENT_LIMIT,
    FINISHED_COLOUR,
    LOBBY_COLOUR,
    PLAYING_COLOUR,
    button,
    fit,
    label,
    turn_time_text,
)
from bot.discord.controller import TableController
from bot.discord.deadline import in_time
from bot.discord.errors import UnansweredChange, UserFacingError
from bot.discord.layout import answer_layout
from bot.discord.reach import server_channel
from bot.discord.routing import Route, Router
from bot.discord.rows import Rows
from bot.discord.translator import cmd
from bot.gamekit.contract import GameSpec, RuleError, Seat
from bot.i18n import DEFAULT, N_, L, join, lang_of, ordinal, tr, trn
from bot.storage import EventEntrant, EventRecord, EventTable, TableRecord
from bot.table import TableService
from bot.table.computers import COMPUTER_NAMES
from bot.table.errors import AlreadySeatedError, TableError
from bot.table.events import MAX_HANDS, MAX_ROUNDS, EventError, EventService, EventSettings
from bot.table.service import ROUND_PLAYED, TableSnapshot
from bot.table.settings import SettingsService
from bot.table.tourney import Standing

_log = logging.getLogger("kortbord.events")

THREAD_ARCHIVE_MINUTES = 1440
CLOCK_SKEW = 60.0
"""Seconds by which the bot's clock and Discord's (a thread's id holds when it was made) may
differ when the two are compared."""
MAX_COMPUTERS = len(COMPUTER_NAMES)
"""Computer players an event may enter: one of each name, so every entrant has their own id."""
STANDINGS_SHOWN = 30
"""Lines of a standings message; the rest are summed up in one line."""

_ERRORS: dict[str, str] = {
    "gone": "That event no longer exists.",
    "closed": "That event is no longer taking registrations.",
    "registered": "You're already registered for this event.",
    "not_registered": "You're not registered for this event.",
    "few": "Too few players are registered for one table yet.",
    "seats": "A {game} table seats {low} to {high} players.",
}


CANNOT_POST = N_("I can't post the event here: I need the **View Channel** and **Send "
                 "Messages** permissions in <#{channel}>. Nothing was changed.")
CANNOT_POST_IN_THREAD = N_("I can't post the event here: I need the **View Channel** and **Send "
                           "Messages in Threads** permissions in <#{channel}>. Nothing was "
                           "changed.")
NOT_POSTED = N_("I couldn't post the event's message in <#{channel}>, so the event was not "
                "opened. Check my permissions there, then try again.")
EVENT_SHOWS_IT = N_("Sorry, something went wrong on my side while answering you, but what you "
                    "did went through: the event's message shows it.")


def _error(exc: EventError, game: GameSpec) -> UserFacingError:
    text = _ERRORS.get(exc.why, "That event no longer exists.")
    return UserFacingError(text, game=game.name, low=game.min_players, high=game.max_players)


def _lang(event: EventRecord) -> str:
    return lang_of(event.locale or DEFAULT)


class EventController:
    """Every game's events on Discord: one controller, each game's command group gets an
    ``event`` subgroup (``commands``)."""

    def __init__(self, service: EventService, tables: TableService,
                 controllers: Mapping[str, TableController], settings: SettingsService,
                 client: discord.Client) -> None:
        self.service = service
        self.tables = tables
        self.controllers = controllers
        self.settings = settings
        self.client = client
        self._locks: dict[int, asyncio.Lock] = {}
        self._again: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._known: dict[int, int] = {}
        """Table id → the event it was opened for, for the events' tables met so far (other
        tables are looked up each time one ends or waits between hands: one indexed read)."""
        self.live_tables: set[int] = set()
        """Tables of events in play: they play on with only computer players left."""
        self._refused: set[int] = set()
        """Events whose tables' channel refused a thread (Discord's 403, or 404: it is gone):
        their tables are not tried again, nor the refusal said again, until the host presses
        **Continue** (or the bot starts again)."""

    # -- wiring --------------------------------------------------------------------------------

    def register_routes(self, router: Router) -> None:
        for kind, controller in self.controllers.items():
            game = controller.game
            if game.event is None:
                continue

            def bind(action: str, game: GameSpec = game) -> Any:
                async def handler(i: discord.Interaction, route: Route, _: list[str]) -> None:
                    await self._click(i, game, route.table_id, action)
                return handler

            for action in ("ev_join", "ev_leave", "ev_start", "ev_cancel", "ev_table"):
                router.register(kind, action, bind(action))
            controller.plays_on = self.live_tables.__contains__
            controller.history_extra = self._history(game)

    def commands(self, game: GameSpec) -> app_commands.Group:
        """The ``event`` subgroup of ``game``'s command group."""
        return _event_group(self, game)

    def table_changed(self, snapshot: TableSnapshot) -> None:
        """Every table the bot shows: an event's table that ended, or that waits for the
        event's own move (between hands), moves its event on."""
        if snapshot.is_lobby or (snapshot.is_playing and (
                snapshot.engine is None or snapshot.engine.to_move is not None)):
            return
        self._spawn(self._table_changed(snapshot.table_id))

    async def _table_changed(self, table_id: int) -> None:
        event_id = self._known.get(table_id)
        if event_id is None:
            found = await self.service.table_of(table_id)
            if found is None:
                return
            event_id = self._known[table_id] = found.event_id
        await self.advance(event_id)

    async def resume(self) -> None:
        """At start-up: every running event of this process's servers moves on (tables a
        killed process left unopened are opened, or never shown are shown, ended ones scored,
        standings it never posted posted), and so does every finished one whose final
        standings it never posted."""
        for event in await self.service.resuming():
            tables: list[EventTable] = []
            if event.status == "running":
                tables = await self.service.tables(event.id, event.round)
            for table in tables:
                if table.table_id is not None:
                    self._known[table.table_id] = event.id
                    if table.result is None:
                        self.live_tables.add(table.table_id)
            self._spawn(self._resume(event, tables))

    async def _resume(self, event: EventRecord, tables: Sequence[EventTable]) -> None:
        controller = self.controllers[event.kind]
        try:
            for table in tables:
                if (table.thread_id is not None and table.table_id is not None
                        and table.result is None):
                    await self._show_unseen(controller, table.thread_id, table.table_id)
        finally:
            await self.advance(event.id)

    async def _show_unseen(self, controller: TableController, thread_id: int,
                           table_id: int) -> None:
        """Show a table in play that has no message yet: its process was killed after the
        table started and before its first post (a start-up's redraw knows only tables with a
        message)."""
        record = await self.tables.live_record(thread_id)
        if record is None or record.id != table_id or record.message_id is not None:
            return
        snapshot = await self.tables.get(thread_id)
        if snapshot is not None and snapshot.table_id == table_id and snapshot.is_playing:
            await controller.redraw(snapshot)

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            _log.error("an event could not move on", exc_info=task.exception())

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks))

    # -- commands and buttons ------------------------------------------------------------------

    def may_host(self, interaction: discord.Interaction, role_id: int | None) -> bool:
        if interaction.permissions.manage_guild:
            return True
        roles = getattr(interaction.user, "roles", [])
        return role_id is not None and any(r.id == role_id for r in roles)

    async def new(self, interaction: discord.Interaction, game: GameSpec, *, rounds: int,
                  seats: int | None, hands: int, channel: discord.TextChannel | None,
                  turn_time: int | None, computers: int) -> None:
        if (interaction.guild_id is None or interaction.channel_id is None
                or not interaction.is_guild_integration()):
            # an event posts and starts threads as the bot: only where the bot is a member
            raise UserFacingError("Events are held only in servers that added kortbord.")
        server = await self.settings.server(interaction.guild_id)
        if not self.may_host(interaction, server.event_role):
            raise UserFacingError("Events are opened by members with Manage Server, or with "
                                  "the role the server chose for events. Nothing was changed.")
        self._check_may_post(interaction)
        controller = self.controllers[game.kind]
        # every option again, as Discord's client declares them: a modified one sends anything
        checks.in_range(rounds, 1, MAX_ROUNDS, L("The number of rounds"))
        if seats is None:
            seats = min(game.max_players, 4)
        if not game.min_players <= seats <= game.max_players:
            raise _error(EventError("seats"), game)
        plays_hands = game.event is not None and game.event.plays_hands
        if plays_hands:
            checks.in_range(hands, 1, MAX_HANDS, L("The number of hands per round"))
        if not 0 <= computers <= MAX_COMPUTERS:
            raise UserFacingError("An event takes up to {most} computer players.",
                                  most=MAX_COMPUTERS)
        if turn_time is None:
            turn_time = (await controller.defaults(interaction.guild_id)).turn_seconds
        if turn_time is None:
            turn_time = game.default_turn_seconds
        checks.turn_seconds(turn_time)
        if channel is not None:
            tables_in = channel.id
        else:
            # threads cannot hold threads: from a thread, the tables go next to it
            here = interaction.channel
            tables_in = getattr(here, "parent_id", None) or interaction.channel_id
        settings = EventSettings(rounds=rounds, seats=seats,
                                 hands=hands if plays_hands else 0,
                                 turn_seconds=turn_time, tables_in=tables_in)
        # the store and the post can outlast Discord's deadline: a late answer is a private
        # "thinking…" first (``bot.discord.deadline``)
        async with in_time(interaction, update=False):
            event = await self.service.create(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id, kind=game.kind,
                host_id=interaction.user.id, settings=settings,
                locale=await controller.channel_lang(interaction),
                computers=[(-n, name) for n, name in enumerate(COMPUTER_NAMES[:computers], 1)])
            if not await self._post(interaction, game, event):
                await say(interaction, tr(user_lang(interaction), NOT_POSTED,
                                          channel=interaction.channel_id))
                return
            await say(interaction, tr(
                user_lang(interaction), "{game} event #{event} opened below: people press "
                "**Register** to take part, and you press **Start** when everyone is in.",
                game=game.name, event=event.id))

    @staticmethod
    def _check_may_post(interaction: discord.Interaction) -> None:
        """Refuse, changing nothing, where the bot may not post the event's message (Discord
        says what it may do in the channel with the interaction)."""
        perms = interaction.app_permissions
        in_thread = isinstance(interaction.channel, discord.Thread)
        may_send = perms.send_messages_in_threads if in_thread else perms.send_messages
        if not (perms.view_channel and may_send):
            raise UserFacingError(CANNOT_POST_IN_THREAD if in_thread else CANNOT_POST,
                                  channel=interaction.channel_id)

    async def _post(self, interaction: discord.Interaction, game: GameSpec,
                    event: EventRecord) -> bool:
        """Post the new event's registration message where it was asked for; whether it was.
        An event whose message could not be posted is cancelled: nobody could register for
        it, and no event is left open without its message."""
        assert interaction.channel_id is not None
        embed, view = self._render(game, event, await self.service.entrants(event.id))
        try:
            message = await self.client.get_partial_messageable(
                interaction.channel_id, guild_id=interaction.guild_id).send(
                    view=answer_layout(embed, view))
        except Exception as exc:
            if isinstance(exc, discord.Forbidden | discord.NotFound):
                # the channel's permissions changed since Discord sent the interaction, or the
                # channel is gone: the server's doing, not the bot's
                _log.warning("event %d: could not post its message in channel=%s: %s",
                             event.id, interaction.channel_id, exc)
            else:
                _log.error("event %d: could not post its message in channel=%s", event.id,
                           interaction.channel_id, exc_info=exc)
            await self.service.cancel(event.id)
            return False
        try:
            await self.service.store.events.set_message(event.id, message.id, event.updated_at)
        except Exception:
            # the event works without it (its buttons name it); only the message's own update
            # when the event ends is lost
            _log.error("event %d: could not note its message %d", event.id, message.id,
                       exc_info=True)
        return True

    async def _click(self, interaction: discord.Interaction, game: GameSpec, event_id: int,
                     action: str) -> None:
        # the store's writes can outlast Discord's deadline: the watch acknowledges the click
        # in time, as an update of the event's message that the answer edits (the standings
        # are a private answer of their own) (``bot.discord.deadline``)
        async with in_time(interaction, update=action != "ev_table"):
            await self._clicked(interaction, game, event_id, action)

    async def _clicked(self, interaction: discord.Interaction, game: GameSpec, event_id: int,
                       action: str) -> None:
        try:
            event = await self.service.event(event_id)
            if event.guild_id != interaction.guild_id or event.kind != game.kind:
                raise EventError("gone")
            if action == "ev_join":
                event = await self.service.register(event_id, interaction.user.id,
                                                    display_name(interaction))
            elif action == "ev_leave":
                event = await self.service.unregister(event_id, interaction.user.id)
            elif action == "ev_table":
                await self._show_standings(interaction, game, event)
                return
            elif action == "ev_start":
                await self.start(interaction, game, event)
                return
            elif action == "ev_cancel":
                await self.cancel(interaction, game, event)
                return
        except EventError as exc:
            raise _error(exc, game) from None
        async with self._made(game, event):
            await self._show(interaction, game, event)

    async def _show(self, interaction: discord.Interaction, game: GameSpec,
                    event: EventRecord) -> None:
        """Answer a click on the event's message with the message as ``event`` stands now."""
        embed, view = self._render(game, event, await self.service.entrants(event.id))
        await update_clicked(interaction, content=None, embed=None,
                             view=answer_layout(embed, view))

    @contextlib.asynccontextmanager
    async def _made(self, game: GameSpec, event: EventRecord) -> AsyncIterator[None]:
        """Around what follows a click's change to ``event`` (stored already: ``event`` is as
        it stands now), its answer included: should it fail, the event's message is brought
        up to date with the bot's token and the person is told that what they did went
        through, never that nothing changed (``UnansweredChange``)."""
        try:
            yield
        except Exception as exc:
            try:
                await self._refresh_message(game, event)
            except Exception:
                _log.warning("event %d: could not update its message after its answer failed",
                             event.id, exc_info=True)
            raise UnansweredChange(f"event {event.id}: the answer to a change failed",
                                   told=EVENT_SHOWS_IT) from exc

    async def _host_check(self, interaction: discord.Interaction, event: EventRecord) -> None:
        server = await self.settings.server(event.guild_id)
        if interaction.user.id != event.host_id and not self.may_host(interaction,
                                                                      server.event_role):
            raise UserFacingError("Only the event's host (or a member with Manage Server) can "
                                  "do that. Nothing was changed.")

    async def start(self, interaction: discord.Interaction, game: GameSpec,
                    event: EventRecord) -> None:
        """Start the event (round 1 is seated and its tables open), or — on an event already
        running — try again what is waiting (a table whose thread could not be made)."""
        await self._host_check(interaction, event)
        lang = user_lang(interaction)
        if event.status == "running":
            self._refused.discard(event.id)
            self._spawn(self.advance(event.id))
            await say(interaction,
                      tr(lang, "The event is running: anything waiting is tried again now."))
            return
        missing = self._missing_permissions(interaction, event)
        if missing:
            raise UserFacingError(missing, channel=self.service.settings(event).tables_in)
        event = await self.service.begin(event.id)
        # round 1's tables open whatever becomes of the answer: nothing would open them else
        # until the host pressed Continue, and nothing would tell them to
        self._spawn(self.advance(event.id))
        async with self._made(game, event):
            await self._show(interaction, game, event)

    @staticmethod
    def _missing_permissions(interaction: discord.Interaction, event: EventRecord) -> str:
        """What the bot lacks to run the tables (a message), when they go in the channel it was
        asked in (Discord says what the bot may do there with the interaction); elsewhere the
        thread's creation says so."""
        if EventService.settings(event).tables_in != interaction.channel_id:
            return ""
        perms = interaction.app_permissions
        if not perms.create_public_threads:
            return N_("I can't open the tables' threads: I need the **Create Public Threads** "
                      "permission in <#{channel}>. Nothing was changed.")
        if not perms.send_messages_in_threads:
            return N_("I can't play in the tables' threads: I need the **Send Messages in "
                      "Threads** permission in <#{channel}>. Nothing was changed.")
        return ""

    async def cancel(self, interaction: discord.Interaction, game: GameSpec,
                     event: EventRecord) -> None:
        """Close the event: registration ends, or — in a round — no more rounds; tables in play
        go on as any table does."""
        await self._host_check(interaction, event)
        event = await self.service.cancel(event.id)
        async with self._made(game, event):
            for table in await self.service.tables(event.id, event.round):
                if table.table_id is not None:
                    self.live_tables.discard(table.table_id)
            await self._show(interaction, game, event)

    async def standings_command(self, interaction: discord.Interaction,
                                game: GameSpec) -> None:
        """The server's latest event of this game: its standings, privately."""
        if interaction.guild_id is None:
            raise UserFacingError("Events are held only in servers that added kortbord.")
        events = await self.service.store.events.of_guild(interaction.guild_id, game.kind,
                                                          limit=1)
        if not events:
            raise UserFacingError("No {game} event has been held on this server yet.",
                                  game=game.name)
        await self._show_standings(interaction, game, events[0])

    async def _show_standings(self, interaction: discord.Interaction, game: GameSpec,
                              event: EventRecord) -> None:
        lang = user_lang(interaction)
        entrants = await self.service.entrants(event.id)
        standings = await self.service.standings(event.id)
        embed = self._standings_embed(game, event, entrants, standings, lang,
                                      final=event.status == "finished")
        await send(interaction, view=answer_layout(embed))

    # -- rendering -----------------------------------------------------------------------------

    def _settings_line(self, game: GameSpec, event: EventRecord, lang: str) -> str:
        s = self.service.settings(event)
        parts = [trn(lang, "{n} round", "{n} rounds", s.rounds),
                 tr(lang, "tables of {seats}", seats=s.seats)]
        if s.hands:
            parts.append(trn(lang, "{n} hand a round", "{n} hands a round", s.hands))
        parts.append(turn_time_text(s.turn_seconds, lang))
        parts.append(tr(lang, "tables in threads of <#{channel}>", channel=s.tables_in))
        return " · ".join(parts)

    def _render(self, game: GameSpec, event: EventRecord, entrants: Sequence[EventEntrant]
                ) -> tuple[discord.Embed, Rows]:
        lang = _lang(event)
        colour = {"registering": LOBBY_COLOUR, "running": PLAYING_COLOUR}.get(event.status,
                                                                               FINISHED_COLOUR)
        embed = discord.Embed(title=tr(lang, "{game} event #{event}", game=game.name,
                                       event=event.id), colour=colour)
        embed.description = self._settings_line(game, event, lang)
        names = [f"{i}. {label(e.player_id, e.name)}" for i, e in enumerate(entrants, 1)]
        embed.add_field(name=tr(lang, "Registered ({count})", count=len(entrants)),
                        value="\n".join(names) or tr(lang, "nobody yet"), inline=False)
        status = {
            "registering": tr(lang, "Press Register to take part. The host (<@{host}>) starts "
                                    "the event.", host=event.host_id),
            "running": tr(lang, "Round {round} of {rounds} is being played.",
                          round=event.round, rounds=self.service.settings(event).rounds),
            "finished": tr(lang, "The event is over: the final standings are below."),
            "cancelled": tr(lang, "The event was cancelled."),
        }[event.status]
        embed.add_field(name=tr(lang, "Status"), value=status, inline=False)
        view = Rows()
        if event.status == "registering":
            view.add_item(button(game.kind, event.id, "ev_join", tr(lang, "Register"),
                                 discord.ButtonStyle.primary))
            view.add_item(button(game.kind, event.id, "ev_leave", tr(lang, "Unregister")))
            view.add_item(button(game.kind, event.id, "ev_start", tr(lang, "Start"),
                                 discord.ButtonStyle.success))
            view.add_item(button(game.kind, event.id, "ev_cancel", tr(lang, "Cancel"),
                                 discord.ButtonStyle.danger))
        elif event.status != "cancelled":
            view.add_item(button(game.kind, event.id, "ev_table", tr(lang, "Standings")))
        if event.status == "running":
            view.add_item(button(game.kind, event.id, "ev_start", tr(lang, "Continue")))
            view.add_item(button(game.kind, event.id, "ev_cancel", tr(lang, "Cancel"),
                                 discord.ButtonStyle.danger))
        return fit(embed), view

    def _standings_embed(self, game: GameSpec, event: EventRecord,
                         entrants: Sequence[EventEntrant], standings: Sequence[Standing],
                         lang: str, *, final: bool, after: int | None = None) -> discord.Embed:
        names = {e.player_id: label(e.player_id, e.name) for e in entrants}
        if final:
            title = tr(lang, "{game} event #{event} — final standings", game=game.name,
                       event=event.id)
        else:
            title = tr(lang, "{game} event #{event} — standings after round {round}",
                       game=game.name, event=event.id, round=after or max(event.round - 1, 0))
        lines = []
        for s in standings[:STANDINGS_SHOWN]:
            line = tr(lang, "**{place}** {name} — {points} · Buchholz {buchholz} · {wins}",
                      place=ordinal(lang, s.rank), name=names.get(s.player_id, "?"),
                      points=trn(lang, "{n} point", "{n} points", s.points),
                      buchholz=s.buchholz, wins=trn(lang, "{n} win", "{n} wins", s.wins))
            if s.withdrawn:
                line += " · " + tr(lang, "withdrawn")
            lines.append(line)
        if len(standings) > STANDINGS_SHOWN:
            lines.append(trn(lang, "… and {n} more", "… and {n} more",
                             len(standings) - STANDINGS_SHOWN))
        embed = discord.Embed(title=title, colour=FINISHED_COLOUR if final else PLAYING_COLOUR,
                              description="\n".join(lines) or tr(lang, "nobody yet"))
        embed.set_footer(text=tr(lang, "Ties are broken by Buchholz (the points of everyone "
                                       "you sat with), then by wins."))
        return fit(embed)

    # -- moving on -----------------------------------------------------------------------------

    async def advance(self, event_id: int) -> None:
        """Move the event on as far as it goes now (see the module's docstring). Calls made
        while one runs are folded into one more pass."""
        lock = self._locks.setdefault(event_id, asyncio.Lock())
        if lock.locked():
            self._again.add(event_id)
            return
        async with lock:
            while True:
                self._again.discard(event_id)
                moved = await self._step(event_id)
                if not moved and event_id not in self._again:
                    break

    async def _step(self, event_id: int) -> bool:
        """One pass; whether it changed something that calls for another."""
        state = await self.service.pending(event_id)
        event = state.event
        if event.status not in ("running", "finished"):
            return False
        # what is due first: standings a killed process seated the next round without posting
        # (or the final ones it never posted), before anything of the next round is shown
        await self._announce(event)
        if event.status != "running":
            return False
        game = self.controllers[event.kind].game
        if state.complete:
            event = await self.service.next_round(event)
            await self._announce(event)
            return event.status == "running"
        moved = False
        all_open = not state.to_open
        if state.to_open and event.id not in self._refused:
            opened = 0
            for table in state.to_open:
                if event.id in self._refused:
                    break
                opened += await self._open(game, event, table)
            # progress only where a table came into being: a refused thread waits for the host
            moved = opened > 0
            all_open = opened == len(state.to_open)
        if all_open and event.seated < event.round:
            # posted before it is noted, as the standings are: a kill between the two posts it
            # twice rather than never
            await self._post_seating(game, event)
            await self.service.seated(event.id, event.round)
        for table, record in state.playing:
            moved = await self._nudge(game, event, table, record) or moved
        return moved

    async def _announce(self, event: EventRecord) -> None:
        """Post the standings after every round that ended and was not announced yet (after a
        restart too), each as it stood after its round; each is posted before it is noted, so
        none is ever skipped; then the event's message says where the event stands."""
        done = event.round if event.status == "finished" else event.round - 1
        if done <= event.announced:
            return
        game = self.controllers[event.kind].game
        entrants = await self.service.entrants(event.id)
        channel = self.client.get_partial_messageable(event.channel_id, guild_id=event.guild_id)
        for after in range(event.announced + 1, done + 1):
            final = event.status == "finished" and after == done
            standings = await self.service.standings(event.id, through=after)
            embed = self._standings_embed(game, event, entrants, standings, _lang(event),
                                          final=final, after=after)
            await channel.send(view=answer_layout(embed))
            await self.service.announced(event.id, after)
        await self._refresh_message(game, event)

    async def _refresh_message(self, game: GameSpec, event: EventRecord) -> None:
        if event.message_id is None:
            return
        embed, view = self._render(game, event, await self.service.entrants(event.id))
        channel = self.client.get_partial_messageable(event.channel_id, guild_id=event.guild_id)
        try:
            # an event posted before the layout was an embed: an edit that empties it turns it
            await channel.get_partial_message(event.message_id).edit(
                content=None, embed=None, view=answer_layout(embed, view))
        except discord.HTTPException as exc:
            # deleted by someone, or too old to edit: the standings were posted anyway
            _log.info("event %d: could not update its message: %s", event.id, exc)

    async def _open(self, game: GameSpec, event: EventRecord, table: EventTable) -> bool:
        """Create the table's thread and its game; whether the table came into being (opened,
        or scored for want of players). A thread the channel refuses is said once in the event
        channel, and not tried again until the host presses **Continue** (``_refused``)."""
        settings = self.service.settings(event)
        lang = _lang(event)
        thread_id = table.thread_id
        if thread_id is None:
            try:
                parent = server_channel(self.client, event.guild_id, settings.tables_in)
                if not isinstance(parent, discord.TextChannel):
                    parent = await self.client.fetch_channel(settings.tables_in)
                thread = None
                if isinstance(parent, discord.TextChannel):
                    name = tr(lang, "{game} event {event} · round {round} · table {table}",
                              game=game.name, event=event.id, round=table.round,
                              table=table.table_no)[:100]
                    thread = self._made_before(parent, name, event) or await parent.create_thread(
                        name=name, type=discord.ChannelType.public_thread,
                        auto_archive_duration=THREAD_ARCHIVE_MINUTES)
            except (discord.Forbidden, discord.NotFound) as exc:
                _log.warning("event %d: no thread for table %d: %s", event.id,
                             table.table_no, exc)
                thread = None
            if thread is None:
                # the same for every table of the event (one channel holds them all): said
                # once, and tried again when the host says so
                self._refused.add(event.id)
                await self.client.get_partial_messageable(
                    event.channel_id, guild_id=event.guild_id).send(tr(
                        lang, "I can't open the tables' threads: I need the **Create Public "
                              "Threads** and **Send Messages in Threads** permissions in "
                              "<#{channel}>. Once I have them, the host presses **Continue** "
                              "on the event's message.", channel=settings.tables_in))
                return False
            if not await self.service.set_thread(table, thread.id):
                # another process made this table's thread first: that one is used
                fresh = next(t for t in await self.service.tables(event.id, table.round)
                             if t.table_no == table.table_no)
                assert fresh.thread_id is not None
                thread_id = fresh.thread_id
            else:
                thread_id = thread.id
        return await self._open_game(game, event, table, thread_id, settings)

    def _made_before(self, parent: discord.TextChannel, name: str,
                     event: EventRecord) -> discord.Thread | None:
        """The table's thread if the bot made it already and was stopped before recording it
        (killed between the two): used, not made a second time beside it. The thread's name
        holds the event's number, round and table; the bot's own threads are known from
        Discord's account of the server's active threads. Only one made since the event was:
        a database started afresh numbers its events from 1 again."""
        me = self.client.user
        if me is None:
            return None
        since = event.created_at - CLOCK_SKEW
        return next((t for t in parent.threads if t.name == name and t.owner_id == me.id
                     and discord.utils.snowflake_time(t.id).timestamp() >= since), None)

    async def _open_game(self, game: GameSpec, event: EventRecord, table: EventTable,
                         thread_id: int, settings: EventSettings) -> bool:
        """Open and start the table's game in its thread, and record it; whether the table
        came into being (``False``: it could not open, and a later pass tries again)."""
        controller = self.controllers[game.kind]
        record = await self.tables.live_record(thread_id)
        if record is None:
            names = {e.player_id: e.name for e in await self.service.entrants(event.id)}
            seated = []
            for player in table.players:
                # one table per person per server: someone still at another table is a no-show
                if player > 0 and await self.tables.table_of_player(event.guild_id,
                                                                    player) is not None:
                    continue
                seated.append(Seat(player, names.get(player, "?")))
            people = [s for s in seated if s.player_id > 0]
            if len(seated) < game.min_players:
                await self.service.score(event, table, None,
                                         present=[s.player_id for s in seated])
                return True
            host = (people or seated)[0]
            guests = [s for s in seated if s.player_id != host.player_id]
            try:
                await self.tables.open_lobby(
                    event.guild_id, thread_id, game.kind, host.player_id, host.name,
                    (await controller.defaults(event.guild_id)).options,
                    turn_seconds=settings.turn_seconds, guests=guests, locale=event.locale)
            except (AlreadySeatedError, TableError) as exc:
                _log.warning("event %d: table %d could not open: %s", event.id,
                             table.table_no, exc)
                return False
            record = await self.tables.live_record(thread_id)
            assert record is not None
        # known before the start is shown: the table plays on if only computers sit there
        self._known[record.id] = event.id
        self.live_tables.add(record.id)
        result = None
        if record.status == "lobby":
            result = await self.tables.start(thread_id, record.host_id)
        # recorded once started: a table recorded but never started could be closed as an idle
        # lobby while the bot is down, and would score everyone as a no-show
        await self.service.set_table(table, record.id)
        if result is not None:
            await controller.show_automatic(result)
        else:
            # started by a process killed before it recorded the table: shown now, if that
            # process never showed it
            await self._show_unseen(controller, thread_id, record.id)
        return True

    async def _post_seating(self, game: GameSpec, event: EventRecord) -> None:
        """Tell everyone where they sit this round (people are mentioned, so the thread is a
        click away)."""
        lang = _lang(event)
        lines = [tr(lang, "**{game} event #{event} — round {round}**", game=game.name,
                    event=event.id, round=event.round)]
        names = {e.player_id: label(e.player_id, e.name)
                 for e in await self.service.entrants(event.id)}
        for table in await self.service.tables(event.id, event.round):
            if table.thread_id is None:
                continue
            who = join(lang, (f"<@{p}>" if p > 0 else names.get(p, "?")
                              for p in table.players))
            lines.append(tr(lang, "Table {table}: <#{thread}> — {players}",
                            table=table.table_no, thread=table.thread_id, players=who))
        channel = self.client.get_partial_messageable(event.channel_id, guild_id=event.guild_id)
        chunk = ""
        for line in lines:
            if chunk and len(chunk) + 1 + len(line) > CONTENT_LIMIT:
                await channel.send(chunk)
                chunk = ""
            chunk = f"{chunk}\n{line}" if chunk else line[:CONTENT_LIMIT]
        if chunk:
            await channel.send(chunk)

    async def _nudge(self, game: GameSpec, event: EventRecord, table: EventTable,
                     record: TableRecord) -> bool:
        """The event's own move at a table in play, if it waits for one; whether one was
        made."""
        rules = game.event
        hands = self.service.settings(event).hands
        if rules is None or not rules.plays_hands or record.status != "playing":
            return False
        snapshot = await self.tables.get(record.channel_id)
        if snapshot is None or snapshot.engine is None or snapshot.table_id != record.id:
            return False
        controller = self.controllers[game.kind]
        if rules.round_over(snapshot.engine, hands):
            closed = await self.tables.cancel(record.channel_id, record.host_id, True,
                                              note={"why": ROUND_PLAYED})
            await controller.close_table(closed)
            return True
        move = rules.next_move(snapshot.engine, hands)
        if move is None:
            return False
        try:
            result = await self.tables.apply(record.channel_id, move[0], move[1],
                                             snapshot.counter)
        except (TableError, RuleError):
            # moved on meanwhile (a player dealt or left between hands): the next pass looks
            # again
            return True
        await controller.show_automatic(result)
        return True

    # -- history -------------------------------------------------------------------------------

    def _history(self, game: GameSpec) -> Any:
        async def lines(guild_id: int, lang: str) -> str | None:
            events = await self.service.closed_events(guild_id, game.kind)
            out = []
            for event in events:
                if event.status == "cancelled":
                    out.append(tr(lang, "**Event #{event}** · <t:{when}:R> · cancelled",
                                  event=event.id, when=int(event.updated_at)))
                    continue
                standings = await self.service.standings(event.id)
                names = {e.player_id: label(e.player_id, e.name)
                         for e in await self.service.entrants(event.id)}
                winners = join(lang, (names.get(s.player_id, "?") for s in standings
                                      if s.rank == 1))
                out.append(tr(lang, "**Event #{event}** · <t:{when}:R> · won by {winners}",
                              event=event.id, when=int(event.updated_at), winners=winners))
            return "\n".join(out) or None

        return lines


def _event_group(controller: EventController, game: GameSpec) -> app_commands.Group:
    group = app_commands.Group(name=cmd("event"),
                               description=cmd("Events: tournaments across several tables"))
    plays_hands = game.event is not None and game.event.plays_hands

    async def new_with_hands(
        interaction: discord.Interaction,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS] = 3,
        seats: int | None = None,
        hands: app_commands.Range[int, 1, MAX_HANDS] = 3,
        channel: discord.TextChannel | None = None,
        turn_time: app_commands.Range[int, 0, MAX_TURN_SECONDS] | None = None,
        computers: app_commands.Range[int, 0, MAX_COMPUTERS] = 0,
    ) -> None:
        await controller.new(interaction, game, rounds=rounds, seats=seats, hands=hands,
                             channel=channel, turn_time=turn_time, computers=computers)

    async def new_games(
        interaction: discord.Interaction,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS] = 3,
        seats: int | None = None,
        channel: discord.TextChannel | None = None,
        turn_time: app_commands.Range[int, 0, MAX_TURN_SECONDS] | None = None,
        computers: app_commands.Range[int, 0, MAX_COMPUTERS] = 0,
    ) -> None:
        await controller.new(interaction, game, rounds=rounds, seats=seats, hands=0,
                             channel=channel, turn_time=turn_time, computers=computers)

    new = new_with_hands if plays_hands else new_games
    # the client offers only the seats this game's tables have
    new.__annotations__["seats"] = app_commands.Range[int, game.min_players,
                                                      game.max_players] | None
    names = {"rounds": cmd("rounds"), "seats": cmd("seats"), "channel": cmd("channel"),
             "turn_time": cmd("turn_time"), "computers": cmd("computers")}
    descriptions = {
        "rounds": cmd("How many rounds"),
        "seats": cmd("Players per table"),
        "channel": cmd("The channel whose threads hold the tables (default: this one)"),
        "turn_time": cmd("Seconds per turn before a safe move is made for you (0: no timer)"),
        "computers": cmd("How many computer players enter"),
    }
    if plays_hands:
        names["hands"] = cmd("hands")
        descriptions["hands"] = cmd("Hands per round at each table")
    described = app_commands.describe(**descriptions)(app_commands.rename(**names)(new))
    group.add_command(app_commands.command(
        name=cmd("new"), description=cmd("Open an event: people register, you start it"),
    )(described))

    @app_commands.command(name=cmd("standings"),
                          description=cmd("The standings of this server's latest event (only "
                                          "you see them)"))
    async def standings(interaction: discord.Interaction) -> None:
        await controller.standings_command(interaction, game)

    group.add_command(standings)
    return group
