"""The SQLite backend (aiosqlite): one file, checked before it is opened.

Durability. The database runs in WAL mode with ``synchronous=NORMAL`` by default: a commit is
written to the WAL file (the operating system's page cache) before ``commit`` returns, so it
survives the bot process being killed (SIGKILL, OOM, crash) at any moment; only a power cut or a
kernel crash can lose the last few commits, and even then the database stays consistent (WAL
replays whole transactions only). ``FULL`` adds an fsync per commit for power-loss safety;
``scripts/bench_store.py`` measures both.

Connections. One writer connection, used only inside ``transaction`` and ``write`` under an
asyncio lock, so transactions from different coroutines never interleave on it, and only on a
thread of its own, so waiting for another process's lock, an fsync at ``FULL`` or a checkpoint
never holds up the event loop. ``write`` runs a whole transaction there in one trip (BEGIN, the
body's statements, COMMIT: about 50 µs for a move); a trip per statement (aiosqlite's way, and
``transaction``'s, for bodies that await other things) held SQLite's lock across a pass of a
busy event loop per statement, and under load moves queued for it for up to 100 ms (issue 16).
One trip also keeps SQLite's lock free between transactions for as long as a trip takes, so
another process waiting in its busy handler gets its turn. A second, read-only connection
serves queries, which in WAL mode never wait for the writer and never see an uncommitted write.
A third one checkpoints the WAL into the database file in the background: SQLite's automatic
checkpoint would run inside whichever commit crosses the threshold and add its writes and fsyncs
to that move's latency (it made the p99 of a commit several times its p50). Other processes may
open the same file: SQLite's write lock (``BEGIN IMMEDIATE``, waiting up to the busy timeout)
serialises their transactions.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiosqlite

from bot.storage.database import Row, Tx, UniqueViolation
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


def _consume_result(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()


def _unique(exc: sqlite3.IntegrityError) -> bool:
    return str(exc).startswith("UNIQUE constraint failed")


def _execute(db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> int:
    try:
        return db.execute(sql, params).rowcount
    except sqlite3.IntegrityError as exc:
        if _unique(exc):
            raise UniqueViolation(str(exc)) from exc
        raise


def _executemany(db: sqlite3.Connection, sql: str, rows: Sequence[Sequence[Any]]) -> None:
    try:
        db.executemany(sql, rows)
    except sqlite3.IntegrityError as exc:
        if _unique(exc):
            raise UniqueViolation(str(exc)) from exc
        raise


def _fetch(db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[Row]:
    return db.execute(sql, params).fetchall()


Hop = Callable[[Callable[[], T]], Awaitable[T]]


class _SqliteTx:
    """The statements of one transaction on the writer connection: run where the body runs
    (``write``: the body runs on the writer's thread) or, given ``hop``, sent there one by one
    (``transaction``: the body runs on the event loop)."""

    def __init__(self, db: sqlite3.Connection, hop: Hop[Any] | None = None) -> None:
        self._db = db
        self._hop = hop

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        if self._hop is None:
            return _execute(self._db, sql, params)
        return await self._hop(partial(_execute, self._db, sql, params))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if self._hop is None:
            _executemany(self._db, sql, rows)
        else:
            await self._hop(partial(_executemany, self._db, sql, rows))

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        if self._hop is None:
            return _fetch(self._db, sql, params)
        return await self._hop(partial(_fetch, self._db, sql, params))

    async def copy_rows(self, table: str, columns: Sequence[str],
                        rows: Sequence[Sequence[Any]]) -> None:
        marks = ", ".join("?" for _ in columns)
        await self.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows
        )


def _complete(coro: Coroutine[Any, Any, T]) -> T:
    """Run a ``write`` body to its end on this thread: it awaits only its ``_SqliteTx``, whose
    methods never suspend here, so one step finishes it."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coro.close()
    raise TypeError("a write body awaited something besides its transaction")


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

    def __init__(self, path: str, writer: sqlite3.Connection, thread: ThreadPoolExecutor,
                 reader: aiosqlite.Connection, checkpointer: aiosqlite.Connection) -> None:
        self.path = path
        self.where = path
        self._writer = writer
        self._thread = thread
        self._reader = reader
        self._checkpointer = checkpointer
        self._write_lock = asyncio.Lock()
        self._commits = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self._closing = False

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

        writer_pragmas = (f"synchronous = {synchronous}", "foreign_keys = ON",
                          "wal_autocheckpoint = 0", f"journal_size_limit = {WAL_SIZE_LIMIT}")

        def connect_writer() -> sqlite3.Connection:
            # used on the writer's thread only (check_same_thread: it is made on that thread,
            # but the loop's thread closes it if opening fails)
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            for pragma in (f"busy_timeout = {int(busy_timeout_ms)}", *writer_pragmas):
                db.execute(f"PRAGMA {pragma}")
            return db

        thread = ThreadPoolExecutor(1, thread_name_prefix="kortbord-sqlite-writer")
        writer: sqlite3.Connection | None = None
        try:
            setup = await connect()
            await _enter_wal(setup, str(path), busy_timeout_ms)
            # the migration runs as the writer will: with its settings
            for pragma in writer_pragmas:
                await setup.execute_fetchall(f"PRAGMA {pragma}")
            if check:
                problems = [str(r[0]) for r in
                            await setup.execute_fetchall("PRAGMA quick_check(1)")]
                if problems != ["ok"]:
                    raise DatabaseUnavailableError(str(path), f"it is corrupt ({problems[0]})")
            await migrate_sqlite(setup, str(path))
            reader = await connect("query_only = ON")
            checkpointer = await connect("query_only = ON")
            writer = await asyncio.get_running_loop().run_in_executor(thread, connect_writer)
        except sqlite3.DatabaseError as exc:
            await _close_all(opened, writer, thread)
            raise DatabaseUnavailableError(str(path), _cause(exc)) from None
        except BaseException:
            await _close_all(opened, writer, thread)
            raise
        opened.remove(setup)
        await setup.close()
        return cls(str(path), writer, thread, reader, checkpointer)

    async def close(self) -> None:
        self._closing = True
        # outside the write lock: a checkpoint that has to restart the WAL takes that lock
        while self._checkpoint is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._checkpoint)
        async with self._write_lock:
            try:
                await self._on_writer(self._wrap_up)
            finally:
                self._thread.shutdown(wait=False)
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
        async with self._write_lock:
            db = self._writer
            try:
                await self._on_writer(partial(db.execute, "BEGIN IMMEDIATE"))
                result = await body(_SqliteTx(db, self._on_writer))
                await self._on_writer(partial(db.execute, "COMMIT"))
            except BaseException:
                await self._on_writer(self._roll_back)
                raise
            self._after_commit()
            return result

    async def write(self, body: Callable[[Tx], Coroutine[Any, Any, T]]) -> T:
        async with self._write_lock:
            result = await self._on_writer(partial(self._one_trip, body))
            self._after_commit()
            return result

    def _one_trip(self, body: Callable[[Tx], Coroutine[Any, Any, T]]) -> T:
        db = self._writer
        try:
            db.execute("BEGIN IMMEDIATE")
            result = _complete(body(_SqliteTx(db)))
            db.execute("COMMIT")
        except BaseException:
            self._roll_back()
            raise
        return result

    def _roll_back(self) -> None:
        if self._writer.in_transaction:
            self._writer.execute("ROLLBACK")

    async def _on_writer(self, fn: Callable[[], T]) -> T:
        """``fn()`` on the writer's thread. A caller cancelled meanwhile still waits for it to
        end, so whatever it leaves behind (an open transaction) is known before the next."""
        job = asyncio.get_running_loop().run_in_executor(self._thread, fn)
        try:
            return await asyncio.shield(job)
        except asyncio.CancelledError:
            await asyncio.wait([job])
            if not job.cancelled():
                job.exception()
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
        return await self._on_writer(
            lambda: self._writer.execute(f"PRAGMA {name}").fetchone()[0])

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
                    await self._on_writer(lambda: self._writer.execute(
                        "PRAGMA wal_checkpoint(RESTART)").fetchall())
        except Exception:
            # the data is safe in the WAL either way; the next checkpoint tries again
            _log.exception("WAL checkpoint of %s failed", self.path)
            raise
        finally:
            self._checkpoint = None


async def _close_all(opened: Sequence[aiosqlite.Connection], writer: sqlite3.Connection | None,
                     thread: ThreadPoolExecutor) -> None:
    for db in opened:
        await db.close()
    if writer is not None:
        writer.close()
    thread.shutdown(wait=False)
