"""``python -m bot.ops audit DATABASE`` (also ``python -m bot.storage audit``): check the ledger
(``bot.storage.audit``) and replay every finished table that has ledger rows against them
(``bot.table.record``); one line per check, exit status 1 on any failure, 2 with one line when
the database cannot be opened."""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.games.registry import GAMES
from bot.storage import Store
from bot.storage.audit import audit
from bot.storage.errors import DatabaseUnavailableError
from bot.table.record import public_record, verify


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.ops audit",
        description="Check every server's ledger hash chain, that each hand's rows sum to zero, "
        "that each balance is the sum of its rows, and that the rows of every finished table "
        "are the payments its replayed moves make.",
    )
    parser.add_argument("database", help="the database to audit (URL or SQLite path)")
    return asyncio.run(_audit(parser.parse_args(argv).database))


async def _audit(url: str) -> int:
    try:
        store = await Store.open(url)
    except (DatabaseUnavailableError, ValueError) as exc:
        print(f"kortbord: nothing audited: {exc}", file=sys.stderr)
        return 2
    failed = 0
    try:
        for ok, line in await audit(store):
            print(f"{'ok  ' if ok else 'FAIL'} {line}")
            failed += not ok
        tables = [int(r[0]) for r in await store.db.fetch(
            "SELECT DISTINCT table_id FROM ledger ORDER BY table_id")]
        for table in tables:
            record = await store.table(table)
            if record is None or record.is_live:
                continue
            checks = list(verify(await public_record(store, GAMES, table), GAMES))
            bad = [c for c in checks if not c.ok]
            print(f"{'FAIL' if bad else 'ok  '} table {table} replays to its ledger rows"
                  + (f": {bad[0].name}" if bad else ""))
            failed += bool(bad)
    finally:
        await store.close()
    print(f"{'FAILED' if failed else 'audited'}: {failed} failed check(s)")
    return 1 if failed else 0
