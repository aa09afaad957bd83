"""Shared steps for the store tests: seat a table, play it, check it against its move log."""

from __future__ import annotations

import json
import random
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bot.gamekit.contract import GameSpec
from bot.games.registry import GAMES
from bot.storage import Store
from bot.table import TableService
from bot.table.fairdeal import deals_of
from tests.forks import piped
from tests.store.toy import TOY, Add, HandEnded, replay

GUILD = 1000


async def started_table(
    service: TableService,
    channel_id: int,
    players: tuple[int, ...] = (1, 2, 3),
    *,
    guild_id: int = GUILD,
    options: dict[str, Any] | None = None,
    turn_seconds: int = 0,
) -> int:
    """Open, fill and start a toy table; returns its id."""
    host, *others = players
    snap = await service.open_lobby(guild_id, channel_id, "toy", host, f"P{host}",
                                    options or {}, turn_seconds=turn_seconds)
    for p in others:
        await service.join(channel_id, p, f"P{p}")
    await service.start(channel_id, host)
    return snap.table_id


async def play_to_end(service: TableService, channel_id: int, rng: random.Random) -> int:
    """Play random legal adds until the game is over; returns the number of moves made."""
    moves = 0
    while True:
        snap = await service.get(channel_id)
        if snap is None:
            return moves
        player = snap.engine.to_move
        await service.apply(channel_id, player, Add(rng.randint(1, 3)), snap.counter)
        moves += 1


KINDS: dict[str, GameSpec] = {"toy": TOY, **GAMES}


def logged_payments(kind: str, events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The payments a move's logged events announce, as (hand, payer, payee, amount, reason)."""
    if kind == "toy":
        return [(e["hand_no"], *p) for e in events if e["type"] == HandEnded.__name__
                for p in e["payments"]]
    if kind == "tonk":
        return [(e["hand_number"], p["payer"], p["payee"], p["amount"], p["reason"])
                for e in events if e["type"] == "hand_ended" for p in e["payments"]]
    return []


async def check_table(store: Store, table_id: int) -> int:
    """The stored state is exactly the replay of the move log, and the ledger holds exactly the
    payments of the logged events (T12: once each, each table's nets summing to zero). Returns
    the number of logged moves after the start."""
    record = await store.table(table_id)
    assert record is not None
    kind = KINDS[record.kind]
    log = await store.moves(table_id)
    if record.status == "lobby" or (record.status == "cancelled" and not log):
        assert log == []
        return 0
    assert [m.seq for m in log] == list(range(len(log)))
    assert log[0].move["type"] == "start"
    engine = replay(kind, log[0].move, [(m.player_id, m.move) for m in log[1:]],
                    deals_of(record))
    assert record.counter == len(log) - 1
    state = await store.table_state(table_id)
    assert state is not None
    # a state stored by an earlier version compares in the form this version stores
    assert kind.load_engine(json.loads(state)).to_stored() == engine.to_stored()
    if record.status != "cancelled":
        assert (record.status == "finished") == engine.is_over
    logged = Counter(p for m in log for p in logged_payments(record.kind, m.events))
    entries = await store.ledger_entries(record.guild_id, table_id=table_id)
    written = Counter((e.hand_no, e.payer_id, e.payee_id, e.amount, e.reason) for e in entries)
    assert written == logged
    balances = await store.balances(record.guild_id, record.kind, table_id=table_id)
    assert sum(b.net for b in balances) == 0
    return len(log) - 1


async def check_against_log(store: Store, table_id: int) -> None:
    await check_table(store, table_id)


ROOT = Path(__file__).resolve().parents[2]


def run_together(*commands: list[str]) -> list[str]:
    """Start one ``python -m`` worker per command (forked: ``tests.forks``), wait until each
    says READY, then tell them all GO at once (so they really contend), and return what each
    printed after READY. Each must exit 0 within 240 s."""
    workers = [piped(module, argv, cwd=ROOT) for module, *argv in commands]

    def stop() -> None:
        for worker, _, _ in workers:
            if worker.poll() is None:
                worker.kill()
                worker.join()

    try:
        for _, _, printed in workers:
            assert printed.readline() == "READY\n"
        for _, given, _ in workers:
            given.write("GO\n")
            given.close()
        # read while they run, so that none waits on a full pipe
        with ThreadPoolExecutor(len(workers)) as pool:
            reads = [pool.submit(printed.read) for _, _, printed in workers]
            try:
                codes = [worker.join(240) for worker, _, _ in workers]
            finally:
                stop()  # ends what is still reading, on a timeout
            outputs = [read.result() for read in reads]
    finally:
        stop()
        for _, given, printed in workers:
            given.close()
            printed.close()
    assert codes == [0] * len(workers)
    return outputs
