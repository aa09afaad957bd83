"""Benchmark the store (not a test): move commit latency and start-up with many unfinished games.

    .venv/bin/python scripts/bench_store.py [--dir DIR] [--moves N] [--tables N]

1. Commit latency: random legal Tonk moves on 20 tables through ``TableService.apply``, for
   ``synchronous=NORMAL`` (the default) and ``FULL``. Reports p50/p99/max of the store's
   transaction alone (``commit``) and of the whole ``apply`` (engine, serialisation, commit).
2. Start-up: ``--tables`` Tonk games in progress (a few moves each) in one file; then, as the bot
   does at start-up, open the store (migration check) and list the unfinished tables, which
   loads no engine. For comparison, the cost of the first lazy load of one table and of loading
   every engine eagerly.

The database files go to ``--dir`` (default: a temporary directory under the current
directory, i.e. on the same disk as a deployment's data directory) and are deleted afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games import tonk
from bot.games.registry import GAMES
from bot.storage import MoveCommit, Store
from bot.storage.sqlite import Synchronous
from bot.table import TableService

GUILD = 1


class TimedStore(Store):
    """Records how long each move's transaction takes."""

    commit_times: list[float]

    async def commit_move(self, commit: MoveCommit) -> None:
        t0 = time.perf_counter()
        await super().commit_move(commit)
        self.commit_times.append(time.perf_counter() - t0)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.3f} ms"


async def start_table(service: TableService, channel: int, rng: random.Random) -> None:
    players = [channel * 10 + i for i in range(1, 4)]
    await service.open_lobby(GUILD, channel, "tonk", players[0], f"P{players[0]}",
                             {"stake": rng.randint(1, 5)})
    for p in players[1:]:
        await service.join(channel, p, f"P{p}")
    await service.start(channel, players[0])


async def random_move(service: TableService, channel: int, rng: random.Random) -> None:
    snap = await service.get(channel)
    assert snap is not None and snap.engine is not None
    table = snap.engine
    move: Any
    if table.to_move is None:
        player, move = rng.choice(table.player_ids), tonk.DealNextHand()
    else:
        player = table.to_move
        moves = table.legal_moves(player)
        discards = [m for m in moves if isinstance(m, tonk.Discard)]
        move = rng.choice(discards) if discards and rng.random() < 0.6 else rng.choice(moves)
    await service.apply(channel, player, move, snap.counter)


async def bench_commits(path: Path, synchronous: Synchronous, moves: int) -> None:
    store = await TimedStore.open(path, synchronous=synchronous)
    store.commit_times = []
    rng = random.Random(1)
    service = TableService(store, GAMES, seed_source=lambda: rng.randrange(2**63))
    channels = list(range(1, 21))
    for c in channels:
        await start_table(service, c, rng)
    for _ in range(50):
        await random_move(service, rng.choice(channels), rng)
    store.commit_times.clear()
    apply_times: list[float] = []
    for _ in range(moves):
        t0 = time.perf_counter()
        await random_move(service, rng.choice(channels), rng)
        apply_times.append(time.perf_counter() - t0)
    await store.close()
    c, a = store.commit_times, apply_times
    print(f"synchronous={synchronous:<6} {len(c)} moves")
    print(f"  commit  p50 {ms(statistics.median(c))}  p99 {ms(pct(c, 99))}  max {ms(max(c))}")
    print(f"  apply   p50 {ms(statistics.median(a))}  p99 {ms(pct(a, 99))}  max {ms(max(a))}")


async def fill(path: Path, tables: int) -> None:
    store = await Store.open(path)
    rng = random.Random(2)
    service = TableService(store, GAMES, seed_source=lambda: rng.randrange(2**63))
    t0 = time.perf_counter()
    for c in range(1, tables + 1):
        await start_table(service, c, rng)
        for _ in range(rng.randint(1, 6)):
            await random_move(service, c, rng)
        if c % 2000 == 0:
            print(f"  ... {c} tables ({time.perf_counter() - t0:.0f} s)", flush=True)
    await store.close()


async def bench_startup(path: Path, tables: int) -> None:
    t0 = time.perf_counter()
    store = await Store.open(path)
    t1 = time.perf_counter()
    service = TableService(store, GAMES)
    unfinished = await service.unfinished_tables()
    t2 = time.perf_counter()
    assert len(unfinished) == tables, len(unfinished)
    snap = await service.get(unfinished[0].channel_id)
    t3 = time.perf_counter()
    assert snap is not None and snap.engine is not None
    for record in unfinished:
        await service.get(record.channel_id)
    t4 = time.perf_counter()
    await store.close()
    size = sum(f.stat().st_size for f in path.parent.glob(path.name + "*")) / 1e6
    print(f"start-up with {len(unfinished)} unfinished games ({size:.0f} MB database)")
    print(f"  open + migration check       {ms(t1 - t0)}")
    print(f"  list unfinished tables       {ms(t2 - t1)}")
    print(f"  start-up total (lazy)        {ms(t2 - t0)}")
    print(f"  first table loaded on use    {ms(t3 - t2)}")
    print(f"  (every engine loaded eagerly {ms(t4 - t3)})")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--moves", type=int, default=5000)
    parser.add_argument("--tables", type=int, default=10_000)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="bench-store-", dir=args.dir or Path.cwd()))
    try:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"database directory: {base}; {os.cpu_count()} CPUs, load average {load}")
        for sync in ("NORMAL", "FULL"):
            await bench_commits(base / f"commit-{sync}.sqlite3", sync, args.moves)
        if args.tables <= 0:
            return
        path = base / "startup.sqlite3"
        print(f"filling {args.tables} unfinished games ...", flush=True)
        await fill(path, args.tables)
        await bench_startup(path, args.tables)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
