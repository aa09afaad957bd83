"""Backups of a SQLite database while the bot runs, and their restore.

``backup`` uses SQLite's online backup API (``sqlite3.Connection.backup``) in one step: it reads
one consistent snapshot, every committed transaction up to its start, the write-ahead log's
included, while the bot goes on writing (in WAL mode a reader never blocks the writer). Copying
the file itself is not safe: the newest moves may still be only in the ``-wal`` file. The copy
is written beside its destination, checked by ``integrity_check``, and only then renamed into
place, so a failed backup never leaves a half file under the backup's name.

``restore`` checks a backup the same way (and that no newer kortbord wrote it) and copies it
into the database through the same API, which takes the database's write lock for the copy;
stop the bot first, since a running bot keeps the tables it is playing in memory. The bot
migrates a restored older backup when it starts.

PostgreSQL has its own tools, consistent while the bot runs: ``pg_dump -Fc`` and ``pg_restore``
(docs/ops/production.md).
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from bot.storage.errors import StoreError
from bot.storage.migrations import SCHEMA_VERSION
from bot.storage.url import DatabaseUrl

COUNTED = ("tables", "moves", "ledger", "stats")
"""The tables whose rows a backup reports."""


class BackupError(StoreError):
    """Nothing was backed up or restored; the message says why in one line."""


@dataclass(frozen=True, slots=True)
class BackupReport:
    path: Path
    rows: dict[str, int]
    schema_version: int


def _sqlite_path(database: DatabaseUrl) -> Path:
    if database.backend != "sqlite" or database.path is None:
        raise BackupError(f"{database} is PostgreSQL: back it up with pg_dump -Fc and restore "
                          "it with pg_restore (docs/ops/production.md)")
    return database.path


def _check(db: sqlite3.Connection, where: Path) -> BackupReport:
    problems = [str(r[0]) for r in db.execute("PRAGMA integrity_check").fetchall()]
    if problems != ["ok"]:
        raise BackupError(f"{where} is corrupt ({problems[0]})")
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise BackupError(f"{where} was written by a newer kortbord (schema {version}, this "
                          f"one knows {SCHEMA_VERSION})")
    known = {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not set(COUNTED) <= known:
        raise BackupError(f"{where} is not a kortbord database")
    rows = {t: int(db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]) for t in COUNTED}
    return BackupReport(where, rows, version)


def _open_existing(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise BackupError(f"{path} does not exist")
    try:
        return sqlite3.connect(path)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot open {path}: {exc}") from None


def backup(database: DatabaseUrl, target: Path) -> BackupReport:
    """Copy the live SQLite ``database`` into the new file ``target``."""
    source_path = _sqlite_path(database)
    if target.exists():
        raise BackupError(f"{target} already exists")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    source = _open_existing(source_path)
    try:
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)
            # a single file: the copy leaves no -wal of its own behind
            copy.execute("PRAGMA journal_mode = DELETE")
            report = _check(copy, target)
        finally:
            copy.close()
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise BackupError(f"cannot back up {source_path}: {exc}") from None
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        source.close()
    os.replace(partial, target)
    return report


def restore(backup_file: Path, database: DatabaseUrl) -> BackupReport:
    """Replace the SQLite ``database`` (created if missing) with ``backup_file``'s contents."""
    target_path = _sqlite_path(database)
    source = _open_existing(backup_file)
    try:
        report = _check(source, backup_file)
        target_path.parent.mkdir(parents=True, exist_ok=True)
        target = sqlite3.connect(target_path)
        try:
            source.backup(target)
        finally:
            target.close()
    except sqlite3.Error as exc:
        raise BackupError(f"cannot restore into {target_path}: {exc}") from None
    finally:
        source.close()
    return report
