"""Tables and their moves, read: a channel's live table, a server's tables, what the timers and
the computer players wait for (only the servers a shard owns), and the move log."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.storage.models import (
    DueDeadline,
    LoadedTable,
    MoveRecord,
    SeatClaim,
    Shards,
    TableRecord,
    TableStatus,
)
from bot.storage.part import StorePart, shard_filter
from bot.storage.tablerows import LIVE, TABLE_COLUMNS, seat_claim, table_record


class TableReads(StorePart):
    """Every read of tables and moves outside a write."""

    async def live_table(self, channel_id: int) -> LoadedTable | None:
        """The channel's lobby or game, with its engine state (JSON text, ``None`` in a lobby)."""
        rows = list(await self._db.fetch(
            f"SELECT {TABLE_COLUMNS}, state FROM tables WHERE channel_id = ? AND {LIVE}",
            (channel_id,),
        ))
        if not rows:
            return None
        return LoadedTable(record=table_record(rows[0]), state=rows[0][-1])

    async def table(self, table_id: int) -> TableRecord | None:
        rows = list(await self._db.fetch(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
        ))
        return table_record(rows[0]) if rows else None

    async def table_state(self, table_id: int) -> str | None:
        rows = list(await self._db.fetch(
            "SELECT state FROM tables WHERE id = ?", (table_id,)
        ))
        return rows[0][0] if rows else None

    async def unfinished_tables(self, *, shards: Shards | None = None) -> list[TableRecord]:
        """Every lobby and game in progress (of the servers ``shards`` owns), without engine
        state (engines load lazily on first use)."""
        owned, params = shard_filter(shards)
        rows = await self._db.fetch(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE {LIVE}{owned} ORDER BY id", params
        )
        return [table_record(r) for r in rows]

    async def live_table_counts(self, *, shards: Shards | None = None
                                ) -> list[tuple[str, str, int]]:
        """(game kind, status, how many) of the lobbies and games in progress of the servers
        ``shards`` owns (for the metrics)."""
        owned, params = shard_filter(shards)
        rows = await self._db.fetch(
            f"SELECT kind, status, COUNT(*) FROM tables WHERE {LIVE}{owned} "
            "GROUP BY kind, status", params
        )
        return [(str(r[0]), str(r[1]), int(r[2])) for r in rows]

    async def tables_of_guild(
        self, guild_id: int, *, statuses: Sequence[TableStatus] | None = None
    ) -> list[TableRecord]:
        """A server's tables, newest first (optionally only those in ``statuses``)."""
        sql = f"SELECT {TABLE_COLUMNS} FROM tables WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if statuses:
            sql += f" AND status IN ({', '.join('?' for _ in statuses)})"
            params += list(statuses)
        rows = await self._db.fetch(sql + " ORDER BY id DESC", params)
        return [table_record(r) for r in rows]

    async def tables_behind(self, limit: int, *, shards: Shards | None = None
                            ) -> list[TableRecord]:
        """Tables, finished ones included, whose message shows an older version than the table
        holds (a crash or an outage came between a change and its edit), or whose stale
        messages may still stand (``strays_from``), most recent first;
        only those of the servers ``shards`` owns."""
        owned, params = shard_filter(shards)
        rows = await self._db.fetch(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE message_id IS NOT NULL "
            f"AND (shown_version {self._db.is_not} version OR strays_from IS NOT NULL)"
            f"{owned} "
            "ORDER BY updated_at DESC LIMIT ?",
            [*params, limit],
        )
        return [table_record(r) for r in rows]

    async def computer_turns(self, *, shards: Shards | None = None) -> list[TableRecord]:
        """Games in play where a computer player is to move (negative ids), oldest first; only
        those of the servers ``shards`` owns."""
        owned, params = shard_filter(shards)
        rows = await self._db.fetch(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE status = 'playing' AND to_move < 0"
            f"{owned} ORDER BY id", params,
        )
        return [table_record(r) for r in rows]

    async def finished_tables(
        self, guild_id: int, kind: str, *, before_id: int | None = None, limit: int = 10
    ) -> list[TableRecord]:
        """A server's finished and stopped tables of one game, newest first; ``before_id``
        pages back through older ones."""
        rows = await self._db.fetch(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE guild_id = ? AND kind = ? "
            "AND status IN ('finished', 'cancelled') AND id < ? ORDER BY id DESC LIMIT ?",
            (guild_id, kind, (1 << 62) if before_id is None else before_id, limit),
        )
        return [table_record(r) for r in rows]

    async def claim_of(self, guild_id: int, player_id: int) -> SeatClaim | None:
        """The live table where the player sits in this server, if any."""
        return await seat_claim(self._db, guild_id, player_id)

    async def due_deadlines(self, now: float, *, shards: Shards | None = None
                            ) -> list[DueDeadline]:
        """Turn deadlines and lobby expiries at or before ``now``, earliest first; only those
        of the servers ``shards`` owns."""
        owned, params = shard_filter(shards)
        rows = await self._db.fetch(
            "SELECT id, guild_id, channel_id, 'turn', turn_deadline, deadline_counter "
            "FROM tables WHERE turn_deadline IS NOT NULL AND turn_deadline <= ? "
            f"AND status = 'playing'{owned} "
            "UNION ALL "
            "SELECT id, guild_id, channel_id, 'lobby', lobby_expires_at, NULL FROM tables "
            "WHERE status = 'lobby' AND lobby_expires_at IS NOT NULL AND lobby_expires_at <= ?"
            f"{owned} ORDER BY 5, 1",
            [now, *params, now, *params],
        )
        return [
            DueDeadline(table_id=r[0], guild_id=r[1], channel_id=r[2], what=r[3], at=r[4],
                        counter=r[5])
            for r in rows
        ]

    async def next_deadline(self, *, shards: Shards | None = None) -> float | None:
        """The earliest pending turn deadline or lobby expiry (for a scheduler to sleep until)
        of the servers ``shards`` owns."""
        owned, params = shard_filter(shards)
        rows = list(await self._db.fetch(
            "SELECT min(at) FROM ("
            "SELECT min(turn_deadline) AS at FROM tables "
            f"WHERE turn_deadline IS NOT NULL AND status = 'playing'{owned} "
            "UNION ALL SELECT min(lobby_expires_at) FROM tables "
            f"WHERE status = 'lobby' AND lobby_expires_at IS NOT NULL{owned}) AS due",
            [*params, *params],
        ))
        return rows[0][0]

    async def moves(self, table_id: int, *, after: int = -1) -> list[MoveRecord]:
        """The move log of a table in order (row 0 is the start record)."""
        rows = await self._db.fetch(
            "SELECT table_id, seq, player_id, move, events, created_at FROM moves "
            "WHERE table_id = ? AND seq > ? ORDER BY seq",
            (table_id, after),
        )
        return [
            MoveRecord(table_id=r[0], seq=r[1], player_id=r[2], move=json.loads(r[3]),
                       events=json.loads(r[4]), created_at=r[5])
            for r in rows
        ]

    async def ended_tables(self, *, after_id: int = 0, limit: int = 500) -> list[TableRecord]:
        """Tables that were dealt and are over (finished, or stopped), by id, ``limit`` at a
        time from ``after_id`` on."""
        rows = await self._db.fetch(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE status IN ('finished', 'cancelled') "
            "AND (seed IS NOT NULL OR deals IS NOT NULL) AND id > ? ORDER BY id LIMIT ?",
            (after_id, limit),
        )
        return [table_record(r) for r in rows]
