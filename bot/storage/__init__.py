"""Persistence: the one module that talks SQL (SQLite through aiosqlite).

Everything above it (the table service, cogs) works with the pydantic models in
``bot.storage.models`` and the ``Store`` methods; no other module writes SQL.
"""

from bot.storage.errors import (
    ChannelTakenError,
    LedgerConflictError,
    SchemaTooNewError,
    SeatTakenError,
    StoreError,
    TableChangedError,
)
from bot.storage.migrations import MIGRATIONS, SCHEMA_VERSION
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
from bot.storage.store import Store

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "Balance",
    "ChannelTakenError",
    "DueDeadline",
    "LedgerConflictError",
    "LedgerEntry",
    "LoadedTable",
    "MoveCommit",
    "MoveRecord",
    "Payment",
    "SchemaTooNewError",
    "Season",
    "SeatClaim",
    "SeatInfo",
    "SeatTakenError",
    "StatDelta",
    "StatsRow",
    "Store",
    "StoreError",
    "TableChangedError",
    "TableRecord",
    "TableStatus",
]
