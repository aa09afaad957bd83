"""Shards in the store and the table service (issue 17), on SQLite and PostgreSQL.

What a process finds by itself — due deadlines, the next deadline, computers to wake, tables to
redraw, live tables — is only its shards' servers, chosen in SQL by Discord's routing
``(guild_id >> 22) % count`` (an index still decides what is read). What it may change is not
limited: a process whose copy of a table is behind the database catches up, and two processes
racing for the same lobby, move, deadline or expiry write once.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import asyncpg
import pytest

from bot.storage import (
    SeatInfo,
    Shards,
    Store,
    TableChangedError,
    TableRecord,
    parse_database_url,
)
from bot.storage.database import Database, Row
from bot.table import TableService
from tests.store.conftest import FakeClock
from tests.store.helpers import check_table, started_table
from tests.store.toy import Add

NOW = 1_700_000_000.0
COUNT = 4
EPOCH_MS = 1_420_070_400_000
"""Discord's epoch; real server ids are milliseconds since it, shifted left by 22 bits."""


def guild_on(shard: int, n: int = 0) -> int:
    """A server id the size of a real one, whose events Discord routes to ``shard``."""
    ms = 1_700_000_000_000 - EPOCH_MS + n * COUNT
    ms += (shard - ms) % COUNT
    return (ms << 22) | 12345


async def _table(store: Store, guild: int, channel: int, *, deadline: float | None = None,
                 to_move: int | None = None, behind: bool = False) -> TableRecord:
    """A game in play (seats 1 and 2, or a computer -1 to move), with a turn deadline, and its
    message behind if asked."""
    seats = [SeatInfo(player_id=channel * 10 + 1, name="A"),
             SeatInfo(player_id=-1, name="Astrid", is_computer=True)]
    lobby = await store.create_lobby(
        guild_id=guild, channel_id=channel, kind="toy", host=seats[0], options={},
        turn_seconds=30, lobby_expires_at=None, now=NOW, guests=seats[1:],
    )
    started = await store.start_table(lobby.id, seats=seats, state="{}", seed=1,
                                      start_record={"type": "start"},
                                      by_id=seats[0].player_id, turn_deadline=deadline,
                                      now=NOW, to_move=to_move)
    await store.set_message_id(lobby.id, channel * 100,
                               shown_version=None if behind else started.version)
    record = await store.table(lobby.id)
    assert record is not None
    return record


async def _world(store: Store) -> dict[str, dict[int, list[int]]]:
    """On each of four shards' servers: a turn deadline, an expiring lobby, a computer's turn
    and a table whose message is behind. Returns, per kind of thing, the table ids by shard."""
    found: dict[str, dict[int, list[int]]] = {
        k: {s: [] for s in range(COUNT)} for k in ("deadline", "lobby", "computer", "behind")
    }
    channels = itertools.count(1)
    for shard in range(COUNT):
        for n in range(2):
            guild = guild_on(shard, n)
            timed = await _table(store, guild, next(channels), deadline=NOW + 10 + shard)
            found["deadline"][shard].append(timed.id)
            lobby = await store.create_lobby(
                guild_id=guild, channel_id=next(channels), kind="toy",
                host=SeatInfo(player_id=next(channels), name="L"), options={}, turn_seconds=0,
                lobby_expires_at=NOW + 20 + shard, now=NOW,
            )
            found["lobby"][shard].append(lobby.id)
            computer = await _table(store, guild, next(channels), to_move=-1)
            found["computer"][shard].append(computer.id)
            behind = await _table(store, guild, next(channels), behind=True)
            found["behind"][shard].append(behind.id)
    return found


def _ids(found: dict[int, list[int]], shards: Sequence[int]) -> list[int]:
    return sorted(i for s in shards for i in found[s])


@pytest.mark.parametrize("mine", [(0, 1), (2, 3), (3,), (0, 1, 2, 3)])
async def test_a_process_finds_only_its_shards_tables(store: Store, mine: tuple[int, ...]
                                                      ) -> None:
    found = await _world(store)
    shards = Shards(count=COUNT, ids=mine)
    due = await store.due_deadlines(NOW + 60, shards=shards)
    assert sorted(d.table_id for d in due if d.what == "turn") == _ids(found["deadline"], mine)
    assert sorted(d.table_id for d in due if d.what == "lobby") == _ids(found["lobby"], mine)
    assert all(shards.owns(d.guild_id) for d in due)
    assert await store.next_deadline(shards=shards) == NOW + 10 + min(mine)
    assert sorted(r.id for r in await store.computer_turns(shards=shards)) == _ids(
        found["computer"], mine)
    assert sorted(r.id for r in await store.tables_behind(100, shards=shards)) == _ids(
        found["behind"], mine)
    live = {r.id for r in await store.unfinished_tables(shards=shards)}
    assert live == {i for things in found.values() for i in _ids(things, mine)}


