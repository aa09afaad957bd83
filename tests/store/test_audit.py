"""``audit``'s own counts (issue 47, item 20): the hands line says how many hands it checked,
not how many failed."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from bot.storage import Store
from bot.storage.audit import audit
from tests.store.test_store import hand_end, playing_table


async def _lines(store: Store) -> list[tuple[bool, str]]:
    return list(await audit(store))


async def test_the_hands_line_counts_every_hand_checked(store: Store) -> None:
    table = await playing_table(store)
    for counter, hand in enumerate((1, 2, 3)):
        await store.commit_move(hand_end(table, counter, hand))
    lines = await _lines(store)
    assert (True, "3 hands checked, every one sums to zero") in lines


async def test_the_hands_line_counts_the_bad_hands_among_those_checked(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        table = await playing_table(store)
        for counter, hand in enumerate((1, 2, 3)):
            await store.commit_move(hand_end(table, counter, hand))
    finally:
        await store.close()
    # a row edited behind the store's back, past the schema's own checks: it pays nothing, so
    # its hand no longer nets out
    with contextlib.closing(sqlite3.connect(db_path)) as raw, raw:
        raw.execute("PRAGMA ignore_check_constraints = ON")
        raw.execute("UPDATE ledger SET amount = 0 WHERE hand_no = 2")
    store = await Store.open(db_path)
    try:
        hands = [line for line in await _lines(store) if "hands" in line[1]]
    finally:
        await store.close()
    assert hands == [(False, f"1 of 3 hands do not sum to zero: tables/hands [({table}, 2)]")]
