"""Schema migrations on real files: from an empty file, from every earlier version with data in
it, atomic steps, and a refusal to open a database newer than the code.

The fixtures write rows in the *old* schemas, so this file (alone outside ``bot.storage``)
holds SQL: it has to speak the schemas the store no longer writes.
"""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import aiosqlite
import pytest

from bot.games.base import Seat
from bot.games.dubb import DubbGame
from bot.games.registry import GAMES
from bot.games.tonk import DealNextHand, TonkTable
from bot.storage import MIGRATIONS, SCHEMA_VERSION, SchemaTooNewError, Store
from bot.storage.migrations import Migration, migrate
from bot.table import TableService
from tests.store.helpers import GUILD, check_against_log
from tests.store.toy import TOY, Add, ToyEngine, ToyOptions

T0 = 1_600_000_000.0


def schema(path: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
            "ORDER BY type, name"
        ).fetchall()
    return [(t, n, " ".join(sql.split())) for t, n, sql in rows]


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


async def build(path: Path, version: int) -> None:
    async with aiosqlite.connect(path, isolation_level=None) as db:
        assert await migrate(db, str(path), upto=version) == version


def fill_v1(db: sqlite3.Connection) -> None:
    """A playing table one move in (with a finished hand's ledger rows and stats), a lobby, and a
    finished table, as version 1 stored them."""
    seats = [Seat(1, "Anna"), Seat(2, "Bo")]
    engine = ToyEngine.new(seats, ToyOptions(hands=2), 7)
    start = {"type": "start", "seed": 7, "options": {"hands": 2, "stake": 1},
             "seats": [{"player_id": s.player_id, "name": s.name, "is_computer": False}
                       for s in seats]}
    events = engine.apply(1, Add(3))
    seats_json = json.dumps(start["seats"])
    db.execute(
        "INSERT INTO tables (id, guild_id, channel_id, kind, status, host_id, options, seats, "
        "message_id, state, seed, counter, created_at, updated_at, lobby_expires_at) "
        "VALUES (1, ?, 10, 'toy', 'playing', 1, ?, ?, 501, ?, 7, 1, ?, ?, NULL)",
        (GUILD, json.dumps(start["options"]), seats_json, json.dumps(engine.to_stored()),
         T0, T0),
    )
    db.execute(
        "INSERT INTO tables (id, guild_id, channel_id, kind, status, host_id, options, seats, "
        "created_at, updated_at, lobby_expires_at) "
        "VALUES (2, ?, 11, 'toy', 'lobby', 3, '{}', ?, ?, ?, ?)",
        (GUILD, json.dumps([{"player_id": 3, "name": "Cem", "is_computer": False}]), T0, T0,
         T0 + 900),
    )
    db.execute(
        "INSERT INTO tables (id, guild_id, channel_id, kind, status, host_id, options, seats, "
        "state, seed, counter, created_at, updated_at) "
        "VALUES (3, ?, 10, 'toy', 'finished', 1, '{}', ?, NULL, 1, 0, ?, ?)",
        (GUILD, seats_json, T0 - 100, T0 - 50),
    )
    db.executemany(
        "INSERT INTO moves (table_id, seq, player_id, move, events, created_at) "
        "VALUES (1, ?, 1, ?, ?, ?)",
        [(0, json.dumps(start), "[]", T0),
         (1, json.dumps({"type": "add", "n": 3}),
          json.dumps([TOY.events.to_dict(e) for e in events]), T0)],
    )
    db.executemany("INSERT INTO seat_claims (guild_id, player_id, table_id) VALUES (?, ?, ?)",
                   [(GUILD, 1, 1), (GUILD, 2, 1), (GUILD, 3, 2)])
    db.executemany(
        "INSERT INTO player_names (guild_id, player_id, name, is_computer, updated_at) "
        "VALUES (?, ?, ?, 0, ?)",
        [(GUILD, 1, "Anna", T0), (GUILD, 2, "Bo", T0), (GUILD, 3, "Cem", T0)],
    )


def fill_v2(db: sqlite3.Connection) -> None:
    """Version 1's rows, and a turn timer running on the playing table."""
    fill_v1(db)
    db.execute("UPDATE tables SET turn_seconds = 90, turn_deadline = ?, deadline_counter = 1 "
               "WHERE id = 1", (T0 + 90,))


