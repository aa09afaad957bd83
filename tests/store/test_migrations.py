"""Schema migrations on real databases, SQLite and PostgreSQL: from an empty database, from every
earlier version with data in it, atomic steps, one migration when two processes start at once,
a refusal to open a database newer than the code, and the same logical schema on both backends
at every version.

The fixtures write rows in the *old* schemas, and the schema comparison reads each database's
catalogue, so this file (alone outside ``bot.storage``) holds SQL: it has to speak the schemas
the store no longer writes.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import shutil
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
import pytest

from bot.gamekit.contract import Seat
from bot.games.dubb import DubbEngine
from bot.games.registry import GAMES
from bot.games.tonk import DealNextHand, TonkEngine
from bot.storage import MIGRATIONS, SCHEMA_VERSION, SchemaTooNewError, Store, parse_database_url
from bot.storage.migrations import Migration, migrate_postgresql, migrate_sqlite
from bot.storage.postgres import numbered
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


async def build(url: str, version: int, migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """Migrate the database at ``url`` up to ``version`` with the backend's own runner."""
    target = parse_database_url(url)
    if target.path is not None:
        async with aiosqlite.connect(target.path, isolation_level=None) as db:
            return await migrate_sqlite(db, str(target.path), migrations=migrations,
                                        upto=version)
    conn = await asyncpg.connect(target.dsn)
    try:
        return await migrate_postgresql(conn, url, migrations=migrations, upto=version)
    finally:
        await conn.close()


async def postgresql(url: str, sql: str, *params: Any) -> list[Any]:
    conn = await asyncpg.connect(parse_database_url(url).dsn)
    try:
        return list(await conn.fetch(sql, *params))
    finally:
        await conn.close()


class Writes:
    """A fixture's statements, collected so they can run on either backend."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[Sequence[Any]]]] = []

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        self.calls.append((sql, [params]))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.calls.append((sql, list(rows)))

    async def run(self, url: str) -> None:
        target = parse_database_url(url)
        if target.path is not None:
            with sqlite3.connect(target.path) as db:
                for sql, rows in self.calls:
                    db.executemany(sql, rows)
            return
        conn = await asyncpg.connect(target.dsn)
        try:
            async with conn.transaction():
                for sql, rows in self.calls:
                    await conn.executemany(numbered(sql), rows)
        finally:
            await conn.close()


def fill_v1(db: Writes) -> None:
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


def fill_v2(db: Writes) -> None:
    """Version 1's rows, and a turn timer running on the playing table."""
    fill_v1(db)
    db.execute("UPDATE tables SET turn_seconds = 90, turn_deadline = ?, deadline_counter = 1 "
               "WHERE id = 1", (T0 + 90,))


def fill_v4(db: Writes) -> None:
    """Version 2's rows, the ledger rows naming their game."""
    fill_v2(db)
    db.execute("UPDATE ledger SET kind = 'toy'")


def fill_v13(db: Writes) -> None:
    """Version 4's rows, the live table claimed by a run that was killed (it never released
    its claim), and an event in its second round."""
    fill_v4(db)
    db.execute("INSERT INTO posting_runs (table_id, run_id) VALUES (1, 5)")
    db.execute("INSERT INTO events (id, guild_id, channel_id, kind, status, host_id, settings, "
               "round, announced, created_at, updated_at) "
               "VALUES (4, ?, 99, 'toy', 'running', 1, '{}', 2, 1, ?, ?)", (GUILD, T0, T0))


FIXTURES: dict[int, Callable[[Writes], None]] = {
    0: lambda db: None,
    1: fill_v1,
    2: fill_v2,
    3: fill_v2,  # version 3 only added an index
    4: fill_v4,
    5: fill_v4,  # version 5 added settings and seasons, none needed here
    6: fill_v4,  # version 6 added committed deals and the ledger chain, none needed here
    7: fill_v4,  # version 7 added the ratings, derived data rebuilt by rerate
    8: fill_v4,  # version 8 added events, none needed here
    9: fill_v4,  # version 9 added channel webhooks, none needed here
    10: fill_v4,  # version 10 added the daily deal, none needed here
    11: fill_v4,  # version 11 added cross-server daily boards, none needed here
    12: fill_v4,  # version 12 added where strays may stand, none needed here
    13: fill_v13,
}


