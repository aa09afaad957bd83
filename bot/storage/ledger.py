"""The ledger and the stats: each move's payments and counters (``record_results``, inside the
move's transaction), a server's rows, its hash chain (``chain.py``), balances and stats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.storage import chain
from bot.storage.database import Tx, UniqueViolation
from bot.storage.errors import LedgerConflictError
from bot.storage.models import Balance, ChainedEntry, LedgerEntry, Payment, StatDelta, StatsRow
from bot.storage.part import StorePart


async def record_results(
    db: Tx,
    table_id: int,
    payments: Sequence[Payment],
    stat_deltas: Sequence[StatDelta],
    now: float,
) -> None:
    """Write one move's payments, each the next link of its server's chain, and its stat
    counters, in the move's own transaction ``db``. Raises ``LedgerConflictError`` for a
    payment of this hand that is already recorded (T12: never twice)."""
    if not payments and not stat_deltas:
        return
    # guild and kind come from the table row itself, so a server's ledger can only ever
    # hold rows of its own tables; a payment belongs to the season running when it is made
    rows = await db.fetch(
        "SELECT t.guild_id, t.kind, coalesce((SELECT max(s.season) FROM seasons s "
        "WHERE s.guild_id = t.guild_id AND s.kind = t.kind), 1) FROM tables t WHERE t.id = ?",
        (table_id,),
    )
    guild_id, kind, season = rows[0]
    if payments:
        # each row is the next link of its server's chain (bot.storage.chain)
        seq, digest = await chain.head(db, guild_id)
        rows = []
        for p in payments:
            seq += 1
            fields = (guild_id, kind, season, table_id, p.hand_no, p.payer_id, p.payee_id,
                      p.amount, p.reason)
            digest = chain.row_digest(digest, seq, fields)
            rows.append((*fields, now, seq, digest))
        try:
            await db.executemany(
                "INSERT INTO ledger (guild_id, kind, season, table_id, hand_no, payer_id, "
                "payee_id, amount, reason, created_at, chain_seq, digest) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows,
            )
        except UniqueViolation:
            raise LedgerConflictError(table_id, payments[0].hand_no) from None
        await chain.set_head(db, guild_id, seq, digest)
    if stat_deltas:
        await db.executemany(
            "INSERT INTO stats (guild_id, kind, player_id, table_id, counter, value) "
            "VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, kind, player_id, table_id, counter) "
            "DO UPDATE SET value = stats.value + excluded.value",
            [(guild_id, kind, d.player_id, table_id, d.counter, d.amount)
             for d in stat_deltas],
        )


class LedgerStore(StorePart):
    """The ledger and the stats, read (they are written with the moves)."""

    async def ledger_entries(
        self,
        guild_id: int,
        *,
        kind: str | None = None,
        player_id: int | None = None,
        table_id: int | None = None,
        season: int | None = None,
        limit: int | None = None,
    ) -> list[LedgerEntry]:
        """A server's ledger rows, newest first; optionally one game's, one player's (as payer
        or payee), one table's and/or one season's."""
        sql = (
            "SELECT l.id, l.guild_id, l.kind, l.season, l.table_id, l.hand_no, l.payer_id, "
            "pa.name, l.payee_id, pe.name, l.amount, l.reason, l.created_at FROM ledger l "
            "LEFT JOIN player_names pa ON pa.guild_id = l.guild_id AND pa.player_id = l.payer_id "
            "LEFT JOIN player_names pe ON pe.guild_id = l.guild_id AND pe.player_id = l.payee_id "
            "WHERE l.guild_id = ?"
        )
        params: list[Any] = [guild_id]
        if kind is not None:
            sql += " AND l.kind = ?"
            params.append(kind)
        if player_id is not None:
            sql += " AND (l.payer_id = ? OR l.payee_id = ?)"
            params += [player_id, player_id]
        if table_id is not None:
            sql += " AND l.table_id = ?"
            params.append(table_id)
        if season is not None:
            sql += " AND l.season = ?"
            params.append(season)
        sql += " ORDER BY l.id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        rows = await self._db.fetch(sql, params)
        return [
            LedgerEntry(id=r[0], guild_id=r[1], kind=r[2], season=r[3], table_id=r[4],
                        hand_no=r[5], payer_id=r[6], payer_name=r[7], payee_id=r[8],
                        payee_name=r[9], amount=r[10], reason=r[11], created_at=r[12])
            for r in rows
        ]

    async def chained_ledger(
        self, guild_id: int, kind: str, *, season: int | None = None,
        table_id: int | None = None, player_id: int | None = None,
    ) -> tuple[list[ChainedEntry], tuple[int, str]]:
        """One game's ledger rows of a server in chain order, each with its link, and the
        server's chain head ``(seq, digest)``; optionally one season's, one table's and/or one
        player's. Rows not chained yet are chained first, so every row has its digest."""

        async def body(db: Tx) -> tuple[list[ChainedEntry], tuple[int, str]]:
            head = await chain.head(db, guild_id)
            sql = (
                "SELECT l.id, l.guild_id, l.kind, l.season, l.table_id, l.hand_no, l.payer_id, "
                "pa.name, l.payee_id, pe.name, l.amount, l.reason, l.created_at, l.chain_seq, "
                "p.digest, l.digest FROM ledger l "
                "LEFT JOIN ledger p ON p.guild_id = l.guild_id "
                "AND p.chain_seq = l.chain_seq - 1 "
                "LEFT JOIN player_names pa ON pa.guild_id = l.guild_id "
                "AND pa.player_id = l.payer_id "
                "LEFT JOIN player_names pe ON pe.guild_id = l.guild_id "
                "AND pe.player_id = l.payee_id "
                "WHERE l.guild_id = ? AND l.kind = ?"
            )
            params: list[Any] = [guild_id, kind]
            for column, value in (("season", season), ("table_id", table_id)):
                if value is not None:
                    sql += f" AND l.{column} = ?"
                    params.append(value)
            if player_id is not None:
                sql += " AND (l.payer_id = ? OR l.payee_id = ?)"
                params += [player_id, player_id]
            rows = await db.fetch(sql + " ORDER BY l.chain_seq", params)
            return [
                ChainedEntry(id=r[0], guild_id=r[1], kind=r[2], season=r[3], table_id=r[4],
                             hand_no=r[5], payer_id=r[6], payer_name=r[7], payee_id=r[8],
                             payee_name=r[9], amount=r[10], reason=r[11], created_at=r[12],
                             chain_seq=r[13],
                             # the first link's previous digest is the chain's genesis
                             previous=r[14] if r[14] is not None else chain.GENESIS,
                             digest=r[15])
                for r in rows
            ], head

        return await self._transaction(body)

    async def balances(
        self, guild_id: int, kind: str, *, table_id: int | None = None,
        season: int | None = None,
    ) -> list[Balance]:
        """Every player's net in one game's ledger of a server (of one table, of one season, or
        all-time): received minus paid, best first; the nets always sum to zero."""
        where = "guild_id = ? AND kind = ?"
        params: list[Any] = [guild_id, kind]
        if table_id is not None:
            where += " AND table_id = ?"
            params.append(table_id)
        if season is not None:
            where += " AND season = ?"
            params.append(season)
        sql = f"""
            WITH money AS (
                SELECT payee_id AS player_id, amount AS delta FROM ledger WHERE {where}
                UNION ALL
                SELECT payer_id, -amount FROM ledger WHERE {where}
            )
            SELECT m.player_id, n.name, coalesce(n.is_computer, 0), sum(m.delta)
            FROM money m
            LEFT JOIN player_names n ON n.guild_id = ? AND n.player_id = m.player_id
            GROUP BY m.player_id, n.name, n.is_computer
            ORDER BY 4 DESC, 2 NULLS FIRST, 1
        """
        rows = await self._db.fetch(sql, [*params, *params, guild_id])
        # PostgreSQL's sum of BIGINTs is a NUMERIC
        return [Balance(player_id=r[0], name=r[1], is_computer=bool(r[2]), net=int(r[3]))
                for r in rows]

    async def stats(
        self, guild_id: int, kind: str, *, table_id: int | None = None
    ) -> list[StatsRow]:
        """Every player's counters for one game kind in the server (or at one table), in player
        id order; which counters exist is the game's business."""
        sql = (
            "SELECT s.player_id, n.name, coalesce(n.is_computer, 0), s.counter, sum(s.value) "
            "FROM stats s LEFT JOIN player_names n "
            "ON n.guild_id = s.guild_id AND n.player_id = s.player_id "
            "WHERE s.guild_id = ? AND s.kind = ?"
        )
        params: list[Any] = [guild_id, kind]
        if table_id is not None:
            sql += " AND s.table_id = ?"
            params.append(table_id)
        sql += (" GROUP BY s.player_id, s.counter, n.name, n.is_computer "
                "ORDER BY s.player_id, s.counter")
        rows = await self._db.fetch(sql, params)
        by_player: dict[int, StatsRow] = {}
        for player_id, name, is_computer, counter, value in rows:
            row = by_player.get(player_id)
            if row is None:
                row = by_player[player_id] = StatsRow(
                    guild_id=guild_id, kind=kind, player_id=player_id, name=name,
                    is_computer=bool(is_computer),
                )
            row.counters[counter] = int(value)
        return list(by_player.values())
