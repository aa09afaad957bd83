"""Moving a database: ``copy`` to another backend, and SQLite's ``backup`` and ``restore``.

``python -m bot.ops copy FROM TO`` (also ``python -m bot.storage copy``): copy a kortbord
database into a new, empty one. FROM and TO are database URLs (``sqlite:///path``,
``postgresql://user:password@host/db``) or SQLite file paths. Stop the bot first. Exit status 0
after a copy whose counts and sums match, 2 with one line on standard error when nothing was
copied.

``python -m bot.ops backup PATH`` (safe while the bot runs) and ``restore PATH`` (stop the bot
first), also under ``python -m bot.storage``: SQLite's online backup (``bot.storage.backup``).
The database is ``--database``, else the bot's own setting from the environment:
``DATABASE_URL``, else ``DATABASE_PATH``, else ``./data/kortbord.sqlite3``. Exit status 2 with
one line when nothing was done.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Literal

from bot.storage.backup import BackupError, backup, restore
from bot.storage.copy import CopyError, copy_database
from bot.storage.errors import DatabaseUnavailableError
from bot.storage.url import DatabaseUrl, parse_database_url

DEFAULT_DATABASE = "./data/kortbord.sqlite3"
"""The bot's own default for ``DATABASE_PATH`` (``bot.config``)."""


def _progress(table: str, rows: int) -> None:
    print(f"\r  {table:<15} {rows:>12,}", end="", file=sys.stderr, flush=True)


def _database(given: str | None) -> DatabaseUrl:
    """The database named on the command line, else the bot's setting from the environment."""
    value = (given or os.environ.get("DATABASE_URL", "").strip()
             or os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE)
    return parse_database_url(value)


def copy_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.ops copy",
        description="Copy every table, move, stat, ledger row, seat claim, player name, "
        "setting and season into an empty database, checked by counts and sums. Stop the bot "
        "first; afterwards point DATABASE_URL at the new database.",
    )
    parser.add_argument("source", help="the database to copy (URL or SQLite path)")
    parser.add_argument("target", help="an empty or not yet existing database (URL or path)")
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


def backup_main(argv: list[str]) -> int:
    return _backup_or_restore("backup", argv)


def restore_main(argv: list[str]) -> int:
    return _backup_or_restore("restore", argv)


def _backup_or_restore(command: Literal["backup", "restore"], argv: list[str]) -> int:
    if command == "backup":
        text = "back up the SQLite database into a new file, safe while the bot runs"
        path_help = "the backup file to write (must not exist)"
    else:
        text = "replace the SQLite database with a backup (stop the bot first)"
        path_help = "the backup file to restore"
    parser = argparse.ArgumentParser(prog=f"python -m bot.ops {command}", description=text)
    parser.add_argument("path", type=Path, help=path_help)
    parser.add_argument("--database", help="the database (default: DATABASE_URL, else "
                        "DATABASE_PATH, else ./data/kortbord.sqlite3)")
    args = parser.parse_args(argv)
    try:
        target = _database(args.database)
        if command == "backup":
            report = backup(target, args.path)
            done = f"backed up {target} to {args.path}"
        else:
            report = restore(args.path, target)
            done = f"restored {args.path} into {target}"
    except (BackupError, ValueError) as exc:
        done = "backed up" if command == "backup" else "restored"
        print(f"kortbord: nothing was {done}: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    rows = ", ".join(f"{n:,} {table}" for table, n in report.rows.items())
    print(f"{done} (schema {report.schema_version}; {rows})")
    return 0
