"""Discord's REST rate limits: per-route buckets per top-level resource, the global limit, and
the invalid-request limit.

As Discord documents them (developers/topics/rate-limits): a route's limit is counted per
top-level resource in its path (``channel_id``, ``guild_id``, ``webhook_id`` + token);
``X-RateLimit-Bucket`` names the limit, and several routes may report the same name; every bot
token may make 50 requests per second in all, over every connection and process that uses it
("Global Rate Limit": "All bots can make up to 50 requests per second"), except to the
interaction endpoints (callbacks and the interaction webhooks: "Interaction endpoints are not
bound to the bot's Global Rate Limit"); a request with no authorization header (a webhook's own
token in the URL) counts against its IP address instead ("If no authorization header is
provided, then the limit is applied to the IP address"). A request refused with 429 has no
effect and does not use up the route's allowance.

"Invalid Request Limit aka Cloudflare bans": an IP address that makes 10,000 requests answered
401, 403 or 429 in 10 minutes is temporarily refused everything (a 429 with
``X-RateLimit-Scope: shared`` is not counted). ``InvalidRequests`` counts them and bans.

Every request counted against a global limit is remembered with its time (``RateLimiter.sent``,
by whose budget it used), so that tests and benchmarks can read how many fell in any window.

Time comes from an injectable clock (Unix seconds) so tests of the limiter never sleep.
"""

from __future__ import annotations

import hashlib
import math
from array import array
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

K = TypeVar("K")

BUDGET_INTERACTION = "interaction"
"""Whose budget an interaction endpoint's request uses: none (it is remembered under this)."""
SCOPE_USER = "user"
SCOPE_GLOBAL = "global"
SCOPE_SHARED = "shared"

MESSAGE_CREATE = "POST /channels/{channel_id}/messages"
MESSAGE_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
MESSAGE_DELETE = "DELETE /channels/{channel_id}/messages/{message_id}"
INTERACTION_CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
_HOOK = "/webhooks/{webhook_id}/{webhook_token}"
FOLLOWUP_ROUTES = (
    f"POST {_HOOK}",
    f"GET {_HOOK}/messages/{{message_id}}",
    f"PATCH {_HOOK}/messages/{{message_id}}",
    f"DELETE {_HOOK}/messages/{{message_id}}",
)
# Prune finished windows once this many are kept (one per route and resource seen).
_PRUNE_AT = 20_000


@dataclass(frozen=True)
class RouteLimit:
    """``limit`` requests per ``per`` seconds. ``bucket`` names the limit in
    ``X-RateLimit-Bucket`` (None: the route's own name); routes with the same name report the
    same hash. With ``shared`` they also draw on one allowance; without it each route keeps its
    own count, as Discord does for message create and edit (same hash, separate counts)."""

    limit: int
    per: float
    bucket: str | None = None
    shared: bool = False


@dataclass
class RateLimitConfig:
    """Which limits the fake enforces. ``routes`` maps ``"METHOD /route/{param}"`` to its
    limit, or to None for a route without one; other routes get ``default`` (None: no limit and
    no headers). ``global_limit`` requests per ``global_per`` seconds per bot token (None: off)."""

    routes: dict[str, RouteLimit | None] = field(default_factory=dict)
    default: RouteLimit | None = None
    global_limit: int | None = None
    global_per: float = 1.0

    @classmethod
    def discord_like(cls, time_scale: float = 1.0) -> RateLimitConfig:
        """Discord's limits as documented and as bots observe them (the default).
        ``time_scale`` shortens every window alike (0.1: Discord's limits in a tenth of the
        time), for tests that play whole games at machine speed and are about the games."""
        t = time_scale
        message_limit = RouteLimit(5, 5.0 * t, "channel-messages")
        routes: dict[str, RouteLimit | None] = {
            # Observed: create and edit report one bucket hash but are counted apart
            # (discord-api-docs #1442, #8073); 5 per 5 s per channel.
            MESSAGE_CREATE: message_limit,
            MESSAGE_EDIT: message_limit,
            # Deleting a recent message: its own bucket, 5 per second per channel (#8330).
            MESSAGE_DELETE: RouteLimit(5, 1.0 * t, "channel-message-delete"),
            # One callback per interaction is the rule (40060 for a second one), not a bucket.
            INTERACTION_CALLBACK: None,
        }
        for route in FOLLOWUP_ROUTES:
            # Interaction webhooks: per route and interaction token (webhook_id + token).
            routes[route] = RouteLimit(5, 1.0 * t)
        return cls(
            routes=routes,
            # No published figure for the other routes the fake serves: only the global
            # limit binds them.
            default=RouteLimit(50, 1.0 * t),
            global_limit=50,
            global_per=1.0 * t,
        )

    @classmethod
    def unlimited(cls) -> RateLimitConfig:
        """No limits at all: every route answers with generous headers and never 429s."""
        return cls(routes={}, default=RouteLimit(1_000_000, 1.0), global_limit=None)

    def limit_for(self, route: str) -> RouteLimit | None:
        if route in self.routes:
            return self.routes[route]
        return self.default


