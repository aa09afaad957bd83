"""What the bot measures of its traffic with Discord, for ``bot.metrics``, and the log context
each interaction brings.

Interactions. ``track_interactions`` wraps discord.py's parser of ``INTERACTION_CREATE`` (the
one place every slash command, autocomplete, click and modal passes through): it counts the
interaction, notes when it arrived, and binds its guild, channel, interaction id and shard to
the log context while discord.py starts the tasks that handle it, so they inherit it. Its first
answer is the HTTP callback ``POST /interactions/{id}/{token}/callback``: when Discord answers
that request (``http_trace``), the time since arrival is the answer's latency, and the outcome is
``ok``, or ``user_error``/``error`` as ``bot.discord.errors`` marked it, or ``refused`` when
Discord did not take it (too late, already answered). One still unanswered after Discord's 3
seconds is counted ``unanswered`` (the person saw "This interaction failed").

Requests. An ``aiohttp.TraceConfig`` on discord.py's HTTP session sees every attempt, retries
of a 429 included, and counts it by route class (a fixed set, never an id) and status code.
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import aiohttp

from bot import logs, metrics

ANSWER_DEADLINE = 3.0
"""Seconds Discord waits for an interaction's first answer."""
KINDS = {1: "ping", 2: "command", 3: "component", 4: "autocomplete", 5: "modal"}
OUTCOMES = ("ok", "user_error", "error", "refused", "unanswered")
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
_ROUTES: tuple[tuple[re.Pattern[str], str], ...] = (
    (_CALLBACK, "interaction_callback"),
    (re.compile(r"/webhooks/\d+/[^/]+/messages/@original$"), "interaction_original"),
    (re.compile(r"/webhooks/\d+/[^/]+"), "interaction_followup"),
    (re.compile(r"/channels/\d+/messages/\d+/reactions"), "reactions"),
    (re.compile(r"/channels/\d+/messages"), "channel_messages"),
    (re.compile(r"/channels/\d+"), "channels"),
    (re.compile(r"/applications/\d+/(guilds/\d+/)?commands"), "commands"),
    (re.compile(r"/gateway"), "gateway"),
    (re.compile(r"/users/"), "users"),
    (re.compile(r"/guilds/\d+"), "guilds"),
)
_SCOPES = frozenset({"user", "global", "shared"})


def route_class(path: str) -> str:
    """The route class of an API path: a small fixed set of names."""
    for pattern, name in _ROUTES:
        if pattern.search(path):
            return name
    return "other"


class _Pending:
    __slots__ = ("arrived", "kind", "outcome")

    def __init__(self, kind: str, arrived: float) -> None:
        self.kind = kind
        self.arrived = arrived
        self.outcome = "ok"


class InteractionTracker:
    """The interactions waiting for their first answer, oldest first."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self._clock = clock
        self._pending: OrderedDict[int, _Pending] = OrderedDict()

    def arrived(self, interaction_id: int, kind: str) -> None:
        now = self._clock()
        self._expire(now)
        self._pending[interaction_id] = _Pending(kind, now)

    def mark(self, interaction_id: int, outcome: str) -> None:
        """Say how an interaction went before its answer goes out (``user_error``, ``error``)."""
        pending = self._pending.get(interaction_id)
        if pending is not None:
            pending.outcome = outcome

    def answered(self, interaction_id: int, accepted: bool) -> None:
        pending = self._pending.pop(interaction_id, None)
        if pending is None:
            return
        if accepted:
            metrics.ANSWER_SECONDS.labels(pending.kind).observe(self._clock() - pending.arrived)
        metrics.INTERACTIONS.labels(pending.kind,
                                    pending.outcome if accepted else "refused").inc()

    def _expire(self, now: float) -> None:
        while self._pending:
            interaction_id, pending = next(iter(self._pending.items()))
            if now - pending.arrived < ANSWER_DEADLINE:
                return
            del self._pending[interaction_id]
            metrics.INTERACTIONS.labels(pending.kind, "unanswered").inc()


TRACKER = InteractionTracker()
"""The process's tracker (one bot a process; tests running several share it, as they share the
metrics)."""


def track_interactions(parsers: dict[str, Callable[[Any], None]],
                       shard_of: Callable[[int | None], int | None]) -> None:
    """Wrap discord.py's ``INTERACTION_CREATE`` parser in ``parsers`` (its connection state's):
    count the interaction and bind its context; ``shard_of(guild_id)`` is its shard."""
    parse = parsers["INTERACTION_CREATE"]

    def tracked(data: Any) -> None:
        interaction_id = int(data["id"])
        TRACKER.arrived(interaction_id, KINDS.get(data.get("type"), "other"))
        guild = data.get("guild_id")
        guild_id = None if guild is None else int(guild)
        channel = data.get("channel_id")
        token = logs.set_context(logs.bind(
            guild=guild_id, channel=None if channel is None else int(channel),
            interaction=interaction_id, shard=shard_of(guild_id)))
        try:
            parse(data)
        finally:
            logs.reset_context(token)

    parsers["INTERACTION_CREATE"] = tracked


async def _request_end(session: aiohttp.ClientSession, context: SimpleNamespace,
                       params: aiohttp.TraceRequestEndParams) -> None:
    path = params.url.path
    route = route_class(path)
    status = params.response.status
    metrics.DISCORD_REQUESTS.labels(route, str(status)).inc()
    if status == 429:
        scope = params.response.headers.get("X-RateLimit-Scope", "user")
        metrics.DISCORD_RATE_LIMITED.labels(route, scope if scope in _SCOPES else "other").inc()
    if route == "interaction_callback":
        match = _CALLBACK.search(path)
        assert match is not None
        TRACKER.answered(int(match.group(1)), 200 <= status < 300)


async def _request_exception(session: aiohttp.ClientSession, context: SimpleNamespace,
                             params: aiohttp.TraceRequestExceptionParams) -> None:
    metrics.DISCORD_REQUESTS.labels(route_class(params.url.path), "error").inc()


def http_trace() -> aiohttp.TraceConfig:
    """The trace config for discord.py's HTTP session (its ``http_trace`` option)."""
    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(_request_end)
    trace.on_request_exception.append(_request_exception)
    return trace
