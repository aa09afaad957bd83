"""Committed deals and the ledger's hash chain through the table service, on both backends: a
finished table's public record verifies from itself alone; tampering with a move, a payment or a
ledger row is caught by ``verify`` and ``python -m bot.ops audit``; the chain survives
``python -m bot.ops copy``."""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.games.registry import GAMES
from bot.ops.__main__ import main as ops_main
from bot.ops.verify import main as verify_main
from bot.storage import Store
from bot.table import TableService
from bot.table.record import public_record, verify
from tests.store.conftest import FakeClock
from tests.store.helpers import GUILD


async def _play(service: TableService, kind: str, channel: int, rng: random.Random,
                moves: int) -> int:
    """A table of three played with random legal moves until it ends or ``moves`` are made,
    then stopped; its id."""
    snap = await service.open_lobby(GUILD, channel, kind, 1, "Anna",
                                    {"stake": 2} if kind == "tonk" else {})
    await service.join(channel, 2, "Bo")
    await service.join(channel, 3, "Cem")
    await service.start(channel, 1)
    for _ in range(moves):
        now = await service.get(channel)
        if now is None or not now.is_playing:
            return snap.table_id
        engine = now.engine
        assert engine is not None
        player = engine.to_move if engine.to_move is not None else engine.seats[0].player_id
        move = rng.choice(engine.legal_moves(player))
        await service.apply(channel, player, move, expected_counter=now.counter)
    if await service.get(channel) is not None:
        await service.cancel(channel, 1, True)
    return snap.table_id


def _ok(record: dict[str, Any]) -> bool:
    return all(c.ok for c in verify(record, GAMES))


@pytest.mark.parametrize("kind", ["tonk", "dubb"])
async def test_a_finished_table_verifies_and_tampering_is_caught(
        store: Store, clock: FakeClock, kind: str) -> None:
    service = TableService(store, GAMES, clock=clock)
    table = await _play(service, kind, 10, random.Random(kind), 400)
    record = await public_record(store, GAMES, table)
    assert record["hands"] and all(h["key"] for h in record["hands"])
    assert "master" not in json.dumps(record)
    checks = list(verify(record, GAMES))
    assert all(c.ok for c in checks), [c.line() for c in checks]
    assert any("commitment" in c.name for c in checks)

    moved = copy.deepcopy(record)
    moved["moves"][3]["events"] = moved["moves"][4]["events"]
    assert not _ok(moved)
    secret = copy.deepcopy(record)
    secret["hands"][0]["key"] = "00" * 32
    assert not _ok(secret)
    if record["payments"]:
        paid = copy.deepcopy(record)
        paid["payments"][0][3] += 1
        assert not _ok(paid)


async def test_the_commitment_shown_before_a_hand_matches_the_key_revealed_after(
        store: Store, clock: FakeClock) -> None:
    from bot.table.fairdeal import deals_of, links

    service = TableService(store, GAMES, clock=clock)
    snap = await service.open_lobby(GUILD, 10, "tonk", 1, "Anna", {})
    await service.join(10, 2, "Bo")
    await service.start(10, 1)
    live = await service.get(10)
    assert live is not None and live.engine is not None
    record = await store.table(live.table_id)
    assert record is not None
    deals = deals_of(record)
    assert deals is not None
    before = {link.hand: link.commitment for link in links(deals, live.engine)}
    assert all(link.key is None for link in links(deals, live.engine)
               if link.hand > live.engine.deals_done)
    await service.cancel(10, 1, True)
    revealed = await public_record(store, GAMES, snap.table_id)
    for hand in revealed["hands"]:
        if hand["hand"] in before:
            assert hand["commitment"] == before[hand["hand"]]
    assert _ok(revealed)


async def test_audit_passes_catches_an_edited_row_and_passes_after_copy(
        db_url: str, tmp_path: Path, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    store = await Store.open(db_url)
    try:
        service = TableService(store, GAMES, clock=clock)
        table = await _play(service, "tonk", 10, random.Random(5), 400)
        await _play(service, "tonk", 11, random.Random(6), 300)
        export = tmp_path / "export.json"
        export.write_text(json.dumps([await public_record(store, GAMES, table)]))
    finally:
        await store.close()
    assert verify_main([str(export)]) == 0
    assert await asyncio.to_thread(ops_main, ["audit", db_url]) == 0
    copied = f"sqlite:///{tmp_path / 'copy.sqlite3'}"
    assert await asyncio.to_thread(ops_main, ["copy", db_url, copied]) == 0
    assert await asyncio.to_thread(ops_main, ["audit", copied]) == 0
    capsys.readouterr()

    store = await Store.open(copied)
    try:
        rows = await store.db.fetch("SELECT id FROM ledger ORDER BY id")
        assert len(rows) >= 2

        async def edit(db: Any) -> None:
            await db.execute("UPDATE ledger SET amount = amount + 1 WHERE id = ?",
                             (rows[1][0],))
        await store.db.transaction(edit)
    finally:
        await store.close()
    assert await asyncio.to_thread(ops_main, ["audit", copied]) == 1
    out = capsys.readouterr().out
    assert "FAIL server" in out and "does not match its chain" in out
    assert "FAIL table" in out


async def test_the_chained_ledger_gives_each_row_its_link_and_the_link_before(
        store: Store, clock: FakeClock) -> None:
    """What `/tonk ledger export:` writes: every row's digest recomputes from the row and the
    previous digest it carries, across the gaps a filter leaves."""
    from bot.storage import chain

    service = TableService(store, GAMES, clock=clock)
    first = await _play(service, "tonk", 10, random.Random(7), 200)
    second = await _play(service, "tonk", 11, random.Random(8), 200)
    everything, head = await store.chained_ledger(GUILD, "tonk")
    assert [e.chain_seq for e in everything] == list(range(1, len(everything) + 1))
    assert head == (everything[-1].chain_seq, everything[-1].digest)
    one, _ = await store.chained_ledger(GUILD, "tonk", table_id=second)
    assert one and {e.table_id for e in one} == {second} and len(one) < len(everything)
    assert first in {e.table_id for e in everything}
    for entry in everything:
        fields = [entry.guild_id, entry.kind, entry.season, entry.table_id, entry.hand_no,
                  entry.payer_id, entry.payee_id, entry.amount, entry.reason]
        assert entry.digest == chain.row_digest(entry.previous, entry.chain_seq, fields)
    assert everything[0].previous == chain.GENESIS
    assert all(a.digest == b.previous for a, b in itertools.pairwise(everything))
    assert await store.chained_ledger(GUILD, "tonk", season=2) == ([], head)