SQLITE_TYPES = {"INTEGER": "bigint", "TEXT": "text", "REAL": "double precision"}
"""Each SQLite type and the PostgreSQL type that holds the same values."""

Schema = dict[str, dict[str, Any]]


def sqlite_logical_schema(path: Path) -> Schema:
    """Tables, columns (name, type, nullable, default, generated id), primary key, unique keys,
    indexes (name, unique, columns, partial) and foreign keys, in PostgreSQL's type names."""
    out: Schema = {}
    with sqlite3.connect(path) as db:
        def columns_of(index: str) -> tuple[str, ...]:
            rows = db.execute(f"PRAGMA index_info({index})").fetchall()
            return tuple(r[2] for r in sorted(rows))

        tables = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' "
                            "AND name NOT LIKE 'sqlite_%' ORDER BY name").fetchall()
        for table, sql in tables:
            info = db.execute(f"PRAGMA table_info({table})").fetchall()
            key = [c[1] for c in sorted((c for c in info if c[5]), key=lambda c: c[5])]
            # a rowid table's lone INTEGER PRIMARY KEY numbers new rows by itself
            generated = ("WITHOUT ROWID" not in sql and len(key) == 1
                         and [c[2] for c in info if c[1] == key[0]] == ["INTEGER"])
            indexes = db.execute(f"PRAGMA index_list({table})").fetchall()
            out[table] = {
                "columns": [(c[1], SQLITE_TYPES[c[2]], not (c[3] or c[5]), c[4],
                             generated and c[1] == key[0]) for c in info],
                "primary_key": key,
                "unique": sorted(columns_of(i[1]) for i in indexes if i[3] == "u"),
                "indexes": sorted((i[1], bool(i[2]), columns_of(i[1]), bool(i[4]))
                                  for i in indexes if i[3] == "c"),
                "foreign_keys": sorted((r[3], r[2], r[4]) for r in
                                       db.execute(f"PRAGMA foreign_key_list({table})")),
            }
    return out


async def postgresql_logical_schema(url: str) -> Schema:
    """The same description of a PostgreSQL database (its own ``schema_version`` left out)."""
    out: Schema = {}
    columns = await postgresql(url, """
        SELECT table_name, column_name, data_type, is_nullable = 'YES', column_default,
               is_identity = 'YES'
        FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> 'schema_version'
        ORDER BY table_name, ordinal_position""")
    for table, name, kind, nullable, default, generated in columns:
        entry = out.setdefault(table, {"columns": [], "primary_key": [], "unique": [],
                                       "indexes": [], "foreign_keys": []})
        # PostgreSQL spells a default with its type: ''::text
        plain = None if default is None else re.sub(r"::[a-z ]+$", "", default)
        entry["columns"].append((name, kind, nullable, plain, generated))
    keys = await postgresql(url, """
        SELECT t.relname, c.contype::text,
               array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, i)
                     JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n
                     ORDER BY k.i)
        FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
        JOIN pg_namespace s ON s.oid = t.relnamespace
        WHERE s.nspname = 'public' AND c.contype IN ('p', 'u') AND t.relname <> 'schema_version'
        """)
    for table, kind, names in keys:
        if kind == "p":
            out[table]["primary_key"] = list(names)
        else:
            out[table]["unique"].append(tuple(names))
    indexes = await postgresql(url, """
        SELECT t.relname, i.relname, ix.indisunique, ix.indpred IS NOT NULL,
               array(SELECT a.attname FROM unnest(ix.indkey::int2[]) WITH ORDINALITY k(n, o)
                     JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.n
                     ORDER BY k.o)
        FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid
        JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_namespace s ON s.oid = t.relnamespace
        WHERE s.nspname = 'public'
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = ix.indexrelid)""")
    for table, name, unique, partial, names in indexes:
        out[table]["indexes"].append((name, unique, tuple(names), partial))
    foreign = await postgresql(url, """
        SELECT t.relname, a.attname, f.relname, af.attname
        FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
        JOIN pg_class f ON f.oid = c.confrelid
        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
        JOIN pg_attribute af ON af.attrelid = c.confrelid AND af.attnum = c.confkey[1]
        WHERE c.contype = 'f'""")
    for table, column, ref_table, ref_column in foreign:
        out[table]["foreign_keys"].append((column, ref_table, ref_column))
    for entry in out.values():
        for part in ("unique", "indexes", "foreign_keys"):
            entry[part].sort()
    return out


