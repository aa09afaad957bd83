"""Paces the bot's own REST requests so that no Discord rate limit is ever reached.

discord.py reacts to rate-limit headers (and to 429s) one bucket at a time; it knows nothing of
the global limit until it is refused, and a request that empties a bucket is held until the
bucket resets. So the publisher asks this pacer before every request, and the pacer grants a
request only while every limit it counts against has room:

- per channel, message creates and edits together (Discord: 5 per 5 s each; discord.py
  believes they share one bucket, so they are counted together here, and one fewer than
  Discord allows, so that discord.py never sees a bucket emptied and never holds a request);
- per channel, message deletes (Discord: 5 per second);
- all of them together: this process's share of Discord's global limit, which is the bot
  token's over every process (50 requests per second unless Discord granted more: the
  ``GLOBAL_RATE_LIMIT`` setting), less the few requests of its login, which come before any
  pacer exists (``UNPACED``); every other request of the bot token's waits for this pacer too
  (``pace_all``: the command sync, look-ups); interaction callbacks and webhooks are exempt
  from the global limit and are paced only per token (``Kind.HOOK``). The share is exact and
  static (``process_share``): a process running k of the bot's n shards gets k/n of it,
  rounded down, so processes that run disjoint shards never send more together than the
  token may, whatever each of them does.

A request counts from when it is granted until ``per`` seconds after its answer came back, so
however late a request reaches Discord, no window of ``per`` seconds on Discord's side can see
more than ``limit`` of them.

Waiting requests are granted in order, urgent ones first (the publisher marks as urgent the
writes a person is waiting for: a table posted anew to ping the next player), and a request
whose channel is full never holds up one for another channel. Background requests (issue 49:
setting up a channel's webhook, which no write is waiting for) come last, and only while the
global window keeps ``Limits.background_reserve`` of its places free, so that a write that comes
a moment later never waits behind them, however many there are.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from enum import Enum
from typing import Any

from bot import metrics

_INFINITY = float("inf")


PACED: ContextVar[bool] = ContextVar("kortbord_paced", default=False)
"""Set while a request that already holds its grant is sent: ``pace_all`` lets it through."""


@contextlib.contextmanager
def paced() -> Iterator[None]:
    """Mark the requests sent inside as granted already (the publisher's own)."""
    token = PACED.set(True)
    try:
        yield
    finally:
        PACED.reset(token)


class Kind(Enum):
    WRITE = "write"
    """A message create or edit."""
    DELETE = "delete"
    READ = "read"
    """Reading a channel's history: only the global limit applies."""
    HOOK = "hook"
    """A post, edit or delete through an interaction's webhook (its follow-ups): an interaction
    endpoint, outside the global limit; counted per interaction token instead (the ticket's
    ``channel_id`` is the token's key), as Discord buckets those routes per webhook and token."""
    WEBHOOK = "webhook"
    """A post, edit or delete through a channel's webhook (the bot's own): no bot authorization,
    so outside the bot's global limit and counted against the address instead (Discord: "If no
    authorization header is provided, then the limit is applied to the IP address"); paced per
    webhook (the ticket's ``channel_id`` is the webhook's id) and per address."""


_UNBOUND = (Kind.HOOK, Kind.WEBHOOK)
"""Kinds outside the bot token's global limit."""


DISCORD_GLOBAL = 50
"""Discord's global limit per bot token: "All bots can make up to 50 requests per second"."""
UNPACED = 3
"""Requests per process that no pacer can hold: its login (``GET /users/@me`` and the
application's) goes out before the bot exists to pace anything (``pace_all`` holds every later
one), and one in hand."""


@dataclass(frozen=True)
class Limits:
    channel_writes: int = 4
    channel_per: float = 5.0
    channel_deletes: int = 4
    delete_per: float = 1.0
    hook_requests: int = 4
    hook_per: float = 1.0
    """Requests per interaction token (Discord: 5 per second per route and token)."""
    hooks_in_flight: int = 48
    """Interaction-webhook requests under way at once, over every token: Discord sets no
    global limit on them, but a thousand tables' writes at once would each hold a connection
    (and a file descriptor) while interaction answers wait for theirs."""
    address_requests: int = 45
    """Channel-webhook requests per ``per`` seconds, the address's limit (Discord's 50 for a
    request without authorization), less a margin."""
    requests: int = 45
    per: float = 1.0
    background_reserve: float = 0.25
    """The part of the global window that background requests leave free (rounded up): they
    are granted only while more than that is free, so a burst of them (a thousand channels'
    webhooks set up) never fills the window ahead of a person's write or a computer's move."""
    margin: float = 0.05
    """Seconds added to every window, for clocks and timing on Discord's side."""

    @classmethod
    def discord(cls, time_scale: float = 1.0, *, global_limit: int = DISCORD_GLOBAL,
                share: float = 1.0) -> Limits:
        """Within Discord's limits; ``time_scale`` shortens every window alike, for a
        stand-in Discord that runs its limits faster (tests that play at machine speed).
        ``global_limit`` is the token's requests per second over every process, ``share``
        this process's part of it (``process_share``)."""
        t = time_scale
        return cls(channel_per=5.0 * t, delete_per=1.0 * t, hook_per=1.0 * t, per=1.0 * t,
                   margin=0.05 * t, requests=paced_requests(global_limit, share))


def process_share(shards: tuple[int, int] | None) -> float:
    """This process's part of the token's global budget: ``shards`` is (the shards it runs,
    the bot's shards in all), ``None`` for an unsharded bot (all of it)."""
    if shards is None:
        return 1.0
    owned, count = shards
    return owned / count


def paced_requests(global_limit: int, share: float) -> int:
    """Requests per window the pacer grants: the share of the global limit, rounded down, less
    the process's unpaced ones (never under 1: a process must be able to write at all)."""
    return max(1, math.floor(global_limit * share + 1e-9) - UNPACED)


class _Window:
    """Requests in flight, and the times answers came back within the last ``per`` seconds."""

    __slots__ = ("done", "in_flight", "limit", "per")

    def __init__(self, limit: int, per: float) -> None:
        self.limit = limit
        self.per = per
        self.in_flight = 0
        self.done: deque[float] = deque()

    def free_at(self, now: float, spare: int = 0) -> float:
        """When the next request may start (``now`` if it may start now; infinity if only an
        answer still awaited can make room), leaving ``spare`` places free after it."""
        done = self.done
        while done and done[0] <= now:
            done.popleft()
        excess = self.in_flight + len(done) - self.limit + spare
        if excess < 0:
            return now
        return done[excess] if excess < len(done) else _INFINITY

    def idle(self, now: float) -> bool:
        return self.in_flight == 0 and self.free_at(now) == now and not self.done


class Grant:
    """Permission for one request; ``release()`` once its answer came back (or it failed),
    ``cancel()`` if it was never sent."""

    __slots__ = ("_open", "_pacer", "_windows", "key", "kind")

    def __init__(self, pacer: RequestPacer, windows: tuple[_Window, ...], kind: Kind,
                 key: int) -> None:
        self._pacer = pacer
        self._windows = windows
        self._open = True
        self.kind = kind
        self.key = key
        """The ticket's channel id (``Kind.HOOK``: its token's key)."""

    def release(self) -> None:
        if self._open:
            self._open = False
            self._pacer._finished(self._windows, sent=True)

    def cancel(self) -> None:
        if self._open:
            self._open = False
            self._pacer._finished(self._windows, sent=False)


class Ticket:
    """A request waiting for its grant."""

    __slots__ = ("background", "channel_id", "future", "kind", "seq", "urgent")

    def __init__(self, channel_id: int, kind: Kind, urgent: bool, seq: int,
                 future: asyncio.Future[Grant], background: bool = False) -> None:
        self.channel_id = channel_id
        self.kind = kind
        self.urgent = urgent
        self.seq = seq
        self.future = future
        self.background = background
        """Granted after every other, and only while the global window has places to spare
        (``Limits.background_reserve``)."""


class _Queues:
    """Waiting tickets by seq (the order they came in), the urgent ones first, the background
    ones last."""

    __slots__ = ("background", "routine", "urgent")

    def __init__(self) -> None:
        self.urgent: dict[int, Ticket] = {}
        self.routine: dict[int, Ticket] = {}
        self.background: dict[int, Ticket] = {}

    def __len__(self) -> int:
        return len(self.urgent) + len(self.routine) + len(self.background)


class RequestPacer:
    def __init__(self, limits: Limits | None = None, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits or Limits.discord()
        self._clock = clock
        self._global = _Window(self.limits.requests, self.limits.per + self.limits.margin)
        self._channels: dict[tuple[int, Kind], _Window] = {}
        self._prune_above = 0
        """Windows kept before idle ones are forgotten again: twice those left by the last
        pruning, so that each walk over them is paid for by as many new ones."""
        self._queues = _Queues(), _Queues()
        """Waiting tickets: those on the bot token's global window, and those outside it
        (``Kind.HOOK`` and ``Kind.WEBHOOK``, held by the webhook requests under way instead).
        Kept apart since neither holds up the other: a full window of one is then one check,
        not a walk over every ticket waiting for it (a thousand lobbies' posts in a burst)."""
        self._spare = max(1, math.ceil(self.limits.requests * self.limits.background_reserve))
        """Places of the global window that background requests leave free."""
        self._hooks = _Window(self.limits.hooks_in_flight, 0.0)
        """Webhook requests under way (``per`` 0: only those in flight count)."""
        self._address = _Window(self.limits.address_requests,
                                self.limits.per + self.limits.margin)
        """Channel-webhook requests: the address's limit."""
        self._seq = 0
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = _INFINITY

    @property
    def waiting(self) -> int:
        return len(self._queues[0]) + len(self._queues[1])

    def _queue(self, ticket: Ticket) -> dict[int, Ticket]:
        queues = self._queues[ticket.kind in _UNBOUND]
        return (queues.urgent if ticket.urgent else queues.background if ticket.background
                else queues.routine)

    def ticket(self, channel_id: int, kind: Kind, *, urgent: bool = False,
               background: bool = False) -> Ticket:
        """Queue a request; ``wait(ticket)`` for its grant (cancel that wait to give up). A
        ``background`` request is one nobody waits for: it goes after all others, and only
        while the global window has places to spare."""
        self._seq += 1
        future: asyncio.Future[Grant] = asyncio.get_running_loop().create_future()
        ticket = Ticket(channel_id, kind, urgent, self._seq, future,
                        background=background and not urgent)
        self._queue(ticket)[ticket.seq] = ticket
        future.add_done_callback(lambda _: self._forget(ticket))
        self._grant()
        return ticket

    async def acquire(self, channel_id: int, kind: Kind, *, urgent: bool = False,
                      background: bool = False) -> Grant:
        return await self.wait(self.ticket(channel_id, kind, urgent=urgent,
                                           background=background))

    async def wait(self, ticket: Ticket) -> Grant:
        """The grant for ``ticket``, once there is room for it."""
        if ticket.future.done():
            metrics.RATE_LIMIT_WAIT_SECONDS.observe(0.0)
            return ticket.future.result()
        started = self._clock()
        try:
            grant = await ticket.future
            metrics.RATE_LIMIT_WAIT_SECONDS.observe(self._clock() - started)
            return grant
        except asyncio.CancelledError:
            # granted just as the waiter was cancelled: hand the grant back
            if ticket.future.done() and not ticket.future.cancelled():
                ticket.future.result().cancel()
            raise

    def hurry(self, ticket: Ticket) -> None:
        """The request became urgent while it waited."""
        if not ticket.urgent and self._queue(ticket).pop(ticket.seq, None) is not None:
            ticket.urgent = True
            ticket.background = False
            self._queue(ticket)[ticket.seq] = ticket
            self._grant()

    def foreground(self, ticket: Ticket) -> None:
        """A background request became one that something waits for: it goes in order with
        the routine ones (by when it was queued)."""
        queues = self._queues[ticket.kind in _UNBOUND]
        if ticket.background and queues.background.pop(ticket.seq, None) is not None:
            ticket.background = False
            queues.routine[ticket.seq] = ticket
            queues.routine = dict(sorted(queues.routine.items()))
            self._grant()

    def _forget(self, ticket: Ticket) -> None:
        # a ticket given up (its future cancelled) leaves the queue
        self._queue(ticket).pop(ticket.seq, None)

    def _window(self, channel_id: int, kind: Kind) -> _Window | None:
        if kind is Kind.READ:
            return None
        key = (channel_id, kind)
        window = self._channels.get(key)
        if window is None:
            limits = self.limits
            window = self._channels[key] = (
                _Window(limits.channel_writes, limits.channel_per + limits.margin)
                if kind is Kind.WRITE
                else _Window(limits.hook_requests, limits.hook_per + limits.margin)
                if kind in _UNBOUND
                else _Window(limits.channel_deletes, limits.delete_per + limits.margin))
        return window

    def _finished(self, windows: tuple[_Window, ...], *, sent: bool) -> None:
        now = self._clock()
        for window in windows:
            window.in_flight -= 1
            if sent:
                window.done.append(now + window.per)
        if len(self._channels) > max(4 * (self.waiting + self._global.limit),
                                     self._prune_above):
            # a burst keeps hundreds of windows busy (an interaction token's each): pruning
            # at every answer walked them all each time, 0.1 ms a request (issue 49)
            self._channels = {k: w for k, w in self._channels.items() if not w.idle(now)}
            self._prune_above = 2 * len(self._channels)
        self._grant()

    def _grant(self) -> None:
        now = self._clock()
        wake = min(self._grant_bound(now), self._grant_unbound(now))
        if not self.waiting:
            wake = _INFINITY
        self._arm(wake)

    def _grant_bound(self, now: float) -> float:
        """Grant what the global window and each request's own window let through, in order;
        returns when to look again (infinity: when an answer comes back)."""
        wake = _INFINITY
        queues = self._queues[False]
        for queue in (queues.urgent, queues.routine, queues.background):
            spare = queue is queues.background
            for ticket in list(queue.values()):
                if (global_free := self._global.free_at(now)) > now:
                    # only the global window could make room: nothing more to grant now
                    return min(wake, global_free)
                if ticket.future.done():
                    continue
                if spare and (room_at := self._global.free_at(now, self._spare)) > now:
                    # a background request leaves the window's last places to the others
                    return min(wake, room_at)
                window = self._window(ticket.channel_id, ticket.kind)
                if window is not None and (free := window.free_at(now)) > now:
                    wake = min(wake, free)
                    continue
                self._give(queue, ticket, (self._global,) + (
                    () if window is None else (window,)))
        global_free = self._global.free_at(now)
        return min(wake, global_free) if global_free > now else wake

    def _grant_unbound(self, now: float) -> float:
        """Grant the webhook requests that the requests under way, the address's window (a
        channel webhook's) and each one's own window let through, in order."""
        wake = _INFINITY
        queues = self._queues[True]
        for queue in (queues.urgent, queues.routine, queues.background):
            for ticket in list(queue.values()):
                if self._hooks.free_at(now) > now:
                    return wake  # granted as a webhook request in flight ends
                if ticket.future.done():
                    continue
                addressed = ticket.kind is Kind.WEBHOOK
                if addressed and (address_free := self._address.free_at(now)) > now:
                    wake = min(wake, address_free)
                    continue
                window = self._window(ticket.channel_id, ticket.kind)
                assert window is not None
                if (free := window.free_at(now)) > now:
                    wake = min(wake, free)
                    continue
                self._give(queue, ticket, (self._hooks,) + (
                    (self._address,) if addressed else ()) + (window,))
        return wake

    def _give(self, queue: dict[int, Ticket], ticket: Ticket,
              windows: tuple[_Window, ...]) -> None:
        for w in windows:
            w.in_flight += 1
        del queue[ticket.seq]
        ticket.future.set_result(Grant(self, windows, ticket.kind, ticket.channel_id))

    def _arm(self, when: float) -> None:
        if when >= self._timer_at and self._timer is not None:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_at = when
        if when < _INFINITY:
            delay = max(0.0, when - self._clock())
            self._timer = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._timer_at = _INFINITY
        self._grant()


def pace_all(http: Any, pacer: RequestPacer) -> None:
    """Make every request of discord.py's HTTP client (``http``, the bot token's) wait for a
    grant of the global window, except those sent with one already (``paced``): the command
    sync and look-ups at start-up would otherwise go out on top of whatever the pacer let
    through, and with several processes on one token that is the budget of another process.
    Interaction answers and webhooks go through discord.py's webhook adapter, not this client:
    they are not the bot token's budget and are not held."""
    send: Callable[..., Awaitable[Any]] = http.request

    async def request(route: Any, **kwargs: Any) -> Any:
        if PACED.get():
            return await send(route, **kwargs)
        grant = await pacer.acquire(0, Kind.READ)
        try:
            with paced():
                return await send(route, **kwargs)
        finally:
            grant.release()

    http.request = request
