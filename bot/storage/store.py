"""The store: every query of kortbord (the schema is in ``migrations.py``), written once for
both backends (``sqlite.py``, ``postgres.py``; ``database.py`` says what a backend provides).

What every write relies on, on either backend: a move is one transaction with its move-log row,
ledger rows, stats, seating and deadline (and, when it ends a rated table, the ratings, their
rows locked first); the move counter is compared and set in the same ``UPDATE``
(``TableChangedError``); the ledger's unique key (table, hand, payer, payee, reason) refuses a
payment twice (``LedgerConflictError``); unique keys also keep one live table per channel
(``ChannelTakenError``) and one seat per player per server (``SeatTakenError``). All of them are
decided by the database, so they hold between processes as well as within one.

The queries are written in parts, one concern each, which ``Store`` puts together: tables and
moves (``tables.py`` writes, ``tablereads.py`` reads), the ledger and stats (``ledger.py``),
ratings and seasons (``ratings.py``), the runs that may have posted a table message
unrecorded (``postruns.py``), settings (``settings.py``), events, reached as
``store.events`` (``events.py``), and the daily deal, ``store.daily`` (``daily.py``). Every
part writes through the one transaction runner (``part.py``), so a move and what it causes
still commit as one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.storage.daily import DailyStore
from bot.storage.database import Database
from bot.storage.events import EventStore
from bot.storage.ledger import LedgerStore
from bot.storage.postgres import PostgresDatabase
from bot.storage.postruns import PostRuns
from bot.storage.ratings import RatingStore
from bot.storage.settings import SettingsStore
from bot.storage.sqlite import SqliteDatabase, Synchronous
from bot.storage.tablereads import TableReads
from bot.storage.tables import TableWrites
from bot.storage.url import Backend, DatabaseUrl, parse_database_url


class Store(TableWrites, TableReads, PostRuns, LedgerStore, RatingStore, SettingsStore):
    """Open with ``await Store.open(url)``; close with ``await store.close()``."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self.events = EventStore(db, self._transaction)
        """Events (tournaments across tables): ``bot.storage.events``."""
        self.daily = DailyStore(db, self._transaction)
        """The daily deal: ``bot.storage.daily``."""

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


    async def announce(self, channel: str, payload: str) -> None:
        """Tell every other process on this database ``payload`` (PostgreSQL's ``NOTIFY``). A
        SQLite database has one process, which knows already: nothing is sent."""
        if isinstance(self._db, PostgresDatabase):
            await self._db.notify(channel, payload)

    async def listen(self, channel: str, heard: Callable[[str], None]
                     ) -> Callable[[], Awaitable[None]] | None:
        """Hear what every process ``announce``s on ``channel`` until the returned function is
        awaited; ``None`` on SQLite, where there is nobody else to hear."""
        if isinstance(self._db, PostgresDatabase):
            return await self._db.listen(channel, heard)
        return None

    async def ping(self) -> None:
        """One trivial read: raises when the database does not answer (readiness)."""
        await self._db.fetch("SELECT 1")
