"""Benchmark the store (not a test): move commits on SQLite and PostgreSQL, in one and in two
processes, and start-up with many unfinished games.

    .venv/bin/python scripts/bench_store.py [--dir DIR] [--moves N] [--tables N]

1. Commits: random legal Tonk moves on 20 tables through ``TableService.apply``. Reports p50/p99
   of the store's transaction alone (``commit``) and of the whole ``apply`` (engine,
   serialisation, commit), and moves per second, for SQLite (``synchronous=NORMAL``, the
   default, and ``FULL``) and PostgreSQL; then two OS processes at once, each committing moves
   to its own 20 tables of the same database (PostgreSQL, and SQLite for comparison), with the
   moves per second of both together. PostgreSQL is a throwaway local server started for the
   run (``tests/store/pgserver.py``) with its durable defaults (fsync, synchronous commit), over
   TCP on 127.0.0.1.
   Sharded (issue 17): the same on PostgreSQL with the tables spread over servers of four
   shards and, after every move, the scheduler's shard-filtered read of the next deadline (as
   the bot does after each change): one process owning all four shards against two processes
   owning two each (``SHARD_IDS`` 0,1 and 2,3), each playing its own servers' tables.
2. Start-up: ``--tables`` Tonk games in progress (a few moves each) in one SQLite file; then, as
   the bot does at start-up, check the file (``quick_check``), open the store (migration check)
   and list the unfinished tables, which loads no engine. For comparison, the cost of the first
   lazy load of one table and of loading every engine eagerly.

The SQLite files go to ``--dir`` (default: a temporary directory under the current directory,
i.e. on the same disk as a deployment's data directory) and are deleted afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.games import tonk  # noqa: E402
from bot.games.registry import GAMES  # noqa: E402
from bot.storage import MoveCommit, Shards, Store  # noqa: E402
from bot.storage.sqlite import Synchronous  # noqa: E402
from bot.table import TableService  # noqa: E402
from tests.store.pgserver import PgServer  # noqa: E402

GUILD = 1
TABLES = 20
WARM_UP = 50
SHARD_COUNT = 4
EPOCH_MS = 1_420_070_400_000
"""Discord's epoch; a real server id is milliseconds since it, shifted left by 22 bits."""


def guild_on(shard: int) -> int:
    """A server id the size of a real one, on ``shard`` of ``SHARD_COUNT``."""
    ms = 1_700_000_000_000 - EPOCH_MS
    return ((ms + (shard - ms) % SHARD_COUNT) << 22) | 1


class TimedStore(Store):
    """Records how long each move's transaction takes."""

    commit_times: list[float]

    async def commit_move(self, commit: MoveCommit) -> None:
        t0 = time.perf_counter()
        await super().commit_move(commit)
        self.commit_times.append(time.perf_counter() - t0)


@dataclass
class Run:
    commits: list[float]
    applies: list[float]
    wall: float


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.3f} ms"


