"""Keeps each channel's public table message current, and notifies the person to move.

Moves can come faster than Discord accepts writes (about 5 per 5 s per channel), so a channel
has at most one write in flight, and whatever was published meanwhile is sent as one write of
the latest state.

An edit never notifies anyone, so when the turn passes to a person who wants pings the table is
posted anew at the bottom of the channel with that person mentioned, and the previous table
message is deleted: one notification per turn, carrying the table's own **Your hand** button,
and never a stray "your turn" message left behind. Whose turn the table message pinged for is
stored with the table, so a restart never pings the same turn twice. A table message 50
minutes old is posted anew too, pinging nobody: Discord limits edits to messages older than an
hour (error 30046), and a table can go on for hours. Where only interactions write (a group DM,
``bot.discord.reach``) and none has a follow-up left, it is edited all the same: the limit slows
such edits, where nothing could post it.

Table messages are written through people's interactions wherever possible (issue 32): a table
is posted as a follow-up of the newest person's interaction at the table (their move, join or
start), and edited and deleted through the interaction that posted it, while its token is good
(``Hook``). Those are interaction endpoints, outside the bot's global rate limit. The tables
nobody clicked at for 14 minutes (and those left from before a restart, once the stored token
is too old) go through the bot's own webhook on the channel where it may have one
(``bot.discord.webhooks``: per webhook and address, not the global limit either), and only
elsewhere cost the bot's own requests. A message is edited by whoever posted it (a webhook's
only through that webhook, which is stored with the table); a message only the bot could edit
is posted anew through the channel's webhook once, so that the table's later edits are off the
global budget too.

Setting a channel's webhook up costs two of the bot token's requests, so a write that a
person's fresh interaction can make never waits for it (issue 49: a thousand new channels' lobbies
waited tens of seconds behind two thousand set-up requests). Such a write uses the channel's
webhook only if it is known already (remembered or stored); once the table is up, the webhook
is set up in the background, its requests granted after every other of the bot's and only while
the global window has places to spare (``Kind.READ`` tickets of the pacer's background queue).
Only a write that nobody's fresh interaction can make (nobody clicked for 14 minutes, a redraw
after a restart) waits for the set-up, which it hurries into the routine queue: it is the write
that will use the webhook.

Every request goes through a ``RequestPacer`` (``bot.discord.pacing``), which keeps the bot
inside Discord's per-channel and global limits; a table's next write waits for its grant, and
whatever is published while it waits goes out in that one write. So under load each table is
written as often as the limits allow and no more, posts that ping a person go first, and
Discord never has to refuse a request.

A write that fails (Discord down, 5xx) is tried again with a short capped backoff until the
message shows the latest version; the version it shows is stored, so start-up redraws exactly
the tables left behind, finished ones included.

A table's stale messages are deleted after its write, in the background (``_sweep``): the
message a write replaced where only the bot's token can delete it, and after a restart whatever
the channel shows of the table from its stored message on (a post a killed process never
recorded). People see the table first; the two requests a restarted table costs the bot's
global budget wait for room it does not need for writes. Where stale messages may stand is
recorded (``strays_from``) in the same transaction as what each write shows, and cleared only
once they are gone: until a restart's first write is recorded, the stored message and version
are where the next process sweeps from; after, the record is. So a process killed at any point
leaves the next one to sweep them.

A restart costs a table none of those two where it need not (``begin``, ``_release``): the
token of the interaction that posted the table message is stored with it while good, so a
table restarted within its 15 minutes is edited, and its old message deleted, through it; and
each run claims its tables' posts before it makes any (``bot.storage.postruns``) and, on a
clean stop with every post recorded, gives them up, so the next start reads no channel for
strays of a table nobody claims. After a kill the claims stay, and the look is as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import deque
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import aiohttp
import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context, interaction_message_response_params

from bot.cardart import CardImage
from bot.discord.errors import UNKNOWN_INTERACTION
from bot.discord.layout import table_layout
from bot.discord.pacing import Grant, Kind, RequestPacer, Ticket, paced
from bot.discord.pictures import attachment
from bot.discord.reach import (
    ASLEEP_BEFORE,
    FollowUps,
    asleep,
    interaction_only,
    server_channel,
)
from bot.discord.showing import (
    HOOK_LIFETIME,
    PING_AFTER,
    Hook,
    PublishHooks,
    Showing,
    TableRender,
)
from bot.discord.webhooks import ChannelHook, ChannelWebhooks
from bot.discord.wire import one_body
from bot.table.priority import PeopleFirst
from bot.table.timers import Clock

_log = logging.getLogger(__name__)

# the table names the player to move, but only a newly posted table notifies them
_QUIET = discord.AllowedMentions.none()
CLOSE_GRACE = 5.0
"""Seconds a shutdown waits for table writes in flight."""
ENDED_REMEMBERED = 1024
"""Tables shown over whose last version the publisher remembers, so that an older version
published late (its maker was still awaiting something) never replaces the closed table."""
REPOST_AGE = 50 * 60
"""Seconds after which a table message is posted anew instead of edited: Discord limits edits
to messages older than an hour (429, JSON code 30046, at an undisclosed rate), and a table can
live for hours. Ten minutes to spare, for a write that waits its turn."""
SETUPS_AT_ONCE = 8
"""Channel webhooks set up in the background at once: as many workers take the queued
channels in turn. Each set-up's second request (the webhook made) queues behind the first
requests of those already under way, so with every new channel's set-up under way at once a
thousand channels' look-ups would all come before the first webhook was made. A few workers
rather than a task per channel: a thousand tasks waiting for the people at once, each with
its timer, cost a burst of new tables about a tenth of its CPU before the last lobby showed
(issue 49)."""
SETUP_PATIENCE = 10.0
"""The longest a channel webhook's background set-up waits for the people being served (their
commands and clicks) before it begins: in a burst of new tables the set-ups' requests, records
and discord.py's bookkeeping took about a twentieth of the bot's CPU before the last lobby
showed (issue 49). A write that needs the webhook ends the wait (``_want``)."""
TOKENS_CHECKED_EVERY = 60.0
"""Seconds between two clearings of the stored interaction tokens too old to use (real time):
a credential stays in the database at most this long after it stopped being good."""
RETRY_FIRST = 1.0
RETRY_MAX = 5.0
"""Seconds between tries of a failed write, doubling up to this cap, so a table shows the latest
state within seconds of Discord coming back."""


class _Unknown:
    """Whose turn the publisher has not yet seen (no version of the table published here)."""


@dataclass
class _SetUp:
    """A channel webhook to be set up in the background (issue 49): queued, then under way."""

    queued_at: float
    """When it was queued: it waits for the people ``SETUP_PATIENCE`` from then at most."""
    ticket: Ticket | None = None
    """The pacer's ticket of its request waiting now, if any."""
    wanted: bool = False
    """A write waits for it: its requests are no longer background ones."""


