"""One gateway connection and one session: the wire (compression, payloads written in order
by one writer) and what outlives it (intents, shard, sequence, the events kept for a RESUME).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import zlib
from collections import Counter, deque
from typing import Any

from aiohttp import web

from bot.fakediscord.jsonvalue import dumps
from bot.fakediscord.snowflake import shard_of

OP_DISPATCH = 0
BUFFER_SIZE = 5000
"""Events a session keeps for replay on RESUME."""


class _Compressor:
    def __init__(self, kind: str | None) -> None:
        self.kind = kind
        self._zlib = zlib.compressobj() if kind == "zlib-stream" else None
        self._zstd: Any = None
        if kind == "zstd-stream":
            import zstandard  # type: ignore[import-not-found]

            self._zstd = zstandard.ZstdCompressor().compressobj()
            self._zstd_flush = zstandard.COMPRESSOBJ_FLUSH_BLOCK

    def pack(self, raw: bytes) -> bytes | str:
        if self._zlib is not None:
            return self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
        if self._zstd is not None:
            return self._zstd.compress(raw) + self._zstd.flush(self._zstd_flush)
        return raw.decode()  # uncompressed: a text frame


class Connection:
    """One websocket. Payloads are queued and written in order by a single writer task."""

    def __init__(self, ws: web.WebSocketResponse, compression: str | None) -> None:
        self.ws = ws
        self.compression = compression
        self._compressor = _Compressor(compression)
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())
        self.session: Session | None = None
        self.closing = False

    def send(self, payload: dict[str, Any]) -> None:
        if not self.closing:
            self._queue.put_nowait(dumps(payload))

    async def _write(self) -> None:
        while True:
            raw = await self._queue.get()
            if raw is None:
                return
            packed = self._compressor.pack(raw)
            try:
                if isinstance(packed, bytes):
                    await self.ws.send_bytes(packed)
                else:
                    await self.ws.send_str(packed)
            except (ConnectionError, RuntimeError):
                return

    async def close(self, code: int, message: str = "") -> None:
        """Flush what is queued, then close with ``code``."""
        if self.closing:
            return
        self.closing = True
        self._queue.put_nowait(None)
        # wait for the writer to end without taking on its outcome: it may have been cancelled
        # because the client went away at the same moment
        await asyncio.wait([self._writer])
        await self.ws.close(code=code, message=message.encode())

    async def shutdown(self) -> None:
        self.closing = True
        self._writer.cancel()
        with contextlib.suppress(BaseException):
            await self._writer


class Session:
    def __init__(self, intents: int, shard: tuple[int, int] | None) -> None:
        self.id = secrets.token_hex(16)
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.buffer: deque[dict[str, Any]] = deque(maxlen=BUFFER_SIZE)
        self.connection: Connection | None = None
        self.compression: str | None = None
        self.ready = False
        self.invalidated = False
        self.guild_events: Counter[tuple[str, int]] = Counter()
        """Guild events dispatched to this session, by (event, guild id): which process got
        which server's events, for tests of shards in several processes."""

    def wants(self, intent: int | None) -> bool:
        return intent is None or bool(self.intents & intent)

    def owns(self, guild_id: int | None) -> bool:
        """Whether this session's shard gets the events of ``guild_id``; events without a
        guild (DMs) go to shard 0 only (Discord docs, "Sharding")."""
        if self.shard is None:
            return True
        shard_id, num_shards = self.shard
        if guild_id is None:
            return shard_id == 0
        return shard_of(guild_id, num_shards) == shard_id

    def dispatch(self, event: str, data: Any, *, buffered: bool = True) -> None:
        self.seq += 1
        payload = {"op": OP_DISPATCH, "t": event, "s": self.seq, "d": data}
        if buffered:
            self.buffer.append(payload)
        if self.connection is not None:
            self.connection.send(payload)
