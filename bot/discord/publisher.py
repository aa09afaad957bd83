"""Keeps each channel's public table message current, and pings the player to move.

Moves can come faster than Discord accepts edits (5 per 5 s per channel), so edits are
coalesced: a channel has at most one edit in flight, and whatever was published meanwhile is
sent as one edit of the latest state. An edit never notifies anyone, so the player to move is
pinged with one short new message per turn; the previous ping is deleted to keep the channel
readable.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import discord

_log = logging.getLogger(__name__)

# the table names the player to move, but only the separate ping message notifies them
_QUIET = discord.AllowedMentions.none()

MessageMoved = Callable[[int, int], Awaitable[None]]
"""Called with (channel_id, new_message_id) when the table message had to be posted anew."""


@dataclass(frozen=True)
class TableRender:
    """Everything the public table message shows at one moment."""

    embed: discord.Embed
    view: discord.ui.View | None
    to_ping: int | None = None
    ping_text: str = "it's your turn."
    content: str | None = None


@dataclass
class _Channel:
    message_id: int | None = None
    pending: TableRender | None = None
    worker: asyncio.Task[None] | None = None
    last_pinged: int | None = None
    ping_message_id: int | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class TablePublisher:
    def __init__(self, client: discord.Client, on_moved: MessageMoved) -> None:
        self._client = client
        self._on_moved = on_moved
        self._channels: dict[int, _Channel] = {}

    def _state(self, channel_id: int) -> _Channel:
        return self._channels.setdefault(channel_id, _Channel())

    def publish(self, channel_id: int, message_id: int | None, render: TableRender) -> None:
        """Show ``render`` on the table message soon; returns at once."""
        state = self._state(channel_id)
        if message_id is not None:
            state.message_id = message_id
        state.pending = render
        if state.worker is None or state.worker.done():
            state.worker = asyncio.create_task(
                self._drain(channel_id, state), name=f"kortbord-table-{channel_id}"
            )

    async def post_new(
        self, channel_id: int, render: TableRender, *, replaces: int | None = None
    ) -> int:
        """Post the table as a new message at the bottom of the channel and return its id.
        The message ``replaces`` (a re-post) is deleted; an earlier game's table stays, so the
        channel's history keeps its result."""
        state = self._state(channel_id)
        async with state.lock:
            state.pending = None
            message_id = await self._send(channel_id, render)
            state.message_id = message_id
            await self._on_moved(channel_id, message_id)
            await self._maybe_ping(channel_id, state, render)
        if replaces is not None and replaces != message_id:
            await self._delete(channel_id, replaces)
        return message_id

    async def flush(self, channel_id: int) -> None:
        """Wait until everything published for this channel is on Discord."""
        state = self._channels.get(channel_id)
        while state is not None and state.worker is not None and not state.worker.done():
            await state.worker

    async def close(self) -> None:
        workers = [s.worker for s in self._channels.values() if s.worker and not s.worker.done()]
        if workers:
            await asyncio.gather(*workers, return_exceptions=True)

    async def _drain(self, channel_id: int, state: _Channel) -> None:
        while state.pending is not None:
            async with state.lock:
                render, state.pending = state.pending, None
                if render is None:
                    continue
                try:
                    await self._show(channel_id, state, render)
                    await self._maybe_ping(channel_id, state, render)
                except discord.HTTPException:
                    _log.exception("could not update the table in channel %s", channel_id)

    async def _show(self, channel_id: int, state: _Channel, render: TableRender) -> None:
        if state.message_id is not None:
            message = self._partial(channel_id, state.message_id)
            try:
                await message.edit(
                    content=render.content, embed=render.embed, view=render.view,
                    allowed_mentions=_QUIET,
                )
                return
            except discord.NotFound:
                _log.info("table message in channel %s was deleted; posting it again", channel_id)
        state.message_id = await self._send(channel_id, render)
        await self._on_moved(channel_id, state.message_id)

    async def _maybe_ping(self, channel_id: int, state: _Channel, render: TableRender) -> None:
        if render.to_ping is None:
            # nobody to move (game over, lobby, between hands): an old "your turn" would mislead
            state.last_pinged = None
            if state.ping_message_id is not None:
                old, state.ping_message_id = state.ping_message_id, None
                await self._delete(channel_id, old)
            return
        if render.to_ping == state.last_pinged:
            return
        state.last_pinged = render.to_ping
        channel = self._client.get_partial_messageable(channel_id)
        old = state.ping_message_id
        sent = await channel.send(
            f"<@{render.to_ping}>, {render.ping_text}",
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(render.to_ping)], roles=False, everyone=False
            ),
        )
        state.ping_message_id = sent.id
        if old is not None:
            await self._delete(channel_id, old)

    async def _send(self, channel_id: int, render: TableRender) -> int:
        channel = self._client.get_partial_messageable(channel_id)
        kwargs: dict[str, object] = {
            "content": render.content, "embed": render.embed, "allowed_mentions": _QUIET
        }
        if render.view is not None:
            kwargs["view"] = render.view
        sent = await channel.send(**kwargs)  # type: ignore[arg-type]
        return sent.id

    async def _delete(self, channel_id: int, message_id: int) -> None:
        with contextlib.suppress(discord.HTTPException):
            await self._partial(channel_id, message_id).delete()

    def _partial(self, channel_id: int, message_id: int) -> discord.PartialMessage:
        return self._client.get_partial_messageable(channel_id).get_partial_message(message_id)
