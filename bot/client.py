"""The bot: a ``commands.Bot`` that opens storage, sets up every registered game, loads the cogs
and syncs its commands."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket

from bot import cards, collector
from bot.activity.server import ActivityServer
from bot.config import Settings
from bot.discord import emojis, features, telemetry
from bot.discord.activity import entry_point_command
from bot.discord.buckets import sweep_less
from bot.discord.controller import TableController, load_face
from bot.discord.cycles import let_go
from bot.discord.errors import answer_error
from bot.discord.events import EventController
from bot.discord.pacing import UNPACED, Limits, RequestPacer, pace_all, process_share
from bot.discord.publisher import TablePublisher
from bot.discord.routing import Router, serve_component
from bot.discord.translator import CatalogTranslator
from bot.discord.webhooks import ChannelWebhooks
from bot.gamekit.search import Budget
from bot.games.registry import GAMES, Registry
from bot.ratings.strengths import seating_strengths
from bot.storage import DueDeadline, Store
from bot.table import ApplyResult, TableService, TableSnapshot
from bot.table.computers import ComputerPlayers, SearchPool, computer_to_move
from bot.table.events import EventService
from bot.table.priority import PeopleFirst
from bot.table.service import IDLE
from bot.table.settings import SettingsService
from bot.table.timers import Clock, DeadlineScheduler, SystemClock

_log = logging.getLogger("kortbord")

SHUTDOWN_GRACE_SECONDS = 5.0
"""How long a shutdown waits for interactions being handled to finish their writes."""
_INTERACTION_TASKS = (
    "CommandTree-invoker", "discord-ui-dynamic-item-", "discord.py: on_interaction",
)
"""The names discord.py gives the tasks that run slash commands, its own components' callbacks
and ``on_interaction`` (the routed clicks and the answer to a component no message carries)."""

STARTUP_REFRESH_LIMIT = 1000
"""Tables redrawn at start-up, most recently changed first: those whose message shows an older
version than they hold (a crash or an outage came between a change and its edit)."""

EXTENSIONS: tuple[str, ...] = ("cogs.meta", "cogs.games")


def bot_intents() -> discord.Intents:
    """Only the guilds intent: the bot acts on slash commands and components, which reach it
    whatever its intents, and reads nothing of messages or members from the gateway (names and
    locales come with each interaction). Without the message intents Discord no longer sends
    the bot every message in its servers, its own table edits included."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


def gateway_up(ws: DiscordWebSocket | None) -> bool:
    """A gateway connection is open and has its session (discord.py sets the session id on
    READY; ``is_ready()`` waits for the servers' GUILD_CREATEs as well)."""
    return ws is not None and ws.open and ws.session_id is not None


class KortbordTree(app_commands.CommandTree):
    """The single error handler for every slash command and autocomplete; every command is
    served before the bot's background work (``KortbordBot.people``)."""

    entry_point: dict[str, Any] | None = None
    """The app's Entry Point command (``bot.discord.activity``), synced with the global
    commands while the Activity is on; discord.py knows no command of its type."""

    async def sync(self, *, guild: discord.abc.Snowflake | None = None
                   ) -> list[app_commands.AppCommand]:
        if guild is not None or self.entry_point is None:
            return await super().sync(guild=guild)
        # discord.py's own sync, with the Entry Point command in the same bulk overwrite:
        # Discord refuses one that would drop it
        application_id = self.client.application_id
        if application_id is None:
            raise app_commands.MissingApplicationID
        translator = self.translator
        payload = [await command.get_translated_payload(self, translator) if translator
                   else command.to_dict(self) for command in self.get_commands()]
        data = await self.client.http.bulk_upsert_global_commands(
            application_id, payload=[*payload, self.entry_point])
        return [app_commands.AppCommand(data=d, state=self.client._connection)
                for d in data if d.get("type") != self.entry_point["type"]]

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        # discord.py calls this first in the task that runs the command (or autocomplete)
        client: Any = interaction.client
        client.people.serve()
        task = asyncio.current_task()
        if task is not None:
            # served once the task ends, its error handler included (``bot.discord.cycles``)
            task.add_done_callback(lambda _: let_go(interaction))
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error)