@dataclass
class _Table:
    table_id: int
    channel_id: int
    message_id: int | None = None
    place_id: int | None = None
    """The table's server (``Showing.place_id``)."""
    pinged: int | None = None
    pending: Showing | None = None
    worker: asyncio.Task[None] | None = None
    ticket: Ticket | None = None
    """The next write's place in the pacer's queue, while it waits."""
    picture: CardImage | None = None
    """The picture the table message is known to carry (``None``: none, or not known)."""
    shown: int = -1
    """The newest version written to the table message by this publisher."""
    turn_of: int | _Unknown | None = field(default_factory=_Unknown)
    """Whose turn the latest version published stands for (a person, ``None``: a computer's
    or nobody's; unknown before this process's first)."""
    turn_passed: bool = False
    """The turn changed hands in a version published since the last write was drawn: the
    person to move in the next write is notified anew even if the table message already
    pinged them, since a turn of theirs ended and another began in versions that were folded
    into that write (issue 32: without this, a person whose turn came back was never told)."""
    hook: Hook | None = None
    """The newest person's interaction at the table: new table messages are posted through it
    while it is fresh."""
    message_hook: Hook | None = None
    """The interaction whose webhook posted the table message, or the channel webhook that did
    (``None``: the bot posted it; after a restart, the interaction is known from its stored token
    while that is fresh): it edits and deletes that message while it is fresh."""
    message_webhook: int | None = None
    """The channel webhook that posted the table message (``None``: none did), as stored."""
    channel_hook: Hook | None = None
    """The bot's webhook on the table's channel, if it has one: it posts when no person's
    interaction is fresh."""
    orphaned: bool = False
    """The table message was posted by a channel webhook that is gone, so nobody can edit it:
    the next write posts the table anew."""
    latest: Showing | None = None
    """The newest version published."""
    reminder: asyncio.Task[None] | None = None
    """The ping still to come for a turn announced quietly (``Showing.quiet``)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    only_hooks: bool = False
    """Written only through interactions (``Showing.interaction_only``)."""
    sleeper: asyncio.Task[None] | None = None
    """The write, due shortly before the newest token runs out, that says the table waits."""
    token_stored_at: float | None = None
    """Where only interactions write: when the token stored with the table was issued, so
    that each write stores a newer person's token once (``Showing.message_token``)."""
    strays_from: int | None = None
    """The table's messages from this id on, but for ``message_id``, may still stand in the
    channel (``None``: none may): recorded with every message moved until the sweep is done,
    so that a process killed before it leaves the next one to sweep."""
    strays_recorded: bool = False
    """``strays_from`` is in the database already (else the table's next write records it)."""
    look: bool = False
    """The sweep reads the channel from ``strays_from`` on for strays nobody recorded (a
    process killed between posting a table message and recording it)."""
    stale: dict[int, bool] = field(default_factory=dict)
    """Table messages replaced here whose delete waits for the sweep (→ posted by a channel
    webhook that is gone)."""
    sweeper: asyncio.Task[None] | None = None

    def offer(self, hook: Hook | None) -> None:
        if hook is not None and hook.channel_id == self.channel_id and (
                self.hook is None or hook.made_at >= self.hook.made_at):
            self.hook = hook

    def poster(self, now: float) -> Hook | None:
        """The hook a new table message goes through at ``now``, if any: the newest person's
        interaction while fresh, else the channel's webhook."""
        return self.hook if self.hook is not None and self.hook.fresh(now) else self.channel_hook

    def editor(self, now: float) -> Hook | None:
        """The hook that edits and deletes the table message at ``now``, if any."""
        hook = self.message_hook
        if hook is not None and hook.fresh(now):
            return hook
        if self.only_hooks and self.hook is not None and self.hook.fresh(now):
            # where only interactions write, any of the app's tokens in the channel edits the
            # app's public messages there
            return self.hook
        return None

    def newer_than(self, showing: Showing) -> bool:
        """Whether a newer version than ``showing``'s is shown or waiting to be."""
        pending = -1 if self.pending is None else self.pending.version
        return showing.version < max(self.shown, pending)


