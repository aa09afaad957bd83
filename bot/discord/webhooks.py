"""The bot's own webhook on each channel, through which tables are written when no person's
interaction can write them (issue 32).

A table nobody clicked at for 14 minutes, one redrawn after a restart, or one where only
computers move would otherwise be written as the bot's own messages, on the bot token's global
budget (50 requests a second over every process). A channel webhook's requests carry no bot
authorization: Discord counts them per webhook and per address instead. A webhook the bot
creates is its application's, and application-owned webhooks may send interactive components
(Discord docs, "Execute Webhook": "Application-owned webhooks can always send components"), so
a table written through it keeps its buttons.

A webhook lives on a text channel; a thread's tables go through its parent's webhook with
``thread_id``. Creating one needs Manage Webhooks in the channel: without it (or when Discord
refuses: 403 50013, or the channel has its 15 webhooks, 30007) the tables there stay the bot's
own messages. The webhook is found again after a restart (its id and token are stored), or
among the channel's webhooks (only one the bot's application owns: a member's is not ours to
use), else created. A member may delete it at any time (404 10015 Unknown Webhook): it is
forgotten and made anew on the next write, if the bot still may.

Asking Discord costs two of the bot token's requests (the channel's webhooks, then a new one),
on its global budget: so a write that a person's fresh interaction can make never waits for
them (issue 49). The publisher looks only at what is known (``find(make=False)``: remembered or
stored) for such a write, and sets the webhook up in the background once the table is up, its
requests after every other of the bot's (``gate``: the pacer's background requests).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Protocol

import discord

from bot.discord.reach import server_channel
from bot.table.timers import Clock

_log = logging.getLogger(__name__)

WEBHOOK_NAME = "kortbord"
"""The webhook's name, which its messages show as their author: the bot's own name, the same
in every language (names with "discord" or "clyde" in them are refused)."""
Gate = Callable[[], AbstractAsyncContextManager[object]]
"""Entered around each request of the bot token's that ``find`` makes: the caller's pacing
(without one, ``bot.discord.pacing.pace_all`` paces them as routine requests)."""
REFUSED_FOR = 10 * 60.0
"""Seconds a channel whose webhook Discord refused (no permission after all, or 15 webhooks
there already) is written with bot messages before the bot asks again."""
PERMISSION_KEPT = 30.0
"""Seconds the cache's answer to "may the bot manage webhooks in this channel" is kept: every
table write asks (whether to set a webhook up in the background), and working it out from the
roles and the channel's overwrites took some 40 µs of each move where the bot may not (issue
44). A permission granted or taken away counts within this long."""


@dataclass(frozen=True)
class ChannelHook:
    """The bot's webhook on ``parent_id`` (a text channel), by id and token."""

    webhook_id: int
    token: str
    parent_id: int


class WebhookStore(Protocol):
    """Where the webhooks are kept across restarts (``bot.storage.Store``)."""

    async def channel_webhook(self, channel_id: int) -> tuple[int, str] | None: ...

    async def set_channel_webhook(self, channel_id: int, webhook: tuple[int, str] | None, *,
                                  now: float) -> None: ...


