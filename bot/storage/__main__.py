"""``python -m bot.storage copy FROM TO``: copy a kortbord database into a new, empty one.

FROM and TO are database URLs (``sqlite:///path``, ``postgresql://user:password@host/db``) or
SQLite file paths. Stop the bot first. Exit status 0 after a copy whose counts and sums match,
2 with one line on standard error when nothing was copied.

``python -m bot.storage audit DATABASE``: check the ledger (``bot.storage.audit``) and replay
every finished table that has ledger rows against them; one line per check, exit status 1 on
any failure.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.storage.copy import CopyError, copy_database
from bot.storage.errors import DatabaseUnavailableError


def _progress(table: str, rows: int) -> None:
    print(f"\r  {table:<15} {rows:>12,}", end="", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.storage",
                                     description="kortbord's database tools")
    commands = parser.add_subparsers(dest="command", required=True)
    copy = commands.add_parser(
        "copy", help="copy every table into a new, empty database (SQLite or PostgreSQL)",
        description="Copy every table, move, stat, ledger row, seat claim, player name, "
        "setting and season into an empty database, checked by counts and sums. Stop the bot "
        "first; afterwards point DATABASE_URL at the new database.",
    )
    copy.add_argument("source", help="the database to copy (URL or SQLite path)")
    copy.add_argument("target", help="an empty or not yet existing database (URL or path)")
    audit = commands.add_parser(
        "audit", help="check the ledger's hash chains, hands, balances and replayed tables",
        description="Check every server's ledger hash chain, that each hand's rows sum to zero, "
        "that each balance is the sum of its rows, and that the rows of every finished table "
        "are the payments its replayed moves make.",
    )
    audit.add_argument("database", help="the database to audit (URL or SQLite path)")
    args = parser.parse_args(argv)
    if args.command == "audit":
        return asyncio.run(_audit(args.database))
    shown = sys.stderr.isatty()
    try:
        report = asyncio.run(copy_database(args.source, args.target,
                                           progress=_progress if shown else None))
    except (CopyError, DatabaseUnavailableError, ValueError) as exc:
        print(f"{chr(10) if shown else ''}kortbord: nothing was copied: "
              f"{' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    if shown:
        print(file=sys.stderr)
    for table, rows in report.rows.items():
        print(f"{table:<15} {rows:>12,} rows")
    print(f"ledger total    {report.chips:>12,} chips")
    print(f"copied {report.source} to {report.target}: every table's row count and column sums "
          "match")
    return 0


async def _audit(url: str) -> int:
    # the replay needs the games and the table service's records: only this command, at the
    # top, reaches up to them
    from bot.games.registry import GAMES
    from bot.storage.audit import audit
    from bot.storage.store import Store
    from bot.table.record import public_record, verify

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


if __name__ == "__main__":
    raise SystemExit(main())
