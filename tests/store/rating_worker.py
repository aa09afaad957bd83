"""A process that ends one rated table, for ``test_rating_race``.

``python -m tests.store.rating_worker DB_URL TABLE_ID COUNTER PLACES`` opens the PostgreSQL
database, prints ``READY`` and waits for a line on standard input; then it commits the table's
last move (at ``COUNTER``) with its rating, ``PLACES`` (JSON, best first). Its transaction stops
right after it has read the ratings, prints ``READ`` and waits for another line: that is the
test's barrier between reading the ratings and writing them. ``DONE`` at the end.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from bot.ratings.results import job
from bot.storage import MoveCommit, Store, parse_database_url
from bot.storage.database import Database, Row, Tx
from bot.storage.postgres import PostgresDatabase

T = TypeVar("T")
NOW = 1_700_000_100.0
"""Both tables end at this instant."""


class _PausingTx:
    def __init__(self, inner: Tx) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        rows = await self._inner.fetch(sql, params)
        if "FROM ratings WHERE" in sql:
            print("READ", flush=True)
            await asyncio.to_thread(sys.stdin.readline)
        return rows


class Pausing:
    """A backend whose transactions stop after reading the ratings until told to go on."""

    def __init__(self, inner: Database) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def transaction(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        async def paused(tx: Tx) -> T:
            return await body(_PausingTx(tx))

        return await self._inner.transaction(paused)


async def main(url: str, table_id: int, counter: int, places: tuple[tuple[int, ...], ...]
               ) -> int:
    store = Store(Pausing(await PostgresDatabase.open(parse_database_url(url))))
    try:
        print("READY", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        await store.commit_move(
            MoveCommit(table_id=table_id, expected_counter=counter, player_id=places[0][0],
                       move={"type": "add", "n": 1}, events=[], state="{}", status="finished",
                       now=NOW),
            rating=job(places),
        )
    finally:
        await store.close()
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    given = tuple(tuple(int(p) for p in group) for group in json.loads(sys.argv[4]))
    raise SystemExit(asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), given)))
