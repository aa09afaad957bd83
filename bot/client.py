"""The bot: a ``commands.Bot`` that opens storage, loads the cogs and syncs its commands."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.service import TableService
from bot.service.registry import GAME_KINDS
from bot.storage import Store
from bot.ui.errors import answer_error
from bot.ui.publisher import TablePublisher
from bot.ui.routing import RoutedButton, RoutedSelect, Router, dispatch_unmatched
from bot.ui.tables import TableController

_log = logging.getLogger("kortbord")

STARTUP_REFRESH_LIMIT = 200
"""Tables re-drawn at start-up, most recently active first: a crash between a move's commit and
its table edit leaves the table a move behind, and its buttons a turn stale, until redrawn."""

EXTENSIONS: tuple[str, ...] = ("cogs.meta", "cogs.dubb", "cogs.tonk")


class KortbordTree(app_commands.CommandTree):
    """The single error handler for every slash command and autocomplete."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error)


class KortbordBot(commands.Bot):
    store: Store
    tables: TableService
    publisher: TablePublisher

    def __init__(self, settings: Settings) -> None:
        intents = discord.Intents.default()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=KortbordTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=True, replied_user=False
            ),
        )
        self.settings = settings
        self.router = Router()
        self.controllers: dict[str, TableController] = {}
        self._refresh_task: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database_path)
        self.tables = TableService(self.store, GAME_KINDS)
        self.publisher = TablePublisher(self, self._table_message_moved)
        # components are routed by custom id, so tables posted before a restart keep working
        self.add_dynamic_items(RoutedButton, RoutedSelect)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self._sync_commands()
        self._refresh_task = asyncio.create_task(self._refresh_tables(), name="kortbord-refresh")

    async def _refresh_tables(self) -> None:
        records = await self.tables.unfinished_tables()
        records.sort(key=lambda r: r.updated_at, reverse=True)
        for record in records[:STARTUP_REFRESH_LIMIT]:
            controller = self.controllers.get(record.kind)
            if controller is None or record.message_id is None:
                continue
            try:
                snapshot = await self.tables.get(record.channel_id)
                if snapshot is not None:
                    await controller.publish(snapshot)
            except Exception:
                _log.exception("could not redraw table %d at start-up", record.id)
        _log.info("redrew %d live tables", min(len(records), STARTUP_REFRESH_LIMIT))

    async def _table_message_moved(self, channel_id: int, message_id: int) -> None:
        await self.tables.set_message_id(channel_id, message_id)

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
        await dispatch_unmatched(interaction)

    async def on_ready(self) -> None:
        _log.info("ready as %s in %d guilds", self.user, len(self.guilds))

    async def close(self) -> None:
        if self._refresh_task is not None:
            self._refresh_task.cancel()
        if hasattr(self, "publisher"):
            await self.publisher.close()
        await super().close()
        if hasattr(self, "store"):
            await self.store.close()
