"""The open streams of every channel, and the news that wakes them: each change of a channel's
table, made in this process or in another.

In this process the news comes straight from the controllers (every table they show:
``KortbordBot.table_changed``). Other processes of the bot (shards on one PostgreSQL database)
send theirs with PostgreSQL's ``NOTIFY`` on one channel, which every process ``LISTEN``s to
through the store: the database already links the processes, so the news needs no broker of
its own, and a notification is delivered only once its sender's transaction is over, so a
process that hears it reads the change. On SQLite the bot is one process, and nothing is sent.

A channel with streams has one reader: after a change it reads the table once (``look``) and
draws each stream's scene from that read, without awaiting in between; changes that come while
it reads are folded into its next read.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.activity.look import look
from bot.activity.scene import SceneMaker
from bot.activity.sessions import Session
from bot.storage import Store
from bot.table import TableService
from bot.table.service import TableSnapshot

_log = logging.getLogger("kortbord.activity")

NEWS = "kortbord_tables"
"""The PostgreSQL notification channel every process announces its table changes on."""


class Stream:
    """One page's stream: the latest scene drawn for it, waiting to be sent."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.scene: dict[str, Any] | None = None
        self.ready = asyncio.Event()

    def put(self, scene: dict[str, Any]) -> None:
        self.scene = scene
        self.ready.set()

    def take(self) -> dict[str, Any] | None:
        scene, self.scene = self.scene, None
        self.ready.clear()
        return scene


@dataclass(eq=False)
class _Room:
    """A channel's streams, the table they last saw, and the move another process announced
    (this process's copy of the table is read again unless it is there)."""

    channel_id: int
    streams: set[Stream] = field(default_factory=set)
    table_id: int | None = None
    counter: int | None = None
    news: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


class Hub:
    def __init__(self, service: TableService, scenes: SceneMaker, store: Store) -> None:
        self._service = service
        self._scenes = scenes
        self._store = store
        self._rooms: dict[int, _Room] = {}
        self._origin = secrets.token_hex(8)
        """This process among those announcing (it does not act on its own news twice)."""
        self._sending: set[asyncio.Task[None]] = set()
        self._stop_listening: Callable[[], Awaitable[None]] | None = None

    async def start(self) -> None:
        self._stop_listening = await self._store.listen(NEWS, self._heard)

    def end_streams(self) -> None:
        """Wake every stream, so that each sees the server closing at once."""
        for room in self._rooms.values():
            for stream in room.streams:
                stream.ready.set()

    async def close(self) -> None:
        if self._stop_listening is not None:
            await self._stop_listening()
        for room in list(self._rooms.values()):
            if room.task is not None:
                room.task.cancel()
        self._rooms.clear()
        if self._sending:
            await asyncio.wait(self._sending, timeout=2)

    def subscribe(self, session: Session) -> Stream:
        room = self._rooms.get(session.channel_id)
        if room is None:
            room = self._rooms[session.channel_id] = _Room(session.channel_id)
            room.task = asyncio.create_task(self._serve(room),
                                            name=f"kortbord-activity-{session.channel_id}")
        stream = Stream(session)
        room.streams.add(stream)
        return stream

    def streams_of(self, user_id: int) -> int:
        """How many streams ``user_id`` has open in this process."""
        return sum(stream.session.user_id == user_id
                   for room in self._rooms.values() for stream in room.streams)

    def unsubscribe(self, stream: Stream) -> None:
        room = self._rooms.get(stream.session.channel_id)
        if room is None:
            return
        room.streams.discard(stream)
        if not room.streams:
            del self._rooms[room.channel_id]
            if room.task is not None:
                room.task.cancel()

    def table_changed(self, snapshot: TableSnapshot) -> None:
        """A table this process changed and showed: its channel's streams, here and in the
        other processes, get the new scene."""
        self._wake(snapshot.channel_id, snapshot.table_id, None)
        news = f"{self._origin}:{snapshot.channel_id}:{snapshot.table_id}:{snapshot.counter}"
        task = asyncio.create_task(self._announce(news))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _announce(self, news: str) -> None:
        try:
            await self._store.announce(NEWS, news)
        except Exception:
            # the other processes' streams catch up at the table's next change
            _log.warning("could not announce a table change to the other processes",
                         exc_info=True)

    def _heard(self, news: str) -> None:
        try:
            origin, channel, table, counter = news.split(":")
            channel_id, table_id, moved = int(channel), int(table), int(counter)
        except ValueError:
            _log.warning("unreadable table news: %r", news[:100])
            return
        if origin != self._origin:
            self._wake(channel_id, table_id, moved)

    def _wake(self, channel_id: int, table_id: int, counter: int | None) -> None:
        room = self._rooms.get(channel_id)
        if room is None:
            return
        room.table_id = table_id
        if counter is not None:
            room.counter = counter
        room.news.set()

    async def _serve(self, room: _Room) -> None:
        while True:
            await room.news.wait()
            room.news.clear()
            counter, room.counter = room.counter, None
            try:
                seen = await look(self._service, room.channel_id, table_id=room.table_id,
                                  counter=counter)
                if seen.snapshot is not None:
                    room.table_id = seen.snapshot.table_id
                # each scene reads the table's engine: all of them before the next await
                for stream in list(room.streams):
                    stream.put(self._scenes.scene(seen, stream.session).data)
            except Exception:
                _log.exception("could not draw the Activity's scenes of channel %d",
                               room.channel_id)
