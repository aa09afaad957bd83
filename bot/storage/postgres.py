"""The PostgreSQL backend (asyncpg): a connection pool, one pooled connection per transaction.

Transactions run at PostgreSQL's default READ COMMITTED level, and that is enough for the
store's guarantees because each of them rests on one row or one key, which PostgreSQL decides
for every process that shares the database:

- a move is a compare-and-set ``UPDATE tables … WHERE counter = expected``: a second writer of
  the same table waits for the first one's row lock, then re-reads the row, finds the counter
  moved and updates nothing (``TableChangedError``);
- the ledger's, the seat claims' and the live-table-per-channel unique keys refuse a second row
  even from a transaction that has not committed yet (the second inserter waits for the first);
- migrations run under an advisory lock.

Rows are locked in one order (a table, then seat claims and player names by key), so two of
kortbord's own transactions do not deadlock in practice; if PostgreSQL still reports a deadlock
(or a serialization failure), the whole transaction is run again: a body only reads and writes
the database, so running it again is safe.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal, TypeVar

import asyncpg

from bot.storage.database import Row, Tx, UniqueViolation, consume_result
from bot.storage.errors import DatabaseUnavailableError
from bot.storage.migrations import migrate_postgresql, postgresql_schema_version
from bot.storage.url import DatabaseUrl

_log = logging.getLogger("kortbord.store")

T = TypeVar("T")

POOL_SIZE = 10
"""Connections the pool opens at most (one per transaction or query in flight)."""
CONNECT_TIMEOUT = 10.0
"""Seconds to wait for the server to accept a connection before calling it unreachable."""
RETRIES = 3
"""Times a transaction is tried when PostgreSQL aborts it for a deadlock or a serialization
failure."""

_PLACEHOLDER = re.compile(r"\?")


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """The store's ``?`` placeholders as PostgreSQL's ``$1, $2, …`` (the store's SQL has no
    ``?`` inside a string literal)."""
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


def _rowcount(status: str) -> int:
    # asyncpg returns the command tag: "UPDATE 1", "INSERT 0 1", "DELETE 3"
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PgTx:
    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            return _rowcount(await self._conn.execute(numbered(sql), *params))
        except asyncpg.UniqueViolationError as exc:
            raise UniqueViolation(str(exc)) from exc

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            await self._conn.executemany(numbered(sql), rows)
        except asyncpg.UniqueViolationError as exc:
            raise UniqueViolation(str(exc)) from exc

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._conn.fetch(numbered(sql), *params))

    async def copy_rows(self, table: str, columns: Sequence[str],
                        rows: Sequence[Sequence[Any]]) -> None:
        try:
            await self._conn.copy_records_to_table(table, records=rows, columns=list(columns))
        except asyncpg.UniqueViolationError as exc:
            raise UniqueViolation(str(exc)) from exc


def _unreachable(exc: BaseException) -> str | None:
    """One line for why a connection could not be made, or ``None`` if ``exc`` is not that."""
    if isinstance(exc, asyncpg.InvalidAuthorizationSpecificationError):  # password too
        return f"PostgreSQL refused the login ({exc})"
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        return f"no such database ({exc})"
    if isinstance(exc, asyncpg.InsufficientPrivilegeError):
        return f"the user may not do what kortbord needs ({exc})"
    if isinstance(exc, TimeoutError):
        return f"cannot reach the PostgreSQL server (no answer within {CONNECT_TIMEOUT:g} s)"
    if isinstance(exc, OSError):
        return f"cannot reach the PostgreSQL server ({exc.strerror or exc})"
    if isinstance(exc, ValueError):  # asyncpg's ClientConfigurationError too
        return f"the URL is malformed ({exc})"
    if isinstance(exc, asyncpg.PostgresError | asyncpg.InterfaceError):
        return f"PostgreSQL refused the connection ({exc})"
    return None


class PostgresDatabase:
    backend: Literal["postgresql"] = "postgresql"
    is_not = "IS DISTINCT FROM"

    def __init__(self, where: str, pool: asyncpg.Pool) -> None:
        self.where = where
        self._pool = pool

    @classmethod
    async def open(cls, url: DatabaseUrl) -> PostgresDatabase:
        """Connect, migrate under the advisory lock, then open the pool. Raises
        ``DatabaseUnavailableError`` for a server that cannot be reached or refuses the login,
        and ``SchemaTooNewError`` for a database written by a newer kortbord."""
        assert url.dsn is not None
        where = url.display
        try:
            conn = await asyncpg.connect(url.dsn, timeout=CONNECT_TIMEOUT)
            try:
                await migrate_postgresql(conn, where)
            finally:
                await conn.close()
            pool = await asyncpg.create_pool(
                url.dsn, min_size=1, max_size=POOL_SIZE, timeout=CONNECT_TIMEOUT,
                server_settings={"application_name": "kortbord"},
            )
        except Exception as exc:
            cause = _unreachable(exc)
            if cause is None:
                raise
            raise DatabaseUnavailableError(where, cause) from None
        return cls(where, pool)

    async def close(self) -> None:
        await self._pool.close()

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._pool.fetch(numbered(sql), *params))

    async def transaction(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        # shielded: a query cancelled half-way leaves asyncpg's connection to be reset, so a
        # cancelled caller's transaction finishes on its own (and commits or rolls back whole)
        task = asyncio.ensure_future(self._transaction(body))
        task.add_done_callback(consume_result)
        return await asyncio.shield(task)

    async def _transaction(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        attempt = 1
        while True:
            try:
                async with self._pool.acquire() as conn, conn.transaction():
                    return await body(_PgTx(conn))
            except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError) as exc:
                if attempt >= RETRIES:
                    raise
                attempt += 1
                _log.warning("transaction aborted by PostgreSQL (%s); trying again", exc)

    async def schema_version(self) -> int:
        async with self._pool.acquire() as conn:
            return await postgresql_schema_version(conn)

    async def notify(self, channel: str, payload: str) -> None:
        """``NOTIFY channel, payload``: every connection that listens on ``channel``, in any
        process, hears it."""
        await self._pool.execute("SELECT pg_notify($1, $2)", channel, payload)

    async def listen(self, channel: str, heard: Callable[[str], None]
                     ) -> Callable[[], Awaitable[None]]:
        """Call ``heard(payload)`` for every notification on ``channel`` until the returned
        function is awaited. One of the pool's connections listens all that time (PostgreSQL
        delivers notifications to the session that asked for them)."""
        conn = await self._pool.acquire()

        def notified(_conn: object, _pid: int, _channel: str, payload: str) -> None:
            heard(payload)

        def lost(_conn: object) -> None:
            _log.warning("the connection listening for %s was lost", channel)

        await conn.add_listener(channel, notified)
        conn.add_termination_listener(lost)

        async def stop() -> None:
            conn.remove_termination_listener(lost)
            with contextlib.suppress(asyncpg.InterfaceError, OSError):
                await conn.remove_listener(channel, notified)
            await self._pool.release(conn)

        return stop

    async def after_copy(self, tx: Tx) -> None:
        """Copied rows keep their ids; the identity sequences must continue after them."""
        for table in ("tables", "ledger", "events"):
            await tx.fetch(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"coalesce((SELECT max(id) FROM {table}), 0) + 1, false)"
            )