@dataclass(frozen=True)
class Verdict:
    """Headers for the response and, when refused, why: ``retry_after`` seconds, ``scope``."""

    headers: dict[str, str]
    retry_after: float | None = None
    scope: str = SCOPE_USER


@dataclass
class _Window:
    ends: float
    count: int = 0


def bucket_hash(name: str) -> str:
    return hashlib.sha1(name.encode()).hexdigest()[:32]


class RateLimiter:
    """Fixed windows like Discord's: a window opens with the first request and resets ``per``
    seconds later."""

    def __init__(self, config: RateLimitConfig, clock: Callable[[], float]) -> None:
        self.config = config
        self.clock = clock
        self._windows: dict[tuple[str, str, str | None], _Window] = {}
        self._global: dict[str, _Window] = {}
        self._hashes: dict[str, str] = {}
        self.sent: dict[str, array[float]] = {}
        """Whose budget (``"bot:<token>"``, ``"ip:<address>"``, or ``BUDGET_INTERACTION``) →
        when each request that used it arrived, refused ones included."""

    def reset(self) -> None:
        self._windows.clear()
        self._global.clear()

    def times(self, budget: str) -> list[float]:
        """When each request on ``budget`` arrived, in order."""
        return self.sent.get(budget, array("d")).tolist()

    def peak(self, budget: str, per: float | None = None, *, since: float = 0.0) -> int:
        """The most requests on ``budget`` that arrived within any ``per`` seconds (default:
        the global window) since ``since``: a sliding window, stricter than Discord's fixed
        ones, so a bot under it is under Discord's whichever way Discord cuts its windows."""
        per = self.config.global_per if per is None else per
        times = [t for t in self.times(budget) if t >= since]
        most = first = 0
        for last, at in enumerate(times):
            while times[first] <= at - per:
                first += 1
            most = max(most, last - first + 1)
        return most

    def check(self, route: str, major: str, token: str | None) -> Verdict:
        """Count one request to ``route`` (``"POST /channels/{channel_id}/messages"``) for
        resource ``major``; ``token`` is whose global budget it uses (``"bot:<token>"``,
        ``"ip:<address>"``), or None for the interaction endpoints, exempt from the global
        limit. Returns the headers, and whether the request is refused."""
        now = self.clock()
        config = self.config
        self.sent.setdefault(token or BUDGET_INTERACTION, array("d")).append(now)
        if token is not None and config.global_limit is not None:
            window = _current(self._global, token, now, config.global_per)
            window.count += 1
            if window.count > config.global_limit:
                return _global_refusal(window.ends - now)
        rule = config.limit_for(route)
        if rule is None:
            return Verdict({})
        if len(self._windows) > _PRUNE_AT:
            self._windows = {k: w for k, w in self._windows.items() if w.ends > now}
        bucket = rule.bucket or route
        counter = bucket if rule.shared else route
        # per-route limits, too, apply to each bot separately
        window = _current(self._windows, (counter, major, token), now, rule.per)
        name = self._hashes.get(bucket)
        if name is None:
            name = self._hashes[bucket] = bucket_hash(bucket)
        if window.count >= rule.limit:
            headers = _headers(rule.limit, 0, window.ends, now, name)
            return Verdict(headers, retry_after=window.ends - now)
        window.count += 1
        return Verdict(_headers(rule.limit, rule.limit - window.count, window.ends, now, name))


def _current(table: dict[K, _Window], key: K, now: float, per: float) -> _Window:
    """The open window for ``key``, or a new one when there is none or it has run out."""
    window = table.get(key)
    if window is None or now >= window.ends:
        window = table[key] = _Window(now + per)
    return window