async def logical_schema(url: str) -> Schema:
    target = parse_database_url(url)
    if target.path is not None:
        return sqlite_logical_schema(target.path)
    return await postgresql_logical_schema(url)


async def schema_version_of(url: str) -> int:
    target = parse_database_url(url)
    if target.path is not None:
        return user_version(target.path)
    rows = await postgresql(url, "SELECT coalesce(max(version), 0) FROM schema_version")
    return int(rows[0][0])


def test_every_earlier_version_has_a_fixture() -> None:
    """Adding migration n+1 means adding a fixture for version n here, and statements for both
    backends."""
    assert set(FIXTURES) == set(range(SCHEMA_VERSION))
    assert [m.version for m in MIGRATIONS] == list(range(1, SCHEMA_VERSION + 1))
    assert all(m.sqlite and m.postgresql for m in MIGRATIONS)


async def test_empty_file_migrates_to_the_newest_schema(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        assert await store.sqlite.pragma("journal_mode") == "wal"
        assert await store.sqlite.pragma("synchronous") == 1
        assert await store.sqlite.pragma("busy_timeout") == 5000
        assert await store.sqlite.pragma("foreign_keys") == 1
    finally:
        await store.close()
    before = schema(path)
    names = {n for _, n, _ in before}
    assert {"tables", "moves", "ledger", "stats", "seat_claims", "player_names",
            "tables_live_channel", "tables_turn_deadline"} <= names
    store = await Store.open(path, synchronous="FULL")
    try:
        assert await store.sqlite.pragma("synchronous") == 2
    finally:
        await store.close()
    assert schema(path) == before


async def test_empty_postgresql_database_migrates_and_records_each_step(
    pg_server: Any,
) -> None:
    url = pg_server.url(pg_server.create_database())
    store = await Store.open(url)
    try:
        assert store.backend == "postgresql"
        assert await store.schema_version() == SCHEMA_VERSION
        with pytest.raises(TypeError):
            store.sqlite  # noqa: B018 - SQLite's own checks are not there on PostgreSQL
    finally:
        await store.close()
    rows = await postgresql(url, "SELECT version, description FROM schema_version "
                                 "ORDER BY version")
    assert [tuple(r) for r in rows] == [(m.version, m.description) for m in MIGRATIONS]


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION + 1))
async def test_both_backends_reach_the_same_logical_schema(
    tmp_path: Path, pg_server: Any, version: int
) -> None:
    """Every step's PostgreSQL statements make the same tables, columns, keys and indexes as its
    SQLite statements (types mapped: INTEGER is BIGINT, REAL is DOUBLE PRECISION)."""
    sqlite_url = f"sqlite:///{tmp_path / 'schema.sqlite3'}"
    postgres_url = pg_server.url(pg_server.create_database())
    assert await build(sqlite_url, version) == version
    assert await build(postgres_url, version) == version
    expected = await logical_schema(sqlite_url)
    assert await logical_schema(postgres_url) == expected
    assert "tables" in expected and ("seasons" in expected) == (version >= 5)
    assert ("ratings" in expected) == (version >= 7)
    assert ("event_tables" in expected) == (version >= 8)


