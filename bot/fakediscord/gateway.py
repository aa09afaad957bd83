"""The gateway websocket: HELLO, IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME, dispatches.

Transport compression follows the connect URL's query (``compress=zlib-stream``: one zlib
stream per connection, each payload ended with ``Z_SYNC_FLUSH``; ``zstd-stream`` when the
``zstandard`` module is importable). Sessions outlive their connection: a dropped bot can RESUME
and gets the events it missed replayed; a clean close (1000/1001) ends the session, as on Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from bot.fakediscord.changes import Changes
from bot.fakediscord.intents import (
    ALL_INTENTS,
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILD_PRESENCES,
    INTENT_GUILD_WEBHOOKS,
    INTENT_GUILDS,
    INTENT_MESSAGE_CONTENT,
    PRIVILEGED_INTENTS,
)
from bot.fakediscord.jsonvalue import loads
from bot.fakediscord.sessions import Connection, Session
from bot.fakediscord.snowflake import shard_of
from bot.fakediscord.world import World

if TYPE_CHECKING:
    from bot.fakediscord.model import Guild, StoredMessage

__all__ = [  # the intents are read from here too (they live in intents.py)
    "ALL_INTENTS",
    "INTENT_GUILDS",
    "INTENT_GUILD_MEMBERS",
    "INTENT_GUILD_MESSAGES",
    "INTENT_GUILD_PRESENCES",
    "INTENT_GUILD_WEBHOOKS",
    "INTENT_MESSAGE_CONTENT",
    "PRIVILEGED_INTENTS",
    "Connection",
    "Gateway",
    "Session",
]

# OP_DISPATCH (0) goes out through Session.dispatch (sessions.py)
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE_UPDATE = 3
OP_VOICE_STATE_UPDATE = 4
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_GUILD_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

HEARTBEAT_INTERVAL_MS = 41250
HEARTBEAT_ACK_DELAY = 0.05
"""Seconds before a heartbeat's ACK goes out: Discord's comes back over a network round trip.
discord.py's heartbeat thread notes the time it sent a heartbeat only once its send has
completed on the loop; an ACK answered at once on 127.0.0.1 can be read before that, and then
discord.py measures its latency from the previous heartbeat and warns "Can't keep up ... 41.3s
behind" (one interval)."""
SUPPORTED_VERSIONS = ("9", "10")
IDENTIFY_LIMIT = 1000
# "Each shard can only support a maximum of 2500 guilds" (Discord docs, "Sharding"): more on one
# connection closes it with 4011 Sharding required.
GUILDS_PER_SHARD = 2500


def _parse_shard(value: Any) -> tuple[int, int] | None:
    """IDENTIFY's ``shard``: None when absent, else ``(shard_id, num_shards)``; ValueError when
    it is no valid pair (Discord closes with 4010)."""
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError(value)
    shard_id, num_shards = value
    if not 0 <= shard_id < num_shards:
        raise ValueError(value)
    return shard_id, num_shards


def _envelope(op: int, data: Any) -> dict[str, Any]:
    return {"op": op, "d": data, "s": None, "t": None}


