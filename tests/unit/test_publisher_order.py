"""A table version published late never replaces a newer one: a game started and at once
stopped had its closed table overwritten by the started one, whose publisher call came after
(the start's handler was still awaiting its drawing when the stop closed the table)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord.pacing import Limits, RequestPacer
from bot.discord.publisher import TablePublisher
from bot.discord.showing import Showing, TableRender
from bot.table.timers import SystemClock

CHANNEL = 5
MESSAGE = discord.utils.time_snowflake(discord.utils.utcnow())
"""The table message, posted now: a message 50 minutes old is posted anew, not edited."""


@dataclass
class Http:
    titles: list[str]

    async def send_message(self, channel_id: int, **kwargs: Any) -> dict[str, Any]:
        raise AssertionError("the table message is edited in place")

    async def edit_message(self, channel_id: int, message_id: int, *, params: Any
                           ) -> dict[str, Any]:
        # the table's layout opens with its heading: "## title"
        heading = params.payload["components"][0]["components"][0]["content"]
        self.titles.append(heading.removeprefix("## "))
        return {"id": str(message_id)}


@dataclass
class Client:
    titles: list[str] = field(default_factory=list)
    user: discord.Object = field(default_factory=lambda: discord.Object(1))
    allowed_mentions: discord.AllowedMentions | None = None

    @property
    def http(self) -> Http:
        return Http(self.titles)


class Hooks:
    def __init__(self) -> None:
        self.versions: list[int] = []
        self.changed = asyncio.Event()

    async def message_moved(self, table_id: int, channel_id: int, message_id: int,
                            pinged: int | None, version: int, *,
                            webhook: int | None = None, strays_from: int | None = None) -> None:
        raise AssertionError("the table message stays where it is")

    async def message_shows(self, table_id: int, channel_id: int, version: int,
                            pinged: int | None, *, strays_from: int | None = None,
                            token: tuple[str, float] | None = None) -> None:
        self.versions.append(version)
        self.changed.set()

    async def shown(self, version: int) -> None:
        while version not in self.versions:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 10)


def showing(version: int, title: str, *, final: bool = False) -> Showing:
    render = TableRender(embed=discord.Embed(title=title), view=None)
    return Showing(table_id=1, channel_id=CHANNEL, message_id=MESSAGE, version=version,
                   counter=0, draw=lambda: render, final=final)


def publisher(client: Client, hooks: Hooks) -> TablePublisher:
    pacer = RequestPacer(Limits(requests=45, per=0.01, channel_per=0.01, delete_per=0.01,
                                margin=0.0))
    return TablePublisher(client, hooks, SystemClock(), pacer)  # type: ignore[arg-type]


async def test_an_older_version_published_after_a_newer_one_is_dropped() -> None:
    client, hooks = Client(), Hooks()
    tables = publisher(client, hooks)
    try:
        tables.publish(showing(3, "closed", final=True))
        tables.publish(showing(2, "in play"))
        await hooks.shown(3)
        # and once the closed table is shown and forgotten, a late older one is still dropped
        tables.publish(showing(2, "in play"))
        tables.publish(showing(4, "a later game's table"))
        await hooks.shown(4)
    finally:
        await tables.close()
    assert client.titles == ["closed", "a later game's table"]
    assert hooks.versions == [3, 4]
