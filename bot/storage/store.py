"""The store: every query of kortbord (the schema is in ``migrations.py``), written once for
both backends (``sqlite.py``, ``postgres.py``; ``database.py`` says what a backend provides).

What every write relies on, on either backend: a move is one transaction with its move-log row,
ledger rows, stats, seating and deadline; the move counter is compared and set in the same
``UPDATE`` (``TableChangedError``); the ledger's unique key (table, hand, payer, payee, reason)
refuses a payment twice (``LedgerConflictError``); unique keys also keep one live table per
channel (``ChannelTakenError``) and one seat per player per server (``SeatTakenError``). All of
them are decided by the database, so they hold between processes as well as within one.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

from bot import metrics
from bot.storage import chain
from bot.storage.database import Database, Reads, Row, Tx, UniqueViolation
from bot.storage.errors import (
    ChannelTakenError,
    LedgerConflictError,
    SeatTakenError,
    StoreError,
    TableChangedError,
)
from bot.storage.events import EventStore
from bot.storage.jsontext import dumps
from bot.storage.models import (
    Balance,
    ChainedEntry,
    DueDeadline,
    LedgerEntry,
    LoadedTable,
    MoveCommit,
    MoveRecord,
    Payment,
    RatingChange,
    RatingJob,
    RatingRow,
    Season,
    SeatClaim,
    SeatInfo,
    Shards,
    Skill,
    StatDelta,
    StatsRow,
    TableRecord,
    TableStatus,
)
from bot.storage.postgres import PostgresDatabase
from bot.storage.sqlite import SqliteDatabase, Synchronous
from bot.storage.url import Backend, DatabaseUrl, parse_database_url

T = TypeVar("T")

_TABLE_COLUMNS = (
    "id, guild_id, channel_id, kind, status, host_id, options, seats, message_id, seed, counter, "
    "created_at, updated_at, lobby_expires_at, turn_seconds, turn_deadline, deadline_counter, "
    "version, shown_version, pinged, locale, closed_note, to_move, deals, rated, message_webhook"
)
_LIVE = "status IN ('lobby', 'playing')"
RACE_RETRIES = 3
"""Tries for an insert whose conflicting row another process removed in between (PostgreSQL
only: SQLite's write lock keeps other writers out of the whole transaction)."""


def _seats_json(seats: Iterable[SeatInfo]) -> str:
    return dumps([s.model_dump() for s in seats])


def _record(row: Row) -> TableRecord:
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
    )


def _owned(shards: Shards | None) -> tuple[str, list[int]]:
    """A condition (to append to a ``WHERE``) keeping the tables of the servers ``shards`` owns,
    and its parameters; nothing when it owns every server. The same SQL in both backends; it
    filters the rows an index found, so the index still decides what is read."""
    if shards is None or shards.owns_all:
        return "", []
    marks = ", ".join("?" for _ in shards.ids)
    # parenthesised: SQLite binds % tighter than >>, PostgreSQL the other way round
    return f" AND ((guild_id >> 22) % ?) IN ({marks})", [shards.count, *shards.ids]


