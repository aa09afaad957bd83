"""A start-up with more tables behind than the pacer has room for in flight redraws them all: a
table looks for stray messages before it asks for its write's place, never while holding it
(holding it, every place went to tables waiting for a place for their look, and none was left)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord.pacing import Limits, RequestPacer
from bot.discord.publisher import TablePublisher
from bot.discord.showing import Showing, TableRender
from bot.table.timers import SystemClock

POSTED = discord.utils.time_snowflake(discord.utils.utcnow())
"""The table messages' ids start here, posted now: one 50 minutes old is posted anew."""

TABLES = 12


@dataclass
class Http:
    """Table messages are posted and edited straight through discord.py's HTTP client."""

    log: list[tuple[str, int]]

    async def send_message(self, channel_id: int, **_: Any) -> dict[str, Any]:
        self.log.append(("send", channel_id))
        return {"id": str(channel_id * 100)}

    async def edit_message(self, channel_id: int, message_id: int, **_: Any
                           ) -> dict[str, Any]:
        self.log.append(("edit", channel_id))
        return {"id": str(message_id)}


@dataclass
class Channel:
    id: int
    log: list[tuple[str, int]]

    async def _history(self) -> AsyncIterator[Any]:
        self.log.append(("history", self.id))
        for message in ():
            yield message

    def history(self, **_: Any) -> AsyncIterator[Any]:
        return self._history()

    def get_partial_message(self, message_id: int) -> Message:
        return Message(self.id, self.log)


@dataclass
class Message:
    channel_id: int
    log: list[tuple[str, int]]

    async def delete(self) -> None:
        self.log.append(("delete", self.channel_id))


@dataclass
class Client:
    log: list[tuple[str, int]] = field(default_factory=list)
    user: discord.Object = field(default_factory=lambda: discord.Object(1))
    allowed_mentions: discord.AllowedMentions | None = None

    @property
    def http(self) -> Http:
        return Http(self.log)

    def get_partial_messageable(self, channel_id: int) -> Channel:
        return Channel(channel_id, self.log)


class Hooks:
    def __init__(self) -> None:
        self.shown: set[int] = set()
        self.all_shown = asyncio.Event()

    async def message_moved(self, table_id: int, channel_id: int, message_id: int,
                            pinged: int | None, version: int, *,
                            webhook: int | None = None) -> None:
        self._saw(table_id)

    async def message_shows(self, table_id: int, channel_id: int, version: int,
                            pinged: int | None) -> None:
        self._saw(table_id)

    def _saw(self, table_id: int) -> None:
        self.shown.add(table_id)
        if len(self.shown) == TABLES:
            self.all_shown.set()


async def test_more_tables_behind_than_requests_in_flight_are_all_redrawn() -> None:
    client, hooks = Client(), Hooks()
    pacer = RequestPacer(Limits(requests=4, per=0.01, channel_per=0.01, delete_per=0.01,
                                margin=0.0))
    publisher = TablePublisher(client, hooks, SystemClock(), pacer)  # type: ignore[arg-type]
    render = TableRender(embed=discord.Embed(title="table"), view=None)
    for table in range(1, TABLES + 1):
        publisher.publish(Showing(table_id=table, channel_id=table, message_id=POSTED + table,
                                  version=2, counter=1, draw=lambda: render, behind=True))
    # a deadlock leaves the redraw waiting for ever: close() gives up on it after its grace
    await asyncio.wait([asyncio.create_task(hooks.all_shown.wait())], timeout=30)
    await publisher.close()
    assert hooks.shown == set(range(1, TABLES + 1))
    for table in range(1, TABLES + 1):
        # each looked for strays, then showed the table in place
        assert [what for what, channel in client.log if channel == table] == ["history", "edit"]
