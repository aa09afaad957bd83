"""A replaced table message is deleted through the interaction webhook that posted it only while
that webhook's token is good. Freshness is asked before the delete waits for its place among
the requests and again once it has it: a place that came after the token's last minute (a busy
bucket, the background sweep's turn after everyone else's) leaves the delete to the bot's own
token, where it used to go out with a token Discord refuses (401 Invalid Webhook Token), seen
in a loaded full run of ``test_channel_webhooks``."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest
from discord.webhook.async_ import async_context

from bot.discord.pacing import Kind
from bot.discord.publisher import TablePublisher
from bot.discord.showing import HOOK_LIFETIME, Hook
from tests.fakeclock import FakeClock
from tests.unit.test_publisher_release import Hooks
from tests.unit.test_publisher_startup import Client

CHANNEL, MESSAGE, APPLICATION = 5, 500, 99


class Grant:
    def __init__(self, log: list[str]) -> None:
        self.log = log

    def release(self) -> None:
        self.log.append("released")

    def cancel(self) -> None:
        self.log.append("cancelled")


class Pacer:
    """Grants at once, but an interaction webhook's place comes ``wait`` seconds later."""

    def __init__(self, clock: FakeClock, wait: float) -> None:
        self.clock = clock
        self.wait = wait
        self.log: list[str] = []

    async def acquire(self, key: int, kind: Kind, **_: Any) -> Grant:
        if kind is Kind.HOOK:
            self.clock.advance(self.wait)
        return Grant(self.log)


async def _deleted(monkeypatch: pytest.MonkeyPatch, wait: float
                   ) -> tuple[list[tuple[str, int]], list[str], list[str]]:
    """Delete the message a fresh interaction posted, its place among the requests coming
    ``wait`` seconds later: the bot's deletes, the webhook's tokens used, the grants' ends."""
    clock = FakeClock()
    pacer = Pacer(clock, wait)
    client = Client()
    publisher = TablePublisher(client, Hooks(), clock, pacer=pacer)  # type: ignore[arg-type]
    by_webhook: list[str] = []

    async def delete_webhook_message(webhook_id: int, token: str, message_id: int,
                                     **_: Any) -> None:
        by_webhook.append(token)

    monkeypatch.setattr(async_context.get(), "delete_webhook_message", delete_webhook_message)
    async with aiohttp.ClientSession() as session:
        made = clock.now() - (HOOK_LIFETIME - 30)  # half a minute of use left
        hook = Hook(discord.Webhook.partial(APPLICATION, "token", session=session), CHANNEL,
                    made)
        await publisher._delete(CHANNEL, MESSAGE, hook)
    return client.log, by_webhook, pacer.log


async def test_a_token_still_good_when_its_turn_comes_deletes_through_its_webhook(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    by_bot, by_webhook, grants = await _deleted(monkeypatch, wait=10)
    assert by_webhook == ["token"] and by_bot == [] and grants == ["released"]


async def test_a_token_that_ran_out_while_its_delete_waited_leaves_it_to_the_bot(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    by_bot, by_webhook, grants = await _deleted(monkeypatch, wait=60)
    assert by_webhook == []
    assert by_bot == [("delete", CHANNEL)]
    # the webhook's place was handed back unused, the bot's used
    assert grants == ["cancelled", "released"]