class TablePublisher:
    """``pacer`` paces every request (default: Discord's limits)."""

    def __init__(self, client: discord.Client, hooks: PublishHooks, clock: Clock,
                 pacer: RequestPacer | None = None, people: PeopleFirst | None = None,
                 webhooks: ChannelWebhooks | None = None) -> None:
        """``webhooks``: the bot's channel webhooks (``None``: tables are bot messages)."""
        self._client = client
        self._webhooks = webhooks
        self._channel_hooks: dict[tuple[int, int], Hook] = {}
        """(webhook id, table channel) → its ``Hook``, one each so its pacing key stays."""
        self._setups: dict[int, _SetUp] = {}
        """Parent channel → its webhook's set-up, queued or under way in the background."""
        self._setup_line: deque[int] = deque()
        """The parent channels whose set-up waits for a worker, in the order they came."""
        self._setup_workers: set[asyncio.Task[None]] = set()
        self._people = people or PeopleFirst()
        self._hooks = hooks
        self._clock = clock
        self._pacer = pacer or RequestPacer()
        self._tables: dict[int, _Table] = {}
        self._followups = FollowUps()
        """Follow-ups sent through each interaction (``bot.discord.reach``)."""
        self._ended: dict[int, int] = {}
        """Table → the version it ended at, for the last ``ENDED_REMEMBERED`` tables shown
        over (oldest first)."""
        self._sweeps: set[asyncio.Task[None]] = set()
        """Sweeps under way, those of tables shown over included."""
        self._closing = False
        """Closing: a write that finishes meanwhile starts no sweep (the next process does)."""
        self._run: int | None = None
        """This process's run, once ``begin`` claimed its tables' posts (``None``: no record of
        posts is kept, and every restarted table is looked at for strays)."""
        self._held: set[int] = set()
        """Tables whose posts this run has claimed (``bot.storage.postruns``)."""
        self._clean: set[int] = set()
        """Tables with every post recorded when this run began (the run before stopped
        cleanly): their first write here looks for no strays."""
        self._posting: set[int] = set()
        """Tables with a post under way: sent, or about to be, and not yet recorded."""
        self._doubtful: set[int] = set()
        """Tables a post of which may have gone out without being recorded (it failed in a way
        that does not say Discord refused it)."""
        self._token_keeper: asyncio.Task[None] | None = None
        self._released = False
        """This run's clean stop is recorded."""

    def _state(self, showing: Showing, *, posting: bool = False) -> _Table:
        state = self._tables.get(showing.table_id)
        if state is None:
            # a table this publisher has not shown yet: what is stored is all we know; a
            # message that shows an older version may have a post nobody recorded below it
            # (unless the last process stopped cleanly with every post of it recorded)
            strays_from = showing.strays_from
            clean = showing.table_id in self._clean
            self._clean.discard(showing.table_id)
            if strays_from is None and showing.behind and not posting and not clean:
                strays_from = showing.message_id
            if showing.interaction_only:
                strays_from = None  # nothing of the bot's can read the channel
            state = self._tables[showing.table_id] = _Table(
                showing.table_id, showing.channel_id, showing.message_id, place_id=showing.place_id,
                pinged=showing.pinged, message_webhook=showing.message_webhook,
                only_hooks=showing.interaction_only, strays_from=strays_from,
                strays_recorded=strays_from is not None and strays_from == showing.strays_from,
                look=strays_from is not None, message_hook=self._stored_hook(showing),
                token_stored_at=None if showing.message_token is None
                else showing.message_token[1])
        return state

    def _stored_hook(self, showing: Showing) -> Hook | None:
        """The interaction of the stored token while that is fresh: it edits the message in
        place after a restart, where only the bot's token could otherwise delete it (and the
        table would be posted anew); where only interactions write, nothing else could write
        the table until the next click. It posts nothing: its follow-ups are not counted here,
        and an interaction of a user-installed app may have only a few."""
        stored = showing.message_token
        if stored is None or showing.message_id is None:
            return None
        token, made_at = stored
        hook = Hook.of_token(token, made_at, showing.channel_id, self._client)
        return hook if hook is not None and hook.fresh(self._clock.now()) else None

    async def begin(self) -> None:
        """Start this process's run: claim the posts of the tables it may write, note those
        whose every post is recorded, and keep the stored interaction tokens to those still
        good. Before the first write: a post this run makes unrecorded must be claimed."""
        run = _new_run()
        try:
            claimed = await self._hooks.claim_posts(run)
        except Exception:
            _log.exception("claiming the tables' posts failed: every table is looked at")
            return
        self._run = run
        self._held = set(claimed)
        self._clean = {table for table, clean in claimed.items() if clean}
        _log.info("claimed the posts of %d tables, %d of them with every post recorded",
                  len(claimed), len(self._clean))
        self._token_keeper = asyncio.create_task(self._keep_tokens(),
                                                 name="kortbord-table-tokens")

    async def _keep_tokens(self) -> None:
        """Clear the stored interaction tokens once too old to use, now and then."""
        while True:
            try:
                await self._hooks.forget_message_tokens(self._clock.now() - HOOK_LIFETIME)
            except Exception:
                _log.exception("clearing old table tokens failed")
            await asyncio.sleep(TOKENS_CHECKED_EVERY)

    def interaction_only(self, place_id: int, channel_id: int) -> bool:
        """Whether a table there is written only through interactions (``bot.discord.reach``)."""
        return interaction_only(self._client, place_id, channel_id)

    def in_thread(self, place_id: int, channel_id: int) -> bool:
        """Whether a table there is in a thread, as the bot's cache knows the channel (``False``
        where it does not: a DM, a group DM, a server the bot is not a member of)."""
        return isinstance(server_channel(self._client, place_id, channel_id), discord.Thread)

    def publish(self, showing: Showing) -> None:
        """Show ``showing`` on its table message soon; returns at once. A version older than
        one already shown or waiting is dropped: whoever made it awaited something meanwhile
        (a game started and at once stopped: the start's table came after the closed one)."""
        if showing.table_id not in self._tables and (
                self._ended.get(showing.table_id, -1) >= showing.version):
            return
        state = self._state(showing)
        if state.newer_than(showing):
            if state.only_hooks:
                # the click that made it is still a token to write the newer version with
                state.offer(showing.hook)
                self._kick(state)
            return
        # every version passes here, even those folded into a later write: this is where a turn
        # that ended and began again unseen is noticed
        if not isinstance(state.turn_of, _Unknown) and state.turn_of != showing.to_move:
            state.turn_passed = True
        state.turn_of = showing.to_move
        state.offer(showing.hook)
        if state.reminder is not None and (state.latest is None
                                           or state.latest.counter != showing.counter):
            # a move was made: the quiet turn's ping is not needed
            state.reminder.cancel()
            state.reminder = None
        state.latest = showing
        state.pending = showing
        if state.ticket is not None and _urgent(state, showing):
            self._pacer.hurry(state.ticket)
        self._kick(state)

    def _kick(self, state: _Table) -> None:
        """Start the table's writer unless it is running or has nothing to write."""
        if state.pending is not None and (state.worker is None or state.worker.done()):
            state.worker = asyncio.create_task(
                self._drain(state), name=f"kortbord-table-{state.table_id}"
            )

    async def post_new(self, showing: Showing, *, repost: bool = False) -> int:
        """Post the table as a new message at the bottom of the channel and return its id. A
        ``repost`` deletes the table's current message; an earlier game's table stays, so the
        channel's history keeps its result."""
        state = self._state(showing, posting=True)
        # the person's interaction first: with it fresh, nothing waits for the channel's webhook
        state.offer(showing.hook)
        await self._prepare(state)
        async with state.lock:
            if state.pending is not None and state.pending.version <= showing.version:
                state.pending = None
            state.turn_of = showing.to_move
            state.offer(showing.hook)
            state.latest = showing
            # a re-post pings nobody; a turn already pinged stays pinged
            still = state.pinged if state.pinged == showing.to_move else None
            try:
                sent = await self._send(state, showing, mention=showing.ping,
                                        pinged=showing.ping or still,
                                        replaces=state.message_id if repost else None)
            finally:
                if showing.hook is not None and showing.hook.answers is not None:
                    # failed before its answer went out: whatever answers the interaction
                    # now (the error's private line), it is not this hook
                    self._answered(state, showing.hook, usable=False)
            if state.only_hooks:
                self._sleep_later(state)
        self._set_up_later(state)
        self._sweep_later(state)
        return sent

    async def close(self) -> None:
        """Let the writes in flight finish (a table half moved down would leave its old message
        standing), then stop whatever is still retrying."""
        for state in self._tables.values():
            if state.reminder is not None:
                state.reminder.cancel()
            if state.sleeper is not None:
                state.sleeper.cancel()
        # what is not swept yet is recorded (``strays_from``): the next process sweeps it
        self._closing = True
        setups = [*self._setup_workers, *self._sweeps]
        for task in setups:
            task.cancel()
        await asyncio.gather(*setups, return_exceptions=True)
        workers = [s.worker for s in self._tables.values() if s.worker and not s.worker.done()]
        if workers:
            await asyncio.wait(workers, timeout=CLOSE_GRACE)
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        if self._token_keeper is not None:
            self._token_keeper.cancel()
            await asyncio.gather(self._token_keeper, return_exceptions=True)
        await self._release()

    async def _release(self) -> None:
        """Record that this run's posts are all recorded, but for the tables with a post under
        way or one that may have gone out unrecorded: the next start looks for strays only at
        those (and at the tables of runs killed before)."""
        run = self._run
        if run is None or self._released:
            return
        self._released = True
        # a post still to come (an answer that outlived the grace) claims its table first, as
        # a run of its own that no release removes
        self._run = _new_run()
        self._held.clear()
        keep = self._posting | self._doubtful
        try:
            await self._hooks.release_posts(run, keep=keep)
        except Exception:
            _log.exception("recording the clean stop failed: the next start looks for strays")
            return
        _log.info("stopped with every table post recorded but %d", len(keep))

    async def _drain(self, state: _Table) -> None:
        failures = 0
        while state.pending is not None:
            await self._prepare(state)
            if state.only_hooks and not self._reachable(state):
                # nobody's token is good: the next click's interaction writes it
                return
            # a person being answered goes first, then wait for room (not the other way round:
            # a write must go out as soon as the pacer lets it); what is published meanwhile
            # goes out in this one write
            await self._people.wait_turn()
            kind, key = self._route(state, state.pending)
            state.ticket = self._pacer.ticket(key, kind, urgent=_urgent(state, state.pending))
            try:
                grant = await self._pacer.wait(state.ticket)
            finally:
                state.ticket = None
            # drawing the table and sending it is a long stretch without awaiting: one such per
            # pass of the loop (a grant counts from now, so waiting for the step is safe)
            await self._people.step()
            async with state.lock:
                showing, state.pending = state.pending, None
                passed, state.turn_passed = state.turn_passed, False
                if showing is None:
                    # shown meanwhile by a post of its own
                    state.turn_passed = passed
                    grant.cancel()
                    continue
                try:
                    await self._show(state, showing, grant, passed=passed)
                    failures = 0
                    self._set_up_later(state)
                    self._sweep_later(state)
                    if state.only_hooks:
                        self._sleep_later(state)
                    if showing.final and state.pending is None:
                        # nothing more will be shown of it
                        self._forget(state.table_id, showing.version)
                    continue
                except _NoToken:
                    # the token ran out while the write waited: the next click writes it
                    if state.pending is None:
                        state.pending = showing
                    state.turn_passed = state.turn_passed or passed
                    continue
                except discord.Forbidden:
                    # the bot may not write here any more; the next change tries again
                    _log.warning("no permission to show table %d in channel %d",
                                 showing.table_id, showing.channel_id)
                    continue
                except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as exc:
                    failures += 1
                    _log.warning("could not show table %d in channel %d (try %d): %s",
                                 showing.table_id, showing.channel_id, failures, exc)
                    if state.pending is None:
                        state.pending = showing
                    state.turn_passed = state.turn_passed or passed
                except Exception:
                    failures += 1
                    _log.exception("showing table %d in channel %d failed",
                                   showing.table_id, showing.channel_id)
                    if state.pending is None:
                        state.pending = showing
                    state.turn_passed = state.turn_passed or passed
                finally:
                    # a write that failed before it was sent still counts: it may have arrived
                    grant.release()
            await self._clock.sleep_until(self._clock.now() + _backoff(failures))

    def _forget(self, table_id: int, version: int) -> None:
        state = self._tables.pop(table_id, None)
        if state is not None and state.reminder is not None:
            state.reminder.cancel()
        if state is not None and state.sleeper is not None:
            state.sleeper.cancel()
        self._ended[table_id] = version
        if len(self._ended) > ENDED_REMEMBERED:
            del self._ended[next(iter(self._ended))]

    def _sweep_later(self, state: _Table) -> None:
        """The table is up: delete its stale messages in the background (issue 49: after a
        restart, a thousand tables' looks and deletes went ahead of their first writes)."""
        if self._closing or not (state.look or state.stale) or (
                state.sweeper is not None and not state.sweeper.done()):
            return
        task = state.sweeper = asyncio.create_task(self._sweep(state),
                                                   name=f"kortbord-sweep-{state.table_id}")
        self._sweeps.add(task)
        task.add_done_callback(self._sweeps.discard)

    async def _sweep(self, state: _Table) -> None:
        """Delete the table's stale messages, then clear their record. Each request is a
        background one (``RequestPacer.ticket``): after every write of the bot's, and only
        while the global window has places to spare."""
        failures = 0
        while state.look or state.stale:
            swept = state.strays_from
            try:
                if not await self._sweep_once(state):
                    async with state.lock:
                        pass  # the post under way is recorded once the table is free again
                    continue
            except discord.Forbidden:
                # the bot may not read or delete here: nothing more it can do
                _log.warning("no permission to delete stray messages of table %d in channel %d",
                             state.table_id, state.channel_id)
                state.look = False
                state.stale.clear()
            except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as exc:
                failures += 1
                _log.warning("could not delete stray messages of table %d in channel %d: %s",
                             state.table_id, state.channel_id, exc)
                await self._clock.sleep_until(self._clock.now() + _backoff(failures))
                continue
            except Exception:
                failures += 1
                _log.exception("deleting stray messages of table %d in channel %d failed",
                               state.table_id, state.channel_id)
                await self._clock.sleep_until(self._clock.now() + _backoff(failures))
                continue
            if state.look or state.stale or swept is None:
                continue  # more came meanwhile
            state.strays_from = None
            state.strays_recorded = False
            try:
                await self._hooks.strays_swept(state.table_id, state.channel_id, swept)
            except Exception:
                # the record stays: the next start-up looks again, and finds nothing
                _log.exception("recording table %d swept failed", state.table_id)

    async def _sweep_once(self, state: _Table) -> bool:
        """Delete this table's messages from ``strays_from`` on but the current one: those
        replaced here (``stale``), and, after a restart, whatever the channel shows of the
        table's there (the stored message, now replaced; a post a killed process never
        recorded). False when the channel was read while the table was being posted here:
        nothing was deleted, and it is read again once that post is recorded."""
        assert self._client.user is not None
        targets: dict[int, tuple[Hook | None, bool]] = {}
        since = state.strays_from
        looked = state.look and since is not None
        if looked:
            marker = f":{state.table_id}:"
            channel = self._client.get_partial_messageable(state.channel_id)
            grant = await self._pacer.acquire(state.channel_id, Kind.READ, background=True)
            try:
                # in line behind the writes granted before it, which each wait for their step
                # (``_drain``): else a look granted after them could go out before them
                await self._people.step()
                with paced():
                    # from the recorded message on, itself included: replaced, it is stale
                    history = [m async for m in channel.history(
                        after=discord.Object(since - 1), limit=20)]
            finally:
                grant.release()
            if state.table_id in self._posting:
                # a post of the table is under way: the channel may show it before it is the
                # table's message here (a post anew deletes the message it replaces before it
                # records the new one), and it is no stray. One that ended meanwhile is the
                # table's message by now, which the deletes below pass over.
                return False
            hook = state.channel_hook
            ours = {self._client.user.id} | (set() if hook is None else {hook.key})
            for message in history:
                if message.author.id not in ours:
                    continue
                if any(marker in custom_id for custom_id in _custom_ids(message.components)):
                    by_hook = hook if message.author.id != self._client.user.id else None
                    targets[message.id] = (by_hook, by_hook is not None)
        for message_id, foreign in list(state.stale.items()):
            targets.setdefault(message_id, (None, foreign))
        for message_id, (by_hook, foreign) in targets.items():
            # read now: a write meanwhile may have made one of them current (a bot post's
            # nonce returns the message a killed process posted for the same version)
            if message_id != state.message_id:
                await self._delete(state.channel_id, message_id, by_hook, foreign=foreign,
                                   background=True, place_id=state.place_id)
            state.stale.pop(message_id, None)
        if looked:
            # only now: a delete that failed (Discord down) leaves the next try to look again
            state.look = False
        return True

    def _route(self, state: _Table, showing: Showing | None) -> tuple[Kind, int]:
        """Which limits the next write of ``showing`` counts against: an interaction's
        webhook's (its token's key) when one can make it, else the channel's and the global
        limit (the channel's id)."""
        if showing is not None:
            now = self._clock.now()
            hook = (self._poster(state, now) if self._posts(state, showing, state.turn_passed)
                    else state.editor(now))
            if hook is not None:
                return hook.kind, hook.key
        return Kind.WRITE, state.channel_id

    def _posts(self, state: _Table, showing: Showing, passed: bool) -> bool:
        """Whether showing ``showing`` posts the table anew (rather than editing it)."""
        if state.only_hooks and state.message_id is not None and self._poster(
                state, self._clock.now()) is None:
            # no interaction has a follow-up left: the table is edited, pinging nobody
            return False
        return state.message_id is None or _pings(state, showing, passed) or self._aged(
            state.message_id) or self._adopts(state)

    def _poster(self, state: _Table, now: float) -> Hook | None:
        """The hook a new table message goes through at ``now`` (``_Table.poster``), where
        only interactions write one with a follow-up left."""
        hook = state.poster(now)
        if (state.only_hooks and hook is not None and hook.channel is None
                and hook.webhook.token is not None
                and not self._followups.room(hook.webhook.token,
                                             hook.answered_by_follow_up)):
            return None
        return hook

    def _reachable(self, state: _Table) -> bool:
        """Whether an interaction's token can write the table now."""
        now = self._clock.now()
        return self._poster(state, now) is not None or (
            state.message_id is not None and state.editor(now) is not None)

    def _sleep_later(self, state: _Table) -> None:
        """Arm the table's last write before its newest token runs out (``reach``): a
        person's, or after a restart the stored one that edits the table."""
        hooks = [h for h in (state.hook, state.message_hook) if h is not None]
        if self._closing or not hooks or state.latest is None or state.latest.final:
            # closing: a write that finishes during ``close`` arms none after its cancels
            return
        hook = max(hooks, key=lambda h: h.made_at)
        now = self._clock.now()
        due = hook.made_at + HOOK_LIFETIME - ASLEEP_BEFORE
        if due <= now and (state.latest.asleep or not hook.fresh(now)):
            # it says so already, or nothing can write it any more; a write late in the
            # token's life (a restart's first) says so at once
            return
        if state.sleeper is not None:
            state.sleeper.cancel()
        state.sleeper = asyncio.create_task(self._fall_asleep(state, due),
                                            name=f"kortbord-asleep-{state.table_id}")

    async def _fall_asleep(self, state: _Table, due: float) -> None:
        await self._clock.sleep_until(due)
        state.sleeper = None
        latest = state.latest
        if self._tables.get(state.table_id) is not state or latest is None or latest.asleep:
            return
        self.publish(replace(latest, asleep=True, hook=None, quiet=True))

    def _adopts(self, state: _Table) -> bool:
        """Whether the table message is posted anew through the channel's webhook rather than
        edited by the bot: once, for a message no webhook can edit (the bot's, or an
        interaction's whose token ran out), so that the table's later edits are off the
        global budget too; and always for a message nobody can edit (``orphaned``)."""
        return state.orphaned or (
            state.channel_hook is not None and state.message_id is not None
            and state.editor(self._clock.now()) is None)

    async def _prepare(self, state: _Table) -> None:
        """Look up the channel's webhook for the table's next write (remembered after the first
        time), and, after a restart, the webhook that posted the stored message; none where
        the bot is not a member. Discord is asked (the webhook set up) only when no person's
        interaction at the table is fresh, so that the write will go through the webhook; else
        only what is known is used. Nor for the table's first message: what people first see of
        their table never waits (a lobby whose command was deferred is the bot's message, and
        the webhook is set up in the background after it). A first message that a fresh
        interaction posts does not even look at what is stored: the webhook could not carry
        it, and the look is a round trip to the database in front of a new channel's lobby
        (issue 49; the background set-up looks after it)."""
        if self._webhooks is None or state.only_hooks:
            return
        if state.message_id is None and state.hook is not None and state.hook.fresh(
                self._clock.now()):
            return
        hook = state.hook
        make = state.message_id is not None and (
            hook is None or not hook.fresh(self._clock.now()))
        try:
            parent, thread = self._webhooks.parent_of(state.channel_id, state.place_id)
            if make:
                self._want(parent)
            found = await self._webhooks.find(parent, make=make)
        except Exception:
            _log.exception("looking up the webhook of channel %d failed", state.channel_id)
            found, thread = None, None
        state.channel_hook = None if found is None else self._hook_of(found, state.channel_id,
                                                                      thread)
        if state.message_hook is None and state.message_webhook is not None:
            if state.channel_hook is not None and state.channel_hook.key == state.message_webhook:
                state.message_hook = state.channel_hook
            else:
                # its webhook was deleted since: nobody can edit the message any more
                state.orphaned = True

    def _set_up_later(self, state: _Table) -> None:
        """The table is up: set its channel's webhook up in the background if it has none yet
        and the bot may make one, for the writes that no interaction will make (issue 49)."""
        webhooks = self._webhooks
        # where the bot is not a member, nothing goes on the bot token (issue 45)
        if webhooks is None or state.channel_hook is not None or state.only_hooks:
            return
        parent, _ = webhooks.parent_of(state.channel_id, state.place_id)
        if parent in self._setups or not webhooks.wanting(parent):
            return
        self._setups[parent] = _SetUp(self._clock.now())
        self._setup_line.append(parent)
        if len(self._setup_workers) < SETUPS_AT_ONCE:
            self._setup_workers.add(asyncio.create_task(self._set_up_line(),
                                                        name="kortbord-webhooks"))

    async def _set_up_line(self) -> None:
        """One of the ``SETUPS_AT_ONCE`` workers: set the queued channels' webhooks up until
        none is left."""
        try:
            while self._setup_line:
                parent = self._setup_line.popleft()
                await self._set_up(parent, self._setups[parent])
        finally:
            # in the same step as the last look at the line: a channel queued after it finds
            # a free worker's place
            self._setup_workers.discard(asyncio.current_task())  # type: ignore[arg-type]

    async def _set_up(self, parent: int, setup: _SetUp) -> None:
        assert self._webhooks is not None

        @contextlib.asynccontextmanager
        async def gate() -> AsyncIterator[None]:
            ticket = setup.ticket = self._pacer.ticket(0, Kind.READ, background=not setup.wanted)
            try:
                grant = await self._pacer.wait(ticket)
            finally:
                setup.ticket = None
            try:
                with paced():
                    yield
            finally:
                grant.release()

        try:
            await self._after_people(setup)
            # a write that needed the webhook meanwhile may have set it up itself
            await self._webhooks.find(parent, gate=gate)
        except Exception:
            _log.exception("setting up the webhook of channel %d failed", parent)
        finally:
            if self._setups.get(parent) is setup:
                del self._setups[parent]

    async def _after_people(self, setup: _SetUp) -> None:
        """Wait while people are being served, unless a write wants the webhook now, for
        ``SETUP_PATIENCE`` from when it was queued at most."""
        until = setup.queued_at + SETUP_PATIENCE
        while self._people.serving and not setup.wanted and self._clock.now() < until:
            await self._people.wait_turn()

    def _want(self, parent: int) -> None:
        """A write waits for ``parent``'s webhook: its set-up in the background, if one is
        under way, is no longer a background one."""
        setup = self._setups.get(parent)
        if setup is None or setup.wanted:
            return
        setup.wanted = True
        if setup.ticket is not None:
            self._pacer.foreground(setup.ticket)

    def _hook_of(self, found: ChannelHook, channel_id: int, thread_id: int | None) -> Hook:
        hook = self._channel_hooks.get((found.webhook_id, channel_id))
        if hook is None or hook.channel != found:
            hook = self._channel_hooks[found.webhook_id, channel_id] = Hook.of_channel(
                found, channel_id, thread_id, self._client)
        return hook

    async def _show(self, state: _Table, showing: Showing, grant: Grant, *,
                    passed: bool = False) -> None:
        """Show ``showing``; ``grant`` is the pacer's leave for its write. ``passed``: the turn
        changed hands in the versions this write folds together."""
        # a turn is pinged once: when it begins (someone else's turn ended), not at every move
        fresh = state.message_id is None or _pings(state, showing, passed)
        # where only interactions write and none has a follow-up left (after a restart: none
        # known yet, only the stored token that edits), edited, pinging nobody, even aged
        if self._posts(state, showing, passed):
            old = state.message_id
            # moved down only because it aged, it notifies nobody and keeps whose turn it
            # stands for (a person's turn that went on, or none)
            pinged = showing.ping if fresh else (
                state.pinged if state.pinged == showing.ping else None)
            # a process killed between posting and recording the message posts the same
            # version again after its restart: the nonce makes that the message it posted
            await self._send(state, showing, mention=showing.ping if fresh else None,
                             pinged=pinged, nonce=f"t{showing.table_id}v{showing.version}",
                             replaces=old, grant=grant)
            return
        hook = state.editor(self._clock.now())
        grant = await self._regrant(state, grant, hook)
        announced = showing.quiet and _new_turn(state, showing, passed)
        if announced:
            # counted from when the turn goes out (a write that fails arms it again)
            self._remind(state, showing)
        render = _drawn(showing)
        kwargs: dict[str, object] = {}
        if render.image is None:
            kwargs["attachments"] = []  # the old picture goes
        elif render.image != state.picture:
            kwargs["attachments"] = [attachment(render.image)]
        # else: an edit without attachments keeps the message's file, which the embed still
        # names, so an unchanged picture is neither encoded into the request nor uploaded
        state.picture = None  # until the edit is known to have landed
        try:
            await self._write(state, state.message_id, hook if _by_hook(grant) else None,
                              allowed_mentions=_QUIET, **_layout(render), **kwargs)
        except discord.NotFound as exc:
            grant.release()
            gone = _webhook_gone(exc)
            _log.info("table message in channel %s %s; posting it again", showing.channel_id,
                      "cannot be edited, its webhook is gone" if gone else "was deleted")
            # a message whose webhook is gone stays, unless the bot may delete it
            await self._send(state, showing, mention=None, pinged=state.pinged,
                             replaces=state.message_id if gone else None)
            return
        finally:
            grant.release()
        state.picture = render.image
        state.shown = max(state.shown, showing.version)
        if state.pinged != showing.ping or announced:
            # the pinged turn is over (a computer's turn, nobody's, or a person without pings),
            # or a new turn of the same person was announced on their panel, not pinged
            state.pinged = None
        # the first write here records where strays may stand with what it shows: until
        # that lands, the stored message and version are the next process's to sweep from
        token = self._newer_token(state)
        await self._hooks.message_shows(
            showing.table_id, showing.channel_id, showing.version, state.pinged,
            strays_from=None if state.strays_recorded else state.strays_from, token=token)
        state.strays_recorded = state.strays_from is not None
        if token is not None:
            state.token_stored_at = token[1]

    @staticmethod
    def _newer_token(state: _Table) -> tuple[str, float] | None:
        """Where only interactions write: the newest person's token, to store with the write
        when it is newer than the one stored. A restarted process edits the table through it
        and knows when the table falls asleep (``_sleep_later``). A click after the table's
        last write is not stored (a write per click), so a restarted table may say it waits
        before its newest token runs out: the next click wakes it, as any."""
        if not state.only_hooks:
            return None
        token = _token_of(state.hook)
        if token is None or (state.token_stored_at is not None
                             and token[1] <= state.token_stored_at):
            return None
        return token

    def _remind(self, state: _Table, showing: Showing) -> None:
        """Ping ``showing``'s person ``PING_AFTER`` seconds from now unless they moved."""
        if self._closing:
            return
        if state.reminder is not None:
            state.reminder.cancel()
        state.reminder = asyncio.create_task(self._ping_later(state, showing),
                                             name=f"kortbord-ping-{state.table_id}")

    async def _ping_later(self, state: _Table, showing: Showing) -> None:
        await self._clock.sleep_until(self._clock.now() + PING_AFTER)
        state.reminder = None
        latest = state.latest
        if (self._tables.get(state.table_id) is not state or latest is None
                or latest.counter != showing.counter or state.pinged == showing.ping):
            return  # the table is over, or they moved, or the turn was pinged meanwhile
        self.publish(replace(latest, quiet=False))

    async def _regrant(self, state: _Table, grant: Grant, hook: Hook | None) -> Grant:
        """The grant for a write that ``hook`` makes (``None``: the bot): ``grant`` if it is
        for that, else a new one. What the write needed changed while it waited: a ping came
        (the newest interaction posts, not the one that posted the message), or a token ran
        out. A bot's grant is handed back unsent whenever a webhook can write instead: once
        the bot posted a table message, only the bot could edit it, and its table would stay
        on the global budget until the next ping."""
        if hook is not None:
            if grant.kind is hook.kind and grant.key == hook.key:
                return grant
            grant.cancel()
            return await self._pacer.acquire(hook.key, hook.kind, urgent=True)
        if not _by_hook(grant):
            return grant
        grant.cancel()
        return await self._pacer.acquire(state.channel_id, Kind.WRITE, urgent=True)

    def _aged(self, message_id: int | None) -> bool:
        """Whether the message is old enough to be posted anew rather than edited (its id
        tells when Discord made it)."""
        if message_id is None:
            return False
        # the id's milliseconds since Discord's epoch (``snowflake_time`` without the datetime:
        # asked several times a write)
        made = ((message_id >> 22) + discord.utils.DISCORD_EPOCH) / 1000
        return self._clock.now() - made >= REPOST_AGE

    async def _send(self, state: _Table, showing: Showing, *, mention: int | None,
                    pinged: int | None, nonce: str | None = None,
                    replaces: int | None = None, grant: Grant | None = None) -> int:
        """Post the table; ``mention`` is notified, ``pinged`` is whose turn it stands for.
        It goes through the newest person's interaction at the table while that is fresh
        (an interaction endpoint: no global budget), else as the bot's own message, whose
        ``nonce`` makes Discord return the message already posted for it (enforce_nonce)
        instead of posting it twice. The message it ``replaces`` is deleted before the new
        one is recorded where a webhook can delete it; where only the bot's token can, the
        sweep deletes it after, in the background, and the new message is recorded with
        where strays may stand (``strays_from``), so a process killed at any point leaves
        the next one to sweep them (``_sweep``)."""
        render = _drawn(showing)
        mentions = (_QUIET if mention is None else discord.AllowedMentions(
            users=[discord.Object(mention)], roles=False, everyone=False, replied_user=False))
        await self._claim(state)
        with self._recording(state.table_id):
            while True:
                hook = self._poster(state, self._clock.now())
                if state.only_hooks and hook is None:
                    raise _NoToken
                if grant is None:
                    kind, key = (hook.kind, hook.key) if hook is not None else (
                        Kind.WRITE, showing.channel_id)
                    grant = await self._pacer.acquire(key, kind, urgent=True)
                else:
                    grant = await self._regrant(state, grant, hook)
                if not _by_hook(grant):
                    hook = None
                kwargs: dict[str, object] = {"allowed_mentions": mentions, **_layout(render)}
                if nonce is not None and hook is None:
                    # a webhook takes no nonce; a restart's sweep finds its strays
                    kwargs["nonce"] = nonce
                if render.image is not None:
                    kwargs["file"] = attachment(render.image)
                try:
                    sent = await self._write(state, None, hook, **kwargs)
                    if hook is not None and hook.answers is not None:
                        # answered: the hook's later posts are follow-ups
                        hook = self._answered(state, hook)
                    break
                except discord.HTTPException as exc:
                    if (hook is not None and hook.answers is not None
                            and exc.code == UNKNOWN_INTERACTION):
                        # past the answer's deadline, nothing was posted: the next way posts it
                        self._answered(state, hook, usable=False)
                        render = _drawn(showing)
                        _log.warning("table %d: the command's answer came too late; posting "
                                     "the table another way", showing.table_id)
                        # the answer did not need the channel's webhook; the next way may
                        await self._prepare(state)
                        continue
                    if hook is None or hook.channel is None or self._poster(state,
                            self._clock.now()) is hook:
                        raise
                    # the channel's webhook is gone (forgotten by ``_write``): the same write goes
                    # the next way, a new webhook or the bot's own message
                    render = _drawn(showing)
                    _log.info("posting table %d again without its channel's webhook (%s)",
                              showing.table_id, exc.status)
                finally:
                    grant.release()
                    grant = None
            state.picture = render.image
            # read after the post: a webhook found gone meanwhile deletes nothing
            old_hook = state.editor(self._clock.now())
            if replaces is not None and replaces != sent:
                foreign = state.message_webhook is not None
                if old_hook is None and not state.only_hooks:
                    # only the bot's token can delete it: the sweep does, in the background, and
                    # until then the record says it may still stand
                    state.stale[replaces] = foreign
                    if state.strays_from is None or replaces < state.strays_from:
                        state.strays_from = replaces
                else:
                    await self._delete(showing.channel_id, replaces, old_hook, foreign=foreign,
                                       only_hooks=state.only_hooks, place_id=state.place_id)
            state.message_id = sent
            state.message_hook = hook
            state.message_webhook = None if hook is None or hook.channel is None else hook.key
            state.orphaned = False
            state.pinged = pinged
            state.shown = max(state.shown, showing.version)
            run = None if self._run is None or state.table_id in self._held else self._run
            token = _token_of(hook)
            await self._hooks.message_moved(showing.table_id, showing.channel_id, sent, pinged,
                                            showing.version, webhook=state.message_webhook,
                                            strays_from=state.strays_from, token=token, run=run)
            state.token_stored_at = None if token is None else token[1]
            if run is not None:
                self._held.add(state.table_id)
            state.strays_recorded = state.strays_from is not None
            return sent

    @staticmethod
    def _answered(state: _Table, hook: Hook, *, usable: bool = True) -> Hook:
        """Put the answered ``hook`` where the answering one stood (or nothing, where its
        interaction can no longer write: ``usable`` false), so that no interaction object
        outlives its answer in the publisher."""
        answered = hook.answered()
        instead = answered if usable else None
        if state.hook is hook:
            state.hook = instead
        if state.latest is not None and state.latest.hook is hook:
            # a ping or a fall asleep publishes the latest version again: never this hook
            state.latest = replace(state.latest, hook=instead)
        return answered

    async def _claim(self, state: _Table) -> None:
        """Claim the table's posts for this run before its first post here, unless the
        post's own record will (a table without a message: no look could find its post)."""
        if (self._run is not None and state.message_id is not None
                and state.table_id not in self._held):
            await self._hooks.hold_posts(state.table_id, self._run)
            self._held.add(state.table_id)

    @contextlib.contextmanager
    def _recording(self, table_id: int) -> Iterator[None]:
        """A post of the table and its record: until the record lands the post may stand
        unrecorded, and where it fails but for Discord's refusal, it may for good."""
        self._posting.add(table_id)
        try:
            yield
        except discord.HTTPException as exc:
            if exc.status >= 500:
                self._doubtful.add(table_id)
            raise
        except _NoToken:
            raise  # nothing was sent
        except BaseException:
            # a timeout, a cancelled task, a record that failed: the post may have gone out
            self._doubtful.add(table_id)
            raise
        finally:
            self._posting.discard(table_id)

    async def _write(self, state: _Table, message_id: int | None, hook: Hook | None,
                     **fields: Any) -> int:
        """Post a message (``message_id`` ``None``) or edit one, as the bot or through
        ``hook``; returns its id. Straight through discord.py's HTTP client and webhook
        adapter: the message Discord sends back is not needed, and building a
        ``discord.Message`` of it cost more than the rest of the write (issue 16). The
        components are routed by their custom ids (``bot.discord.routing``), so no view needs
        storing."""
        channel_id = state.channel_id
        if state.only_hooks and (hook is None or hook.channel is not None):
            raise _NoToken
        if hook is not None and hook.answers is not None and message_id is None:
            return await self._answer(hook.answers, fields)
        with handle_message_parameters(
                previous_allowed_mentions=self._client.allowed_mentions, **fields) as params:
            if hook is not None:
                webhook = hook.webhook
                assert webhook.token is not None
                adapter = async_context.get()
                try:
                    if message_id is None:
                        data = await adapter.execute_webhook(
                            webhook.id, webhook.token, session=one_body(webhook.session),
                            proxy=webhook.proxy, proxy_auth=webhook.proxy_auth,
                            payload=params.payload, multipart=params.multipart,
                            files=params.files, wait=True, thread_id=hook.thread_id,
                            with_components=fields.get("view") is not None)
                    else:
                        data = await adapter.edit_webhook_message(
                            webhook.id, webhook.token, message_id,
                            session=one_body(webhook.session),
                            proxy=webhook.proxy, proxy_auth=webhook.proxy_auth,
                            payload=params.payload, multipart=params.multipart,
                            files=params.files, thread_id=hook.thread_id,
                            with_components=fields.get("view") is not None)
                except discord.HTTPException as exc:
                    if exc.status == 401 or (hook.channel is not None and _webhook_gone(exc)):
                        # the token is no good any more (the interaction's ran out, or a member
                        # deleted the channel's webhook): the next way takes over
                        await self._spent(state, hook)
                    raise
                assert data is not None
                if message_id is None and hook.channel is None:
                    self._followups.spend(webhook.token)
            elif message_id is None:
                with paced():
                    data = await self._client.http.send_message(channel_id, params=params)
            else:
                with paced():
                    data = await self._client.http.edit_message(channel_id, message_id,
                                                                 params=params)
        return int(data["id"])

    async def _answer(self, interaction: discord.Interaction, fields: dict[str, Any]) -> int:
        """Post the table as ``interaction``'s own answer, a public message (callback
        CHANNEL_MESSAGE_WITH_SOURCE), and return its id, which Discord sends back with the
        callback's response (``with_response``). Straight through discord.py's webhook adapter,
        as ``_write``: ``InteractionResponse.send_message`` would build a ``Message`` of it."""
        params = interaction_message_response_params(
            type=discord.InteractionResponseType.channel_message.value,
            previous_allowed_mentions=self._client.allowed_mentions, **fields)
        webhook = interaction.followup  # the interaction's session, as discord.py's answer uses
        data = await async_context.get().create_interaction_response(
            interaction.id, interaction.token, session=one_body(webhook.session),
            proxy=webhook.proxy, proxy_auth=webhook.proxy_auth, params=params)
        # what discord.py's own answer records, so that nothing answers it twice
        interaction.response._response_type = discord.InteractionResponseType.channel_message
        return int(data["resource"]["message"]["id"])

    async def _spent(self, state: _Table, hook: Hook) -> None:
        if state.hook is hook:
            state.hook = None
        if state.message_hook is hook:
            state.message_hook = None
        if hook.channel is not None:
            if state.channel_hook is hook:
                state.channel_hook = None
            if self._webhooks is not None:
                await self._webhooks.forget(hook.channel)

    async def _delete(self, channel_id: int, message_id: int, hook: Hook | None = None, *,
                      foreign: bool = False, only_hooks: bool = False,
                      background: bool = False, place_id: int | None = None) -> None:
        """Delete a table message: through the webhook that posted it while that is fresh,
        else as the bot. Urgent, unless a ``background`` sweep's: until it is gone the
        channel shows two tables. A ``foreign`` message (a channel webhook's, which is gone)
        the bot deletes only with Manage Messages; without, it stays, its buttons answering
        that the table moved on."""
        urgent = not background
        if hook is not None and hook.fresh(self._clock.now()):
            grant = await self._pacer.acquire(hook.key, hook.kind, urgent=urgent,
                                              background=background)
            webhook = hook.webhook
            assert webhook.token is not None
            if not hook.fresh(self._clock.now()):
                # the grant waited past the token's last minute: the bot deletes it instead
                grant.cancel()
            else:
                try:
                    await async_context.get().delete_webhook_message(
                        webhook.id, webhook.token, message_id, session=webhook.session,
                        proxy=webhook.proxy, proxy_auth=webhook.proxy_auth,
                        thread_id=hook.thread_id)
                    return
                except discord.HTTPException as exc:
                    _still_down(exc, background)
                finally:
                    grant.release()
            # the webhook could not: the bot deletes its message itself
        if only_hooks:
            # the bot may not: the old table stays, its buttons saying the table moved on
            return
        if foreign and (hook is None or hook.channel is not None) and not self._may_delete(
                channel_id, place_id):
            return
        grant = await self._pacer.acquire(channel_id, Kind.DELETE, urgent=urgent,
                                          background=background)
        try:
            with paced():
                await self._partial(channel_id, message_id).delete()
        except discord.HTTPException as exc:
            _still_down(exc, background)
        finally:
            grant.release()

    def _may_delete(self, channel_id: int, place_id: int | None) -> bool:
        """Whether the bot may delete others' messages in the channel (Manage Messages), as its
        cache says."""
        channel = server_channel(self._client, place_id, channel_id)
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            return False
        me = channel.guild.me
        return me is not None and channel.permissions_for(me).manage_messages

    @property
    def pacer(self) -> RequestPacer:
        return self._pacer

    def _partial(self, channel_id: int, message_id: int) -> discord.PartialMessage:
        return self._client.get_partial_messageable(channel_id).get_partial_message(message_id)