def _headers(limit: int, remaining: int, reset: float, now: float, name: str) -> dict[str, str]:
    # rounded up to the millisecond: a client that waits what the headers say finds the
    # window reset (rounded to the nearest, it came back up to half a millisecond early and
    # was refused, with a retry_after of 0.000)
    return {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{_ceil_ms(reset):.3f}",
        "X-RateLimit-Reset-After": f"{_ceil_ms(max(0.0, reset - now)):.3f}",
        "X-RateLimit-Bucket": name,
    }


def _ceil_ms(seconds: float) -> float:
    # a nanosecond over a whole millisecond is the float arithmetic's, not time's
    return math.ceil(seconds * 1000 - 1e-6) / 1000


def _global_refusal(retry_after: float) -> Verdict:
    # Discord's example of a global 429 carries no per-route headers.
    return Verdict({}, retry_after=retry_after, scope=SCOPE_GLOBAL)


def too_many_headers(
    verdict_headers: dict[str, str], retry_after: float, scope: str
) -> dict[str, str]:
    """The headers of a 429: the route's (if any) plus Retry-After and the scope."""
    headers = dict(verdict_headers)
    if "X-RateLimit-Remaining" in headers and scope != SCOPE_SHARED:
        headers["X-RateLimit-Remaining"] = "0"
    headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    headers["X-RateLimit-Scope"] = scope
    if scope == SCOPE_GLOBAL:
        headers["X-RateLimit-Global"] = "true"
    return headers


def too_many_body(retry_after: float, scope: str) -> dict[str, object]:
    message = (
        "The resource is being rate limited."
        if scope == SCOPE_SHARED
        else "You are being rate limited."
    )
    return {
        "message": message,
        "retry_after": max(0.001, round(retry_after, 3)),
        "global": scope == SCOPE_GLOBAL,
    }


@dataclass
class OldMessageEdits:
    """Edits to messages older than an hour, limited apart from the routes' buckets: Discord
    answers 429 with JSON code 30046 "Maximum number of edits to messages older than 1 hour
    reached. Try again later." (documented since discord-api-docs #4381, 2022; bots report it
    as a 429, e.g. aikaterna-cogs #302). Discord does not publish the figure ("We don't put
    rate limit details in our documentation", #4413); bots that edit old messages report about
    3 edits per channel per 20 seconds (starboard-4 #118), which is modelled here: fixed
    windows per channel, opened by the first such edit. ``limit`` None turns it off."""

    limit: int | None = 3
    per: float = 20.0
    age: float = 3600.0
    _windows: dict[int, tuple[float, int]] = field(default_factory=dict)

    def check(self, channel_id: int, message_age: float, now: float) -> float | None:
        """Count an edit of a message ``message_age`` seconds old; the seconds to wait if it
        is refused."""
        if self.limit is None or message_age <= self.age:
            return None
        opened, used = self._windows.get(channel_id, (now, 0))
        if now >= opened + self.per:
            opened, used = now, 0
        if used >= self.limit:
            return opened + self.per - now
        self._windows[channel_id] = (opened, used + 1)
        return None


@dataclass
class InvalidRequests:
    """Discord's invalid-request limit: an IP address whose requests were answered 401, 403 or
    429 (not a 429 of scope ``shared``) ``limit`` times within ``per`` seconds is refused every
    request for ``ban`` seconds (Discord: 10,000 per 10 minutes, then "temporarily restricted";
    how long is not published: an hour is assumed). ``limit`` None turns the ban off; counting
    goes on."""

    limit: int | None = 10_000
    per: float = 600.0
    ban: float = 3600.0
    _seen: dict[str, deque[float]] = field(default_factory=dict)
    _banned: dict[str, float] = field(default_factory=dict)

    def add(self, address: str, now: float) -> None:
        seen = self._seen.setdefault(address, deque())
        seen.append(now)
        self._drop(seen, now)
        if self.limit is not None and len(seen) >= self.limit:
            self._banned[address] = now + self.ban

    def count(self, address: str, now: float) -> int:
        """Invalid requests from ``address`` within the last ``per`` seconds."""
        seen = self._seen.get(address)
        if seen is None:
            return 0
        self._drop(seen, now)
        return len(seen)

    def banned(self, address: str, now: float) -> bool:
        until = self._banned.get(address)
        if until is None:
            return False
        if now >= until:
            del self._banned[address]
            return False
        return True

    def _drop(self, seen: deque[float], now: float) -> None:
        while seen and seen[0] <= now - self.per:
            seen.popleft()


def counts_as_invalid(status: int, scope: str | None) -> bool:
    """Whether a response counts against the invalid-request limit."""
    return status in (401, 403) or (status == 429 and scope != SCOPE_SHARED)
