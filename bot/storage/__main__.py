"""``python -m bot.storage copy FROM TO``: copy a kortbord database into a new, empty one.

FROM and TO are database URLs (``sqlite:///path``, ``postgresql://user:password@host/db``) or
SQLite file paths. Stop the bot first. Exit status 0 after a copy whose counts and sums match,
2 with one line on standard error when nothing was copied.
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
    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    raise SystemExit(main())
