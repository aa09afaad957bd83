"""The bot in shards (issue 17): ``SHARD_COUNT`` shards in all, this process running
``SHARD_IDS`` of them in one ``AutoShardedBot``.

Discord sends a server's events only to the connection of its shard, ``(guild_id >> 22) %
SHARD_COUNT``, so a process hears only its own servers. Its table service is given the same
shards, so what the bot does by itself — turn timers, lobby expiry, computer players, redraws at
start-up — also stays with those servers; the database keeps every write correct even when two
processes both believe they own a table.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
from discord.ext import commands
from discord.gateway import DiscordWebSocket

from bot.client import KortbordBot, gateway_up
from bot.config import Settings

_log = logging.getLogger("kortbord")

IDENTIFY_INTERVAL = 5.0
"""Seconds between two IDENTIFYs of one rate-limit bucket (Discord docs, "Gateway",
"Session Start Limit Object": ``max_concurrency`` sessions may start every 5 seconds, shard ``k``
in bucket ``k % max_concurrency``)."""


class IdentifyPacer:
    """Holds each IDENTIFY until its bucket's previous one is ``IDENTIFY_INTERVAL`` old.

    discord.py waits 5 seconds before every shard but the first; Discord allows
    ``max_concurrency`` at once (16 and more for large bots), so a process with several shards
    starts as fast as it may and no faster."""

    def __init__(self, max_concurrency: int, *, now: Callable[[], float] = time.monotonic
                 ) -> None:
        self.max_concurrency = max(1, max_concurrency)
        self._now = now
        self._last: dict[int, float] = {}

    def delay(self, shard_id: int) -> float:
        """Seconds ``shard_id`` must wait before it may IDENTIFY."""
        last = self._last.get(shard_id % self.max_concurrency)
        return 0.0 if last is None else max(0.0, last + IDENTIFY_INTERVAL - self._now())

    def identified(self, shard_id: int) -> None:
        self._last[shard_id % self.max_concurrency] = self._now()

    async def wait(self, shard_id: int) -> None:
        # shards of one bucket identify one after another: discord.py launches them in turn
        delay = self.delay(shard_id)
        if delay > 0:
            await asyncio.sleep(delay)
        self.identified(shard_id)


class ShardedKortbordBot(KortbordBot, commands.AutoShardedBot):
    """``KortbordBot`` on ``discord.AutoShardedClient``: this process's shards, each its own
    gateway connection."""

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        shards = settings.shards
        if shards is None:
            raise ValueError("ShardedKortbordBot needs SHARD_COUNT")
        super().__init__(settings, shard_count=shards.count, shard_ids=list(shards.ids),
                         **kwargs)
        self._pacer: IdentifyPacer | None = None

    def gateway_state(self) -> tuple[int, int]:
        shards = self.settings.shards
        assert shards is not None
        connected = sum(1 for i in shards.ids if gateway_up(self._shard_ws(i)))
        return len(shards.ids), connected

    def _shard_ws(self, shard_id: int) -> DiscordWebSocket | None:
        info = self.get_shard(shard_id)
        return None if info is None else info._parent.ws

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False
                                   ) -> None:
        if self._pacer is None:
            self._pacer = IdentifyPacer(await self._max_concurrency())
        await self._pacer.wait(shard_id or 0)

    async def _max_concurrency(self) -> int:
        """``GET /gateway/bot``'s ``max_concurrency`` (1 if it cannot be read); says when
        Discord recommends more shards than ``SHARD_COUNT``."""
        shards = self.settings.shards
        assert shards is not None
        try:
            recommended, _, limits = await self.http.get_bot_gateway()
        except (discord.DiscordException, aiohttp.ClientError, OSError) as exc:
            _log.warning("could not read the session start limit (%s): shards start 5 s apart",
                         exc)
            return 1
        _log.info("running shards %s of %d (Discord recommends %d in all)",
                  ",".join(str(i) for i in shards.ids), shards.count, recommended)
        if recommended > shards.count:
            _log.warning("Discord recommends %d shards; SHARD_COUNT is %d", recommended,
                         shards.count)
        return int(limits.get("max_concurrency", 1))


def make_bot(settings: Settings, **kwargs: Any) -> KortbordBot:
    """The bot these settings ask for: sharded when ``SHARD_COUNT`` is set, else one
    unsharded connection. ``kwargs`` go to ``KortbordBot`` (tests pass a clock and games)."""
    if settings.shards is None:
        return KortbordBot(settings, **kwargs)
    return ShardedKortbordBot(settings, **kwargs)
