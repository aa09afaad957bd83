"""What every part of the store shares. ``store.py`` puts the parts together into the one
``Store`` the rest of the bot sees; each part (``tables.py``, ``tablereads.py``, ``ledger.py``,
``ratings.py``, ``settings.py``) holds the queries of one concern, on the backend it was given.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot import metrics
from bot.storage.database import Database, Tx
from bot.storage.models import Shards

T = TypeVar("T")


class StorePart:
    """A part of the store. Every part writes through ``_transaction``; a write that spans
    concerns (a move with its ledger rows, stats and ratings) calls the other concern's
    functions that take the open transaction, so it still commits as one."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._transaction_seconds = metrics.DATABASE_TRANSACTION_SECONDS.labels(db.backend)

    async def _transaction(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        """Run ``body`` in one write transaction: committed if it returns, rolled back if it
        raises. A cancelled caller never leaves a transaction half-done (the backend sees to
        it); on SQLite the statements run on the loop's thread (issue 16), and transactions
        asked for in one pass of the loop commit together (``bot.storage.sqlite``)."""
        started = time.perf_counter()
        try:
            return await self._db.transaction(body)
        finally:
            self._transaction_seconds.observe(time.perf_counter() - started)


def shard_filter(shards: Shards | None) -> tuple[str, list[int]]:
    """A condition (to append to a ``WHERE``) keeping the tables of the servers ``shards`` owns,
    and its parameters; nothing when it owns every server. The same SQL in both backends; it
    filters the rows an index found, so the index still decides what is read."""
    if shards is None or shards.owns_all:
        return "", []
    marks = ", ".join("?" for _ in shards.ids)
    # parenthesised: SQLite binds % tighter than >>, PostgreSQL the other way round
    return f" AND ((guild_id >> 22) % ?) IN ({marks})", [shards.count, *shards.ids]
