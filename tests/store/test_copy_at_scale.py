"""Moving up at scale with the real games: a SQLite database with a thousand finished Dubb and
Tonk games and a hundred in play (played through the table service by the games' own computer
strategies, so every move, stat and ledger row is what the bot would write), copied to
PostgreSQL by the command ``python -m bot.ops copy``; the counts and the chips add up, the
store shows the same on both sides, and the games in play go on to their end on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.games.registry import GAMES
from bot.games.tonk import DealNextHand
from bot.storage import Store
from bot.table import TableService
from tests.store.helpers import check_table
from tests.store.pgserver import PgServer
from tests.store.test_copy import everything, run_copy

pytestmark = pytest.mark.slow

GUILDS = (2001, 2002, 2003)
KINDS = ("dubb", "tonk")
FINISHED = 1000
UNFINISHED = 100
PLAYED_ON = 6
"""Unfinished games played to their end after the copy, half of each game."""
REGULARS = range(1, 40)
"""Each server's players of the finished games (sitting at many tables over time)."""


def _service(store: Store, rng: random.Random) -> TableService:
    return TableService(store, GAMES, seed_source=lambda: rng.randrange(2**63))


async def play(service: TableService, channel_id: int, rng: random.Random,
               moves: int | None = None) -> int:
    """Greedy moves until the game is over or ``moves`` were made; a Tonk table between hands
    is dealt on when nothing was played yet, else its last player leaves (which closes a table
    of two) or, with ``moves`` given, it is left as it is. Returns the moves made."""
    made = 0
    while moves is None or made < moves:
        snap = await service.get(channel_id)
        if snap is None:
            break
        engine = snap.engine
        assert engine is not None
        if engine.to_move is None:
            if moves is not None:
                break
            if made:
                await service.leave(channel_id, engine.seats[-1].player_id)
            else:
                await service.apply(channel_id, engine.seats[0].player_id, DealNextHand(),
                                    snap.counter)
        else:
            kind = GAMES[snap.kind]
            move = kind.strategies["greedy"]().choose(engine.observe(engine.to_move), rng)
            await service.apply(channel_id, engine.to_move, move, snap.counter)
        made += 1
    return made


async def grow(url: str) -> None:
    """Three servers' history: ``FINISHED`` two-player games (Dubb and Tonk by turns, Tonk for
    stakes until a hand has been paid) and ``UNFINISHED`` a few moves in."""
    store = await Store.open(url)
    try:
        rng = random.Random(17)
        service = _service(store, rng)
        for n in range(FINISHED + UNFINISHED):
            guild, kind, channel = GUILDS[n % len(GUILDS)], KINDS[n % 2], 20_000 + n
            host, guest = (rng.sample(REGULARS, 2) if n < FINISHED
                           else (100_000 + 2 * n, 100_001 + 2 * n))
            options = {"stake": rng.randint(1, 9)} if kind == "tonk" else {}
            await service.open_lobby(guild, channel, kind, host, f"P{host}", options)
            await service.join(channel, guest, f"P{guest}")
            await service.start(channel, host)
            await play(service, channel, rng, None if n < FINISHED else rng.randint(1, 6))
    finally:
        await store.close()


async def _totals(url: str) -> dict[str, int]:
    """Tables, moves, ledger rows and chips, counted through the store."""
    store = await Store.open(url)
    try:
        totals = {"tables": 0, "moves": 0, "ledger": 0, "chips": 0}
        for guild in GUILDS:
            tables = await store.tables_of_guild(guild)
            ledger = await store.ledger_entries(guild)
            totals["tables"] += len(tables)
            totals["moves"] += sum([len(await store.moves(t.id)) for t in tables])
            totals["ledger"] += len(ledger)
            totals["chips"] += sum(e.amount for e in ledger)
        return totals
    finally:
        await store.close()


def _reported(stdout: str) -> dict[str, int]:
    """The command's ``<table> <n> rows`` and ``ledger total <n> chips`` lines."""
    out: dict[str, int] = {}
    for line in stdout.splitlines():
        words = line.split()
        if len(words) == 3 and words[2] == "rows":
            out[words[0]] = int(words[1].replace(",", ""))
        elif words[:2] == ["ledger", "total"]:
            out["chips"] = int(words[2].replace(",", ""))
    return out


async def test_a_thousand_real_games_move_up_and_the_unfinished_play_on(
    tmp_path: Path, pg_server: PgServer
) -> None:
    source = f"sqlite:///{tmp_path / 'grown.sqlite3'}"
    await grow(source)
    totals = await _totals(source)
    assert totals["tables"] == FINISHED + UNFINISHED
    assert totals["ledger"] >= FINISHED // 2 and totals["chips"] > 0

    target = pg_server.url(pg_server.create_database())
    done = await asyncio.to_thread(run_copy, source, target)
    assert done.returncode == 0, done.stderr
    reported = _reported(done.stdout)
    assert {k: reported[k] for k in totals} == totals
    assert await _totals(target) == totals
    shown = {"guilds": GUILDS, "kinds": KINDS}
    assert await everything(target, **shown) == await everything(source, **shown)

    store = await Store.open(target)
    try:
        rng = random.Random(3)
        service = _service(store, rng)
        unfinished = await service.unfinished_tables()
        assert len(unfinished) == UNFINISHED
        chosen = [t for kind in KINDS
                  for t in [u for u in unfinished if u.kind == kind][:PLAYED_ON // 2]]
        copied = {e.id for g in GUILDS for e in await store.ledger_entries(g)}
        for record in chosen:
            assert await play(service, record.channel_id, rng) > 0
            after = await store.table(record.id)
            assert after is not None and after.status == "finished"
            await check_table(store, record.id)
        assert len(await service.unfinished_tables()) == UNFINISHED - PLAYED_ON
        # each Tonk game played on paid a hand, in rows numbered after the copied ones
        new = [e for g in GUILDS for e in await store.ledger_entries(g) if e.id not in copied]
        assert {e.table_id for e in new} == {t.id for t in chosen if t.kind == "tonk"}
        assert min(e.id for e in new) > max(copied)
        for guild in GUILDS:
            for kind in KINDS:
                assert sum(b.net for b in await store.balances(guild, kind)) == 0
    finally:
        await store.close()
