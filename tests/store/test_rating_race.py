"""Two tables that end at the same instant in two processes on PostgreSQL, with a player in
common (they left one table, still placed in its result, and sat down at the other): both
tables count for that player's rating, one after the other, whichever commits first. Without
a lock on the rating rows both processes would rate from the same old row and the later write
would lose the earlier table's change.

Each table ends in a worker process (``rating_worker``) whose transaction stops right after it
has read the ratings. The test lets them go on only once both have read, or once one has and the
other waits for a lock: so without the lock both always read before either writes, and with it
the second waits for the first to commit. SQLite needs no such test: its write lock (``BEGIN
IMMEDIATE``) keeps a second writer out of the whole transaction, reads included.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from pathlib import Path

import pytest

from bot.ratings.model import FRESH
from bot.ratings.results import job
from bot.storage import MoveCommit, RatingChange, SeatInfo, Store
from tests.forks import piped
from tests.store.helpers import GUILD
from tests.store.pgserver import PgServer
from tests.store.test_two_owners import waiting_on_a_lock

ROOT = Path(__file__).resolve().parents[2]
NOW = 1_700_000_000.0
SHARED = 3
"""The player at both tables."""
TABLE_A = ((1,), (2,), (SHARED,))
TABLE_B = ((SHARED,), (4,))
LIMIT = 120.0


async def _playing(store: Store, channel: int, players: tuple[int, ...]) -> int:
    host, *guests = (SeatInfo(player_id=p, name=f"P{p}") for p in players)
    record = await store.create_lobby(
        guild_id=GUILD, channel_id=channel, kind="toy", host=host, options={}, turn_seconds=0,
        lobby_expires_at=None, now=NOW, guests=guests,
    )
    await store.start_table(record.id, seats=[host, *guests], state="{}", seed=1,
                            start_record={"type": "start"}, by_id=host.player_id,
                            turn_deadline=None, now=NOW)
    return record.id


def _last_move(table_id: int, counter: int, by: int, now: float = NOW) -> MoveCommit:
    return MoveCommit(table_id=table_id, expected_counter=counter, player_id=by,
                      move={"type": "add", "n": 1}, events=[], state="{}", status="finished",
                      now=now)


async def _set_up(store: Store, rated_before: bool) -> tuple[int, int]:
    """Tables A (players 1, 2 and the shared one, who has left it) and B (the shared player and
    4), both one move from their end; with ``rated_before``, the shared player already has a
    rating from an earlier table."""
    if rated_before:
        earlier = await _playing(store, 9, (SHARED, 5))
        await store.commit_move(_last_move(earlier, 0, SHARED, NOW + 1),
                                rating=job(((5,), (SHARED,))))
    a = await _playing(store, 10, (1, 2, SHARED))
    left = [SeatInfo(player_id=p, name=f"P{p}") for p in (1, 2)]
    await store.commit_move(_last_move(a, 0, 1).model_copy(
        update={"status": "playing", "seats": tuple(left)}))
    b = await _playing(store, 11, (SHARED, 4))
    return a, b


class Worker:
    """A ``rating_worker`` (forked: ``tests.forks``), what it says next, and its input."""

    def __init__(self, url: str, table_id: int, counter: int,
                 places: tuple[tuple[int, ...], ...]) -> None:
        self.process, self._given, self._printed = piped(
            "tests.store.rating_worker", [url, str(table_id), str(counter), json.dumps(places)],
            cwd=ROOT)
        self.next_line = asyncio.ensure_future(self.line())

    async def line(self) -> str:
        return (await asyncio.to_thread(self._printed.readline)).strip()

    def go(self) -> None:
        self._given.write("GO\n")

    def close(self) -> None:
        self._given.close()
        self._printed.close()


async def _race(url: str, workers: list[Worker]) -> None:
    for worker in workers:
        assert await worker.next_line == "READY"
        worker.next_line = asyncio.ensure_future(worker.line())
    for worker in workers:
        worker.go()
    paused = list(workers)
    while paused:
        # the barrier: every paused worker has read the ratings, or one has and another waits
        # for a lock (then the one that read must commit before the other can read)
        lock_wait = asyncio.ensure_future(waiting_on_a_lock(url))
        while True:
            read = [w for w in paused if w.next_line.done()]
            if read and (len(read) == len(paused) or lock_wait.done()):
                break
            await asyncio.wait([lock_wait, *(w.next_line for w in paused)],
                               return_when=asyncio.FIRST_COMPLETED)
        lock_wait.cancel()
        for worker in read:
            assert worker.next_line.result() == "READ"
            worker.next_line = asyncio.ensure_future(worker.line())
            worker.go()
            paused.remove(worker)
    for worker in workers:
        assert await worker.next_line == "DONE"
        assert await worker.process.wait() == 0


def _one_after_the_other(changes: list[RatingChange], start: tuple[float, float],
                         now: tuple[float, float]) -> bool:
    """Whether the two tables' changes chain: one rated from ``start``, the other from what the
    first left, and the rating ``now`` is what the second left."""
    return any(
        (first.mu_before, first.sigma_before) == start
        and (second.mu_before, second.sigma_before) == (first.mu, first.sigma)
        and (second.mu, second.sigma) == now
        for first, second in itertools.permutations(changes)
    )


@pytest.mark.parametrize("rated_before", [False, True], ids=["newcomer", "rated"])
async def test_two_processes_ending_tables_of_one_player_at_once_both_count(
        pg_server: PgServer, rated_before: bool) -> None:
    url = pg_server.url(pg_server.create_database())
    store = await Store.open(url)
    try:
        a, b = await _set_up(store, rated_before)
        held = await store.ratings(GUILD, "toy", 1, player_ids=[SHARED])
        start = (held[0].mu, held[0].sigma) if held else (FRESH.mu, FRESH.sigma)
        workers = [Worker(url, a, 1, TABLE_A), Worker(url, b, 0, TABLE_B)]
        try:
            await asyncio.wait_for(_race(url, workers), LIMIT)
        finally:
            for worker in workers:
                if worker.process.returncode is None:
                    worker.process.kill()
                    await worker.process.wait()
                # its last read is over once it has ended
                await asyncio.gather(worker.next_line, return_exceptions=True)
                worker.close()
        [row] = await store.ratings(GUILD, "toy", 1, player_ids=[SHARED])
        assert row.games == 2 + rated_before
        changes = [c for c in await store.rating_changes(player=(GUILD, "toy", 1, SHARED))
                   if c.table_id in (a, b)]
        assert len(changes) == 2
        assert _one_after_the_other(changes, start, (row.mu, row.sigma)), (
            "a table's change to the shared player's rating was lost", start, changes, row)
        for player in (1, 2, 4):
            [other] = await store.ratings(GUILD, "toy", 1, player_ids=[player])
            assert other.games == 1
    finally:
        await store.close()
