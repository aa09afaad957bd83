"""Two processes that both think they own a table (a misconfiguration, a rolling restart), on
SQLite and on PostgreSQL: the database decides, so a move is never applied twice and a payment
never written twice; the loser gets the same error on both backends (``TableChangedError`` →
``StaleMoveError``, ``ChannelTakenError``, ``SeatTakenError``), including when its transaction
ran at the same time as the winner's and had to wait for it.

In-process, each "process" is its own ``Store`` (its own connections); the last test runs two
real worker processes against the same tables.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import asyncpg
import pytest

from bot.storage import (
    ChannelTakenError,
    MoveCommit,
    SeatInfo,
    SeatTakenError,
    Store,
    TableChangedError,
    TableRecord,
    parse_database_url,
)
from bot.storage.database import Database, Tx
from bot.storage.postgres import PostgresDatabase
from bot.storage.sqlite import SqliteDatabase
from bot.table import StaleMoveError, TableService
from tests.store.helpers import GUILD, KINDS, check_table, run_together, started_table
from tests.store.pgserver import PgServer
from tests.store.rival_worker import CHANNELS
from tests.store.toy import Add

T = TypeVar("T")
NOW = 1_700_000_000.0
WAIT_LIMIT = 30.0
"""Seconds to wait for a transaction to be seen waiting on a lock (only a failure waits so
long)."""


class HeldOpen:
    """A backend whose next transaction stops after its body, before committing, until
    ``release`` is set: it holds its locks and row versions for as long as the test wants."""

    def __init__(self, inner: Database) -> None:
        self._inner = inner
        self.holding = asyncio.Event()
        self.release = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def transaction(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        async def held(tx: Tx) -> T:
            result = await body(tx)
            self.holding.set()
            await self.release.wait()
            return result

        return await self._inner.transaction(held)


async def open_held(url: str) -> tuple[Store, HeldOpen]:
    target = parse_database_url(url)
    inner: Database
    if target.path is not None:
        inner = await SqliteDatabase.open(target.path)
    else:
        inner = await PostgresDatabase.open(target)
    held = HeldOpen(inner)
    return Store(held), held


async def waiting_on_a_lock(url: str, count: int = 1) -> None:
    """Return once ``count`` sessions of this PostgreSQL database wait for a lock (SQLite shows
    no such thing: there the waiter sits in its busy handler, and the outcome checked after is
    the same whichever came first)."""
    target = parse_database_url(url)
    if target.backend != "postgresql":
        return
    conn = await asyncpg.connect(target.dsn)
    try:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + WAIT_LIMIT
        while await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'"
        ) < count:
            assert loop.time() < give_up, "the second transaction never waited for the first"
            await asyncio.sleep(0.005)
    finally:
        await conn.close()


def move(table_id: int, counter: int, n: int) -> MoveCommit:
    return MoveCommit(table_id=table_id, expected_counter=counter, player_id=1,
                      move={"type": "add", "n": n}, events=[], state=f'{{"n": {n}}}',
                      status="playing", now=NOW)


async def lobby(store: Store, channel: int, host: int) -> TableRecord:
    return await store.create_lobby(
        guild_id=GUILD, channel_id=channel, kind="toy",
        host=SeatInfo(player_id=host, name=f"P{host}"), options={}, turn_seconds=0,
        lobby_expires_at=None, now=NOW,
    )


async def test_a_stale_process_gets_a_stale_move_and_then_plays_on(
    db_url: str, make_service: Callable[[Store], TableService]
) -> None:
    first, second = await Store.open(db_url), await Store.open(db_url)
    try:
        one, two = make_service(first), make_service(second)
        table_id = await started_table(one, 10, options={"hands": 2})
        snap = await two.get(10)
        assert snap is not None and snap.counter == 0
        await one.apply(10, 1, Add(1), expected_counter=0)
        # the second process's engine is a move behind: its commit is refused, nothing written
        with pytest.raises(StaleMoveError):
            await two.apply(10, 1, Add(3))
        snap = await two.get(10)
        assert snap is not None and snap.counter == 1 and snap.engine.to_move == 2
        await two.apply(10, 2, Add(2), expected_counter=1)
        with pytest.raises(StaleMoveError):
            await one.apply(10, 2, Add(1))
        assert await check_table(first, table_id) == 2
    finally:
        await first.close()
        await second.close()


async def test_two_stores_racing_for_each_move_apply_it_once(
    db_url: str, make_service: Callable[[Store], TableService]
) -> None:
    """Both processes try every move at the same moment, hand ends (ledger rows) included:
    exactly one of each pair goes through."""
    first, second = await Store.open(db_url), await Store.open(db_url)
    try:
        services = (make_service(first), make_service(second))
        table_id = await started_table(services[0], 10, options={"hands": 4, "stake": 3})
        rng = random.Random(5)
        while (snap := await services[0].get(10)) is not None:
            await services[1].get(10)
            player = snap.engine.to_move
            outcomes = await asyncio.gather(
                *(s.apply(10, player, Add(rng.randint(1, 3)), snap.counter) for s in services),
                return_exceptions=True,
            )
            assert sorted(type(o).__name__ for o in outcomes) == ["ApplyResult",
                                                                   "StaleMoveError"]
        moves = await check_table(first, table_id)
        record = await first.table(table_id)
        assert record is not None and record.status == "finished" and record.counter == moves
        assert len(await first.ledger_entries(GUILD, table_id=table_id)) >= 8
    finally:
        await first.close()
        await second.close()


async def test_a_commit_that_waited_for_another_process_fails_cleanly(db_url: str) -> None:
    """The first transaction has updated the table row and not committed; the second, for the
    same counter, waits for it, then finds the counter moved: ``TableChangedError``."""
    held_store, held = await open_held(db_url)
    other = await Store.open(db_url)
    try:
        record = await lobby(other, 10, 1)
        seats = [SeatInfo(player_id=p, name=f"P{p}") for p in (1, 2)]
        await other.save_lobby(record.id, seats=seats, host_id=1, now=NOW)
        await other.start_table(record.id, seats=seats, state="{}", seed=1,
                                start_record={"type": "start"}, by_id=1, turn_deadline=None,
                                now=NOW)
        winner = asyncio.create_task(held_store.commit_move(move(record.id, 0, 1)))
        await held.holding.wait()
        loser = asyncio.create_task(other.commit_move(move(record.id, 0, 2)))
        await waiting_on_a_lock(db_url)
        held.release.set()
        await winner
        with pytest.raises(TableChangedError):
            await loser
        log = await other.moves(record.id)
        assert [(m.seq, m.move["n"]) for m in log[1:]] == [(1, 1)]
        assert await other.table_state(record.id) == '{"n": 1}'
    finally:
        held.release.set()
        await held_store.close()
        await other.close()


@pytest.mark.parametrize(
    ("channel", "host", "error"),
    [(10, 2, ChannelTakenError), (11, 1, SeatTakenError)],
    ids=["same channel", "same player"],
)
async def test_lobbies_opened_at_once_get_the_usual_errors(
    db_url: str, channel: int, host: int, error: type[Exception]
) -> None:
    """A lobby not yet committed already holds its channel and its host's seat: a second
    process opening one there, or for that player, waits and then gets the usual error."""
    held_store, held = await open_held(db_url)
    other = await Store.open(db_url)
    try:
        first = asyncio.create_task(lobby(held_store, 10, 1))
        await held.holding.wait()
        second = asyncio.create_task(lobby(other, channel, host))
        await waiting_on_a_lock(db_url)
        held.release.set()
        winner = await first
        with pytest.raises(error) as err:
            await second
        if isinstance(err.value, ChannelTakenError):
            assert err.value.existing.id == winner.id
        else:
            assert isinstance(err.value, SeatTakenError)
            assert (err.value.table_id, err.value.channel_id) == (winner.id, 10)
        assert [r.id for r in await other.unfinished_tables()] == [winner.id]
    finally:
        held.release.set()
        await held_store.close()
        await other.close()


async def test_seasons_started_at_once_by_two_processes_each_get_their_own(db_url: str) -> None:
    stores = [await Store.open(db_url) for _ in range(2)]
    try:
        started = await asyncio.gather(*(s.start_season(GUILD, "toy", by_id=i, now=NOW)
                                         for i in range(10) for s in stores))
        assert sorted(started) == list(range(2, 22))
        assert [s.season for s in await stores[0].seasons(GUILD, "toy")] == list(range(1, 22))
    finally:
        for store in stores:
            await store.close()


async def start_rival_tables(url: str) -> list[int]:
    store = await Store.open(url)
    try:
        rng = random.Random(11)
        service = TableService(store, KINDS, seed_source=lambda: rng.randrange(2**63))
        ids = []
        for channel, kind in CHANNELS.items():
            players = [channel * 10 + i for i in range(1, 4)]
            options = {"hands": 10, "stake": 2} if kind == "toy" else {"stake": 2}
            snap = await service.open_lobby(GUILD, channel, kind, players[0], "P", options)
            for p in players[1:]:
                await service.join(channel, p, f"P{p}")
            await service.start(channel, players[0])
            ids.append(snap.table_id)
        return ids
    finally:
        await store.close()


async def check_rival_tables(url: str, table_ids: Sequence[int],
                             acks: list[dict[str, Any]]) -> None:
    store = await Store.open(url)
    try:
        for table_id in table_ids:
            record = await store.table(table_id)
            assert record is not None and record.status == "finished"
            await check_table(store, table_id)
            log = {m.seq: m for m in await store.moves(table_id)}
            for ack in (a for a in acks if a["table"] == table_id):
                row = log[ack["counter"]]
                assert (row.player_id, row.move) == (ack["player"], ack["move"])
        for kind in ("toy", "tonk"):
            assert sum(b.net for b in await store.balances(GUILD, kind)) == 0
    finally:
        await store.close()


@pytest.mark.slow
def test_two_worker_processes_playing_the_same_tables_apply_each_move_once(db_url: str) -> None:
    table_ids = asyncio.run(start_rival_tables(db_url))
    # both start together, so they really contend for every table
    outputs = run_together(*(["tests.store.rival_worker", db_url, str(seed)] for seed in (1, 2)))
    lines = [json.loads(line) for out in outputs for line in out.splitlines()
             if line != "DONE"]
    acks = [line for line in lines if not line.get("stale")]
    keys = [(a["table"], a["counter"]) for a in acks]
    assert len(keys) == len(set(keys)), "a move was acknowledged to both processes"
    assert all(out.endswith("DONE\n") for out in outputs)
    # moves were made, and races were lost (which process wins them depends on the machine's
    # load, so one of them may win them all)
    assert acks and sum(1 for line in lines if line.get("stale")) > 0
    asyncio.run(check_rival_tables(db_url, table_ids, acks))


async def test_a_deadlock_between_two_processes_is_run_again(pg_server: PgServer) -> None:
    """Two transactions that lock two tables in opposite orders (kortbord's own lock in key
    order; this is the safety net): PostgreSQL aborts one, the backend runs it again, and both
    commit."""
    url = pg_server.url(pg_server.create_database())
    store = await Store.open(url)
    first, second = await lobby(store, 10, 1), await lobby(store, 11, 2)
    await store.close()
    backends = [await PostgresDatabase.open(parse_database_url(url)) for _ in range(2)]
    locked = [asyncio.Event(), asyncio.Event()]
    attempts = [0, 0]

    def crossing(me: int, rows: tuple[int, int]) -> Callable[[Tx], Awaitable[int]]:
        async def body(tx: Tx) -> int:
            attempts[me] += 1
            await tx.execute("UPDATE tables SET version = version + 1 WHERE id = ?", (rows[0],))
            locked[me].set()
            await locked[1 - me].wait()
            await tx.execute("UPDATE tables SET version = version + 1 WHERE id = ?", (rows[1],))
            return me

        return body

    try:
        done = await asyncio.gather(
            backends[0].transaction(crossing(0, (first.id, second.id))),
            backends[1].transaction(crossing(1, (second.id, first.id))),
        )
        assert done == [0, 1] and sorted(attempts) == [1, 2]
        rows = await backends[0].fetch("SELECT version FROM tables ORDER BY id")
        assert [r[0] for r in rows] == [2, 2]
    finally:
        for backend in backends:
            await backend.close()