class ChannelWebhooks:
    """Finds or makes the bot's webhook for a channel's tables; ``None`` where there is none
    to be had (bot messages, then)."""

    def __init__(self, client: discord.Client, store: WebhookStore, clock: Clock) -> None:
        self._client = client
        self._store = store
        self._clock = clock
        self._known: dict[int, ChannelHook | None] = {}
        """Parent channel → its webhook, as far as this process has looked (``None``: none)."""
        self._refused: dict[int, float] = {}
        """Parent channel → until when not to ask Discord again."""
        self._locks: dict[int, asyncio.Lock] = {}
        self._places: dict[int, int | None] = {}
        """Parent channel → its server, as ``parent_of`` was told."""
        self._may: dict[int, tuple[float, bool]] = {}
        """Parent channel → until when ``_may_manage``'s answer holds, and the answer."""

    def parent_of(self, channel_id: int, place_id: int | None = None
                  ) -> tuple[int, int | None]:
        """The channel a table in ``channel_id`` (on server ``place_id``, when known) has its
        webhook on, and the thread to name (``None``: the table is in that channel itself)."""
        channel = server_channel(self._client, place_id, channel_id)
        if isinstance(channel, discord.Thread) and channel.parent_id is not None:
            parent, thread = channel.parent_id, channel.id
        else:
            parent, thread = channel_id, None
        if place_id is not None:
            self._places[parent] = place_id
        return parent, thread

    def known(self, parent_id: int) -> ChannelHook | None:
        return self._known.get(parent_id)

    def wanting(self, parent_id: int) -> bool:
        """Whether ``parent_id`` has no webhook known yet (none found, or not looked up), and
        ``find`` might ask Discord for one (the bot may, and was not refused lately), nobody
        asking already."""
        lock = self._locks.get(parent_id)
        return (self._known.get(parent_id) is None
                and (lock is None or not lock.locked()) and self._may_ask(parent_id))

    async def find(self, parent_id: int, *, make: bool = True,
                   gate: Gate | None = None) -> ChannelHook | None:
        """The webhook for ``parent_id``'s tables: remembered, stored, the bot's among the
        channel's, or new; ``None`` if the bot may not have one there. Without ``make`` only
        what is known without asking Discord (remembered or stored). ``gate`` paces the
        requests to Discord."""
        known = self._known.get(parent_id)
        if known is not None or (not make and parent_id in self._known):
            return known
        lock = self._locks.setdefault(parent_id, asyncio.Lock())
        async with lock:
            if self._known.get(parent_id) is not None:
                return self._known[parent_id]
            if parent_id not in self._known:
                stored = await self._store.channel_webhook(parent_id)
                if stored is not None:
                    hook = self._known[parent_id] = ChannelHook(stored[0], stored[1], parent_id)
                    return hook
                self._known[parent_id] = None
            if not make or not self._may_ask(parent_id):
                return None
            hook = await self._obtain(parent_id, gate or contextlib.nullcontext)
            if hook is not None:
                self._known[parent_id] = hook
                await self._store.set_channel_webhook(
                    parent_id, (hook.webhook_id, hook.token), now=self._clock.now())
            return hook

    async def forget(self, hook: ChannelHook) -> None:
        """``hook`` is gone (a member deleted it, or its token changed): write without it until
        a new one is made."""
        if self._known.get(hook.parent_id) == hook:
            self._known[hook.parent_id] = None
            _log.info("the webhook of channel %d is gone; making a new one if allowed",
                      hook.parent_id)
            await self._store.set_channel_webhook(hook.parent_id, None, now=self._clock.now())

    def _may_ask(self, parent_id: int) -> bool:
        return self._may_manage(parent_id) and self._refused.get(parent_id, 0.0) <= \
            self._clock.now()

    def _may_manage(self, parent_id: int) -> bool:
        """Whether the bot has Manage Webhooks in the channel, as its cache (the guild's roles
        and the channel's overwrites) said within ``PERMISSION_KEPT`` seconds."""
        now = self._clock.now()
        kept = self._may.get(parent_id)
        if kept is not None and kept[0] > now:
            return kept[1]
        channel = server_channel(self._client, self._places.get(parent_id), parent_id)
        may = False
        if isinstance(channel, discord.TextChannel) and channel.guild.me is not None:
            may = channel.permissions_for(channel.guild.me).manage_webhooks
        self._may[parent_id] = (now + PERMISSION_KEPT, may)
        return may

    async def _obtain(self, parent_id: int, gate: Gate) -> ChannelHook | None:
        """The application's webhook among the channel's, else a new one."""
        application = self._client.application_id
        http = self._client.http
        try:
            async with gate():
                listed = await http.channel_webhooks(parent_id)
            for data in listed:
                token = data.get("token")
                if token and data.get("application_id") == str(application):
                    return ChannelHook(int(data["id"]), token, parent_id)
            async with gate():
                made = await http.create_webhook(parent_id, name=WEBHOOK_NAME)
        except discord.HTTPException as exc:
            # 403 50013: no Manage Webhooks after all; 400 30007: 15 webhooks there already
            self._refused[parent_id] = self._clock.now() + REFUSED_FOR
            _log.info("no webhook for channel %d (%s %s); its tables are bot messages",
                      parent_id, exc.status, exc.code)
            return None
        return ChannelHook(int(made["id"]), str(made["token"]), parent_id)
