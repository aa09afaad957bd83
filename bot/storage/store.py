"""The store: every SQL statement of kortbord (the schema itself is in ``migrations.py``).

Durability. The database runs in WAL mode with ``synchronous=NORMAL`` by default: a commit is
written to the WAL file (the operating system's page cache) before ``commit`` returns, so it
survives the bot process being killed (SIGKILL, OOM, crash) at any moment; only a power cut or a
kernel crash can lose the last few commits, and even then the database stays consistent (WAL
replays whole transactions only). ``FULL`` adds an fsync per commit for power-loss safety;
``scripts/bench_store.py`` measures both.

Connections. One writer connection, used only inside ``_transaction`` under an asyncio lock, so
transactions from different coroutines never interleave on it; a second, read-only connection
serves queries, which in WAL mode never wait for the writer and never see an uncommitted write.
A third one checkpoints the WAL into the database file in the background: SQLite's automatic
checkpoint would run inside whichever commit crosses the threshold and add its writes and fsyncs
to that move's latency (it made the p99 of a commit several times its p50).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiosqlite

from bot.storage.errors import (
    ChannelTakenError,
    LedgerConflictError,
    SeatTakenError,
    StoreError,
    TableChangedError,
)
from bot.storage.migrations import migrate, schema_version
from bot.storage.models import (
    Balance,
    DueDeadline,
    LedgerEntry,
    LoadedTable,
    MoveCommit,
    MoveRecord,
    Payment,
    Season,
    SeatClaim,
    SeatInfo,
    StatDelta,
    StatsRow,
    TableRecord,
    TableStatus,
)

_log = logging.getLogger("kortbord.store")

T = TypeVar("T")
Synchronous = Literal["NORMAL", "FULL"]

_TABLE_COLUMNS = (
    "id, guild_id, channel_id, kind, status, host_id, options, seats, message_id, seed, counter, "
    "created_at, updated_at, lobby_expires_at, turn_seconds, turn_deadline, deadline_counter, "
    "version, shown_version, pinged, locale, closed_note, to_move"
)
_LIVE = "status IN ('lobby', 'playing')"
CHECKPOINT_EVERY = 300
"""Commits between background WAL checkpoints (a move writes a few pages, so the WAL stays
around SQLite's default checkpoint size of 1000 pages)."""
WAL_SIZE_LIMIT = 16 * 1024 * 1024
"""A WAL file larger than this is truncated to it when the WAL starts over (disk space)."""
WAL_LIMIT_FRAMES = 10_000
"""The WAL starts over only when a write begins after a checkpoint caught up with it; an unbroken
burst of moves leaves no such moment, so past this size (about 40 MB) a checkpoint takes the
write lock and restarts the WAL itself."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _seats_json(seats: Iterable[SeatInfo]) -> str:
    return _dumps([s.model_dump() for s in seats])


def _record(row: Sequence[Any]) -> TableRecord:
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
    )


async def _enter_wal(db: aiosqlite.Connection, path: str, busy_timeout_ms: int) -> None:
    """Switch the file to WAL (a no-op once it is). On a new file another process may be doing
    the same, and SQLite reports that as locked without waiting, so retry for a while."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + busy_timeout_ms / 1000
    while True:
        try:
            rows = list(await db.execute_fetchall("PRAGMA journal_mode = WAL"))
            break
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or loop.time() > give_up:
                raise
            await asyncio.sleep(0.01)
    if str(rows[0][0]).lower() != "wal":
        raise StoreError(f"the database {path} cannot use WAL mode (got {rows[0][0]!r})")


def _consume_result(task: asyncio.Task[Any]) -> None:
    # a transaction whose caller was cancelled still finishes; its outcome is read here so
    # asyncio does not report it as never retrieved
    if not task.cancelled():
        task.exception()


class Store:
    """Open with ``await Store.open(path)``; close with ``await store.close()``."""

    def __init__(self, path: str, writer: aiosqlite.Connection, reader: aiosqlite.Connection,
                 checkpointer: aiosqlite.Connection) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._checkpointer = checkpointer
        self._write_lock = asyncio.Lock()
        self._commits = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self._closing = False

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: Synchronous = "NORMAL",
        busy_timeout_ms: int = 5000,
    ) -> Store:
        """Open (creating if needed) and migrate the database; raises ``SchemaTooNewError``
        for a database written by a newer kortbord."""
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
        file = Path(path)
        file.parent.mkdir(parents=True, exist_ok=True)
        opened: list[aiosqlite.Connection] = []

        async def connect(*pragmas: str) -> aiosqlite.Connection:
            db = await aiosqlite.connect(file, isolation_level=None)
            opened.append(db)
            await db.execute_fetchall(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            for pragma in pragmas:
                await db.execute_fetchall(f"PRAGMA {pragma}")
            return db

        try:
            writer = await connect()
            await _enter_wal(writer, str(file), busy_timeout_ms)
            for pragma in (f"synchronous = {synchronous}", "foreign_keys = ON",
                           "wal_autocheckpoint = 0", f"journal_size_limit = {WAL_SIZE_LIMIT}"):
                await writer.execute_fetchall(f"PRAGMA {pragma}")
            await migrate(writer, str(file))
            reader = await connect("query_only = ON")
            checkpointer = await connect("query_only = ON")
        except BaseException:
            for db in opened:
                await db.close()
            raise
        return cls(str(file), writer, reader, checkpointer)

    async def close(self) -> None:
        self._closing = True
        # outside the write lock: a checkpoint that has to restart the WAL takes that lock
        while self._checkpoint is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._checkpoint)
        async with self._write_lock:
            # SQLite's advice for long-lived connections: refresh the planner's statistics
            await self._writer.execute_fetchall("PRAGMA optimize")
            # leave a small file behind: everything moved from the WAL into the database
            await self._writer.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
            await self._checkpointer.close()
            await self._reader.close()
            await self._writer.close()

    async def checkpoint(self) -> None:
        """Copy the WAL into the database file now and wait for it (it also happens in the
        background every ``CHECKPOINT_EVERY`` commits), e.g. before copying the file."""
        await asyncio.shield(self._start_checkpoint())

    def _after_commit(self) -> None:
        self._commits += 1
        if self._commits >= CHECKPOINT_EVERY and not self._closing:
            self._start_checkpoint()

    def _start_checkpoint(self) -> asyncio.Task[None]:
        if self._checkpoint is None:
            self._commits = 0
            self._checkpoint = asyncio.ensure_future(self._run_checkpoint())
            self._checkpoint.add_done_callback(_consume_result)
        return self._checkpoint

    async def _run_checkpoint(self) -> None:
        try:
            # PASSIVE never blocks the writer or readers; what it cannot copy yet (pages a
            # reader still needs) the next checkpoint copies
            rows = list(
                await self._checkpointer.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
            )
            if rows[0][1] > WAL_LIMIT_FRAMES:
                async with self._write_lock:
                    await self._writer.execute_fetchall("PRAGMA wal_checkpoint(RESTART)")
        except Exception:
            # the data is safe in the WAL either way; the next checkpoint tries again
            _log.exception("WAL checkpoint of %s failed", self.path)
            raise
        finally:
            self._checkpoint = None

    async def schema_version(self) -> int:
        return await schema_version(self._reader)

    async def pragma(self, name: Literal["journal_mode", "synchronous", "busy_timeout",
                                         "foreign_keys", "wal_autocheckpoint"]) -> Any:
        """The writer connection's setting ``name`` (for checks and diagnostics)."""
        rows = list(await self._writer.execute_fetchall(f"PRAGMA {name}"))
        return rows[0][0]

    async def integrity_check(self) -> list[str]:
        """SQLite's own consistency check: ``["ok"]`` for a sound file."""
        rows = await self._reader.execute_fetchall("PRAGMA integrity_check")
        return [str(r[0]) for r in rows]

    async def _transaction(self, body: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """Run ``body`` in one write transaction: committed if it returns, rolled back if it
        raises. Shielded, so a cancelled caller never leaves a transaction half-done on the
        shared connection."""
        task = asyncio.ensure_future(self._run_transaction(body))
        task.add_done_callback(_consume_result)
        return await asyncio.shield(task)

    async def _run_transaction(self, body: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        async with self._write_lock:
            db = self._writer
            await db.execute("BEGIN IMMEDIATE")
            try:
                result = await body(db)
                await db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    await db.execute("ROLLBACK")
                raise
            self._after_commit()
            return result

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
        computers: Sequence[SeatInfo] = (),
    ) -> TableRecord:
        """A new table in the lobby with its host seated (and ``computers`` beside them).
        Raises ``ChannelTakenError`` if the channel has a live table and ``SeatTakenError`` if
        the host sits at one in this server."""
        seats = (host, *computers)

        async def body(db: aiosqlite.Connection) -> TableRecord:
            try:
                cur = await db.execute(
                    "INSERT INTO tables (guild_id, channel_id, kind, status, host_id, options, "
                    "seats, created_at, updated_at, lobby_expires_at, turn_seconds, locale) "
                    "VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, kind, host.player_id, _dumps(options),
                     _seats_json(seats), now, now, lobby_expires_at, turn_seconds, locale),
                )
            except sqlite3.IntegrityError:
                existing = await self._live_in_channel(db, channel_id)
                if existing is None:
                    raise
                raise ChannelTakenError(existing) from None
            table_id = cur.lastrowid
            assert table_id is not None
            await self._sync_claims(db, guild_id, table_id, seats)
            await self._save_names(db, guild_id, seats, now)
            return await self._table(db, table_id)

        return await self._transaction(body)

    async def save_lobby(
        self, table_id: int, *, seats: Sequence[SeatInfo], host_id: int, now: float
    ) -> TableRecord:
        """Replace a lobby's seats (and host). Raises ``TableChangedError`` if the table left the
        lobby, ``SeatTakenError`` if a new player sits elsewhere in the server."""

        async def body(db: aiosqlite.Connection) -> TableRecord:
            cur = await db.execute(
                "UPDATE tables SET seats = ?, host_id = ?, updated_at = ?, version = version + 1 "
                "WHERE id = ? AND status = 'lobby'",
                (_seats_json(seats), host_id, now, table_id),
            )
            if cur.rowcount != 1:
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
        seed: int,
        start_record: dict[str, Any],
        events: Sequence[dict[str, Any]] = (),
        by_id: int,
        payments: Sequence[Payment] = (),
        stat_deltas: Sequence[StatDelta] = (),
        turn_deadline: float | None,
        now: float,
        to_move: int | None = None,
    ) -> TableRecord:
        """Lobby → playing at move 0; ``start_record`` (what a replay needs besides the moves:
        seats, options, seed) and the deal's ``events`` become move-log row 0. A deal can end
        its first round at once, so the start may carry ledger rows and stats too."""

        async def body(db: aiosqlite.Connection) -> TableRecord:
            cur = await db.execute(
                "UPDATE tables SET status = 'playing', seats = ?, state = ?, seed = ?, "
                "counter = 0, version = version + 1, updated_at = ?, lobby_expires_at = NULL, "
                "to_move = ?, turn_deadline = ?, "
                "deadline_counter = CASE WHEN ? IS NULL THEN NULL ELSE 0 END "
                "WHERE id = ? AND status = 'lobby'",
                (_seats_json(seats), state, seed, now, to_move, turn_deadline, turn_deadline,
                 table_id),
            )
            if cur.rowcount != 1:
                raise TableChangedError(table_id)
            await db.execute(
                "INSERT INTO moves (table_id, seq, player_id, move, events, created_at) "
                "VALUES (?, 0, ?, ?, ?, ?)",
                (table_id, by_id, _dumps(start_record), _dumps(list(events)), now),
            )
            await self._record_results(db, table_id, payments, stat_deltas, now)
            guild_id = await self._guild_of(db, table_id)
            await self._sync_claims(db, guild_id, table_id, seats)
            return await self._table(db, table_id)

        return await self._transaction(body)

    async def commit_move(self, commit: MoveCommit) -> None:
        """Write one applied move: state, counter, move-log row, ledger rows, stats, seating and
        deadline, all or nothing. Raises ``TableChangedError`` if the table is not playing at
        ``expected_counter`` any more and ``LedgerConflictError`` if a payment of this hand is
        already recorded (T12: never twice)."""
        c = commit
        seq = c.expected_counter + 1

        async def body(db: aiosqlite.Connection) -> None:
            cur = await db.execute(
                "UPDATE tables SET state = ?, counter = ?, status = ?, updated_at = ?, "
                "version = version + 1, to_move = ?, turn_deadline = ?, deadline_counter = ?, "
                "seats = COALESCE(?, seats) "
                "WHERE id = ? AND counter = ? AND status = 'playing'",
                (c.state, seq, c.status, c.now, c.to_move, c.turn_deadline,
                 None if c.turn_deadline is None else seq,
                 None if c.seats is None else _seats_json(c.seats), c.table_id,
                 c.expected_counter),
            )
            if cur.rowcount != 1:
                raise TableChangedError(c.table_id)
            await db.execute(
                "INSERT INTO moves (table_id, seq, player_id, move, events, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (c.table_id, seq, c.player_id, _dumps(c.move), _dumps(c.events), c.now),
            )
            await self._record_results(db, c.table_id, c.payments, c.stat_deltas, c.now)
            if c.status == "finished":
                await db.execute("DELETE FROM seat_claims WHERE table_id = ?", (c.table_id,))
            elif c.seats is not None:
                guild_id = await self._guild_of(db, c.table_id)
                await self._sync_claims(db, guild_id, c.table_id, c.seats)
                await self._save_names(db, guild_id, c.seats, c.now)

        await self._transaction(body)

    async def close_table(
        self, table_id: int, *, status: Literal["finished", "cancelled"], now: float,
        note: dict[str, Any] | None = None,
    ) -> TableRecord:
        """End a live table without a move (cancel, abandoned lobby); frees its seats. ``note``
        says how it ended, for showing it again later."""

        async def body(db: aiosqlite.Connection) -> TableRecord:
            cur = await db.execute(
                "UPDATE tables SET status = ?, updated_at = ?, turn_deadline = NULL, "
                "deadline_counter = NULL, lobby_expires_at = NULL, version = version + 1, "
                f"closed_note = ? WHERE id = ? AND {_LIVE}",
                (status, now, None if note is None else _dumps(note), table_id),
            )
            if cur.rowcount != 1:
                raise TableChangedError(table_id)
            await db.execute("DELETE FROM seat_claims WHERE table_id = ?", (table_id,))
            return await self._table(db, table_id)

        return await self._transaction(body)

    async def set_message_id(self, table_id: int, message_id: int | None, *,
                             pinged: int | None = None, shown_version: int | None = None
                             ) -> None:
        """The table's message is now ``message_id``; ``pinged`` is the person it was posted
        to ping (``None``: nobody); ``shown_version`` the version it shows, if known."""

        async def body(db: aiosqlite.Connection) -> None:
            await db.execute(
                "UPDATE tables SET message_id = ?, pinged = ?, "
                "shown_version = coalesce(?, shown_version) WHERE id = ?",
                (message_id, pinged, shown_version, table_id),
            )

        await self._transaction(body)

    async def mark_shown(self, table_id: int, version: int, *, pinged: int | None) -> None:
        """The table message now shows ``version`` of the table (never moves backwards), and
        the turn it pinged for is ``pinged``'s (``None``: that turn is over)."""

        async def body(db: aiosqlite.Connection) -> None:
            await db.execute(
                "UPDATE tables SET shown_version = ?, pinged = ? WHERE id = ? "
                "AND (shown_version IS NULL OR shown_version < ?)",
                (version, pinged, table_id, version),
            )

        await self._transaction(body)

    async def set_deadline(self, table_id: int, *, counter: int, at: float | None) -> bool:
        """Set (or clear, ``at=None``) the turn deadline of a playing table that is still at move
        ``counter``; ``False`` if it is not."""

        async def body(db: aiosqlite.Connection) -> bool:
            cur = await db.execute(
                "UPDATE tables SET turn_deadline = ?, deadline_counter = ? "
                "WHERE id = ? AND status = 'playing' AND counter = ?",
                (at, None if at is None else counter, table_id, counter),
            )
            return cur.rowcount == 1

        return await self._transaction(body)

    @staticmethod
    async def _record_results(
        db: aiosqlite.Connection,
        table_id: int,
        payments: Sequence[Payment],
        stat_deltas: Sequence[StatDelta],
        now: float,
    ) -> None:
        # guild and kind come from the table row itself, so a server's ledger can only ever
        # hold rows of its own tables; a payment belongs to the season running when it is made
        if payments:
            try:
                await db.executemany(
                    "INSERT INTO ledger (guild_id, kind, season, table_id, hand_no, payer_id, "
                    "payee_id, amount, reason, created_at) "
                    "SELECT t.guild_id, t.kind, coalesce((SELECT max(s.season) FROM seasons s "
                    "WHERE s.guild_id = t.guild_id AND s.kind = t.kind), 1), t.id, "
                    "?, ?, ?, ?, ?, ? FROM tables t WHERE t.id = ?",
                    [(p.hand_no, p.payer_id, p.payee_id, p.amount, p.reason, now, table_id)
                     for p in payments],
                )
            except sqlite3.IntegrityError as exc:
                if "UNIQUE" not in str(exc):
                    raise
                raise LedgerConflictError(table_id, payments[0].hand_no) from None
        if stat_deltas:
            await db.executemany(
                "INSERT INTO stats (guild_id, kind, player_id, table_id, counter, value) "
                "SELECT guild_id, kind, ?, id, ?, ? FROM tables WHERE id = ? "
                "ON CONFLICT (guild_id, kind, player_id, table_id, counter) "
                "DO UPDATE SET value = value + excluded.value",
                [(d.player_id, d.counter, d.amount, table_id) for d in stat_deltas],
            )

    async def _sync_claims(
        self, db: aiosqlite.Connection, guild_id: int, table_id: int, seats: Iterable[SeatInfo]
    ) -> None:
        want = {s.player_id for s in seats if not s.is_computer}
        rows = await db.execute_fetchall(
            "SELECT player_id FROM seat_claims WHERE table_id = ?", (table_id,)
        )
        have = {r[0] for r in rows}
        if have - want:
            await db.executemany(
                "DELETE FROM seat_claims WHERE guild_id = ? AND player_id = ? AND table_id = ?",
                [(guild_id, p, table_id) for p in sorted(have - want)],
            )
        for player_id in sorted(want - have):
            try:
                await db.execute(
                    "INSERT INTO seat_claims (guild_id, player_id, table_id) VALUES (?, ?, ?)",
                    (guild_id, player_id, table_id),
                )
            except sqlite3.IntegrityError:
                claim = await self._claim(db, guild_id, player_id)
                if claim is None:
                    raise
                raise SeatTakenError(player_id, claim.table_id, claim.channel_id) from None

    async def _save_names(
        self, db: aiosqlite.Connection, guild_id: int, seats: Iterable[SeatInfo], now: float
    ) -> None:
        await db.executemany(
            "INSERT INTO player_names (guild_id, player_id, name, is_computer, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, player_id) DO UPDATE SET "
            "name = excluded.name, is_computer = excluded.is_computer, "
            "updated_at = excluded.updated_at",
            [(guild_id, s.player_id, s.name, int(s.is_computer), now) for s in seats],
        )

    @staticmethod
    async def _guild_of(db: aiosqlite.Connection, table_id: int) -> int:
        rows = list(
            await db.execute_fetchall("SELECT guild_id FROM tables WHERE id = ?", (table_id,))
        )
        return int(rows[0][0])

    @staticmethod
    async def _table(db: aiosqlite.Connection, table_id: int) -> TableRecord:
        rows = list(await db.execute_fetchall(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
        ))
        return _record(rows[0])

    @staticmethod
    async def _live_in_channel(db: aiosqlite.Connection, channel_id: int) -> TableRecord | None:
        rows = list(await db.execute_fetchall(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE channel_id = ? AND {_LIVE}",
            (channel_id,),
        ))
        return _record(rows[0]) if rows else None

    @staticmethod
    async def _claim(db: aiosqlite.Connection, guild_id: int, player_id: int) -> SeatClaim | None:
        rows = list(await db.execute_fetchall(
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
        rows = list(await self._reader.execute_fetchall(
            f"SELECT {_TABLE_COLUMNS}, state FROM tables WHERE channel_id = ? AND {_LIVE}",
            (channel_id,),
        ))
        if not rows:
            return None
        return LoadedTable(record=_record(rows[0]), state=rows[0][-1])

    async def table(self, table_id: int) -> TableRecord | None:
        rows = list(await self._reader.execute_fetchall(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
        ))
        return _record(rows[0]) if rows else None

    async def table_state(self, table_id: int) -> str | None:
        rows = list(await self._reader.execute_fetchall(
            "SELECT state FROM tables WHERE id = ?", (table_id,)
        ))
        return rows[0][0] if rows else None

    async def unfinished_tables(self) -> list[TableRecord]:
        """Every lobby and game in progress, without engine state (start-up reads these to make
        table messages live again; engines load lazily on first use)."""
        rows = await self._reader.execute_fetchall(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE {_LIVE} ORDER BY id"
        )
        return [_record(r) for r in rows]

    async def tables_of_guild(
        self, guild_id: int, *, statuses: Sequence[TableStatus] | None = None
    ) -> list[TableRecord]:
        """A server's tables, newest first (optionally only those in ``statuses``)."""
        sql = f"SELECT {_TABLE_COLUMNS} FROM tables WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if statuses:
            sql += f" AND status IN ({', '.join('?' for _ in statuses)})"
            params += list(statuses)
        rows = await self._reader.execute_fetchall(sql + " ORDER BY id DESC", params)
        return [_record(r) for r in rows]

    async def tables_behind(self, limit: int) -> list[TableRecord]:
        """Tables, finished ones included, whose message shows an older version than the table
        holds (a crash or an outage came between a change and its edit), most recent first."""
        rows = await self._reader.execute_fetchall(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE message_id IS NOT NULL "
            "AND shown_version IS NOT version ORDER BY updated_at DESC LIMIT ?",
            (limit,),
        )
        return [_record(r) for r in rows]

    async def computer_turns(self) -> list[TableRecord]:
        """Games in play where a computer player is to move (negative ids), oldest first."""
        rows = await self._reader.execute_fetchall(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status = 'playing' AND to_move < 0 "
            "ORDER BY id"
        )
        return [_record(r) for r in rows]

    async def finished_tables(
        self, guild_id: int, kind: str, *, before_id: int | None = None, limit: int = 10
    ) -> list[TableRecord]:
        """A server's finished and stopped tables of one game, newest first; ``before_id``
        pages back through older ones."""
        rows = await self._reader.execute_fetchall(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE guild_id = ? AND kind = ? "
            "AND status IN ('finished', 'cancelled') AND id < ? ORDER BY id DESC LIMIT ?",
            (guild_id, kind, (1 << 62) if before_id is None else before_id, limit),
        )
        return [_record(r) for r in rows]

    async def claim_of(self, guild_id: int, player_id: int) -> SeatClaim | None:
        """The live table where the player sits in this server, if any."""
        return await self._claim(self._reader, guild_id, player_id)

    async def due_deadlines(self, now: float) -> list[DueDeadline]:
        """Turn deadlines and lobby expiries at or before ``now``, earliest first."""
        rows = await self._reader.execute_fetchall(
            "SELECT id, guild_id, channel_id, 'turn', turn_deadline, deadline_counter "
            "FROM tables WHERE turn_deadline IS NOT NULL AND turn_deadline <= ? "
            "AND status = 'playing' "
            "UNION ALL "
            "SELECT id, guild_id, channel_id, 'lobby', lobby_expires_at, NULL FROM tables "
            "WHERE status = 'lobby' AND lobby_expires_at IS NOT NULL AND lobby_expires_at <= ? "
            "ORDER BY 5, 1",
            (now, now),
        )
        return [
            DueDeadline(table_id=r[0], guild_id=r[1], channel_id=r[2], what=r[3], at=r[4],
                        counter=r[5])
            for r in rows
        ]

    async def next_deadline(self) -> float | None:
        """The earliest pending turn deadline or lobby expiry (for a scheduler to sleep until)."""
        rows = list(await self._reader.execute_fetchall(
            "SELECT min(at) FROM ("
            "SELECT min(turn_deadline) AS at FROM tables "
            "WHERE turn_deadline IS NOT NULL AND status = 'playing' "
            "UNION ALL SELECT min(lobby_expires_at) FROM tables "
            "WHERE status = 'lobby' AND lobby_expires_at IS NOT NULL)"
        ))
        return rows[0][0]

    async def moves(self, table_id: int, *, after: int = -1) -> list[MoveRecord]:
        """The move log of a table in order (row 0 is the start record)."""
        rows = await self._reader.execute_fetchall(
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
        rows = await self._reader.execute_fetchall(sql, params)
        return [
            LedgerEntry(id=r[0], guild_id=r[1], kind=r[2], season=r[3], table_id=r[4],
                        hand_no=r[5], payer_id=r[6], payer_name=r[7], payee_id=r[8],
                        payee_name=r[9], amount=r[10], reason=r[11], created_at=r[12])
            for r in rows
        ]

    async def balances(
        self, guild_id: int, kind: str, *, table_id: int | None = None,
        season: int | None = None,
    ) -> list[Balance]:
        """Every player's net in one game's ledger of a server (of one table, of one season, or
        all-time): received minus paid, best first; the nets always sum to zero."""
        table_filter = "" if table_id is None else " AND table_id = :table"
        if season is not None:
            table_filter += " AND season = :season"
        sql = f"""
            WITH money AS (
                SELECT payee_id AS player_id, amount AS delta FROM ledger
                    WHERE guild_id = :guild AND kind = :kind{table_filter}
                UNION ALL
                SELECT payer_id, -amount FROM ledger
                    WHERE guild_id = :guild AND kind = :kind{table_filter}
            )
            SELECT m.player_id, n.name, coalesce(n.is_computer, 0), sum(m.delta)
            FROM money m
            LEFT JOIN player_names n ON n.guild_id = :guild AND n.player_id = m.player_id
            GROUP BY m.player_id
            ORDER BY 4 DESC, 2, 1
        """
        rows = await self._reader.execute_fetchall(
            sql, {"guild": guild_id, "kind": kind, "table": table_id, "season": season}
        )
        return [Balance(player_id=r[0], name=r[1], is_computer=bool(r[2]), net=r[3])
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
        sql += " GROUP BY s.player_id, s.counter ORDER BY s.player_id"
        rows = await self._reader.execute_fetchall(sql, params)
        by_player: dict[int, StatsRow] = {}
        for player_id, name, is_computer, counter, value in rows:
            row = by_player.get(player_id)
            if row is None:
                row = by_player[player_id] = StatsRow(
                    guild_id=guild_id, kind=kind, player_id=player_id, name=name,
                    is_computer=bool(is_computer),
                )
            row.counters[counter] = value
        return list(by_player.values())

    # -- settings --------------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """A server's settings as stored (``{}`` before anyone set one); their meaning is the
        caller's."""
        rows = list(await self._reader.execute_fetchall(
            "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ))
        return json.loads(rows[0][0]) if rows else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any], *,
                                 now: float) -> None:
        await self._put_settings("guild_settings", "guild_id", guild_id, settings, now)

    async def user_settings(self, user_id: int) -> dict[str, Any]:
        """A person's own settings (the same in every server), ``{}`` before they set one."""
        rows = list(await self._reader.execute_fetchall(
            "SELECT settings FROM user_settings WHERE user_id = ?", (user_id,)
        ))
        return json.loads(rows[0][0]) if rows else {}

    async def set_user_settings(self, user_id: int, settings: dict[str, Any], *,
                                now: float) -> None:
        await self._put_settings("user_settings", "user_id", user_id, settings, now)

    async def _put_settings(self, table: Literal["guild_settings", "user_settings"], key: str,
                            owner: int, settings: dict[str, Any], now: float) -> None:
        async def body(db: aiosqlite.Connection) -> None:
            await db.execute(
                f"INSERT INTO {table} ({key}, settings, updated_at) VALUES (?, ?, ?) "
                f"ON CONFLICT ({key}) DO UPDATE SET settings = excluded.settings, "
                "updated_at = excluded.updated_at",
                (owner, _dumps(settings), now),
            )

        await self._transaction(body)

    # -- ledger seasons ----------------------------------------------------------------------------

    async def seasons(self, guild_id: int, kind: str) -> list[Season]:
        """Every season of one game's ledger in a server, oldest first (always season 1)."""
        rows = await self._reader.execute_fetchall(
            "SELECT season, started_at, started_by FROM seasons WHERE guild_id = ? AND kind = ? "
            "ORDER BY season", (guild_id, kind),
        )
        first = Season(guild_id=guild_id, kind=kind, season=1, started_at=None, started_by=None)
        return [first, *(Season(guild_id=guild_id, kind=kind, season=r[0], started_at=r[1],
                                started_by=r[2]) for r in rows)]

    async def start_season(self, guild_id: int, kind: str, *, by_id: int, now: float) -> int:
        """Start the next ledger season of one game in a server and return its number; earlier
        seasons keep every row (money is never deleted)."""

        async def body(db: aiosqlite.Connection) -> int:
            rows = list(await db.execute_fetchall(
                "SELECT coalesce(max(season), 1) FROM seasons WHERE guild_id = ? AND kind = ?",
                (guild_id, kind),
            ))
            season = int(rows[0][0]) + 1
            await db.execute(
                "INSERT INTO seasons (guild_id, kind, season, started_at, started_by) "
                "VALUES (?, ?, ?, ?, ?)", (guild_id, kind, season, now, by_id),
            )
            return season

        return await self._transaction(body)