@pytest.mark.parametrize("version", range(SCHEMA_VERSION))
async def test_migrates_from_every_earlier_version(
    db_url: str, tmp_path: Path, make_service: Callable[[Store], TableService], version: int
) -> None:
    fresh = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    await build(fresh, SCHEMA_VERSION)
    assert await build(db_url, version) == version
    writes = Writes()
    FIXTURES[version](writes)
    await writes.run(db_url)
    assert await schema_version_of(db_url) == version

    store = await Store.open(db_url)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        if version == 0:
            assert await store.unfinished_tables() == []
            return
        unfinished = await store.unfinished_tables()
        assert [(r.id, r.status) for r in unfinished] == [(1, "playing"), (2, "lobby")]
        assert unfinished[0].message_id == 501
        # version 7: tables from before the ratings count as rated
        assert all(r.rated for r in unfinished)
        # version 9: a table message from before is the bot's own
        assert all(r.message_webhook is None for r in unfinished)
        # version 13: no token is stored for a message from before, and whether the process
        # before stopped cleanly is not known: the live table with a message is looked at
        assert all(r.message_token is None for r in unfinished)
        assert await store.claim_posts(7) == {1: False}
        if version == 13:
            # version 14: the seating of an event's rounds so far was posted as they began
            event = await store.events.event(4)
            assert event is not None and (event.round, event.seated) == (2, 2)
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
    assert await logical_schema(db_url) == await logical_schema(fresh)
    path = parse_database_url(db_url).path
    if path is not None:
        assert schema(path) == schema(Path(fresh.removeprefix("sqlite:///")))


async def set_schema_version(url: str, version: int) -> None:
    target = parse_database_url(url)
    if target.path is not None:
        with sqlite3.connect(target.path) as db:
            db.execute(f"PRAGMA user_version = {version}")
        return
    await postgresql(url, "INSERT INTO schema_version (version, description) "
                          "VALUES ($1, 'from the future')", version)


async def test_a_newer_database_refuses_to_start(db_url: str) -> None:
    await build(db_url, SCHEMA_VERSION)
    await set_schema_version(db_url, SCHEMA_VERSION + 1)
    with pytest.raises(SchemaTooNewError) as err:
        await Store.open(db_url)
    assert err.value.found == SCHEMA_VERSION + 1 and err.value.supported == SCHEMA_VERSION
    assert f"schema version {SCHEMA_VERSION + 1}" in str(err.value)
    assert await schema_version_of(db_url) == SCHEMA_VERSION + 1


async def test_a_failing_step_leaves_the_previous_version(db_url: str) -> None:
    broken = (*MIGRATIONS[:1],
              Migration(2, "broken",
                        sqlite=("CREATE TABLE half_done (a)", "SELECT * FROM nowhere"),
                        postgresql=("CREATE TABLE half_done (a BIGINT)",
                                    "SELECT * FROM nowhere")))
    with pytest.raises((sqlite3.OperationalError, asyncpg.UndefinedTableError)):
        await build(db_url, 2, broken)
    assert await schema_version_of(db_url) == 1
    assert "half_done" not in await logical_schema(db_url)
    store = await Store.open(db_url)
    await store.close()
    assert await schema_version_of(db_url) == SCHEMA_VERSION


async def test_processes_opening_an_empty_database_at_once_migrate_once(db_url: str) -> None:
    """Three stores (each its own connections, as three processes would have) open a new
    database together: one migrates, the others wait and find the work done."""
    stores = await asyncio.gather(*(Store.open(db_url) for _ in range(3)))
    for store in stores:
        assert await store.schema_version() == SCHEMA_VERSION
        await store.close()
    if parse_database_url(db_url).backend == "postgresql":
        rows = await postgresql(db_url, "SELECT version FROM schema_version ORDER BY version")
        assert [r[0] for r in rows] == list(range(1, SCHEMA_VERSION + 1))


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
            assert isinstance(engine, DubbEngine) and engine.to_move is not None
            move = GAMES["dubb"].strategies["greedy"]().choose(engine.observe(engine.to_move),
                                                               rng)
            await service.apply(102, engine.to_move, move, snap.counter)
        # the Tonk table in the middle of a hand plays that hand out and deals the next
        for _ in range(200):
            snap = await service.get(201)
            assert snap is not None and isinstance(snap.engine, TonkEngine)
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