class Store:
    """Open with ``await Store.open(url)``; close with ``await store.close()``."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._transaction_seconds = metrics.DATABASE_TRANSACTION_SECONDS.labels(db.backend)
        self.events = EventStore(db, self._transaction)
        """Events (tournaments across tables): ``bot.storage.events``."""

    @classmethod
    async def open(
        cls,
        url: str | Path | DatabaseUrl,
        *,
        synchronous: Synchronous = "NORMAL",
        busy_timeout_ms: int = 5000,
        check: bool = False,
    ) -> Store:
        """Open and migrate the database at ``url``: ``postgresql://…``, ``sqlite:///path``, or a
        plain path of a SQLite file (created if needed). ``synchronous`` and ``busy_timeout_ms``
        are SQLite's settings; ``check`` also verifies a SQLite file page by page (start-up
        does). Raises ``DatabaseUnavailableError`` (one line: where and why) for a database
        that cannot be used, and ``SchemaTooNewError`` for one written by a newer kortbord."""
        target = parse_database_url(url)
        db: Database
        if target.backend == "postgresql":
            db = await PostgresDatabase.open(target)
        else:
            assert target.path is not None
            db = await SqliteDatabase.open(target.path, synchronous=synchronous,
                                           busy_timeout_ms=busy_timeout_ms, check=check)
        return cls(db)

    @property
    def db(self) -> Database:
        """The backend (for ``bot.storage.copy``)."""
        return self._db

    @property
    def backend(self) -> Backend:
        return self._db.backend

    @property
    def where(self) -> str:
        """The database for messages: a file path, or a URL without its password."""
        return self._db.where

    @property
    def sqlite(self) -> SqliteDatabase:
        """The SQLite backend, for SQLite's own checks and settings; ``TypeError`` on
        PostgreSQL."""
        if not isinstance(self._db, SqliteDatabase):
            raise TypeError(f"{self.where} is not a SQLite database")
        return self._db

    async def close(self) -> None:
        await self._db.close()

    async def schema_version(self) -> int:
        return await self._db.schema_version()

    async def _transaction(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        """Run ``body`` in one write transaction: committed if it returns, rolled back if it
        raises. A cancelled caller never leaves a transaction half-done (the backend sees to
        it), and on SQLite a transaction that need not wait runs without a task of its own or
        a pass of the event loop (issue 16)."""
        started = time.perf_counter()
        try:
            return await self._db.transaction(body)
        finally:
            self._transaction_seconds.observe(time.perf_counter() - started)

    # -- tables --------------------------------------------------------------------------------

    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        kind: str,
        host: SeatInfo,
        options: dict[str, Any],
        turn_seconds: int,
        lobby_expires_at: float | None,
        now: float,
        locale: str | None = None,
        guests: Sequence[SeatInfo] = (),
        rated: bool = True,
    ) -> TableRecord:
        """A new table in the lobby with its host seated (and ``guests`` beside them);
        ``rated``: whether its result may count for the skill ratings.
        Raises ``ChannelTakenError`` if the channel has a live table and ``SeatTakenError`` if
        the host sits at one in this server."""
        seats = (host, *guests)

        async def body(db: Tx) -> TableRecord:
            for _ in range(RACE_RETRIES):
                # the live-table-per-channel key decides; a refused insert changes nothing
                if await db.execute(
                    "INSERT INTO tables (guild_id, channel_id, kind, status, host_id, options, "
                    "seats, created_at, updated_at, lobby_expires_at, turn_seconds, locale, "
                    "rated) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    (guild_id, channel_id, kind, host.player_id, dumps(options),
                     _seats_json(seats), now, now, lobby_expires_at, turn_seconds, locale,
                     int(rated)),
                ):
                    break
                existing = await self._live_in_channel(db, channel_id)
                if existing is not None:
                    raise ChannelTakenError(existing)
            else:
                raise StoreError(f"channel {channel_id} keeps changing")
            record = await self._live_in_channel(db, channel_id)
            assert record is not None
            await self._sync_claims(db, guild_id, record.id, seats)
            await self._save_names(db, guild_id, seats, now)
            return record

        return await self._transaction(body)

    async def save_lobby(
        self, table_id: int, *, seats: Sequence[SeatInfo], host_id: int, now: float,
        expected_version: int | None = None,
    ) -> TableRecord:
        """Replace a lobby's seats (and host). Raises ``TableChangedError`` if the table left the
        lobby or, with ``expected_version``, changed since the caller read it (so a process whose
        copy is behind cannot write over another's change), ``SeatTakenError`` if a new player
        sits elsewhere in the server."""

        async def body(db: Tx) -> TableRecord:
            changed = await db.execute(
                "UPDATE tables SET seats = ?, host_id = ?, updated_at = ?, version = version + 1 "
                "WHERE id = ? AND status = 'lobby' AND version = coalesce(?, version)",
                (_seats_json(seats), host_id, now, table_id, expected_version),
            )
            if changed != 1:
                raise TableChangedError(table_id)
            guild_id = await self._guild_of(db, table_id)
            await self._sync_claims(db, guild_id, table_id, seats)
            await self._save_names(db, guild_id, seats, now)
            return await self._table(db, table_id)

        return await self._transaction(body)

    async def start_table(
        self,
        table_id: int,
        *,
        seats: Sequence[SeatInfo],
        state: str,
        seed: int | None,
        deals: dict[str, Any] | None = None,
        start_record: dict[str, Any],
        events: Sequence[dict[str, Any]] = (),
        by_id: int,
        payments: Sequence[Payment] = (),
        stat_deltas: Sequence[StatDelta] = (),
        turn_deadline: float | None,
        now: float,
        to_move: int | None = None,
        expected_version: int | None = None,
    ) -> TableRecord:
        """Lobby → playing at move 0; ``start_record`` (what a replay needs besides the moves:
        seats, options, seed) and the deal's ``events`` become move-log row 0. A deal can end
        its first round at once, so the start may carry ledger rows and stats too. Raises
        ``TableChangedError`` if the table left the lobby or, with ``expected_version``, its
        lobby changed since the caller read it."""

        async def body(db: Tx) -> TableRecord:
            changed = await db.execute(
                "UPDATE tables SET status = 'playing', seats = ?, state = ?, seed = ?, "
                "deals = ?, "
                "counter = 0, version = version + 1, updated_at = ?, lobby_expires_at = NULL, "
                "to_move = ?, turn_deadline = ?, deadline_counter = ? "
                "WHERE id = ? AND status = 'lobby' AND version = coalesce(?, version)",
                (_seats_json(seats), state, seed, None if deals is None else dumps(deals),
                 now, to_move, turn_deadline,
                 None if turn_deadline is None else 0, table_id, expected_version),
            )
            if changed != 1:
                raise TableChangedError(table_id)
            await db.execute(
                "INSERT INTO moves (table_id, seq, player_id, move, events, created_at) "
                "VALUES (?, 0, ?, ?, ?, ?)",
                (table_id, by_id, dumps(start_record), dumps(list(events)), now),
            )
            await self._record_results(db, table_id, payments, stat_deltas, now)
            guild_id = await self._guild_of(db, table_id)
            await self._sync_claims(db, guild_id, table_id, seats)
            return await self._table(db, table_id)

        return await self._transaction(body)

    async def commit_move(self, commit: MoveCommit, *, rating: RatingJob | None = None) -> None:
        """Write one applied move: state, counter, move-log row, ledger rows, stats, seating and
        deadline, all or nothing; a move that finishes a rated table carries its ``rating``,
        recorded with it. Raises ``TableChangedError`` if the table is not playing at
        ``expected_counter`` any more and ``LedgerConflictError`` if a payment of this hand is
        already recorded (T12: never twice)."""
        c = commit
        seq = c.expected_counter + 1

        async def body(db: Tx) -> None:
            changed = await db.execute(
                "UPDATE tables SET state = ?, counter = ?, status = ?, updated_at = ?, "
                "version = version + 1, to_move = ?, turn_deadline = ?, deadline_counter = ?, "
                "seats = COALESCE(?, seats) "
                "WHERE id = ? AND counter = ? AND status = 'playing'",
                (c.state, seq, c.status, c.now, c.to_move, c.turn_deadline,
                 None if c.turn_deadline is None else seq,
                 None if c.seats is None else _seats_json(c.seats), c.table_id,
                 c.expected_counter),
            )
            if changed != 1:
                raise TableChangedError(c.table_id)
            await db.execute(
                "INSERT INTO moves (table_id, seq, player_id, move, events, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (c.table_id, seq, c.player_id, dumps(c.move), dumps(c.events), c.now),
            )
            await self._record_results(db, c.table_id, c.payments, c.stat_deltas, c.now)
            if c.status == "finished":
                await db.execute("DELETE FROM seat_claims WHERE table_id = ?", (c.table_id,))
                if rating is not None:
                    await self._rate_table(db, c.table_id, c.now, rating)
            elif c.seats is not None:
                guild_id = await self._guild_of(db, c.table_id)
                await self._sync_claims(db, guild_id, c.table_id, c.seats)
                await self._save_names(db, guild_id, c.seats, c.now)

        await self._transaction(body)

    async def close_table(
        self, table_id: int, *, status: Literal["finished", "cancelled"], now: float,
        note: dict[str, Any] | None = None, expected_version: int | None = None,
        rating: RatingJob | None = None,
    ) -> TableRecord:
        """End a live table without a move (cancel, abandoned lobby); frees its seats. ``note``
        says how it ended, for showing it again later; ``rating`` is its rated result, if it
        has one, recorded with the closing. Raises ``TableChangedError`` if it is not
        live or, with ``expected_version``, changed since the caller read it."""

        async def body(db: Tx) -> TableRecord:
            changed = await db.execute(
                "UPDATE tables SET status = ?, updated_at = ?, turn_deadline = NULL, "
                "deadline_counter = NULL, lobby_expires_at = NULL, version = version + 1, "
                f"closed_note = ? WHERE id = ? AND {_LIVE} AND version = coalesce(?, version)",
                (status, now, None if note is None else dumps(note), table_id,
                 expected_version),
            )
            if changed != 1:
                raise TableChangedError(table_id)
            await db.execute("DELETE FROM seat_claims WHERE table_id = ?", (table_id,))
            if rating is not None:
                await self._rate_table(db, table_id, now, rating)
            return await self._table(db, table_id)

        return await self._transaction(body)

    async def set_message_id(self, table_id: int, message_id: int | None, *,
                             pinged: int | None = None, shown_version: int | None = None,
                             webhook: int | None = None) -> None:
        """The table's message is now ``message_id``; ``pinged`` is the person it was posted
        to ping (``None``: nobody); ``shown_version`` the version it shows, if known;
        ``webhook`` the channel webhook that posted it (``None``: the bot)."""

        async def body(db: Tx) -> None:
            await db.execute(
                "UPDATE tables SET message_id = ?, pinged = ?, message_webhook = ?, "
                "shown_version = coalesce(?, shown_version) WHERE id = ?",
                (message_id, pinged, webhook, shown_version, table_id),
            )

        await self._transaction(body)

    async def channel_webhook(self, channel_id: int) -> tuple[int, str] | None:
        """The bot's webhook on ``channel_id`` (its id and token), if one is known."""
        rows = list(await self._db.fetch(
            "SELECT webhook_id, token FROM channel_webhooks WHERE channel_id = ?", (channel_id,)))
        return None if not rows else (int(rows[0][0]), str(rows[0][1]))

    async def set_channel_webhook(self, channel_id: int, webhook: tuple[int, str] | None, *,
                                  now: float) -> None:
        """Remember the bot's webhook on ``channel_id`` (``None``: forget it, it is gone)."""

        async def body(db: Tx) -> None:
            await db.execute("DELETE FROM channel_webhooks WHERE channel_id = ?", (channel_id,))
            if webhook is not None:
                await db.execute(
                    "INSERT INTO channel_webhooks (channel_id, webhook_id, token, created_at) "
                    "VALUES (?, ?, ?, ?)", (channel_id, webhook[0], webhook[1], now))

        await self._transaction(body)

    async def mark_shown(self, table_id: int, version: int, *, pinged: int | None) -> None:
        """The table message now shows ``version`` of the table (never moves backwards), and
        the turn it pinged for is ``pinged``'s (``None``: that turn is over)."""

        async def body(db: Tx) -> None:
            await db.execute(
                "UPDATE tables SET shown_version = ?, pinged = ? WHERE id = ? "
                "AND (shown_version IS NULL OR shown_version < ?)",
                (version, pinged, table_id, version),
            )

        await self._transaction(body)

    async def set_deadline(self, table_id: int, *, counter: int, at: float | None) -> bool:
        """Set (or clear, ``at=None``) the turn deadline of a playing table that is still at move
        ``counter``; ``False`` if it is not."""

        async def body(db: Tx) -> bool:
            changed = await db.execute(
                "UPDATE tables SET turn_deadline = ?, deadline_counter = ? "
                "WHERE id = ? AND status = 'playing' AND counter = ?",
                (at, None if at is None else counter, table_id, counter),
            )
            return changed == 1

        return await self._transaction(body)

    @staticmethod
    async def _record_results(
        db: Tx,
        table_id: int,
        payments: Sequence[Payment],
        stat_deltas: Sequence[StatDelta],
        now: float,
    ) -> None:
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

    async def _sync_claims(
        self, db: Tx, guild_id: int, table_id: int, seats: Iterable[SeatInfo]
    ) -> None:
        want = {s.player_id for s in seats if not s.is_computer}
        rows = await db.fetch(
            "SELECT player_id FROM seat_claims WHERE table_id = ?", (table_id,)
        )
        have = {r[0] for r in rows}
        if have - want:
            await db.executemany(
                "DELETE FROM seat_claims WHERE guild_id = ? AND player_id = ? AND table_id = ?",
                [(guild_id, p, table_id) for p in sorted(have - want)],
            )
        # in key order, like every transaction, so two of them never wait for each other
        for player_id in sorted(want - have):
            await self._claim_seat(db, guild_id, player_id, table_id)

    async def _claim_seat(self, db: Tx, guild_id: int, player_id: int, table_id: int) -> None:
        for _ in range(RACE_RETRIES):
            # the (server, player) key decides, even against a claim not yet committed
            if await db.execute(
                "INSERT INTO seat_claims (guild_id, player_id, table_id) VALUES (?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                (guild_id, player_id, table_id),
            ):
                return
            claim = await self._claim(db, guild_id, player_id)
            if claim is not None:
                raise SeatTakenError(player_id, claim.table_id, claim.channel_id)
        raise StoreError(f"the seat of player {player_id} keeps changing")

    async def _save_names(
        self, db: Tx, guild_id: int, seats: Iterable[SeatInfo], now: float
    ) -> None:
        await db.executemany(
            "INSERT INTO player_names (guild_id, player_id, name, is_computer, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, player_id) DO UPDATE SET "
            "name = excluded.name, is_computer = excluded.is_computer, "
            "updated_at = excluded.updated_at",
            [(guild_id, s.player_id, s.name, int(s.is_computer), now)
             for s in sorted(seats, key=lambda s: s.player_id)],
        )

    @staticmethod
    async def _guild_of(db: Reads, table_id: int) -> int:
        rows = list(
            await db.fetch("SELECT guild_id FROM tables WHERE id = ?", (table_id,))
        )
        return int(rows[0][0])

    @staticmethod
    async def _table(db: Reads, table_id: int) -> TableRecord:
        rows = list(await db.fetch(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
        ))
        return _record(rows[0])

    @staticmethod
    async def _live_in_channel(db: Reads, channel_id: int) -> TableRecord | None:
        rows = list(await db.fetch(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE channel_id = ? AND {_LIVE}",
            (channel_id,),
        ))
        return _record(rows[0]) if rows else None

    @staticmethod
    async def _claim(db: Reads, guild_id: int, player_id: int) -> SeatClaim | None:
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

    # -- reads ---------------------------------------------------------------------------------

    async def live_table(self, channel_id: int) -> LoadedTable | None:
        """The channel's lobby or game, with its engine state (JSON text, ``None`` in a lobby)."""
        rows = list(await self._db.fetch(
            f"SELECT {_TABLE_COLUMNS}, state FROM tables WHERE channel_id = ? AND {_LIVE}",
            (channel_id,),
        ))
        if not rows:
            return None
        return LoadedTable(record=_record(rows[0]), state=rows[0][-1])

    async def table(self, table_id: int) -> TableRecord | None:
        rows = list(await self._db.fetch(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
        ))
        return _record(rows[0]) if rows else None

    async def table_state(self, table_id: int) -> str | None:
        rows = list(await self._db.fetch(
            "SELECT state FROM tables WHERE id = ?", (table_id,)
        ))
        return rows[0][0] if rows else None

    async def unfinished_tables(self, *, shards: Shards | None = None) -> list[TableRecord]:
        """Every lobby and game in progress (of the servers ``shards`` owns), without engine
        state (engines load lazily on first use)."""
        owned, params = _owned(shards)
        rows = await self._db.fetch(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE {_LIVE}{owned} ORDER BY id", params
        )
        return [_record(r) for r in rows]

    async def live_table_counts(self, *, shards: Shards | None = None
                                ) -> list[tuple[str, str, int]]:
        """(game kind, status, how many) of the lobbies and games in progress of the servers
        ``shards`` owns (for the metrics)."""
        owned, params = _owned(shards)
        rows = await self._db.fetch(
            f"SELECT kind, status, COUNT(*) FROM tables WHERE {_LIVE}{owned} "
            "GROUP BY kind, status", params
        )
        return [(str(r[0]), str(r[1]), int(r[2])) for r in rows]

    async def ping(self) -> None:
        """One trivial read: raises when the database does not answer (readiness)."""
        await self._db.fetch("SELECT 1")

    async def tables_of_guild(
        self, guild_id: int, *, statuses: Sequence[TableStatus] | None = None
    ) -> list[TableRecord]:
        """A server's tables, newest first (optionally only those in ``statuses``)."""
        sql = f"SELECT {_TABLE_COLUMNS} FROM tables WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if statuses:
            sql += f" AND status IN ({', '.join('?' for _ in statuses)})"
            params += list(statuses)
        rows = await self._db.fetch(sql + " ORDER BY id DESC", params)
        return [_record(r) for r in rows]

    async def tables_behind(self, limit: int, *, shards: Shards | None = None
                            ) -> list[TableRecord]:
        """Tables, finished ones included, whose message shows an older version than the table
        holds (a crash or an outage came between a change and its edit), most recent first;
        only those of the servers ``shards`` owns."""
        owned, params = _owned(shards)
        rows = await self._db.fetch(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE message_id IS NOT NULL "
            f"AND shown_version {self._db.is_not} version{owned} "
            "ORDER BY updated_at DESC LIMIT ?",
            [*params, limit],
        )
        return [_record(r) for r in rows]

    async def computer_turns(self, *, shards: Shards | None = None) -> list[TableRecord]:
        """Games in play where a computer player is to move (negative ids), oldest first; only
        those of the servers ``shards`` owns."""
        owned, params = _owned(shards)
        rows = await self._db.fetch(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status = 'playing' AND to_move < 0"
            f"{owned} ORDER BY id", params,
        )
        return [_record(r) for r in rows]

    async def finished_tables(
        self, guild_id: int, kind: str, *, before_id: int | None = None, limit: int = 10
    ) -> list[TableRecord]:
        """A server's finished and stopped tables of one game, newest first; ``before_id``
        pages back through older ones."""
        rows = await self._db.fetch(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE guild_id = ? AND kind = ? "
            "AND status IN ('finished', 'cancelled') AND id < ? ORDER BY id DESC LIMIT ?",
            (guild_id, kind, (1 << 62) if before_id is None else before_id, limit),
        )
        return [_record(r) for r in rows]

    async def claim_of(self, guild_id: int, player_id: int) -> SeatClaim | None:
        """The live table where the player sits in this server, if any."""
        return await self._claim(self._db, guild_id, player_id)

    async def due_deadlines(self, now: float, *, shards: Shards | None = None
                            ) -> list[DueDeadline]:
        """Turn deadlines and lobby expiries at or before ``now``, earliest first; only those
        of the servers ``shards`` owns."""
        owned, params = _owned(shards)
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
        owned, params = _owned(shards)
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

    # -- ledger and stats ----------------------------------------------------------------------

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

    # -- skill ratings (derived from the move log: ``bot.ratings``) ------------------------------

    @staticmethod
    async def _rate_table(db: Tx, table_id: int, ended_at: float, job: RatingJob) -> None:
        """Record a rated table's result: each player's rating before and after, and the
        ratings as they now stand. The season is the game's ledger season running when the
        table ended (every game has seasons; a new one starts the ratings afresh)."""
        rows = await db.fetch(
            "SELECT t.guild_id, t.kind, coalesce((SELECT max(s.season) FROM seasons s "
            "WHERE s.guild_id = t.guild_id AND s.kind = t.kind AND s.started_at <= ?), 1) "
            "FROM tables t WHERE t.id = ?", (ended_at, table_id),
        )
        guild_id, kind, season = rows[0]
        players = sorted(p for group in job.places for p in group)
        # Lock the players' rating rows before reading them, in player order like every lock
        # kortbord takes: a newcomer's row is made (fresh, no games yet), a held one is updated
        # to itself. In PostgreSQL a process rating one of them at the same time holds that
        # row until it commits, and this waits for it, so the read below sees its result;
        # without the lock both would rate from the same old row and the later write would
        # lose the earlier table's change. (In SQLite, ``BEGIN IMMEDIATE`` already keeps every
        # other writer out of the whole transaction.)
        await db.executemany(
            "INSERT INTO ratings (guild_id, kind, season, player_id, mu, sigma, ordinal, games, "
            "firsts, lasts) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, 0) "
            "ON CONFLICT (guild_id, kind, season, player_id) DO UPDATE SET games = ratings.games",
            [(guild_id, kind, season, p, job.fresh.mu, job.fresh.sigma, job.fresh.ordinal)
             for p in players],
        )
        marks = ", ".join("?" for _ in players)
        before = {int(r[0]): Skill(mu=r[1], sigma=r[2], ordinal=r[3]) for r in await db.fetch(
            f"SELECT player_id, mu, sigma, ordinal FROM ratings WHERE guild_id = ? AND kind = ? "
            f"AND season = ? AND player_id IN ({marks})", [guild_id, kind, season, *players],
        )}
        new = job.rate(job.places, before)
        # a place counts the players ahead of it (so tied players share a place, as in sport)
        place: dict[int, int] = {}
        ahead = 0
        for group in job.places:
            for p in group:
                place[p] = ahead + 1
            ahead += len(group)
        last = ahead - len(job.places[-1]) + 1 if len(job.places) > 1 else 0
        await db.execute(
            "INSERT INTO rated_tables (table_id, guild_id, kind, season, ended_at, players) "
            "VALUES (?, ?, ?, ?, ?, ?)", (table_id, guild_id, kind, season, ended_at, len(players)),
        )
        await db.executemany(
            "INSERT INTO rating_changes (table_id, player_id, guild_id, kind, season, place, "
            "mu_before, sigma_before, mu, sigma, ended_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(table_id, p, guild_id, kind, season, place[p], before[p].mu, before[p].sigma,
              new[p].mu, new[p].sigma, ended_at) for p in players],
        )
        await db.executemany(
            "UPDATE ratings SET mu = ?, sigma = ?, ordinal = ?, games = games + 1, "
            "firsts = firsts + ?, lasts = lasts + ? "
            "WHERE guild_id = ? AND kind = ? AND season = ? AND player_id = ?",
            [(new[p].mu, new[p].sigma, new[p].ordinal, int(place[p] == 1), int(place[p] == last),
              guild_id, kind, season, p) for p in players],
        )

    async def rerate(self, results: Sequence[tuple[int, float, RatingJob]]) -> int:
        """Rebuild every rating from ``results`` (table, when it ended, its rated result), in
        the order given, in one transaction: what was recorded before is replaced. Returns how
        many tables were rated."""

        async def body(db: Tx) -> int:
            for table in ("ratings", "rating_changes", "rated_tables"):
                await db.execute(f"DELETE FROM {table}")
            for table_id, ended_at, job in results:
                await self._rate_table(db, table_id, ended_at, job)
            return len(results)

        return await self._transaction(body)

    async def ended_tables(self, *, after_id: int = 0, limit: int = 500) -> list[TableRecord]:
        """Tables that were dealt and are over (finished, or stopped), by id, ``limit`` at a
        time from ``after_id`` on."""
        rows = await self._db.fetch(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status IN ('finished', 'cancelled') "
            "AND (seed IS NOT NULL OR deals IS NOT NULL) AND id > ? ORDER BY id LIMIT ?",
            (after_id, limit),
        )
        return [_record(r) for r in rows]

    async def current_season(self, guild_id: int, kind: str) -> int:
        rows = list(await self._db.fetch(
            "SELECT coalesce(max(season), 1) FROM seasons WHERE guild_id = ? AND kind = ?",
            (guild_id, kind),
        ))
        return int(rows[0][0])

    async def ratings(self, guild_id: int, kind: str, season: int, *,
                      player_ids: Sequence[int] | None = None) -> list[RatingRow]:
        """A season's ratings of one game in a server (of ``player_ids`` only, if given), best
        first by the conservative ordinal (ties: more games first, then by id)."""
        sql = (
            "SELECT r.guild_id, r.kind, r.season, r.player_id, n.name, r.mu, r.sigma, r.ordinal, "
            "r.games, r.firsts, r.lasts FROM ratings r LEFT JOIN player_names n "
            "ON n.guild_id = r.guild_id AND n.player_id = r.player_id "
            "WHERE r.guild_id = ? AND r.kind = ? AND r.season = ?"
        )
        params: list[Any] = [guild_id, kind, season]
        if player_ids is not None:
            if not player_ids:
                return []
            sql += f" AND r.player_id IN ({', '.join('?' for _ in player_ids)})"
            params += list(player_ids)
        rows = await self._db.fetch(sql + " ORDER BY r.ordinal DESC, r.games DESC, r.player_id",
                                    params)
        return [RatingRow(guild_id=r[0], kind=r[1], season=r[2], player_id=r[3], name=r[4],
                          mu=r[5], sigma=r[6], ordinal=r[7], games=r[8], firsts=r[9],
                          lasts=r[10]) for r in rows]

    async def rating_changes(self, *, table_id: int | None = None,
                             player: tuple[int, str, int, int] | None = None
                             ) -> list[RatingChange]:
        """The rating changes one table made, or one player's in one season (``player`` is
        (server, game, season, player id)), in the order they happened."""
        sql = ("SELECT table_id, player_id, season, place, mu_before, sigma_before, mu, sigma, "
               "ended_at FROM rating_changes WHERE ")
        if table_id is not None:
            sql += "table_id = ? ORDER BY place, player_id"
            params: list[Any] = [table_id]
        else:
            assert player is not None
            sql += ("guild_id = ? AND kind = ? AND season = ? AND player_id = ? "
                    "ORDER BY ended_at, table_id")
            params = list(player)
        rows = await self._db.fetch(sql, params)
        return [RatingChange(table_id=r[0], player_id=r[1], season=r[2], place=r[3],
                             mu_before=r[4], sigma_before=r[5], mu=r[6], sigma=r[7],
                             ended_at=r[8]) for r in rows]

    # -- settings --------------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """A server's settings as stored (``{}`` before anyone set one); their meaning is the
        caller's."""
        rows = list(await self._db.fetch(
            "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ))
        return json.loads(rows[0][0]) if rows else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any], *,
                                 now: float) -> None:
        await self._put_settings("guild_settings", "guild_id", guild_id, settings, now)

    async def user_settings(self, user_id: int) -> dict[str, Any]:
        """A person's own settings (the same in every server), ``{}`` before they set one."""
        rows = list(await self._db.fetch(
            "SELECT settings FROM user_settings WHERE user_id = ?", (user_id,)
        ))
        return json.loads(rows[0][0]) if rows else {}

    async def set_user_settings(self, user_id: int, settings: dict[str, Any], *,
                                now: float) -> None:
        await self._put_settings("user_settings", "user_id", user_id, settings, now)

    async def _put_settings(self, table: Literal["guild_settings", "user_settings"], key: str,
                            owner: int, settings: dict[str, Any], now: float) -> None:
        async def body(db: Tx) -> None:
            await db.execute(
                f"INSERT INTO {table} ({key}, settings, updated_at) VALUES (?, ?, ?) "
                f"ON CONFLICT ({key}) DO UPDATE SET settings = excluded.settings, "
                "updated_at = excluded.updated_at",
                (owner, dumps(settings), now),
            )

        await self._transaction(body)

    # -- ledger seasons ----------------------------------------------------------------------------

    async def seasons(self, guild_id: int, kind: str) -> list[Season]:
        """Every season of one game's ledger in a server, oldest first (always season 1)."""
        rows = await self._db.fetch(
            "SELECT season, started_at, started_by FROM seasons WHERE guild_id = ? AND kind = ? "
            "ORDER BY season", (guild_id, kind),
        )
        first = Season(guild_id=guild_id, kind=kind, season=1, started_at=None, started_by=None)
        return [first, *(Season(guild_id=guild_id, kind=kind, season=r[0], started_at=r[1],
                                started_by=r[2]) for r in rows)]

    async def start_season(self, guild_id: int, kind: str, *, by_id: int, now: float) -> int:
        """Start the next ledger season of one game in a server and return its number; earlier
        seasons keep every row (money is never deleted)."""

        async def body(db: Tx) -> int:
            while True:
                rows = await db.fetch(
                    "SELECT coalesce(max(season), 1) FROM seasons WHERE guild_id = ? "
                    "AND kind = ?", (guild_id, kind),
                )
                season = int(rows[0][0]) + 1
                # in PostgreSQL another process may have started this season since the read:
                # its row is committed by the time the insert gives way, so the next read
                # sees it (in SQLite the write lock makes the first try the only one)
                if await db.execute(
                    "INSERT INTO seasons (guild_id, kind, season, started_at, started_by) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (guild_id, kind, season, now, by_id),
                ):
                    return season

        return await self._transaction(body)
