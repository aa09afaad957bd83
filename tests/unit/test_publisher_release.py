"""A run's claims on its tables' posts (issue 49, ``bot.storage.postruns``): a table whose posts
the last run left all recorded is not read for strays, and a clean stop gives up the run's
claims but for a table whose post may have gone out unrecorded (Discord's 5xx: it may have
posted), not for one Discord refused (a 4xx posts nothing)."""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from types import SimpleNamespace
from typing import Any

import discord

from bot.discord.pacing import Limits, RequestPacer
from bot.discord.publisher import TablePublisher
from bot.discord.showing import Showing, TableRender
from bot.table.timers import SystemClock
from tests.unit.test_publisher_startup import POSTED, Channel

CLEAN, LEFT, FAILED, REFUSED = 1, 2, 3, 4
"""A table the last run left with every post recorded, one it did not, a new table whose first
post fails with a 500 (then goes out), and a new table whose post Discord refuses (403)."""


class Http:
    def __init__(self, log: list[tuple[str, int]]) -> None:
        self.log = log
        self.failed = False

    async def send_message(self, channel_id: int, **_: Any) -> dict[str, Any]:
        self.log.append(("send", channel_id))
        if channel_id == REFUSED:
            raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"),
                                    {"code": 50013, "message": "Missing Permissions"})
        if channel_id == FAILED and not self.failed:
            self.failed = True
            raise discord.DiscordServerError(SimpleNamespace(status=500, reason="Error"), "")
        return {"id": str(POSTED + channel_id)}

    async def edit_message(self, channel_id: int, message_id: int, **_: Any
                           ) -> dict[str, Any]:
        self.log.append(("edit", channel_id))
        return {"id": str(message_id)}


class Client:
    def __init__(self) -> None:
        self.log: list[tuple[str, int]] = []
        self.http = Http(self.log)
        self.user = discord.Object(1)
        self.allowed_mentions = None
        self.application_id = 99

    def get_partial_messageable(self, channel_id: int) -> Channel:
        return Channel(channel_id, self.log)


class Hooks:
    def __init__(self) -> None:
        self.released: list[tuple[int, set[int]]] = []
        self.claimed = 0
        self.moved = asyncio.Event()
        self.swept = asyncio.Event()

    async def claim_posts(self, run_id: int) -> dict[int, bool]:
        self.claimed = run_id
        return {CLEAN: True, LEFT: False}

    async def hold_posts(self, table_id: int, run_id: int) -> None:
        raise AssertionError("every table here is claimed at the start or has no message")

    async def release_posts(self, run_id: int, *, keep: Collection[int] = ()) -> None:
        self.released.append((run_id, set(keep)))

    async def forget_message_tokens(self, issued_before: float) -> int:
        return 0

    async def message_moved(self, table_id: int, channel_id: int, message_id: int,
                            pinged: int | None, version: int, *, run: int | None = None,
                            **_: Any) -> None:
        # a new table's first record claims it for the run
        assert run == self.claimed
        if table_id == FAILED:
            self.moved.set()

    async def message_shows(self, *_: Any, **__: Any) -> None:
        pass

    async def strays_swept(self, table_id: int, channel_id: int, swept: int) -> None:
        self.swept.set()


async def test_a_clean_stop_keeps_the_claim_of_a_post_that_may_have_gone_out() -> None:
    client = Client()
    hooks = Hooks()
    pacer = RequestPacer(Limits(requests=50, per=0.01, channel_per=0.01, delete_per=0.01,
                                margin=0.0))
    publisher = TablePublisher(client, hooks, SystemClock(), pacer)  # type: ignore[arg-type]
    await publisher.begin()
    render = TableRender(embed=discord.Embed(title="table"), view=None)
    for table in (CLEAN, LEFT):
        # restarted behind what the table holds
        publisher.publish(Showing(table_id=table, channel_id=table, message_id=POSTED + table,
                                  version=2, counter=1, draw=lambda: render, behind=True))
    for table in (FAILED, REFUSED):
        publisher.publish(Showing(table_id=table, channel_id=table, message_id=None,
                                  version=0, counter=0, draw=lambda: render))
    async with asyncio.timeout(30):
        await hooks.moved.wait()  # the failed post went out on its second try
        await hooks.swept.wait()
    await publisher.close()

    # only the table the last run did not leave clean was read for strays
    assert [channel for what, channel in client.log if what == "history"] == [LEFT]
    assert ("send", REFUSED) in client.log
    # the run's claims go, but that of the table whose 500 may have posted a message
    assert hooks.released == [(hooks.claimed, {FAILED})]
