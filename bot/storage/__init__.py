"""Persistence: the one package that talks SQL, to SQLite (aiosqlite) or PostgreSQL (asyncpg).

Everything above it (the table service, cogs) works with the pydantic models in
``bot.storage.models`` and the ``Store`` methods, whichever backend ``Store.open(url)`` chose;
no other package writes SQL. ``python -m bot.ops copy FROM TO`` moves a database to another
backend.
"""

from bot.storage.daily import DailyAttempt, DailyBaseline, DailyDay, DailyStanding, Finish
from bot.storage.errors import (
    ChannelTakenError,
    DatabaseUnavailableError,
    LedgerConflictError,
    SchemaTooNewError,
    SeatTakenError,
    StoreError,
    TableChangedError,
)
from bot.storage.migrations import MIGRATIONS, SCHEMA_VERSION
from bot.storage.models import (
    Balance,
    ChainedEntry,
    DueDeadline,
    EventEntrant,
    EventRecord,
    EventTable,
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
from bot.storage.store import Store
from bot.storage.url import DatabaseUrl, parse_database_url

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "Balance",
    "ChainedEntry",
    "ChannelTakenError",
    "DailyAttempt",
    "DailyBaseline",
    "DailyDay",
    "DailyStanding",
    "DatabaseUnavailableError",
    "DatabaseUrl",
    "DueDeadline",
    "EventEntrant",
    "EventRecord",
    "EventTable",
    "Finish",
    "LedgerConflictError",
    "LedgerEntry",
    "LoadedTable",
    "MoveCommit",
    "MoveRecord",
    "Payment",
    "RatingChange",
    "RatingJob",
    "RatingRow",
    "SchemaTooNewError",
    "Season",
    "SeatClaim",
    "SeatInfo",
    "SeatTakenError",
    "Shards",
    "Skill",
    "StatDelta",
    "StatsRow",
    "Store",
    "StoreError",
    "TableChangedError",
    "TableRecord",
    "TableStatus",
    "parse_database_url",
]
