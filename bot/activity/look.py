"""Reading a channel's table for the Activity: the table as it stands and its latest moves, read
together, so that a scene drawn from them shows one version.

A table that ended is no longer the channel's live table: it is read by id (the last table a
stream of the channel saw), as it ended, so the Activity can show how the game went and offer
Play again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.discord.controller import RECENT_LINES
from bot.storage import MoveRecord
from bot.table import TableService
from bot.table.service import TableSnapshot

TRIES = 3
"""Reads of a table that keeps moving while its moves are read, before the last one is taken
as it is (its latest lines may then lag one move, until the next change)."""


@dataclass(frozen=True, slots=True)
class Seen:
    """A channel's table (``None``: none) and the tail of its move log."""

    channel_id: int
    snapshot: TableSnapshot | None
    records: tuple[MoveRecord, ...] = field(default=(), repr=False)

    @property
    def version(self) -> int:
        return 0 if self.snapshot is None else self.snapshot.version


async def _records(service: TableService, snapshot: TableSnapshot) -> tuple[MoveRecord, ...]:
    if snapshot.engine is None:
        return ()
    after = max(-1, snapshot.counter - RECENT_LINES * 2)
    return tuple(await service.moves(snapshot.table_id, after=after))


async def look(service: TableService, channel_id: int, *, table_id: int | None = None,
               counter: int | None = None) -> Seen:
    """The channel's table now. ``counter``: a move another process announced (this
    process's copy is read again unless it is there); ``table_id``: the table last seen here,
    read as it ended when the channel has no live table any more."""
    snapshot = await service.get(channel_id, counter=counter)
    records: tuple[MoveRecord, ...] = ()
    for _ in range(TRIES):
        if snapshot is None:
            break
        records = await _records(service, snapshot)
        again = await service.get(channel_id)
        if again is not None and again.version == snapshot.version:
            return Seen(channel_id, again, records)
        snapshot = again
    if snapshot is not None:
        # still moving: the table as just read, with the lines read a move or so before (none
        # when those were another table's). Not read after another await: a snapshot shares
        # the table's engine, which moves on meanwhile, and a scene would show a later turn
        # under this version's number
        same = bool(records) and records[-1].table_id == snapshot.table_id
        return Seen(channel_id, snapshot, records if same else ())
    if table_id is not None:
        record = await service.store.table(table_id)
        if record is not None and not record.is_live and record.channel_id == channel_id:
            ended = await service.closed(record)
            return Seen(channel_id, ended, await _records(service, ended))
    return Seen(channel_id, None)