class _NoToken(Exception):
    """A table written only through interactions has no interaction's token to write it."""


def _drawn(showing: Showing) -> TableRender:
    """Draw ``showing``, saying the table waits for a click if this is its last write."""
    render = showing.draw()
    if not showing.asleep:
        return render
    return replace(render, content=asleep(render.content, showing.asleep_note))


def _layout(render: TableRender) -> dict[str, Any]:
    """A write's fields for ``render`` as a Components V2 layout. ``content`` and ``embeds``
    go out empty: the flag allows nothing else, and an edit that empties them is how Discord
    lets a table posted in the old layout before an upgrade become a layout ("Edit Message":
    IS_COMPONENTS_V2 can be set), the same message with the same buttons."""
    layout = table_layout(render.embed, render.view, render.content, render.image,
                          render.seats)
    return {"content": None, "embed": None, "view": layout}


def _by_hook(grant: Grant) -> bool:
    """Whether ``grant`` is for a webhook's request (an interaction's or the channel's)."""
    return grant.kind in (Kind.HOOK, Kind.WEBHOOK)


def _still_down(exc: discord.HTTPException, background: bool) -> None:
    """Raise ``exc`` again if a ``background`` sweep's delete failed because Discord is down
    (5xx): the message still stands, and the sweep tries again with a backoff. Any other
    failure is let go: the message is gone already, or may not be deleted; and a write's own
    delete is not tried again (its table is up)."""
    if background and exc.status >= 500:
        raise exc


