"""discord.py's rate-limit buckets swept in linear time (``bot.discord.buckets``, issue 49): a
burst of new channels no longer walks every bucket for each new one, and buckets unused for
five minutes still go."""

from __future__ import annotations

import asyncio

import pytest
from discord.http import HTTPClient, Ratelimit

from bot.discord.buckets import sweep_less

NEW = 1200
"""New buckets, as a cold start in 600 channels makes (a webhook's look-up and its creation in
each)."""


def _walks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the buckets looked at by the sweeps (``Ratelimit.is_inactive`` calls)."""
    looked = [0]
    inactive = Ratelimit.is_inactive

    def counted(self: Ratelimit) -> bool:
        looked[0] += 1
        return inactive(self)

    monkeypatch.setattr(Ratelimit, "is_inactive", counted)
    return looked


def _burst(http: HTTPClient, prefix: str, count: int) -> None:
    for channel in range(count):
        http.get_ratelimit(f"{prefix}:{channel}")


async def test_discord_py_alone_walks_every_bucket_for_each_new_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the cause, as discord.py has it: when this fails, discord.py sweeps in linear time itself
    # and ``sweep_less`` can go
    looked = _walks(monkeypatch)
    _burst(HTTPClient(asyncio.get_running_loop()), "GET /channels/{channel_id}/webhooks", NEW)
    assert looked[0] > NEW * NEW // 3


async def test_a_burst_of_new_buckets_walks_a_constant_each(
        monkeypatch: pytest.MonkeyPatch) -> None:
    looked = _walks(monkeypatch)
    http = HTTPClient(asyncio.get_running_loop())
    sweep_less(http)
    _burst(http, "GET /channels/{channel_id}/webhooks", NEW)
    assert len(http._buckets) == NEW
    assert looked[0] <= 3 * NEW


async def test_buckets_unused_for_five_minutes_still_go() -> None:
    loop = asyncio.get_running_loop()
    http = HTTPClient(loop)
    sweep_less(http)
    _burst(http, "old", 400)
    for bucket in http._buckets.values():
        bucket._last_request = loop.time() - 301
    _burst(http, "new", 1000)
    assert not [key for key in http._buckets if key.startswith("old:")]
    assert len(http._buckets) == 1000
