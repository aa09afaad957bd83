"""A look for a table's strays never deletes the table's own new post (issue 49's sweep).

After a restart the sweep reads the channel for table messages a killed process posted and never
recorded, and deletes those that are not the table's message. A post anew (a ping) that was
under way while the channel was read stood in what it read, but was not yet the table's message
here (the post's answer had not come back, or the message it replaced was being deleted first):
the sweep deleted the table's new message, and the table was gone from the channel for good
(``tests/e2e/test_shard_processes.py`` failed about half of its runs so). A look that raced a
post now deletes nothing and looks again once that post is recorded."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord

from bot.discord.pacing import Limits, RequestPacer
from bot.discord.publisher import TablePublisher
from bot.discord.showing import Showing, TableRender
from bot.table.timers import SystemClock

TABLE = 1
CHANNEL = 10
PERSON = 7
STORED = discord.utils.time_snowflake(discord.utils.utcnow())
"""The table's message as stored, fresh: the restart's first write edits it in place."""
NEW = STORED + (1 << 22)
"""The table posted anew (to ping ``PERSON``), a moment later."""


@dataclass
class Discord:
    """What the channel shows and what the bot asked of it."""

    log: list[tuple[str, int]] = field(default_factory=list)
    posting: asyncio.Event = field(default_factory=asyncio.Event)
    """The table's post anew is under way: Discord has made its message."""
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    """The post's answer may come back (something was deleted, or the sweep stood back)."""


@dataclass
class Http:
    discord: Discord

    async def send_message(self, channel_id: int, **_: Any) -> dict[str, Any]:
        self.discord.log.append(("send", NEW))
        self.discord.posting.set()
        await self.discord.answered.wait()
        return {"id": str(NEW)}

    async def edit_message(self, channel_id: int, message_id: int, **_: Any
                           ) -> dict[str, Any]:
        self.discord.log.append(("edit", message_id))
        return {"id": str(message_id)}


@dataclass
class Message:
    discord: Discord
    id: int
    author: discord.Object = field(default_factory=lambda: discord.Object(1))

    @property
    def components(self) -> list[Any]:
        return [SimpleNamespace(custom_id=f"kb:dubb:{TABLE}:hand")]

    async def delete(self) -> None:
        self.discord.log.append(("delete", self.id))
        self.discord.answered.set()


@dataclass
class Channel:
    discord: Discord

    async def _history(self) -> AsyncIterator[Message]:
        # read while the post is under way: the channel shows the new message already
        await self.discord.posting.wait()
        self.discord.log.append(("history", CHANNEL))
        for message_id in (STORED, NEW):
            yield Message(self.discord, message_id)

    def history(self, **_: Any) -> AsyncIterator[Message]:
        return self._history()

    def get_partial_message(self, message_id: int) -> Message:
        return Message(self.discord, message_id)


@dataclass
class Client:
    discord: Discord
    user: discord.Object = field(default_factory=lambda: discord.Object(1))
    allowed_mentions: discord.AllowedMentions | None = None
    application_id: int = 99

    @property
    def http(self) -> Http:
        return Http(self.discord)

    def get_partial_messageable(self, channel_id: int) -> Channel:
        return Channel(self.discord)


class Hooks:
    def __init__(self) -> None:
        self.shown = asyncio.Event()
        self.swept = asyncio.Event()
        self.moved: list[int] = []

    async def message_shows(self, *_: Any, **__: Any) -> None:
        self.shown.set()

    async def message_moved(self, table_id: int, channel_id: int, message_id: int,
                            *_: Any, **__: Any) -> None:
        self.moved.append(message_id)

    async def strays_swept(self, *_: Any) -> None:
        self.swept.set()


async def test_a_look_for_strays_during_a_post_anew_leaves_the_new_post() -> None:
    world = Discord()
    hooks = Hooks()
    pacer = RequestPacer(Limits(requests=4, per=0.01, channel_per=0.01, delete_per=0.01,
                                margin=0.0))
    publisher = TablePublisher(Client(world), hooks, SystemClock(), pacer)  # type: ignore[arg-type]
    stood_back = asyncio.Event()
    sweep_once = publisher._sweep_once

    async def watched(state: Any) -> bool:
        looked = await sweep_once(state)
        if looked is False:
            stood_back.set()
            world.answered.set()
        return looked

    publisher._sweep_once = watched  # type: ignore[method-assign]
    render = TableRender(embed=discord.Embed(title="table"), view=None)

    # a restart: the stored message shows an older version, so strays may stand after it
    publisher.publish(Showing(table_id=TABLE, channel_id=CHANNEL, message_id=STORED, version=2,
                              counter=1, draw=lambda: render, behind=True))
    async with asyncio.timeout(10):
        await hooks.shown.wait()
    # the next version begins the person's turn: posted anew to ping them, while the sweep
    # reads the channel
    publisher.publish(Showing(table_id=TABLE, channel_id=CHANNEL, message_id=STORED, version=3,
                              counter=2, draw=lambda: render, to_move=PERSON, ping=PERSON))
    async with asyncio.timeout(10):
        await hooks.swept.wait()
    await publisher.close()

    assert hooks.moved == [NEW]
    assert ("delete", NEW) not in world.log, world.log
    # the message it replaced is deleted, once; the sweep read the channel again for it
    assert [m for what, m in world.log if what == "delete"] == [STORED]
    assert stood_back.is_set()
    assert sum(what == "history" for what, _ in world.log) == 2
