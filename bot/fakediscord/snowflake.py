"""Snowflake ids and timestamps shaped like Discord's."""

from __future__ import annotations

import datetime
import secrets
import time
from collections.abc import Callable

DISCORD_EPOCH_MS = 1420070400000


class SnowflakeFactory:
    """Timestamp-based ids, strictly increasing even when many are made in one millisecond.

    Layout as Discord documents it: 42 bits of milliseconds since the Discord epoch, 5 bits
    worker, 5 bits process, 12 bits increment. The milliseconds come from ``clock`` (Unix
    seconds), so a message's age on the fake's clock is what its id says, as on Discord.
    """

    def __init__(self, worker: int = 1, process: int = 0,
                 clock: Callable[[], float] = time.time) -> None:
        self._worker = worker & 0x1F
        self._process = process & 0x1F
        self._clock = clock
        self._last = 0

    def next(self) -> int:
        ms = int(self._clock() * 1000) - DISCORD_EPOCH_MS
        candidate = (ms << 22) | (self._worker << 17) | (self._process << 12)
        # ids made within one millisecond share the timestamp and differ in the increment
        self._last = max(candidate, self._last + 1)
        return self._last

    def next_on_shard(self, shard_id: int, num_shards: int) -> int:
        """A new id whose guild would be routed to ``shard_id`` of ``num_shards``
        (``(id >> 22) % num_shards``): the next millisecond with that remainder."""
        if not 0 <= shard_id < num_shards:
            raise ValueError(f"no shard {shard_id} among {num_shards}")
        now_ms = int(self._clock() * 1000) - DISCORD_EPOCH_MS
        ms = max(now_ms, (self._last >> 22) + 1)
        ms += (shard_id - ms) % num_shards
        self._last = (ms << 22) | (self._worker << 17) | (self._process << 12)
        return self._last


def shard_of(guild_id: int, num_shards: int) -> int:
    """The shard Discord routes a guild's events to (Discord docs, "Sharding")."""
    return (guild_id >> 22) % num_shards


def snowflake_time(snowflake: int) -> datetime.datetime:
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC)


def iso_from_snowflake(snowflake: int) -> str:
    return snowflake_time(snowflake).isoformat(timespec="microseconds")


def iso_now() -> str:
    return datetime.datetime.now(tz=datetime.UTC).isoformat(timespec="microseconds")


def new_token(prefix: str) -> str:
    """An opaque token; interaction tokens on Discord are long url-safe strings like this."""
    return prefix + secrets.token_urlsafe(64)
