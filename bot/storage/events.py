"""The store's queries for events (tournaments across tables): the event, its entrants and each
round's tables. Written once for both backends, as ``store.py`` is; ``Store.events`` is the way
in.

Every step of an event that several processes (or a process and its restart) could take twice
is decided by the database: registration only while the event registers, the start only from
registering, a round's next seating only from that round, a table's thread, table and result
only where none is set yet. The caller learns from the answer whether it was its step.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from bot.storage.database import Database, Row, Tx
from bot.storage.jsontext import dumps
from bot.storage.models import EventEntrant, EventRecord, EventTable, Shards
from bot.storage.part import shard_filter

T = TypeVar("T")
Transaction = Callable[[Callable[[Tx], Awaitable[T]]], Awaitable[T]]

_EVENT_COLUMNS = ("id, guild_id, channel_id, kind, status, host_id, settings, round, announced, "
                  "message_id, locale, created_at, updated_at, seated")
_TABLE_COLUMNS = "event_id, round, table_no, players, thread_id, table_id, result"


def _event(row: Row) -> EventRecord:
    return EventRecord(
        id=row[0], guild_id=row[1], channel_id=row[2], kind=row[3], status=row[4],
        host_id=row[5], settings=json.loads(row[6]), round=row[7], announced=row[8],
        message_id=row[9], locale=row[10], created_at=row[11], updated_at=row[12],
        seated=row[13],
    )


def _table(row: Row) -> EventTable:
    return EventTable(
        event_id=row[0], round=row[1], table_no=row[2], players=tuple(json.loads(row[3])),
        thread_id=row[4], table_id=row[5], result=None if row[6] is None else json.loads(row[6]),
    )


class EventStore:
    def __init__(self, db: Database, transaction: Transaction[Any]) -> None:
        self._db = db
        self._transaction = transaction

    async def create(self, *, guild_id: int, channel_id: int, kind: str, host_id: int,
                     settings: dict[str, Any], locale: str | None, now: float,
                     computers: Sequence[tuple[int, str]] = ()) -> EventRecord:
        """A new event, registering, with ``computers`` (id, name) already registered."""

        async def body(db: Tx) -> EventRecord:
            rows = await db.fetch(
                "INSERT INTO events (guild_id, channel_id, kind, status, host_id, settings, "
                "locale, created_at, updated_at) VALUES (?, ?, ?, 'registering', ?, ?, ?, ?, ?) "
                f"RETURNING {_EVENT_COLUMNS}",
                (guild_id, channel_id, kind, host_id, dumps(settings), locale, now, now),
            )
            event = _event(rows[0])
            if not computers:
                return event
            await db.executemany(
                "INSERT INTO event_players (event_id, player_id, name, is_computer, seq) "
                "VALUES (?, ?, ?, 1, ?)",
                [(event.id, pid, name, seq) for seq, (pid, name) in enumerate(computers, 1)],
            )
            return event

        return await self._transaction(body)

    async def event(self, event_id: int) -> EventRecord | None:
        rows = await self._db.fetch(f"SELECT {_EVENT_COLUMNS} FROM events WHERE id = ?",
                                    (event_id,))
        return _event(rows[0]) if rows else None

    async def set_message(self, event_id: int, message_id: int, now: float) -> None:
        async def body(db: Tx) -> None:
            await db.execute("UPDATE events SET message_id = ?, updated_at = ? WHERE id = ?",
                             (message_id, now, event_id))

        await self._transaction(body)

    async def register(self, event_id: int, player_id: int, name: str, *,
                       is_computer: bool = False) -> bool | None:
        """``True``: registered now; ``False``: already registered; ``None``: the event no
        longer registers anyone."""

        async def body(db: Tx) -> bool | None:
            rows = await db.fetch("SELECT status FROM events WHERE id = ?", (event_id,))
            if not rows or rows[0][0] != "registering":
                return None
            return bool(await db.execute(
                "INSERT INTO event_players (event_id, player_id, name, is_computer, seq) "
                "SELECT ?, ?, ?, ?, coalesce(max(seq), 0) + 1 FROM event_players "
                "WHERE event_id = ? ON CONFLICT DO NOTHING",
                (event_id, player_id, name, int(is_computer), event_id),
            ))

        return await self._transaction(body)

    async def unregister(self, event_id: int, player_id: int) -> bool | None:
        """``True``: no longer registered; ``False``: was not; ``None``: the event has begun
        (or closed), so the entry stands."""

        async def body(db: Tx) -> bool | None:
            rows = await db.fetch("SELECT status FROM events WHERE id = ?", (event_id,))
            if not rows or rows[0][0] != "registering":
                return None
            return bool(await db.execute(
                "DELETE FROM event_players WHERE event_id = ? AND player_id = ?",
                (event_id, player_id),
            ))

        return await self._transaction(body)

    async def entrants(self, event_id: int) -> list[EventEntrant]:
        rows = await self._db.fetch(
            "SELECT event_id, player_id, name, is_computer, seq FROM event_players "
            "WHERE event_id = ? ORDER BY seq", (event_id,),
        )
        return [EventEntrant(event_id=r[0], player_id=r[1], name=r[2],
                             is_computer=bool(r[3]), seq=r[4]) for r in rows]

    async def begin(self, event_id: int, seating: Sequence[Sequence[int]], now: float) -> bool:
        """Registering → running, with round 1 seated; ``False`` if it was not registering."""

        async def body(db: Tx) -> bool:
            if not await db.execute(
                "UPDATE events SET status = 'running', round = 1, updated_at = ? "
                "WHERE id = ? AND status = 'registering'", (now, event_id),
            ):
                return False
            await self._seat(db, event_id, 1, seating)
            return True

        return await self._transaction(body)

    @staticmethod
    async def _seat(db: Tx, event_id: int, round_no: int,
                    seating: Sequence[Sequence[int]]) -> None:
        await db.executemany(
            "INSERT INTO event_tables (event_id, round, table_no, players) VALUES (?, ?, ?, ?)",
            [(event_id, round_no, no, dumps(list(players)))
             for no, players in enumerate(seating, 1)],
        )

    async def tables(self, event_id: int, round_no: int | None = None) -> list[EventTable]:
        """The event's tables, of one round or of all, in round and table order."""
        rows = await self._db.fetch(
            f"SELECT {_TABLE_COLUMNS} FROM event_tables WHERE event_id = ? "
            "AND round = coalesce(?, round) ORDER BY round, table_no", (event_id, round_no),
        )
        return [_table(r) for r in rows]

    async def table_of(self, table_id: int) -> EventTable | None:
        """The event table a table was opened for, if any."""
        rows = await self._db.fetch(
            f"SELECT {_TABLE_COLUMNS} FROM event_tables WHERE table_id = ?", (table_id,))
        return _table(rows[0]) if rows else None

    async def _set_once(self, column: str, value: Any, event_id: int, round_no: int,
                        table_no: int) -> bool:
        async def body(db: Tx) -> bool:
            return bool(await db.execute(
                f"UPDATE event_tables SET {column} = ? WHERE event_id = ? AND round = ? "
                f"AND table_no = ? AND {column} IS NULL", (value, event_id, round_no, table_no),
            ))

        return await self._transaction(body)

    async def set_thread(self, event_id: int, round_no: int, table_no: int,
                         thread_id: int) -> bool:
        """Record the thread a table is played in; ``False`` if one was recorded first."""
        return await self._set_once("thread_id", thread_id, event_id, round_no, table_no)

    async def set_table(self, event_id: int, round_no: int, table_no: int,
                        table_id: int) -> bool:
        return await self._set_once("table_id", table_id, event_id, round_no, table_no)

    async def set_result(self, event_id: int, round_no: int, table_no: int,
                         result: list[dict[str, Any]]) -> bool:
        return await self._set_once("result", dumps(result), event_id, round_no, table_no)

    async def next_round(self, event_id: int, round_no: int,
                         seating: Sequence[Sequence[int]] | None, now: float) -> bool:
        """Round ``round_no`` is over: seat the next (``seating``) or, with ``None``, finish the
        event. ``False`` if the event was not at that round (another process moved it on)."""

        async def body(db: Tx) -> bool:
            if seating is None:
                return bool(await db.execute(
                    "UPDATE events SET status = 'finished', updated_at = ? "
                    "WHERE id = ? AND status = 'running' AND round = ?",
                    (now, event_id, round_no),
                ))
            if not await db.execute(
                "UPDATE events SET round = round + 1, updated_at = ? "
                "WHERE id = ? AND status = 'running' AND round = ?", (now, event_id, round_no),
            ):
                return False
            await self._seat(db, event_id, round_no + 1, seating)
            return True

        return await self._transaction(body)

    async def announced(self, event_id: int, round_no: int) -> bool:
        """Note that round ``round_no``'s standings were posted; ``False`` if they had been."""
        return await self._posted("announced", event_id, round_no)

    async def seated(self, event_id: int, round_no: int) -> bool:
        """Note that round ``round_no``'s seating was posted; ``False`` if it had been."""
        return await self._posted("seated", event_id, round_no)

    async def _posted(self, column: str, event_id: int, round_no: int) -> bool:
        """Move ``column`` (the last round whose post of a kind went out) up to ``round_no``;
        ``False`` if it was there already."""

        async def body(db: Tx) -> bool:
            return bool(await db.execute(
                f"UPDATE events SET {column} = ? WHERE id = ? AND {column} < ?",
                (round_no, event_id, round_no),
            ))

        return await self._transaction(body)

    async def cancel(self, event_id: int, now: float) -> bool:
        """Close an event that has not finished; ``False`` if it had already closed."""

        async def body(db: Tx) -> bool:
            return bool(await db.execute(
                "UPDATE events SET status = 'cancelled', updated_at = ? "
                "WHERE id = ? AND status IN ('registering', 'running')", (now, event_id),
            ))

        return await self._transaction(body)

    async def resuming(self, *, shards: Shards | None = None) -> list[EventRecord]:
        """The events a start-up moves on, of the servers ``shards`` owns: the running ones, and
        the finished ones whose final standings were not noted as posted (``announced`` short
        of their last round: the process was killed between the finish and that post)."""
        owned, params = shard_filter(shards)
        rows = await self._db.fetch(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE (status = 'running' OR "
            f"(status = 'finished' AND announced < round)){owned} ORDER BY id",
            params,
        )
        return [_event(r) for r in rows]

    async def of_guild(self, guild_id: int, kind: str, *, limit: int = 5,
                       closed: bool = False) -> list[EventRecord]:
        """A server's events of one game, newest first; ``closed``: only finished and
        cancelled ones."""
        rows = await self._db.fetch(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE guild_id = ? AND kind = ? "
            + ("AND status IN ('finished', 'cancelled') " if closed else "")
            + "ORDER BY id DESC LIMIT ?", (guild_id, kind, limit),
        )
        return [_event(r) for r in rows]
