"""kortbord's database tools.

``python -m bot.storage copy FROM TO``: copy a kortbord database into a new, empty one. FROM and
TO are database URLs (``sqlite:///path``, ``postgresql://user:password@host/db``) or SQLite file
paths. Stop the bot first. Exit status 0 after a copy whose counts and sums match, 2 with one
line on standard error when nothing was copied.

``python -m bot.storage audit DATABASE``: check the ledger (``bot.storage.audit``) and replay
every finished table that has ledger rows against them; one line per check, exit status 1 on
any failure.

``python -m bot.storage rerate DATABASE``: rebuild every skill rating from the move log
(``bot.ratings.rerate``), in one transaction; the same rules give the same numbers. Stop the
bot first: a table that ends while it runs would be rated from the ratings it replaces.

``python -m bot.storage backup PATH`` (safe while the bot runs) and ``restore PATH`` (stop the
bot first): SQLite's online backup (``bot.storage.backup``). The database is ``--database``,
else the bot's own setting from the environment: ``DATABASE_URL``, else ``DATABASE_PATH``,
else ``./data/kortbord.sqlite3``. Exit status 2 with one line when nothing was done.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

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


def _backup_or_restore(command: str, path: Path, database: str | None) -> int:
    try:
        target = _database(database)
        if command == "backup":
            report = backup(target, path)
            done = f"backed up {target} to {path}"
        else:
            report = restore(path, target)
            done = f"restored {path} into {target}"
    except (BackupError, ValueError) as exc:
        done = "backed up" if command == "backup" else "restored"
        print(f"kortbord: nothing was {done}: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    rows = ", ".join(f"{n:,} {table}" for table, n in report.rows.items())
    print(f"{done} (schema {report.schema_version}; {rows})")
    return 0


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
    rerate = commands.add_parser(
        "rerate", help="rebuild every skill rating from the move log",
        description="Rank every table that is over from its move log again and rate them in "
        "the order they ended, replacing the stored ratings (docs/ratings.md).",
    )
    rerate.add_argument("database", help="the database (URL or SQLite path)")
    for name, help_text, path_help in (
        ("backup", "back up the SQLite database into a new file, safe while the bot runs",
         "the backup file to write (must not exist)"),
        ("restore", "replace the SQLite database with a backup (stop the bot first)",
         "the backup file to restore"),
    ):
        command = commands.add_parser(name, help=help_text, description=help_text)
        command.add_argument("path", type=Path, help=path_help)
        command.add_argument("--database", help="the database (default: DATABASE_URL, else "
                             "DATABASE_PATH, else ./data/kortbord.sqlite3)")
    args = parser.parse_args(argv)
    if args.command == "audit":
        return asyncio.run(_audit(args.database))
    if args.command == "rerate":
        return asyncio.run(_rerate(args.database))
    if args.command in ("backup", "restore"):
        return _backup_or_restore(args.command, args.path, args.database)
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


async def _rerate(url: str) -> int:
    # like the audit, this command alone reaches up to the games and the ratings
    from bot.games.registry import GAMES
    from bot.ratings.rerate import rerate
    from bot.storage.store import Store

    try:
        store = await Store.open(url)
    except (DatabaseUnavailableError, ValueError) as exc:
        print(f"kortbord: nothing rerated: {exc}", file=sys.stderr)
        return 2
    try:
        rated = await rerate(store, GAMES)
    finally:
        await store.close()
    print(f"rerated {rated:,} table(s) from the move log")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
