"""Moving up: ``python -m bot.ops copy`` takes a SQLite database that grew (a thousand finished
games, a hundred in play, their ledger, stats, seats, names, settings and seasons) to PostgreSQL
with nothing lost, and the games in play go on there; real Dubb and Tonk games too; and back
down. A copy refuses a target that holds anything, and one that does not add up writes nothing.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bot.games.dubb import DubbEngine
from bot.games.registry import GAMES
from bot.games.tonk import DealNextHand, TonkEngine
from bot.storage import SeatInfo, Store
from bot.storage import copy as copy_module
from bot.storage.copy import TABLES, CopyError, copy_database
from bot.table import TableService
from tests.forks import run
from tests.store.helpers import GUILD, check_table, play_to_end
from tests.store.pgserver import PgServer
from tests.store.test_migrations import SCHEMA_3_GAMES, sqlite_logical_schema
from tests.store.toy import TOY, Add

ROOT = Path(__file__).resolve().parents[2]
GUILDS = (1001, 1002, 1003)
FINISHED = 1000
UNFINISHED = 100
NOW = 1_700_000_000.0


async def grow(url: str) -> None:
    """A server's history: ``FINISHED`` finished Race games and ``UNFINISHED`` in play (one of
    them with a computer), over three guilds, players sitting at many tables over time, with
    names, settings and a second ledger season."""
    store = await Store.open(url)
    try:
        rng = random.Random(42)
        service = TableService(store, {"toy": TOY}, seed_source=lambda: rng.randrange(2**63))
        for n in range(FINISHED + UNFINISHED):
            guild = GUILDS[n % len(GUILDS)]
            channel = 10_000 + n
            players = rng.sample(range(1, 60), 3) if n < FINISHED else \
                [100 + 3 * n, 101 + 3 * n, 102 + 3 * n]
            await service.open_lobby(guild, channel, "toy", players[0], f"P{players[0]}",
                                     {"hands": 1, "stake": rng.randint(1, 9)})
            for p in players[1:]:
                await service.join(channel, p, f"P{p}")
            if n == FINISHED:
                await service.add_computer(channel, players[0], -1, "🤖 Astrid")
            await service.start(channel, players[0])
            if n < FINISHED:
                await play_to_end(service, channel, rng)
            else:
                snap = await service.get(channel)
                assert snap is not None
                await service.apply(channel, snap.engine.to_move, Add(1), snap.counter)
            if n == FINISHED // 2:
                await store.start_season(GUILDS[0], "toy", by_id=7, now=NOW)
        await store.set_guild_settings(GUILDS[0], {"language": "sv"}, now=NOW)
        await store.set_user_settings(7, {"pings": False}, now=NOW)
    finally:
        await store.close()


async def everything(url: str, guilds: tuple[int, ...] = GUILDS,
                     kinds: tuple[str, ...] = ("toy",)) -> dict[str, Any]:
    """What the store shows of a database, through its own API."""
    store = await Store.open(url)
    try:
        unfinished = await store.unfinished_tables()
        out: dict[str, Any] = {
            "unfinished": unfinished,
            "claims": [await store.claim_of(t.guild_id, s.player_id)
                       for t in unfinished for s in t.seats],
            "user settings": await store.user_settings(7),
            "deadlines": await store.due_deadlines(NOW * 2),
        }
        for guild in guilds:
            tables = await store.tables_of_guild(guild)
            out[f"tables {guild}"] = tables
            out[f"moves {guild}"] = [await store.moves(t.id) for t in tables[::37]]
            out[f"states {guild}"] = [await store.table_state(t.id) for t in tables[::37]]
            out[f"ledger {guild}"] = await store.ledger_entries(guild)
            out[f"settings {guild}"] = await store.guild_settings(guild)
            for kind in kinds:
                out[f"balances {guild} {kind}"] = await store.balances(guild, kind)
                out[f"season 2 {guild} {kind}"] = await store.balances(guild, kind, season=2)
                out[f"stats {guild} {kind}"] = await store.stats(guild, kind)
                out[f"seasons {guild} {kind}"] = await store.seasons(guild, kind)
        return out
    finally:
        await store.close()


def test_the_copy_covers_every_column_of_the_schema(tmp_path: Path) -> None:
    """A migration that adds a table or a column must add it to ``bot.storage.copy.TABLES``."""
    path = tmp_path / "schema.sqlite3"

    async def create() -> None:
        await (await Store.open(path)).close()

    asyncio.run(create())
    schema = sqlite_logical_schema(path)
    assert {t.name for t in TABLES} == set(schema)
    kinds = {"bigint": "int", "double precision": "real", "text": "text"}
    for table in TABLES:
        assert [(c[0], kinds[c[1]]) for c in schema[table.name]["columns"]] == list(
            table.columns), table.name
        assert list(table.key) == schema[table.name]["primary_key"], table.name


@pytest.mark.slow
async def test_moving_up_keeps_every_game_and_every_chip_and_play_goes_on(
    tmp_path: Path, pg_server: PgServer
) -> None:
    source = f"sqlite:///{tmp_path / 'grown.sqlite3'}"
    await grow(source)
    target = pg_server.url(pg_server.create_database())
    report = await copy_database(source, target)
    assert report.rows["tables"] == FINISHED + UNFINISHED
    assert report.rows["moves"] > 5 * FINISHED and report.rows["ledger"] > 2 * FINISHED
    assert report.rows["seat_claims"] == 3 * UNFINISHED and report.rows["seasons"] == 1
    assert report.rows["guild_settings"] == report.rows["user_settings"] == 1
    before = await everything(source)
    assert await everything(target) == before

    store = await Store.open(target)
    try:
        assert store.backend == "postgresql"
        rng = random.Random(7)
        service = TableService(store, {"toy": TOY}, seed_source=lambda: rng.randrange(2**63))
        unfinished = await service.unfinished_tables()
        assert len(unfinished) == UNFINISHED
        for record in unfinished:
            await play_to_end(service, record.channel_id, rng)
            await check_table(store, record.id)
        assert await service.unfinished_tables() == []
        for guild in GUILDS:
            assert sum(b.net for b in await store.balances(guild, "toy")) == 0
        # new tables and payments continue after the copied ids
        fresh = await service.open_lobby(GUILDS[0], 1, "toy", 1, "Anna")
        assert fresh.table_id == FINISHED + UNFINISHED + 1
        entries = await store.ledger_entries(GUILDS[0], limit=1)
        assert entries[0].id > report.rows["ledger"]
    finally:
        await store.close()


async def test_real_games_move_up_and_down_and_play_on(tmp_path: Path, pg_server: PgServer
                                                       ) -> None:
    """The schema-3 database of real Dubb and Tonk games (tests/store/test_migrations.py):
    to PostgreSQL, played on there by the registered games, and back to a new SQLite file."""
    source = tmp_path / "kortbord.sqlite3"
    shutil.copy(SCHEMA_3_GAMES, source)
    target = pg_server.url(pg_server.create_database())
    await copy_database(source, target)
    store = await Store.open(target)
    try:
        service = TableService(store, GAMES, seed_source=lambda: 5)
        rng = random.Random(1)
        while (snap := await service.get(102)) is not None:
            engine = snap.engine
            assert isinstance(engine, DubbEngine) and engine.to_move is not None
            move = GAMES["dubb"].strategies["greedy"]().choose(engine.observe(engine.to_move),
                                                               rng)
            await service.apply(102, engine.to_move, move, snap.counter)
        while (snap := await service.get(201)) is not None:
            table = snap.engine
            assert isinstance(table, TonkEngine)
            if table.to_move is None:
                await service.apply(201, table.seats[0].player_id, DealNextHand(), snap.counter)
                break
            move = GAMES["tonk"].strategies["greedy"]().choose(table.observe(table.to_move),
                                                               rng)
            await service.apply(201, table.to_move, move, snap.counter)
        for record in await store.tables_of_guild(GUILD):
            await check_table(store, record.id)
    finally:
        await store.close()
    back = tmp_path / "back.sqlite3"
    await copy_database(target, back)
    real = {"guilds": (GUILD,), "kinds": ("dubb", "tonk")}
    assert await everything(f"sqlite:///{back}", **real) == await everything(target, **real)


async def test_a_target_that_holds_anything_is_refused(db_url: str, tmp_path: Path) -> None:
    source = tmp_path / "source.sqlite3"
    store = await Store.open(source)
    await store.set_user_settings(1, {"a": 1}, now=NOW)
    await store.close()
    target = await Store.open(db_url)
    await target.create_lobby(guild_id=1, channel_id=2, kind="toy",
                              host=SeatInfo(player_id=3, name="C"), options={},
                              turn_seconds=0, lobby_expires_at=None, now=NOW)
    await target.close()
    with pytest.raises(CopyError, match=r"is not empty \(tables has 1 rows\)"):
        await copy_database(source, db_url)
    target = await Store.open(db_url)
    try:
        assert await target.user_settings(1) == {}
    finally:
        await target.close()


async def test_a_copy_that_does_not_add_up_writes_nothing(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "source.sqlite3"
    store = await Store.open(source)
    try:
        service = TableService(store, {"toy": TOY}, seed_source=lambda: 3)
        await service.open_lobby(1, 2, "toy", 1, "A")
        await service.join(2, 2, "B")
        await service.start(2, 1)
        await play_to_end(service, 2, random.Random(1))
    finally:
        await store.close()
    read = copy_module.read_batches

    async def lossy(db: Any, table: Any, size: int = copy_module.BATCH) -> Any:
        async for rows in read(db, table, size):
            # a row read wrongly: one chip more in the first payment
            yield [(*r[:6], r[6] + 1, *r[7:]) if table.name == "ledger" and i == 0 else r
                   for i, r in enumerate(rows)]

    monkeypatch.setattr(copy_module, "read_batches", lossy)
    with pytest.raises(CopyError, match="ledger differs after the copy"):
        await copy_database(source, db_url)
    target = await Store.open(db_url)
    try:
        assert await target.tables_of_guild(1) == [] and await target.ledger_entries(1) == []
    finally:
        await target.close()


def run_copy(*args: str) -> subprocess.CompletedProcess[str]:
    return run("bot.ops", ["copy", *args], cwd=ROOT, timeout=120)


def test_the_command_copies_and_refuses_to_copy_twice(tmp_path: Path, pg_server: PgServer
                                                      ) -> None:
    source = tmp_path / "source.sqlite3"
    shutil.copy(SCHEMA_3_GAMES, source)
    target = pg_server.url(pg_server.create_database())
    done = run_copy(f"sqlite:///{source}", target)
    assert done.returncode == 0, done.stderr
    assert "copied " in done.stdout and "row count and column sums match" in done.stdout
    assert any(line.split()[:2] == ["tables", "7"] for line in done.stdout.splitlines())
    again = run_copy(str(source), target)
    assert again.returncode == 2 and "Traceback" not in again.stderr
    assert again.stderr.strip().splitlines() == [
        f"kortbord: nothing was copied: the target {target} is not empty (tables has 7 rows): "
        "copy only into a new database"]