def fill_v4(db: sqlite3.Connection) -> None:
    """Version 2's rows, the ledger rows naming their game."""
    fill_v2(db)
    db.execute("UPDATE ledger SET kind = 'toy'")


FIXTURES: dict[int, Callable[[sqlite3.Connection], None]] = {
    0: lambda db: None,
    1: fill_v1,
    2: fill_v2,
    3: fill_v2,  # version 3 only added an index
    4: fill_v4,
}


def test_every_earlier_version_has_a_fixture() -> None:
    """Adding migration n+1 means adding a fixture for version n here."""
    assert set(FIXTURES) == set(range(SCHEMA_VERSION))
    assert [m.version for m in MIGRATIONS] == list(range(1, SCHEMA_VERSION + 1))


async def test_empty_file_migrates_to_the_newest_schema(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        assert await store.pragma("journal_mode") == "wal"
        assert await store.pragma("synchronous") == 1
        assert await store.pragma("busy_timeout") == 5000
        assert await store.pragma("foreign_keys") == 1
    finally:
        await store.close()
    before = schema(path)
    names = {n for _, n, _ in before}
    assert {"tables", "moves", "ledger", "stats", "seat_claims", "player_names",
            "tables_live_channel", "tables_turn_deadline"} <= names
    store = await Store.open(path, synchronous="FULL")
    try:
        assert await store.pragma("synchronous") == 2
    finally:
        await store.close()
    assert schema(path) == before


@pytest.mark.parametrize("version", range(SCHEMA_VERSION))
async def test_migrates_from_every_earlier_version(
    tmp_path: Path, make_service: Callable[[Store], TableService], version: int
) -> None:
    fresh = tmp_path / "fresh.sqlite3"
    await build(fresh, SCHEMA_VERSION)
    old = tmp_path / f"v{version}.sqlite3"
    await build(old, version)
    with sqlite3.connect(old) as db:
        FIXTURES[version](db)
    assert user_version(old) == version

    store = await Store.open(old)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        if version == 0:
            assert await store.unfinished_tables() == []
            return
        unfinished = await store.unfinished_tables()
        assert [(r.id, r.status) for r in unfinished] == [(1, "playing"), (2, "lobby")]
        assert unfinished[0].message_id == 501
        if version == 1:
            assert all(r.turn_seconds == 0 and r.turn_deadline is None for r in unfinished)
        else:
            assert (unfinished[0].turn_seconds, unfinished[0].turn_deadline) == (90, T0 + 90)
            due = await store.due_deadlines(T0 + 100)
            assert [(d.table_id, d.what, d.counter) for d in due] == [(1, "turn", 1)]
        service = make_service(store)
        snap = await service.get(10)
        assert snap is not None and snap.counter == 1
        result = await service.apply(10, 2, Add(1), expected_counter=1)
        assert result.counter == 2
        await check_against_log(store, 1)
        assert (await service.table_of_player(GUILD, 3)) is not None
    finally:
        await store.close()
    assert schema(old) == schema(fresh)


async def test_a_newer_database_refuses_to_start(db_path: Path) -> None:
    await build(db_path, SCHEMA_VERSION)
    with sqlite3.connect(db_path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaTooNewError) as err:
        await Store.open(db_path)
    assert err.value.found == SCHEMA_VERSION + 1 and err.value.supported == SCHEMA_VERSION
    assert f"schema version {SCHEMA_VERSION + 1}" in str(err.value)
    assert user_version(db_path) == SCHEMA_VERSION + 1


async def test_a_failing_step_leaves_the_previous_version(db_path: Path) -> None:
    broken = (*MIGRATIONS[:1],
              Migration(2, "broken", ("CREATE TABLE half_done (a)", "SELECT * FROM nowhere")))
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        with pytest.raises(sqlite3.OperationalError):
            await migrate(db, str(db_path), migrations=broken)
    assert user_version(db_path) == 1
    assert "half_done" not in {n for _, n, _ in schema(db_path)}
    store = await Store.open(db_path)
    await store.close()
    assert user_version(db_path) == SCHEMA_VERSION


async def test_two_processes_opening_an_empty_file_migrate_once(db_path: Path) -> None:
    stores = await asyncio.gather(Store.open(db_path), Store.open(db_path))
    for store in stores:
        assert await store.schema_version() == SCHEMA_VERSION
        await store.close()


def test_bad_synchronous_setting_is_refused(db_path: Path) -> None:
    with pytest.raises(ValueError, match="NORMAL or FULL"):
        asyncio.run(Store.open(db_path, synchronous="OFF"))  # type: ignore[arg-type]


SCHEMA_3_GAMES = Path(__file__).parent / "fixtures" / "schema3.sqlite3"
"""A database written by kortbord at schema version 3 (commit 835dc91, before games became
plugins) through its own table service: two finished Dubb games (one with a computer), a Dubb
game in play, a Tonk table between hands after four hands, one in the middle of its fourth hand,
one stopped after two paid hands (with a computer), and a Dubb lobby."""


async def test_a_schema_3_database_of_real_games_keeps_everything_and_plays_on(
    tmp_path: Path,
) -> None:
    path = tmp_path / "kortbord.sqlite3"
    shutil.copy(SCHEMA_3_GAMES, path)
    with sqlite3.connect(path) as db:
        assert int(db.execute("PRAGMA user_version").fetchone()[0]) == 3
        before = {
            "tables": db.execute("SELECT id, kind, status, counter FROM tables ORDER BY id")
            .fetchall(),
            "moves": db.execute("SELECT count(*) FROM moves").fetchone()[0],
            "ledger": sorted(db.execute(
                "SELECT table_id, hand_no, payer_id, payee_id, amount, reason FROM ledger"
            ).fetchall()),
            "stats": sorted(db.execute(
                "SELECT kind, player_id, counter, sum(value) FROM stats "
                "GROUP BY kind, player_id, counter").fetchall()),
        }
    assert len(before["ledger"]) > 10

    store = await Store.open(path)
    try:
        service = TableService(store, GAMES, seed_source=lambda: 5)
        records = [await store.table(i) for i in range(1, 8)]
        assert [(r.id, r.kind, r.status, r.counter) for r in records if r is not None] == (
            before["tables"])
        for record in records:
            assert record is not None
            await check_against_log(store, record.id)
        entries = await store.ledger_entries(GUILD)
        assert {e.kind for e in entries} == {"tonk"}
        assert sorted((e.table_id, e.hand_no, e.payer_id, e.payee_id, e.amount, e.reason)
                      for e in entries) == before["ledger"]
        balances = await store.balances(GUILD, "tonk")
        assert sum(b.net for b in balances) == 0 and len(balances) == 8
        rows = {kind: await store.stats(GUILD, kind) for kind in ("dubb", "tonk")}
        after_stats = sorted((kind, row.player_id, counter, value)
                             for kind, kind_rows in rows.items() for row in kind_rows
                             for counter, value in row.counters.items())
        assert after_stats == before["stats"]

        # the Dubb game in play goes on to its end
        rng = random.Random(1)
        while (snap := await service.get(102)) is not None:
            engine = snap.engine
            assert isinstance(engine, DubbGame) and engine.to_move is not None
            move = GAMES["dubb"].strategies["greedy"]().choose(engine.observe(engine.to_move),
                                                               rng)
            await service.apply(102, engine.to_move, move, snap.counter)
        # the Tonk table in the middle of a hand plays that hand out and deals the next
        for _ in range(200):
            snap = await service.get(201)
            assert snap is not None and isinstance(snap.engine, TonkTable)
            table = snap.engine
            if table.to_move is None:
                await service.apply(201, table.seats[0].player_id, DealNextHand(),
                                    snap.counter)
                break
            move = GAMES["tonk"].strategies["greedy"]().choose(table.observe(table.to_move),
                                                               rng)
            await service.apply(201, table.to_move, move, snap.counter)
        # the lobby fills and starts
        await service.join(300, 12, "Lo")
        started = await service.start(300, 11)
        assert started.snapshot.is_playing
        for table_id in (3, 5, 7):
            await check_against_log(store, table_id)
        assert sum(b.net for b in await store.balances(GUILD, "tonk")) == 0
    finally:
        await store.close()
