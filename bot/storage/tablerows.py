"""The ``tables`` row as the store reads it, and the lookups the table parts share
(``tables.py`` writes tables, ``tablereads.py`` reads them)."""

from __future__ import annotations

import json
from collections.abc import Iterable

from bot.storage.database import Reads, Row
from bot.storage.jsontext import dumps
from bot.storage.models import SeatClaim, SeatInfo, TableRecord

TABLE_COLUMNS = (
    "id, guild_id, channel_id, kind, status, host_id, options, seats, message_id, seed, counter, "
    "created_at, updated_at, lobby_expires_at, turn_seconds, turn_deadline, deadline_counter, "
    "version, shown_version, pinged, locale, closed_note, to_move, deals, rated, message_webhook, "
    "strays_from, message_token, message_token_at"
)
LIVE = "status IN ('lobby', 'playing')"
"""The condition of a live table: a lobby or a game in progress."""


def seats_json(seats: Iterable[SeatInfo]) -> str:
    return dumps([s.model_dump() for s in seats])


def table_record(row: Row) -> TableRecord:
    return TableRecord(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        kind=row[3],
        status=row[4],
        host_id=row[5],
        options=json.loads(row[6]),
        seats=tuple(SeatInfo(**s) for s in json.loads(row[7])),
        message_id=row[8],
        seed=row[9],
        counter=row[10],
        created_at=row[11],
        updated_at=row[12],
        lobby_expires_at=row[13],
        turn_seconds=row[14],
        turn_deadline=row[15],
        deadline_counter=row[16],
        version=row[17],
        shown_version=row[18],
        pinged=row[19],
        locale=row[20],
        closed_note=None if row[21] is None else json.loads(row[21]),
        to_move=row[22],
        deals=None if row[23] is None else json.loads(row[23]),
        rated=bool(row[24]),
        message_webhook=row[25],
        strays_from=row[26],
        message_token=row[27],
        message_token_at=row[28],
    )


async def guild_of(db: Reads, table_id: int) -> int:
    rows = list(
        await db.fetch("SELECT guild_id FROM tables WHERE id = ?", (table_id,))
    )
    return int(rows[0][0])


async def fetch_table(db: Reads, table_id: int) -> TableRecord:
    rows = list(await db.fetch(
        f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
    ))
    return table_record(rows[0])


async def live_in_channel(db: Reads, channel_id: int) -> TableRecord | None:
    rows = list(await db.fetch(
        f"SELECT {TABLE_COLUMNS} FROM tables WHERE channel_id = ? AND {LIVE}",
        (channel_id,),
    ))
    return table_record(rows[0]) if rows else None


async def seat_claim(db: Reads, guild_id: int, player_id: int) -> SeatClaim | None:
    rows = list(await db.fetch(
        "SELECT c.guild_id, c.player_id, c.table_id, t.channel_id "
        "FROM seat_claims c JOIN tables t ON t.id = c.table_id "
        "WHERE c.guild_id = ? AND c.player_id = ?",
        (guild_id, player_id),
    ))
    if not rows:
        return None
    g, p, t, ch = rows[0]
    return SeatClaim(guild_id=g, player_id=p, table_id=t, channel_id=ch)
