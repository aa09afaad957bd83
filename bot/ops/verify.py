"""``python -m bot.verify`` (also ``python -m bot.ops verify``): check finished tables from their
public record alone.

``python -m bot.verify EXPORT.json`` reads a history export (one record, or a JSON list of
them, as a game's ``history export`` command attaches); ``python -m bot.verify
--database URL --table N [--table M ...]`` builds the records from the database first. One line
per check; exit status 1 if any check failed, 2 if there was nothing to check.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from bot.games.registry import GAMES
from bot.storage import Store
from bot.table.record import NotFinishedError, public_record, verify


async def _from_database(url: str, tables: list[int]) -> list[dict[str, Any]]:
    store = await Store.open(url)
    try:
        return [await public_record(store, GAMES, t) for t in tables]
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.verify", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("export", nargs="?", help="a history export (JSON)")
    parser.add_argument("--database", help="a database URL or SQLite path instead")
    parser.add_argument("--table", type=int, action="append", default=[],
                        help="a table of --database to check (repeatable)")
    args = parser.parse_args(argv)
    try:
        if args.export:
            data = json.loads(Path(args.export).read_text(encoding="utf-8"))
            records = data if isinstance(data, list) else [data]
        elif args.database and args.table:
            records = asyncio.run(_from_database(args.database, args.table))
        else:
            parser.error("give an export file, or --database with --table")
    except (OSError, ValueError, NotFinishedError) as exc:
        print(f"kortbord: nothing to verify: {exc}", file=sys.stderr)
        return 2
    failed = 0
    for record in records:
        for check in verify(record, GAMES):
            print(check.line())
            failed += not check.ok
    print(f"{'FAILED' if failed else 'verified'}: {len(records)} table(s), {failed} failed "
          "check(s)")
    return 1 if failed else 0
