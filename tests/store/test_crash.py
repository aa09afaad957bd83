"""Crash test at the storage level, on SQLite and on PostgreSQL: a worker process plays several
tables through the table service and is SIGKILLed at random moments, more than twenty times, then
run to the end.

After every kill: a SQLite file is sound (PostgreSQL's files are the server's, which the kill
does not touch: there it drops connections mid-transaction); every action the worker
acknowledged is in the move log exactly as acknowledged; each table's state is the replay of its
log (so no move was applied twice or half); the ledger holds each logged payment exactly once
and nets to zero (T12); a restarted worker's retry of the last move is refused. At the end every
game has finished.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from pathlib import Path
from typing import Any, TextIO

import pytest

from bot.storage import Store
from tests.forks import Forked, fork
from tests.store.helpers import GUILD, check_table

ROOT = Path(__file__).resolve().parents[2]
KILLS = 24


def start_worker(db: str, seed: int) -> tuple[Forked, TextIO]:
    """``python -m tests.store.crash_worker DB SEED`` (forked: ``tests.forks``), and what it
    prints."""
    printed, printing = os.pipe()
    try:
        worker = fork("tests.store.crash_worker", [db, str(seed)], cwd=ROOT,
                      env=dict(os.environ), stdout=printing, stderr=2)
    finally:
        os.close(printing)
    return worker, os.fdopen(printed, "r")


def read_acks(printed: TextIO, limit: int | None) -> tuple[list[dict[str, Any]], bool]:
    """Read acknowledged lines until ``limit`` of them (or the end); ``True`` if DONE came."""
    acks: list[dict[str, Any]] = []
    while limit is None or len(acks) < limit:
        line = printed.readline()
        if not line:
            return acks, False
        if line == "DONE\n":
            return acks, True
        acks.append(json.loads(line))
    return acks, False


async def verify(db: str, acked: dict[tuple[int, int], dict[str, Any]]) -> tuple[int, bool]:
    """Check the database after a kill; returns (tables checked, whether all are finished)."""
    store = await Store.open(db)
    try:
        if store.backend == "sqlite":
            assert await store.sqlite.integrity_check() == ["ok"]
        tables = await store.tables_of_guild(GUILD)
        by_id = {t.id: t for t in tables}
        for table in tables:
            await check_table(store, table.id)
        logs = {t.id: {m.seq: m for m in await store.moves(t.id)} for t in tables}
        for (table_id, counter), ack in acked.items():
            row = logs[table_id].get(counter)
            assert row is not None, f"acknowledged move {counter} of table {table_id} lost"
            if not ack.get("start"):
                assert (row.player_id, row.move) == (ack["player"], ack["move"])
            assert by_id[table_id].counter >= counter
        for kind in ("toy", "tonk"):
            assert sum(b.net for b in await store.balances(GUILD, kind)) == 0
        return len(tables), all(t.status == "finished" for t in tables)
    finally:
        await store.close()


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_and_duplicates_nothing(db_url: str) -> None:
    db = db_url
    rng = random.Random(20261129)
    acked: dict[tuple[int, int], dict[str, Any]] = {}
    kills = 0
    while kills < KILLS:
        proc, printed = start_worker(db, rng.randrange(2**32))
        try:
            acks, done = read_acks(printed, rng.randint(1, 30))
            # not a synchronisation: a random pause puts the kill at a random point of the
            # next few moves (mid-transaction, mid-checkpoint, between moves)
            time.sleep(rng.uniform(0, 0.004))
        finally:
            proc.kill()
            proc.join(timeout=60)
            printed.close()
        assert not any(a.get("duplicate") for a in acks)
        for ack in acks:
            key = (ack["table"], ack["counter"])
            assert key not in acked, f"counter {key} acknowledged twice"
            acked[key] = ack
        assert not done, "the games ended before the last kill; raise GAMES_PER_CHANNEL"
        kills += 1
        asyncio.run(verify(db, acked))

    proc, printed = start_worker(db, rng.randrange(2**32))
    acks, done = read_acks(printed, None)
    assert proc.join(timeout=60) == 0 and done
    printed.close()
    assert not any(a.get("duplicate") for a in acks)
    for ack in acks:
        acked[(ack["table"], ack["counter"])] = ack
    tables, all_finished = asyncio.run(verify(db, acked))
    assert all_finished and tables == 36
    assert len(acked) > 500
