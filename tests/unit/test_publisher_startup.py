"""A start-up with more tables behind than the pacer has room for in flight redraws them all, and
in the order that keeps it crash safe and people first (issue 49): each table is written,
recording with it where strays may stand (its stored message on), and only then looks for
strays, in the background, holding no write's place while it waits for its own (holding it,
every place went to tables waiting for a place for their look, and none was left); once swept,
the record goes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from bot.discord.pacing import Limits, RequestPacer
from bot.discord.publisher import TablePublisher
from bot.discord.showing import Showing, TableRender
from bot.table.priority import PeopleFirst
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
    def __init__(self, log: list[tuple[str, int]]) -> None:
        self.log = log
        self.shown: set[int] = set()
        self.all_swept = asyncio.Event()

    async def message_moved(self, table_id: int, channel_id: int, message_id: int,
                            pinged: int | None, version: int, *,
                            webhook: int | None = None, strays_from: int | None = None) -> None:
        raise AssertionError("each table is edited in place")

    async def message_shows(self, table_id: int, channel_id: int, version: int,
                            pinged: int | None, *, strays_from: int | None = None,
                            token: tuple[str, float] | None = None) -> None:
        # recorded with the write: from the stored message on
        assert strays_from == POSTED + table_id
        self.shown.add(table_id)

    async def strays_swept(self, table_id: int, channel_id: int, swept: int) -> None:
        self.log.append(("swept", channel_id))
        if sum(what == "swept" for what, _ in self.log) == TABLES:
            self.all_swept.set()


class Starved(PeopleFirst):
    """The loop's heavy steps one every 20 ms, longer than the pacer's window: a machine so
    busy that each pass of the loop takes that long. A write that the pacer let go waits for
    its step, and a look for strays let go after it must wait behind it."""

    def _next_step(self) -> None:
        asyncio.get_running_loop().call_later(0.02, super()._next_step)


@pytest.mark.parametrize("people", [PeopleFirst, Starved])
async def test_more_tables_behind_than_requests_in_flight_are_all_redrawn(
        people: type[PeopleFirst]) -> None:
    client = Client()
    hooks = Hooks(client.log)
    pacer = RequestPacer(Limits(requests=4, per=0.01, channel_per=0.01, delete_per=0.01,
                                margin=0.0))
    publisher = TablePublisher(client, hooks, SystemClock(), pacer,  # type: ignore[arg-type]
                               people=people())
    render = TableRender(embed=discord.Embed(title="table"), view=None)
    for table in range(1, TABLES + 1):
        publisher.publish(Showing(table_id=table, channel_id=table, message_id=POSTED + table,
                                  version=2, counter=1, draw=lambda: render, behind=True))
    # a deadlock leaves the redraw waiting for ever: close() gives up on it after its grace
    await asyncio.wait([asyncio.create_task(hooks.all_swept.wait())], timeout=30)
    await publisher.close()
    assert hooks.shown == set(range(1, TABLES + 1))
    for table in range(1, TABLES + 1):
        # each showed the table in place, recording where strays may stand with it, then
        # looked for strays (none) and cleared the record
        assert [what for what, channel in client.log if channel == table] == [
            "edit", "history", "swept"]
    # and every table's write went ahead of every look: the looks are background requests
    kinds = [what for what, _ in client.log]
    assert max(i for i, what in enumerate(kinds) if what == "edit") < kinds.index("history")