class KortbordBot(commands.Bot):
    """``clock`` drives turn timers, lobby expiry and computer players' pauses (tests pass one
    they move by hand); ``games`` are the games it plays (the registry, or more in tests);
    ``options`` go to discord.py's client (``bot.sharding`` passes the shards)."""

    store: Store
    service: TableService
    preferences: SettingsService
    publisher: TablePublisher
    timers: DeadlineScheduler
    computers: ComputerPlayers
    events: EventController

    def __init__(self, settings: Settings, *, clock: Clock | None = None,
                 games: Registry = GAMES, settle: bool = False, **options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=bot_intents(),
            tree_cls=KortbordTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=True, replied_user=False
            ),
            http_trace=telemetry.http_trace(),
            **options,
        )
        self.settings = settings
        # every interaction is counted and brings its ids to the log context
        telemetry.track_interactions(self._connection.parsers, self._shard_of)
        self.games = games
        self.clock = clock or SystemClock()
        self.people = PeopleFirst()
        """Interactions being answered, which the computers and table edits wait for."""
        self.router = Router(self.people)
        self.controllers: dict[str, TableController] = {}
        self.automatic: Counter[tuple[str, int]] = Counter()
        """What this process did by itself since it started, by (what, server id): ``timer``
        (a turn timer's move), ``computer`` (a computer player's move), ``lobby`` (an idle lobby
        closed). With shards, only the servers it owns appear here."""
        self._refresh_task: asyncio.Task[None] | None = None
        self.card_emojis: asyncio.Task[int] | None = None
        """The cards' emojis being made sure of (``bot.discord.emojis``), while tables are
        already shown with cards as letters; ``None`` when the setting turns them off."""
        self._settle = settle
        """Set the process's garbage collector once start-up is done (``bot.collector``): the
        process entry asks for it, tests running many bots in one process do not."""

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database)
        # timers, computers and start-up redraws only for this process's servers
        self.service = TableService(self.store, self.games, clock=self.clock.now,
                                    shards=self.settings.shards, people=self.people)
        self.preferences = SettingsService(self.store, clock=self.clock.now)
        shards = self.settings.shards
        # the token's global budget is shared by every process: this one's part is its shards'
        share = process_share(None if shards is None else (len(shards.ids), shards.count))
        limits = Limits.discord(self.settings.discord_limits_scale,
                                global_limit=self.settings.global_rate_limit, share=share)
        _log.info("pacing to %d requests per %g s (GLOBAL_RATE_LIMIT %d)", limits.requests,
                  limits.per, self.settings.global_rate_limit)
        if limits.requests + UNPACED > self.settings.global_rate_limit * share:
            _log.warning("this process's part of GLOBAL_RATE_LIMIT is under one request a "
                         "second: run fewer processes, or the token may exceed its limit")
        self.publisher = TablePublisher(self, self.service, self.clock, RequestPacer(limits),
                                        self.people, ChannelWebhooks(self, self.store, self.clock))
        # the command sync and every other request of the bot token's wait for the pacer too
        pace_all(self.http, self.publisher.pacer)
        # a burst of new channels makes new rate-limit buckets: no walk of them all for each
        sweep_less(self.http)
        # before any table is written: which tables' posts the last process left recorded
        await self.publisher.begin()
        self.timers = DeadlineScheduler(self.service, self._deadline_due, self.clock)
        self.search_pool = SearchPool(
            self.settings.expert_workers,
            Budget(self.settings.expert_rollouts, self.settings.expert_cpu_ms / 1000))
        self.computers = ComputerPlayers(self.service, self, self.clock,
                                         self.settings.computer_pause, self.people,
                                         self.search_pool)
        for spec in self.games.values():
            controller = TableController(self.service, self.publisher, spec, load_face(spec),
                                         self.preferences, on_change=self.table_changed,
                                         clock=self.clock.now, people=self.people,
                                         pool=self.search_pool)
            features.register_routes(self.router, controller)
            self.controllers[spec.kind] = controller
        self.activity_server: ActivityServer | None = None
        if self.settings.activity:
            await self._serve_activity()
        # players are seated by strength: equal for all until ratings are wired in here
        self.events = EventController(
            # round one is seated by skill: each entrant's rating in that server and game
            EventService(self.store, self.games, clock=self.clock.now,
                         shards=self.settings.shards, strengths=seating_strengths),
            self.service, self.controllers, self.preferences, self)
        self.events.register_routes(self.router)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        # Discord shows commands in each user's language: the names and descriptions of every
        # language go with the sync
        await self.tree.set_translator(CatalogTranslator())
        await self._sync_commands()
        # a first start uploads some fifty pictures: tables wait for none of them
        if self.settings.card_emojis:
            self.card_emojis = asyncio.create_task(emojis.install(self), name="kortbord-emojis")
        else:
            cards.use_emojis({})
        # events in play know their tables before any table is redrawn, and move on
        await self.events.resume()
        self._refresh_task = asyncio.create_task(self._refresh_tables(), name="kortbord-refresh")
        # deadlines that passed while the bot was down are due now and fire once
        self.timers.start()
        if self._settle:
            collector.settle()

    async def _serve_activity(self) -> None:
        """The Activity (``bot.activity``): its server, **Play in an Activity** on the tables,
        and the Entry Point command."""
        settings = self.settings
        assert settings.activity_port is not None and settings.client_secret is not None
        assert self.application_id is not None
        for controller in self.controllers.values():
            controller.launch = True
        tree: Any = self.tree
        tree.entry_point = entry_point_command()
        self.activity_server = ActivityServer(
            host=settings.activity_host, port=settings.activity_port, service=self.service,
            controllers=self.controllers, http=self.http, application_id=self.application_id,
            client_secret=settings.client_secret, clock=self.clock.now)
        await self.activity_server.start()

    def _shard_of(self, guild_id: int | None) -> int | None:
        shards = self.settings.shards
        if shards is None:
            return None
        return 0 if guild_id is None else (guild_id >> 22) % shards.count

    def gateway_state(self) -> tuple[int, int]:
        """(shards this process runs, of them those whose gateway connection is open with a
        session, READY or RESUMED); one shard when the bot is not sharded."""
        return 1, int(gateway_up(self.ws))

    def table_changed(self, snapshot: TableSnapshot) -> None:
        """Every table a controller shows: its deadline may have moved, a computer may be
        next."""
        self.timers.deadline_set(snapshot.turn_deadline if snapshot.status == "playing"
                                 else snapshot.lobby_expires_at)
        self.computers.kick(snapshot)
        self.events.table_changed(snapshot)
        if self.activity_server is not None:
            self.activity_server.table_changed(snapshot)

    async def show_automatic(self, result: ApplyResult) -> None:
        """Show a move a computer player made."""
        self._made("computer", result.snapshot)
        await self._show(result)

    def _made(self, what: str, snapshot: TableSnapshot) -> None:
        self.automatic[what, snapshot.guild_id] += 1
        if what == "timer":
            _log.info("table %d: the turn timer moved (move %d)", snapshot.table_id,
                      snapshot.counter)

    async def _show(self, result: ApplyResult) -> None:
        """Show a move the bot made for someone (a computer player, a turn timer)."""
        controller = self.controllers.get(result.snapshot.kind)
        if controller is not None:
            await controller.show_automatic(result)

    async def _deadline_due(self, due: DueDeadline) -> None:
        if due.what == "lobby":
            closed = await self.service.expire_lobby(due.channel_id, {"why": IDLE})
            controller = None if closed is None else self.controllers.get(closed.kind)
            if closed is not None:
                self._made("lobby", closed)
            if closed is not None and controller is not None:
                await controller.close_table(closed)
            return
        snapshot = await self.service.get(due.channel_id, counter=due.counter)
        if snapshot is None or snapshot.counter != due.counter:
            return
        if computer_to_move(snapshot) is not None and not self.computers.overdue(snapshot):
            return
        result = await self.service.expire_turn(due.channel_id, due.counter)
        if result is not None:
            self._made("timer", result.snapshot)
            await self._show(result)

    async def _finish_interactions(self) -> None:
        """Let the interactions already being handled finish (answer, write, post) before the
        connection and the database close, as a clean shutdown should."""
        running = [t for t in asyncio.all_tasks()
                   if t is not asyncio.current_task() and not t.done()
                   and t.get_name().startswith(_INTERACTION_TASKS)]
        if running:
            await asyncio.wait(running, timeout=SHUTDOWN_GRACE_SECONDS)

    async def _refresh_tables(self) -> None:
        behind = await self.service.tables_behind(STARTUP_REFRESH_LIMIT)
        for record in behind:
            controller = self.controllers.get(record.kind)
            if controller is None:
                continue
            try:
                snapshot = (await self.service.get(record.channel_id) if record.is_live
                            else await self.service.closed(record))
                if snapshot is not None and snapshot.table_id == record.id:
                    await controller.redraw(snapshot)
            except Exception:
                _log.exception("could not redraw table %d at start-up", record.id)
        _log.info("redrew %d tables", len(behind))
        # a computer whose turn it was when the bot stopped moves now
        for record in await self.service.computer_turns():
            snapshot = await self.service.get(record.channel_id)
            if snapshot is not None:
                self.computers.kick(snapshot)

    async def _sync_commands(self) -> None:
        if self.settings.dev_guild_ids:
            for guild_id in self.settings.dev_guild_ids:
                guild = discord.Object(id=guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
                _log.info("synced %d commands to guild %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            _log.info("synced %d global commands", len(synced))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # components are routed by custom id, so tables posted before a restart keep working
        await serve_component(interaction)

    async def on_ready(self) -> None:
        _log.info("ready as %s in %d guilds", self.user, len(self.guilds))

    async def close(self) -> None:
        await self._finish_interactions()
        if self._refresh_task is not None:
            self._refresh_task.cancel()
        if self.card_emojis is not None:
            # uploads under way finish, so the log says how the cards are shown, within the
            # grace an answer has too
            await asyncio.wait({self.card_emojis}, timeout=SHUTDOWN_GRACE_SECONDS)
            self.card_emojis.cancel()
            # the emojis are this client's application's: whatever runs in this process after
            # it (another bot, in tests) starts from letters
            cards.use_emojis({})
        if hasattr(self, "timers"):
            await self.timers.close()
        if hasattr(self, "computers"):
            await self.computers.close()
        if hasattr(self, "events"):
            await self.events.close()
        if getattr(self, "activity_server", None) is not None:
            await self.activity_server.close()
        if hasattr(self, "publisher"):
            await self.publisher.close()
        await super().close()
        if hasattr(self, "store"):
            await self.store.close()