class Gateway:
    """The sessions and connections over the ``world``. ``token_ok`` says whether a bot token
    is accepted, ``clock`` (Unix seconds) dates the first IDENTIFY, ``resume_url`` is the
    address READY gives for resuming; ``guilds_per_shard`` is the most guilds one connection
    may hold (4011 beyond it)."""

    def __init__(
        self,
        world: World,
        changes: Changes,
        *,
        token_ok: Callable[[str | None], bool],
        clock: Callable[[], float],
        resume_url: Callable[[], str],
        guilds_per_shard: int = GUILDS_PER_SHARD,
    ) -> None:
        self.world = world
        self.changes = changes
        self.token_ok = token_ok
        self.clock = clock
        self.resume_url = resume_url
        self.guilds_per_shard = guilds_per_shard
        self.sessions: dict[str, Session] = {}
        self.connections: set[Connection] = set()
        self.identify_count = 0
        self.first_identify_at: float | None = None
        self.resume_count = 0
        self.presence_updates: list[dict[str, Any]] = []
        self.down = False
        """While set, the gateway is in an outage: connecting fails (HTTP 503)."""

    # -- state for tests ----------------------------------------------------------------------

    def live_sessions(self, guild_id: int | None = None) -> list[Session]:
        """Connected, READY sessions; with ``guild_id``, those whose shard owns that guild."""
        return [
            s
            for s in self.sessions.values()
            if s.connection is not None
            and s.ready
            and not s.invalidated
            and (guild_id is None or s.owns(guild_id))
        ]

    def session_start_limit(self, max_concurrency: int) -> dict[str, int]:
        """IDENTIFYs left of the 1000 a day, counted from the first one (RESUMEs are free)."""
        day_ms = 24 * 3600 * 1000
        if self.first_identify_at is None:
            reset_after = day_ms
        else:
            elapsed = int((self.clock() - self.first_identify_at) * 1000)
            reset_after = max(0, day_ms - elapsed)
        return {
            "total": IDENTIFY_LIMIT,
            "remaining": max(0, IDENTIFY_LIMIT - self.identify_count),
            "reset_after": reset_after,
            "max_concurrency": max_concurrency,
        }

    # -- dispatching --------------------------------------------------------------------------

    def _targets(self, intent: int | None, guild_id: int | None) -> list[Session]:
        return [
            s
            for s in self.sessions.values()
            if not s.invalidated and s.wants(intent) and s.owns(guild_id)
        ]

    def dispatch(
        self, event: str, data: dict[str, Any], *, intent: int | None, guild_id: int | None
    ) -> None:
        """Send ``event`` to every session that asked for ``intent`` (None: needs none) and
        whose shard owns ``guild_id`` (None: not a guild event, shard 0)."""
        for session in self._targets(intent, guild_id):
            if guild_id is not None:
                session.guild_events[event, guild_id] += 1
            session.dispatch(event, data)

    def dispatch_message(self, event: str, message: StoredMessage) -> None:
        intent = INTENT_GUILD_MESSAGES
        if message.guild_id is None:
            channel = self.world.channels.get(message.channel_id)
            if channel is None or self.world.bot_user not in channel.recipients:
                return  # a group DM the bot is no recipient of: it hears nothing there
            intent = INTENT_DIRECT_MESSAGES
        elif self.world.bot_user.id not in self.world.guilds[message.guild_id].members:
            return  # a server that never added the bot
        for session in self._targets(intent, message.guild_id):
            session.dispatch(event, self.message_payload(message, session))

    def message_payload(self, message: StoredMessage, session: Session) -> dict[str, Any]:
        data = message.payload()
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
            if message.author_member is not None:
                data["member"] = message.author_member.payload(with_user=False)
        bot_id = self.world.bot_user.id
        mentions_bot = any(u.id == bot_id for u in message.mentions)
        if (
            message.author.id != bot_id
            and not mentions_bot
            and not session.intents & INTENT_MESSAGE_CONTENT
        ):
            # Without the MESSAGE_CONTENT intent these fields arrive empty (Discord docs).
            data.update(content="", embeds=[], attachments=[], components=[])
        return data

    def guild_create_payload(self, guild: Guild, session: Session) -> dict[str, Any]:
        bot_member = guild.members[self.world.bot_user.id]
        if session.intents & INTENT_GUILD_PRESENCES:
            members = list(guild.members.values())
        else:
            # Without GUILD_PRESENCES Discord sends only the bot (and voice members).
            members = [bot_member]
        data = guild.base_payload(self.world.application.id)
        data.update(
            {
                "joined_at": bot_member.joined_at,
                "large": len(guild.members) > 250,
                "unavailable": False,
                "member_count": len(guild.members),
                "voice_states": [],
                "members": [m.payload() for m in members],
                "channels": [
                    {k: v for k, v in c.payload().items() if k != "guild_id"}
                    for c in guild.text_channels()
                ],
                "threads": [t.payload() for t in guild.threads()],
                "presences": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
            }
        )
        return data

    def guild_available(self, guild: Guild) -> None:
        for session in self._targets(INTENT_GUILDS, guild.id):
            session.dispatch("GUILD_CREATE", self.guild_create_payload(guild, session))

    # -- control from tests -------------------------------------------------------------------

    async def drop_connections(self, code: int = 4000) -> None:
        """Close every connection with ``code``; 4000 leaves the sessions resumable."""
        for connection in list(self.connections):
            await connection.close(code, "dropped by the fake")

    def request_reconnect(self) -> None:
        for connection in list(self.connections):
            connection.send(_envelope(OP_RECONNECT, None))

    def invalidate_sessions(self, *, resumable: bool = False) -> None:
        for connection in list(self.connections):
            if connection.session is not None and not resumable:
                connection.session.invalidated = True
            connection.send(_envelope(OP_INVALID_SESSION, resumable))

    async def outage(self) -> None:
        """The gateway goes down: every connection is closed (1001, going away) and new ones
        are refused with HTTP 503 until ``recover()``, as during an outage of Discord's."""
        self.down = True
        for connection in list(self.connections):
            await connection.close(1001, "gateway unavailable")

    def recover(self) -> None:
        self.down = False

    async def close_all(self) -> None:
        for connection in list(self.connections):
            with contextlib.suppress(Exception):
                await connection.close(1001, "server shutting down")
            await connection.shutdown()

    # -- the websocket ------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if self.down:
            raise web.HTTPServiceUnavailable(text="gateway unavailable")
        version = request.query.get("v", "10")
        encoding = request.query.get("encoding", "json")
        compression = request.query.get("compress")
        if compression not in (None, "zlib-stream", "zstd-stream"):
            raise web.HTTPBadRequest(text="unsupported compress")
        if compression == "zstd-stream":
            try:
                import zstandard  # type: ignore[import-not-found]  # noqa: F401
            except ImportError:
                raise web.HTTPBadRequest(text="zstd-stream needs zstandard") from None
        ws = web.WebSocketResponse(max_msg_size=4096 * 1024, autoping=True)
        await ws.prepare(request)
        connection = Connection(ws, compression)
        self.connections.add(connection)
        try:
            if version not in SUPPORTED_VERSIONS:
                await connection.close(4012, "Invalid API version")
                return ws
            if encoding != "json":
                await connection.close(4002, "Decode error")
                return ws
            connection.send(_envelope(OP_HELLO, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}))
            async for message in ws:
                if message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                await self._on_payload(connection, message.data)
                if connection.closing:
                    break
        finally:
            self.connections.discard(connection)
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
                # A client that closes with 1000/1001 ends its session (Discord docs, "Resuming").
                if not connection.closing and ws.close_code in (1000, 1001):
                    session.invalidated = True
            await connection.shutdown()
            self.changes.changed()
        return ws

    async def _on_payload(self, connection: Connection, raw: str | bytes) -> None:
        try:
            payload = loads(raw)
            op = payload["op"]
            data = payload.get("d")
        except (ValueError, KeyError, TypeError):
            await connection.close(4002, "Decode error")
            return
        if op == OP_HEARTBEAT:
            asyncio.get_running_loop().call_later(
                HEARTBEAT_ACK_DELAY, connection.send, _envelope(OP_HEARTBEAT_ACK, None))
        elif op == OP_IDENTIFY:
            await self._identify(connection, data)
        elif op == OP_RESUME:
            await self._resume(connection, data)
        elif connection.session is None:
            await connection.close(4003, "Not authenticated")
        elif op == OP_PRESENCE_UPDATE:
            self.presence_updates.append(data)
        elif op == OP_REQUEST_GUILD_MEMBERS:
            self._member_chunk(connection.session, data)
        elif op == OP_VOICE_STATE_UPDATE:
            return
        else:
            await connection.close(4001, "Unknown opcode")

    async def _identify(self, connection: Connection, data: Any) -> None:
        if connection.session is not None:
            await connection.close(4005, "Already authenticated")
            return
        if not isinstance(data, dict) or not self.token_ok(data.get("token")):
            await connection.close(4004, "Authentication failed")
            return
        intents = data.get("intents")
        if not isinstance(intents, int) or isinstance(intents, bool) or intents & ~ALL_INTENTS:
            await connection.close(4013, "Invalid intent(s)")
            return
        requested = intents & PRIVILEGED_INTENTS
        if requested & ~self.world.application.privileged_intents:
            await connection.close(4014, "Disallowed intent(s)")
            return
        try:
            shard = _parse_shard(data.get("shard"))
        except ValueError:
            await connection.close(4010, "Invalid shard")
            return
        guilds = [
            g
            for g in self.world.guilds.values()
            if self.world.bot_user.id in g.members
            and (shard is None or shard_of(g.id, shard[1]) == shard[0])
        ]
        if len(guilds) > self.guilds_per_shard:
            await connection.close(4011, "Sharding required")
            return
        session = Session(intents, shard)
        self.sessions[session.id] = session
        session.connection = connection
        session.compression = connection.compression
        connection.session = session
        self.identify_count += 1
        if self.first_identify_at is None:
            self.first_identify_at = self.clock()
        user = self.world.bot_user.payload()
        user.update({"verified": True, "mfa_enabled": False, "email": None})
        ready: dict[str, Any] = {
            "v": 10,
            "user": user,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.resume_url(),
            "application": {
                "id": str(self.world.application.id),
                "flags": self.world.application.flags,
            },
        }
        if shard is not None:
            ready["shard"] = list(shard)
        session.dispatch("READY", ready)
        if session.wants(INTENT_GUILDS):
            for guild in guilds:
                session.dispatch("GUILD_CREATE", self.guild_create_payload(guild, session))
        session.ready = True
        self.changes.changed()

    async def _resume(self, connection: Connection, data: Any) -> None:
        if not isinstance(data, dict) or not self.token_ok(data.get("token")):
            await connection.close(4004, "Authentication failed")
            return
        session = self.sessions.get(str(data.get("session_id")))
        seq = data.get("seq") or 0
        oldest = session.buffer[0]["s"] if session is not None and session.buffer else 1
        if session is None or session.invalidated or seq + 1 < oldest:
            connection.send(_envelope(OP_INVALID_SESSION, False))
            return
        if seq > session.seq:
            await connection.close(4007, "Invalid seq")
            return
        previous = session.connection
        if previous is not None and previous is not connection:
            await previous.close(4000, "session resumed elsewhere")
        session.connection = connection
        session.compression = connection.compression
        connection.session = session
        for payload in session.buffer:
            if payload["s"] > seq:
                connection.send(payload)
        session.dispatch("RESUMED", {}, buffered=False)
        session.ready = True
        self.resume_count += 1
        self.changes.changed()

    def _member_chunk(self, session: Session, data: Any) -> None:
        guild = self.world.guilds.get(int(data.get("guild_id", 0)))
        if guild is None or not session.owns(guild.id):
            return
        user_ids = [int(u) for u in data.get("user_ids") or []]
        query = (data.get("query") or "").lower()
        if not user_ids and not query and not session.wants(INTENT_GUILD_MEMBERS):
            # the whole member list needs GUILD_MEMBERS; Discord sends no chunk without it
            return
        if user_ids:
            members = [guild.members[u] for u in user_ids if u in guild.members]
            not_found = [str(u) for u in user_ids if u not in guild.members]
        else:
            members = [
                m for m in guild.members.values() if m.user.username.lower().startswith(query)
            ]
            not_found = []
            limit = data.get("limit") or 0
            if limit:
                members = members[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": not_found,
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