async def test_without_shards_a_process_finds_every_table(store: Store) -> None:
    found = await _world(store)
    everything = list(range(COUNT))
    assert len(await store.due_deadlines(NOW + 60)) == 2 * 2 * COUNT
    assert await store.next_deadline() == NOW + 10
    assert sorted(r.id for r in await store.computer_turns()) == _ids(found["computer"],
                                                                      everything)
    assert sorted(r.id for r in await store.tables_behind(100)) == _ids(found["behind"],
                                                                        everything)


class Recording:
    """A backend that remembers every read the store sends it."""

    def __init__(self, inner: Database) -> None:
        self._inner = inner
        self.reads: list[tuple[str, list[Any]]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self.reads.append((sql, list(params)))
        return await self._inner.fetch(sql, params)


async def _plans(db_url: str, reads: list[tuple[str, list[Any]]]) -> list[str]:
    """Each read's query plan: SQLite's, or PostgreSQL's with sequential scans priced out (so
    the plan shows whether an index can serve the query at all, whatever the table's size)."""
    target = parse_database_url(db_url)
    plans = []
    if target.backend == "sqlite":
        import sqlite3

        assert target.path is not None
        with sqlite3.connect(target.path) as db:
            for sql, params in reads:
                rows = db.execute(f"EXPLAIN QUERY PLAN {sql}", params).fetchall()
                plans.append("\n".join(str(r[-1]) for r in rows))
        return plans
    from bot.storage.postgres import numbered

    conn = await asyncpg.connect(target.dsn)
    try:
        await conn.execute("SET enable_seqscan = off")
        for sql, params in reads:
            rows = await conn.fetch(f"EXPLAIN {numbered(sql)}", *params)
            plans.append("\n".join(r[0] for r in rows))
    finally:
        await conn.close()
    return plans


async def test_the_shard_filtered_reads_are_served_by_indexes(db_url: str) -> None:
    plain = await Store.open(db_url)
    try:
        await _world(plain)
        recording = Recording(plain.db)
        store = Store(recording)  # type: ignore[arg-type]
        shards = Shards(count=COUNT, ids=(1, 2))
        await store.due_deadlines(NOW + 60, shards=shards)
        await store.next_deadline(shards=shards)
        await store.computer_turns(shards=shards)
        await store.tables_behind(100, shards=shards)
        await store.unfinished_tables(shards=shards)
        assert len(recording.reads) == 5
        for (sql, _), plan in zip(recording.reads, await _plans(db_url, recording.reads),
                                  strict=True):
            assert "% ?" in sql
            # SQLite: "SCAN tables" without "USING ... INDEX"; PostgreSQL: "Seq Scan on tables"
            whole = [line for line in plan.splitlines()
                     if re.search(r"\bSCAN tables\b(?!.*INDEX)|Seq Scan on tables", line)]
            assert whole == [], f"{sql}\n{plan}"
    finally:
        await plain.close()


# -- two processes, one table -------------------------------------------------------------------


async def _two(db_url: str, make: Callable[[Store], TableService]
               ) -> tuple[TableService, TableService, Callable[[], Awaitable[None]]]:
    first, second = await Store.open(db_url), await Store.open(db_url)

    async def close() -> None:
        await first.close()
        await second.close()

    return make(first), make(second), close


async def test_a_copy_behind_the_database_catches_up_on_a_newer_button(
    db_url: str, make_service: Callable[[Store], TableService]
) -> None:
    """A rolling restart: the new process read the table, then the old one moved it on. The
    new one's next click carries the newer counter, and it plays on instead of refusing every
    move as stale; its deadline check catches up too."""
    one, two, close = await _two(db_url, make_service)
    try:
        table_id = await started_table(one, 10, (1, 2), options={"hands": 3})
        assert (await two.get(10)) is not None
        await one.apply(10, 1, Add(1), expected_counter=0)
        await one.apply(10, 2, Add(1), expected_counter=1)
        stale = await two.get(10)
        assert stale is not None and stale.counter == 0
        result = await two.apply(10, 1, Add(2), expected_counter=2)
        assert result.counter == 3
        fresh = await one.get(10, counter=3)
        assert fresh is not None and fresh.counter == 3
        assert await check_table(one.store, table_id) == 3
    finally:
        await close()


async def test_a_copy_that_still_shows_the_lobby_catches_up_when_the_game_started(
    db_url: str, make_service: Callable[[Store], TableService]
) -> None:
    one, two, close = await _two(db_url, make_service)
    try:
        await one.open_lobby(1000, 10, "toy", 1, "P1")
        lobby = await two.get(10)
        assert lobby is not None and lobby.is_lobby
        await one.join(10, 2, "P2")
        await one.start(10, 1)
        result = await two.apply(10, 1, Add(1), expected_counter=0)
        assert result.counter == 1
    finally:
        await close()


async def test_a_lobby_changed_by_another_process_is_never_written_over(
    db_url: str, make_service: Callable[[Store], TableService]
) -> None:
    """Lobby changes read the lobby afresh (a copy may be behind), and the store refuses a
    write over a change it did not see (``test_a_stale_lobby_write_is_refused_by_the_store``)."""
    one, two, close = await _two(db_url, make_service)
    try:
        await one.open_lobby(1000, 10, "toy", 1, "P1")
        assert await two.get(10) is not None
        await one.join(10, 2, "P2")
        joined = await two.join(10, 3, "P3")
        assert [s.player_id for s in joined.snapshot.seats] == [1, 2, 3]
        await one.leave(10, 3)
        started = await two.start(10, 1)
        assert [s.player_id for s in started.snapshot.seats] == [1, 2]
    finally:
        await close()


async def test_racing_deadlines_fire_once_and_a_started_lobby_never_expires(
    db_url: str, clock: FakeClock, make_service: Callable[[Store], TableService]
) -> None:
    one, two, close = await _two(db_url, make_service)
    try:
        table_id = await started_table(one, 10, (1, 2), turn_seconds=30)
        assert await two.get(10) is not None
        clock.advance(31)
        due = await two.due_deadlines()
        assert [(d.table_id, d.counter) for d in due] == [(table_id, 0)]
        fired = [await one.expire_turn(10, 0), await two.expire_turn(10, 0)]
        assert fired[0] is not None and fired[1] is None
        assert [m.move["type"] for m in await one.moves(table_id)][1:] == ["timeout"]

        # a lobby the other process started in the meantime is a game now: it stays
        await one.open_lobby(1000, 11, "toy", 3, "P3")
        assert await two.get(11) is not None
        await one.join(11, 4, "P4")
        await one.start(11, 3)
        clock.advance(3600)
        assert await two.expire_lobby(11) is None
        game = await one.get(11)
        assert game is not None and game.is_playing

        # two processes expiring one lobby: it closes once
        await one.open_lobby(1000, 12, "toy", 5, "P5")
        assert await two.get(12) is not None
        clock.advance(3600)
        closed = [await one.expire_lobby(12), await two.expire_lobby(12)]
        assert closed[0] is not None and closed[0].status == "cancelled" and closed[1] is None
    finally:
        await close()


async def test_a_stale_lobby_write_is_refused_by_the_store(store: Store) -> None:
    lobby = await store.create_lobby(
        guild_id=1000, channel_id=10, kind="toy", host=SeatInfo(player_id=1, name="P1"),
        options={}, turn_seconds=0, lobby_expires_at=None, now=NOW,
    )
    seats = [SeatInfo(player_id=1, name="P1"), SeatInfo(player_id=2, name="P2")]
    saved = await store.save_lobby(lobby.id, seats=seats, host_id=1, now=NOW,
                                   expected_version=lobby.version)
    with pytest.raises(TableChangedError):
        await store.save_lobby(lobby.id, seats=seats[:1], host_id=1, now=NOW,
                               expected_version=lobby.version)
    with pytest.raises(TableChangedError):
        await store.start_table(lobby.id, seats=seats, state="{}", seed=1,
                                start_record={"type": "start"}, by_id=1, turn_deadline=None,
                                now=NOW, expected_version=lobby.version)
    with pytest.raises(TableChangedError):
        await store.close_table(lobby.id, status="cancelled", now=NOW,
                                expected_version=lobby.version)
    started = await store.start_table(lobby.id, seats=seats, state="{}", seed=1,
                                      start_record={"type": "start"}, by_id=1,
                                      turn_deadline=None, now=NOW,
                                      expected_version=saved.version)
    assert started.status == "playing"
