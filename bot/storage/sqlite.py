"""The SQLite backend (aiosqlite): one file, checked before it is opened.

Durability. The database runs in WAL mode with ``synchronous=NORMAL`` by default: a commit is
written to the WAL file (the operating system's page cache) before ``commit`` returns, so it
survives the bot process being killed (SIGKILL, OOM, crash) at any moment; only a power cut or a
kernel crash can lose the last few commits, and even then the database stays consistent (WAL
replays whole transactions only). ``FULL`` adds an fsync per commit for power-loss safety;
``scripts/bench_store.py`` measures both.

Connections. One writer connection, used only inside ``transaction`` under an asyncio lock, so
transactions from different coroutines never interleave on it; a second, read-only connection
serves queries, which in WAL mode never wait for the writer and never see an uncommitted write.
A third one checkpoints the WAL into the database file in the background: SQLite's automatic
checkpoint would run inside whichever commit crosses the threshold and add its writes and fsyncs
to that move's latency (it made the p99 of a commit several times its p50). Other processes may
open the same file: SQLite's write lock (``BEGIN IMMEDIATE``, waiting up to the busy timeout)
serialises their transactions.

The writer runs its statements on the event loop's own thread: a move's transaction (BEGIN, an
update, an insert, COMMIT) takes about 40 µs there, with no fsync at ``NORMAL``, while a trip
to a worker thread per statement (aiosqlite's way, which the reader still uses) held the write
lock across four or more passes through a busy event loop, and under load transactions queued
for it for up to 100 ms (issue 16). Even a whole transaction in one trip to a worker thread
took 4 ms at the median and 36 ms at p90 under load: the worker takes the GIL back after every
SQLite call, and while the loop runs Python that waits up to the switch interval (5 ms).
What may take long never runs on the loop: waiting for another process's write lock (``BEGIN
IMMEDIATE`` is tried without waiting first, then waited for on a worker thread, up to the busy
timeout), an fsync at ``FULL``, and checkpoints.

Group commits. A transaction's ``BEGIN IMMEDIATE`` (with the busy-timeout switch around it) and
its ``COMMIT`` (the WAL frames of every page it touched) cost more than its statements: in a
burst of new tables, about 30 and 44 µs a transaction. So the transactions asked for in
one pass of the event loop — a burst of ``/start`` commands in new channels, tables whose moves
land together — run in one SQLite transaction, each body in a savepoint of its own, committed
once before any of their callers goes on (issue 49: at 1,000 new channels at once, the lobbies'
median appearance a sixth to a quarter sooner; docs/scale.md). Each still succeeds or fails
alone: a body that raises is rolled back to its savepoint and fails only its caller; a commit
that fails fails every caller of the batch, none of whose writes were committed. A lone
transaction waits one pass of the loop for its commit; that pass costs nothing measurable at
200 live tables (``scripts/bench_discord.py``, docs/scale.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiosqlite

from bot.storage.database import Row, Tx, UniqueViolation, consume_result
from bot.storage.errors import DatabaseUnavailableError, StoreError
from bot.storage.migrations import migrate_sqlite, sqlite_schema_version

_log = logging.getLogger("kortbord.store")

T = TypeVar("T")
Synchronous = Literal["NORMAL", "FULL"]

CHECKPOINT_EVERY = 300
"""Commits between background WAL checkpoints (a move writes a few pages, so the WAL stays
around SQLite's default checkpoint size of 1000 pages)."""
WAL_SIZE_LIMIT = 16 * 1024 * 1024
"""A WAL file larger than this is truncated to it when the WAL starts over (disk space)."""
WAL_LIMIT_FRAMES = 10_000
"""The WAL starts over only when a write begins after a checkpoint caught up with it; an unbroken
burst of moves leaves no such moment, so past this size (about 40 MB) a checkpoint takes the
write lock and restarts the WAL itself."""
SQLITE_HEADER = b"SQLite format 3\x00"


def _unique(exc: sqlite3.IntegrityError) -> bool:
    return str(exc).startswith("UNIQUE constraint failed")


def _locked(exc: sqlite3.OperationalError) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


async def _to_the_end(fn: Callable[[], T]) -> T:
    """``fn()`` on a worker thread; a caller cancelled meanwhile still waits for it to end
    (the writer connection must not be used again while it is busy)."""
    task = asyncio.ensure_future(asyncio.to_thread(fn))
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        await asyncio.wait([task])
        raise


class _Queued:
    """A transaction asked for, waiting for the next group commit."""

    __slots__ = ("begun", "body", "dropped", "future")

    def __init__(self, body: Callable[[Tx], Awaitable[Any]], future: asyncio.Future[Any]) -> None:
        self.body = body
        self.future = future
        self.begun = False
        self.dropped = False


class _SqliteTx:
    """Statements of one transaction, on the writer connection, on the loop's thread."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            return self._db.execute(sql, params).rowcount
        except sqlite3.IntegrityError as exc:
            if _unique(exc):
                raise UniqueViolation(str(exc)) from exc
            raise

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            self._db.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            if _unique(exc):
                raise UniqueViolation(str(exc)) from exc
            raise

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return self._db.execute(sql, params).fetchall()

    async def copy_rows(self, table: str, columns: Sequence[str],
                        rows: Sequence[Sequence[Any]]) -> None:
        marks = ", ".join("?" for _ in columns)
        await self.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows
        )


def check_file(file: Path) -> None:
    """Refuse, in one line each, what would otherwise fail later with a traceback (or, for a
    read-only file, on every write): a folder, a missing folder that cannot be made, a file that
    cannot be read or written or is not SQLite's, a folder SQLite cannot write its WAL into."""
    where = str(file)
    if file.is_dir():
        raise DatabaseUnavailableError(where, "it is a folder, not a file")
    folder = file.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise DatabaseUnavailableError(where, f"{folder} is not a folder") from None
    except OSError as exc:
        raise DatabaseUnavailableError(
            where, f"cannot create its folder {folder}: {exc.strerror}"
        ) from None
    if file.exists():
        try:
            with file.open("rb") as f:
                header = f.read(len(SQLITE_HEADER))
        except OSError as exc:
            raise DatabaseUnavailableError(where, f"cannot read it: {exc.strerror}") from None
        if header and header != SQLITE_HEADER:
            raise DatabaseUnavailableError(where, "it is not a SQLite database")
        if not os.access(file, os.W_OK):
            raise DatabaseUnavailableError(where, "it is read-only")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise DatabaseUnavailableError(
            where, f"its folder {folder} is read-only (SQLite keeps its -wal and -shm files "
            "beside the database)"
        )


def _cause(exc: sqlite3.Error) -> str:
    text = str(exc)
    if "file is not a database" in text:
        return "it is not a SQLite database"
    if "malformed" in text or "corrupt" in text:
        return f"it is corrupt ({text})"
    if "readonly" in text or "read-only" in text:
        return f"it is read-only ({text})"
    return f"SQLite cannot use it ({text})"


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


class SqliteDatabase:
    backend: Literal["sqlite"] = "sqlite"
    is_not = "IS NOT"

    def __init__(self, path: str, writer: sqlite3.Connection, reader: aiosqlite.Connection,
                 checkpointer: aiosqlite.Connection, *, synchronous: Synchronous = "NORMAL",
                 busy_timeout_ms: int = 5000) -> None:
        self.path = path
        self.where = path
        self._writer = writer
        self._synchronous = synchronous
        self._busy_timeout_ms = int(busy_timeout_ms)
        self._reader = reader
        self._checkpointer = checkpointer
        self._write_lock = asyncio.Lock()
        self._commits = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self._closing = False
        self._queued: list[_Queued] = []
        self._committer: asyncio.Task[None] | None = None

    @classmethod
    async def open(
        cls,
        path: Path,
        *,
        synchronous: Synchronous = "NORMAL",
        busy_timeout_ms: int = 5000,
        check: bool = False,
    ) -> SqliteDatabase:
        """Open (creating if needed) and migrate the file. ``check`` also runs SQLite's
        ``quick_check`` (it reads the whole file: start-up does it, not every open)."""
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
        check_file(path)
        opened: list[aiosqlite.Connection] = []

        async def connect(*pragmas: str) -> aiosqlite.Connection:
            db = await aiosqlite.connect(path, isolation_level=None)
            opened.append(db)
            await db.execute_fetchall(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            for pragma in pragmas:
                await db.execute_fetchall(f"PRAGMA {pragma}")
            return db

        writer_pragmas = (f"busy_timeout = {int(busy_timeout_ms)}", f"synchronous = {synchronous}",
                          "foreign_keys = ON", "wal_autocheckpoint = 0",
                          f"journal_size_limit = {WAL_SIZE_LIMIT}")
        writer: sqlite3.Connection | None = None
        try:
            setup = await connect()
            await _enter_wal(setup, str(path), busy_timeout_ms)
            for pragma in writer_pragmas[1:]:
                await setup.execute_fetchall(f"PRAGMA {pragma}")
            if check:
                problems = [str(r[0]) for r in
                            await setup.execute_fetchall("PRAGMA quick_check(1)")]
                if problems != ["ok"]:
                    raise DatabaseUnavailableError(str(path), f"it is corrupt ({problems[0]})")
            await migrate_sqlite(setup, str(path))
            reader = await connect("query_only = ON")
            checkpointer = await connect("query_only = ON")
            # used on the loop's thread and, to wait for a lock, on a worker thread: never both
            # at once (the write lock)
            writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            for pragma in writer_pragmas:
                writer.execute(f"PRAGMA {pragma}")
        except sqlite3.DatabaseError as exc:
            for db in opened:
                await db.close()
            if writer is not None:
                writer.close()
            raise DatabaseUnavailableError(str(path), _cause(exc)) from None
        except BaseException:
            for db in opened:
                await db.close()
            if writer is not None:
                writer.close()
            raise
        opened.remove(setup)
        await setup.close()
        return cls(str(path), writer, reader, checkpointer, synchronous=synchronous,
                   busy_timeout_ms=busy_timeout_ms)

    async def close(self) -> None:
        self._closing = True
        while self._committer is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._committer)
        # outside the write lock: a checkpoint that has to restart the WAL takes that lock
        while self._checkpoint is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._checkpoint)
        async with self._write_lock:
            await _to_the_end(self._wrap_up)
            await self._checkpointer.close()
            await self._reader.close()

    def _wrap_up(self) -> None:
        db = self._writer
        try:
            # SQLite's advice for long-lived connections: refresh the planner's statistics.
            # Inside a write transaction: on its own it reads, then writes, and SQLite refuses
            # that write at once, without waiting, when another process wrote in between
            db.execute("BEGIN IMMEDIATE")
            db.execute("PRAGMA optimize")
            db.execute("COMMIT")
            # leave a small file behind: everything moved from the WAL into the database
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        finally:
            db.close()

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._reader.execute_fetchall(sql, params))

    async def transaction(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        """Run ``body`` in a write transaction: committed if it returns, undone if it raises.
        Transactions asked for in one pass of the event loop commit together (see the module's
        "Group commits"); each still succeeds or fails alone. A caller cancelled before its
        body began leaves nothing behind; one cancelled later waits for the commit first."""
        queued = _Queued(body, asyncio.get_running_loop().create_future())
        self._queued.append(queued)
        self._commit_soon()
        try:
            return await asyncio.shield(queued.future)
        except asyncio.CancelledError:
            if not queued.begun:
                queued.dropped = True
            elif not queued.future.done():
                with contextlib.suppress(BaseException):
                    await queued.future
            raise

    def _commit_soon(self) -> None:
        """Have what is queued committed, in the next pass of the loop."""
        if self._committer is None:
            # a context of its own: the bodies of many callers run in it, none of theirs
            self._committer = asyncio.get_running_loop().create_task(
                self._commit_queued(), context=contextvars.Context())

    async def _commit_queued(self) -> None:
        """Commit what is queued, one transaction for all that queued meanwhile, until nothing
        is."""
        try:
            while self._queued:
                async with self._write_lock:
                    batch = self._queued[:]
                    self._queued.clear()
                    await self._commit(batch)
        finally:
            self._committer = None
            if self._queued:
                # stopped by an error that was not a body's: what queued meanwhile still goes
                self._commit_soon()

    async def _commit(self, batch: list[_Queued]) -> None:
        """One transaction for ``batch``'s bodies, in order; with more than one, each in a
        savepoint, so that a body that raises undoes only its own writes and fails only its
        own caller. A failure of the transaction itself (taking the lock, the commit) fails
        them all: nothing of theirs was committed."""
        db = self._writer
        outcomes: list[tuple[bool, Any]] = []
        try:
            await self._begin()
            # a caller cancelled while the lock was waited for asked for nothing after all
            batch = [queued for queued in batch if not queued.dropped]
            for queued in batch:
                queued.begun = True
                if len(batch) == 1:
                    outcomes.append((True, await queued.body(_SqliteTx(db))))
                    continue
                db.execute("SAVEPOINT body")
                try:
                    result = await queued.body(_SqliteTx(db))
                except Exception as exc:
                    db.execute("ROLLBACK TO body")
                    db.execute("RELEASE body")
                    outcomes.append((False, exc))
                else:
                    db.execute("RELEASE body")
                    outcomes.append((True, result))
            if self._synchronous == "NORMAL":
                db.execute("COMMIT")
            else:
                await _to_the_end(lambda: db.execute("COMMIT"))
        except BaseException as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            for queued in batch:
                if queued.future.done() or queued.dropped:
                    continue  # a dropped caller no longer waits for its answer
                if isinstance(exc, Exception):
                    queued.future.set_exception(exc)
                else:
                    queued.future.cancel()
            if not isinstance(exc, Exception):
                raise
            return
        self._after_commit()
        for queued, (ok, value) in zip(batch, outcomes, strict=True):
            if queued.future.done():
                continue
            if ok:
                queued.future.set_result(value)
            else:
                queued.future.set_exception(value)

    async def _begin(self) -> None:
        """Take SQLite's write lock: at once when it is free, else wait for it (another process
        writes) on a worker thread, up to the busy timeout."""
        db = self._writer
        db.execute("PRAGMA busy_timeout = 0")
        try:
            db.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as exc:
            if not _locked(exc):
                raise
        finally:
            db.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms}")
        try:
            await _to_the_end(lambda: db.execute("BEGIN IMMEDIATE"))
        except asyncio.CancelledError:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    async def schema_version(self) -> int:
        return await sqlite_schema_version(self._reader)

    async def after_copy(self, tx: Tx) -> None:
        """SQLite's ``INTEGER PRIMARY KEY`` continues after the largest id by itself."""

    # -- SQLite's own ----------------------------------------------------------------------------

    async def checkpoint(self) -> None:
        """Copy the WAL into the database file now and wait for it (it also happens in the
        background every ``CHECKPOINT_EVERY`` commits), e.g. before copying the file."""
        await asyncio.shield(self._start_checkpoint())

    async def pragma(self, name: Literal["journal_mode", "synchronous", "busy_timeout",
                                         "foreign_keys", "wal_autocheckpoint"]) -> Any:
        """The writer connection's setting ``name`` (for checks and diagnostics)."""
        return self._writer.execute(f"PRAGMA {name}").fetchone()[0]

    async def integrity_check(self) -> list[str]:
        """SQLite's own consistency check: ``["ok"]`` for a sound file."""
        rows = await self._reader.execute_fetchall("PRAGMA integrity_check")
        return [str(r[0]) for r in rows]

    def _after_commit(self) -> None:
        self._commits += 1
        if self._commits >= CHECKPOINT_EVERY and not self._closing:
            self._start_checkpoint()

    def _start_checkpoint(self) -> asyncio.Task[None]:
        if self._checkpoint is None:
            self._commits = 0
            self._checkpoint = asyncio.ensure_future(self._run_checkpoint())
            self._checkpoint.add_done_callback(consume_result)
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
                    await _to_the_end(
                        lambda: self._writer.execute("PRAGMA wal_checkpoint(RESTART)").fetchall())
        except Exception:
            # the data is safe in the WAL either way; the next checkpoint tries again
            _log.exception("WAL checkpoint of %s failed", self.path)
            raise
        finally:
            self._checkpoint = None