async def start_table(service: TableService, channel: int, rng: random.Random,
                      guild: int = GUILD) -> None:
    players = [channel * 10 + i for i in range(1, 4)]
    await service.open_lobby(guild, channel, "tonk", players[0], f"P{players[0]}",
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
    if service.shards is not None:
        await service.next_deadline()


async def play(url: str, moves: int, *, synchronous: Synchronous = "NORMAL",
               first_channel: int = 1, ready: bool = False, shards: Shards | None = None,
               tables: int = TABLES) -> Run:
    """``moves`` random moves over ``tables`` new tables (after a warm-up). With ``ready``,
    print READY and wait for a line on standard input before the measured moves (so two
    processes start them together). With ``shards``, the tables are in servers of those shards,
    taken in turn, and the service owns them."""
    store = await TimedStore.open(url, synchronous=synchronous)
    store.commit_times = []
    rng = random.Random(first_channel)
    service = TableService(store, GAMES, seed_source=lambda: rng.randrange(2**63),
                           shards=shards)
    channels = list(range(first_channel, first_channel + tables))
    try:
        for c in channels:
            guild = GUILD if shards is None else guild_on(shards.ids[c % len(shards.ids)])
            await start_table(service, c, rng, guild)
        for _ in range(WARM_UP):
            await random_move(service, rng.choice(channels), rng)
        if ready:
            print("READY", flush=True)
            await asyncio.to_thread(sys.stdin.readline)
        store.commit_times.clear()
        applies: list[float] = []
        start = time.perf_counter()
        for _ in range(moves):
            t0 = time.perf_counter()
            await random_move(service, rng.choice(channels), rng)
            applies.append(time.perf_counter() - t0)
        wall = time.perf_counter() - start
    finally:
        await store.close()
    return Run(store.commit_times, applies, wall)


def report(label: str, runs: list[Run]) -> None:
    commits = [t for r in runs for t in r.commits]
    applies = [t for r in runs for t in r.applies]
    rate = sum(len(r.applies) for r in runs) / max(r.wall for r in runs)
    print(f"{label:<28} {len(applies):>6} moves  commit p50 {ms(statistics.median(commits))} "
          f"p99 {ms(pct(commits, 99))}  apply p50 {ms(statistics.median(applies))} "
          f"p99 {ms(pct(applies, 99))}  {rate:7.0f} moves/s")


def two_processes(url: str, moves: int, *, sharded: bool = False) -> list[Run]:
    """Two OS processes, each playing its own tables of the same database, measured together;
    ``sharded``: the first owns shards 0,1 and the second 2,3 of ``SHARD_COUNT``."""
    halves = ("0,1", "2,3")
    workers = [
        subprocess.Popen([sys.executable, __file__, "--worker", url, "--first-channel",
                          str(first), "--moves", str(moves),
                          *(["--shard-ids", ids] if sharded else [])],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for first, ids in zip((1, 1 + TABLES), halves, strict=True)
    ]
    for worker in workers:
        assert worker.stdout is not None and worker.stdout.readline() == "READY\n"
    for worker in workers:
        assert worker.stdin is not None
        worker.stdin.write("GO\n")
        worker.stdin.flush()
    runs = []
    for worker in workers:
        out, _ = worker.communicate()
        assert worker.returncode == 0
        runs.append(Run(**json.loads(out.splitlines()[-1])))
    return runs


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
    checked = await Store.open(path, check=True)
    await checked.close()
    tc = time.perf_counter()
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
    print(f"  start-up check (quick_check) {ms(tc - t0)}")
    print(f"  open + migration check       {ms(t1 - tc)}")
    print(f"  list unfinished tables       {ms(t2 - t1)}")
    print(f"  start-up total (lazy)        {ms(t2 - tc)}")
    print(f"  first table loaded on use    {ms(t3 - t2)}")
    print(f"  (every engine loaded eagerly {ms(t4 - t3)})")


async def main(args: argparse.Namespace) -> None:
    base = Path(tempfile.mkdtemp(prefix="bench-store-", dir=args.dir or Path.cwd()))
    server = PgServer.start(tcp=True, durable=True)
    try:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"SQLite files in {base}; PostgreSQL {server.bin_dir.parent.name} at "
              f"127.0.0.1:{server.port}; {os.cpu_count()} CPUs, load average {load}")
        for sync in ("NORMAL", "FULL"):
            run = await play(str(base / f"commit-{sync}.sqlite3"), args.moves, synchronous=sync)
            report(f"SQLite {sync}, 1 process", [run])
        run = await play(server.tcp_url(server.create_database()), args.moves)
        report("PostgreSQL, 1 process", [run])
        half = args.moves // 2
        report("PostgreSQL, 2 processes", two_processes(
            server.tcp_url(server.create_database()), half))
        report("SQLite NORMAL, 2 processes", two_processes(
            f"sqlite:///{base / 'two.sqlite3'}", half))
        every = Shards(count=SHARD_COUNT, ids=tuple(range(SHARD_COUNT)))
        # the same 2 x 20 tables as the two processes play, in one process
        run = await play(server.tcp_url(server.create_database()), args.moves, shards=every,
                         tables=2 * TABLES)
        report("PG sharded, 1 process x 4", [run])
        report("PG sharded, 2 processes x 2", two_processes(
            server.tcp_url(server.create_database()), half, sharded=True))
        if args.tables <= 0:
            return
        path = base / "startup.sqlite3"
        print(f"filling {args.tables} unfinished games ...", flush=True)
        await fill(path, args.tables)
        await bench_startup(path, args.tables)
    finally:
        server.stop()
        shutil.rmtree(base, ignore_errors=True)


def worker(args: argparse.Namespace) -> None:
    shards = None if args.shard_ids is None else Shards(
        count=SHARD_COUNT, ids=tuple(int(i) for i in args.shard_ids.split(",")))
    run = asyncio.run(play(args.worker, args.moves, first_channel=args.first_channel,
                           ready=True, shards=shards))
    print(json.dumps(asdict(run)), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--moves", type=int, default=5000)
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--first-channel", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--shard-ids", default=None, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker:
        worker(arguments)
    else:
        asyncio.run(main(arguments))
