"""What the store needs from a database backend (``sqlite.py``, ``postgres.py``).

The store writes its SQL once, with ``?`` placeholders, in the SQL that SQLite and PostgreSQL
share; a backend runs it. Transactions are the backend's: a body gets a ``Tx`` and is committed
if it returns, rolled back if it raises. A unique-key violation surfaces as ``UniqueViolation``
whatever the driver, so the store can turn it into its own error; in PostgreSQL it also aborts
the transaction, so a body that catches it must raise, never carry on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, TypeVar

from bot.storage.url import Backend

T = TypeVar("T")
Row = Sequence[Any]


def consume_result(task: asyncio.Future[Any]) -> None:
    """A done-callback for work that finishes after its caller stopped waiting (a cancelled
    caller's transaction, a background checkpoint): reads its outcome so that asyncio does not
    report it as never retrieved."""
    if not task.cancelled():
        task.exception()


class UniqueViolation(Exception):
    """A write broke a unique key or primary key (the driver's own error is the cause)."""


class Reads(Protocol):
    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...


class Tx(Reads, Protocol):
    """One open transaction."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it inserted, updated or deleted."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    async def copy_rows(self, table: str, columns: Sequence[str],
                        rows: Sequence[Sequence[Any]]) -> None:
        """Insert many rows as they are (ids included), the fastest way the backend has."""
        ...


class Database(Reads, Protocol):
    backend: Backend
    where: str
    """The database for messages: a file path, or a URL without its password."""
    is_not: str
    """The null-safe ``<>`` (``IS NOT`` in SQLite, ``IS DISTINCT FROM`` in PostgreSQL)."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """A read outside any write transaction (it sees only committed data)."""
        ...

    async def transaction(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        """Run ``body`` in one transaction. A caller cancelled meanwhile never leaves it
        half-done: it is rolled back, or finishes and commits whole."""
        ...

    async def schema_version(self) -> int: ...

    async def after_copy(self, tx: Tx) -> None:
        """Called at the end of a copy into this database (PostgreSQL moves its id sequences
        past the copied ids)."""
        ...

    async def close(self) -> None: ...