def _webhook_gone(exc: discord.HTTPException) -> bool:
    """Discord's 404 10015 Unknown Webhook: a member deleted the channel's webhook."""
    return exc.status == 404 and exc.code == 10015


def _custom_ids(components: Iterable[Any]) -> Iterator[str]:
    """The custom ids of the components, those nested in a layout's containers, sections and
    rows included (a table is a Components V2 layout: its buttons are not top-level rows)."""
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            yield custom_id
        yield from _custom_ids(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from _custom_ids((accessory,))


def _new_run() -> int:
    """A process run's id: random, so that runs of processes beside each other never share
    one; never 0, the run that claimed every table before the record of runs began."""
    return secrets.randbits(62) + 1


def _token_of(hook: Hook | None) -> tuple[str, float] | None:
    """The interaction token of ``hook`` and when it was issued, to store with the message it
    posted (``None``: not an interaction's)."""
    if hook is None or hook.channel is not None or hook.webhook.token is None:
        return None
    return hook.webhook.token, hook.made_at


def _backoff(failures: int) -> float:
    return min(RETRY_FIRST * 2 ** (failures - 1), RETRY_MAX)


def _new_turn(state: _Table, showing: Showing, passed: bool) -> bool:
    """Whether ``showing`` begins a turn of a person who wants pings that the table message
    has not pinged (``passed``: the turn changed hands in versions folded into this write)."""
    return showing.ping is not None and (passed or state.pinged != showing.ping)


def _pings(state: _Table, showing: Showing, passed: bool) -> bool:
    """Whether showing ``showing`` pings its person: a new turn of theirs, not announced on
    their panel instead (``Showing.quiet``)."""
    return not showing.quiet and _new_turn(state, showing, passed)


def _urgent(state: _Table, showing: Showing | None) -> bool:
    """Whether the write that shows ``showing`` is one a person waits for: a new turn of theirs
    (posted anew to ping them, or announced on their panel), or the table's first post."""
    if showing is None:
        return False
    return state.message_id is None or _new_turn(state, showing, state.turn_passed)
