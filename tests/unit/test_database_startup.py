"""Issue 12, item 7: ``python -m bot`` with a database it cannot use prints one line naming the
setting and the cause, exits with status 2 and shows no traceback, before it connects to
Discord. A healthy database passes the check (the bot then fails to reach the closed Discord
address it was given, exit 1).

As root, permissions do not stop anything, so there the bot runs without the capabilities that
override them (``setpriv``): a read-only file is then read-only to it too.
"""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.storage import SCHEMA_VERSION, Store
from tests.store.pgserver import GUARDED, GUARDED_PASSWORD, PgServer

ROOT = Path(__file__).resolve().parents[2]
CLOSED = "http://127.0.0.1:9/api/v10"
"""A Discord address where nothing listens (port 9, discard): a bot that gets past its database
check fails there at once."""


def run_bot(cwd: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISCORD_", "DATABASE_", "DEV_"))}
    env.update(DISCORD_TOKEN="test-token", DISCORD_API_BASE=CLOSED,
               PYTHONPATH=str(ROOT), **settings)
    command = [sys.executable, "-m", "bot"]
    if os.geteuid() == 0:
        drop = "-dac_override,-dac_read_search"
        command = ["setpriv", f"--bounding-set={drop}", f"--inh-caps={drop}", *command]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=60, check=False)


def assert_refused(proc: subprocess.CompletedProcess[str], setting: str, *causes: str) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"kortbord: cannot use {setting} "), lines[0]
    assert any(cause in lines[0] for cause in causes), lines[0]
    assert proc.returncode == 2
    assert proc.stdout == ""


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    where = tmp_path / "data"
    where.mkdir()
    yield where
    # give back what a test took away, so the temporary folder can be removed
    for path in (where, *where.rglob("*")):
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | stat.S_IRWXU)


def sqlite_database(path: Path, rows: int = 0) -> None:
    """A sound kortbord database (with ``rows`` padding rows to give it some pages)."""
    async def create() -> None:
        store = await Store.open(path)
        await store.close()

    asyncio.run(create())
    if rows:
        with sqlite3.connect(path) as db:
            db.executemany("INSERT INTO guild_settings (guild_id, settings, updated_at) "
                           "VALUES (?, ?, 0)", [(i, "x" * 500) for i in range(rows)])
        with sqlite3.connect(path) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def test_random_bytes(folder: Path) -> None:
    path = folder / "kortbord.sqlite3"
    path.write_bytes(random.Random(1).randbytes(8192))
    assert_refused(run_bot(folder, DATABASE_PATH=str(path)), "DATABASE_PATH",
                   "it is not a SQLite database")


def test_a_truncated_file(folder: Path) -> None:
    path = folder / "kortbord.sqlite3"
    sqlite_database(path, rows=2000)
    size = path.stat().st_size
    with path.open("r+b") as f:
        f.truncate(size // 2)
    assert_refused(run_bot(folder, DATABASE_PATH=str(path)), "DATABASE_PATH",
                   "it is corrupt")


def test_a_damaged_page(folder: Path) -> None:
    """Zeros over the middle of the file: found by quick_check, not by opening it."""
    path = folder / "kortbord.sqlite3"
    sqlite_database(path, rows=2000)
    size = path.stat().st_size
    with path.open("r+b") as f:
        f.seek(size // 2)
        f.write(b"\x00" * 4096 * 4)
    assert_refused(run_bot(folder, DATABASE_PATH=str(path)), "DATABASE_PATH",
                   "it is corrupt")


def test_a_folder_where_the_file_should_be(folder: Path) -> None:
    (folder / "kortbord.sqlite3").mkdir()
    assert_refused(run_bot(folder, DATABASE_PATH=str(folder / "kortbord.sqlite3")),
                   "DATABASE_PATH", "it is a folder, not a file")


def test_a_folder_that_cannot_be_made(folder: Path) -> None:
    folder.chmod(0o555)
    proc = run_bot(folder, DATABASE_PATH=str(folder / "new" / "kortbord.sqlite3"))
    assert_refused(proc, "DATABASE_PATH", "cannot create its folder", "Permission denied")
    assert "Permission denied" in proc.stderr


def test_a_file_where_the_folder_should_be(folder: Path) -> None:
    (folder / "plain").write_text("not a folder")
    assert_refused(run_bot(folder, DATABASE_PATH=str(folder / "plain" / "kortbord.sqlite3")),
                   "DATABASE_PATH", "is not a folder")


def test_a_read_only_file(folder: Path) -> None:
    path = folder / "kortbord.sqlite3"
    sqlite_database(path)
    path.chmod(0o444)
    assert_refused(run_bot(folder, DATABASE_PATH=str(path)), "DATABASE_PATH",
                   "it is read-only")


def test_an_unreadable_file(folder: Path) -> None:
    path = folder / "kortbord.sqlite3"
    sqlite_database(path)
    path.chmod(0o000)
    assert_refused(run_bot(folder, DATABASE_PATH=str(path)), "DATABASE_PATH",
                   "cannot read it: Permission denied")


def test_a_read_only_folder(folder: Path) -> None:
    path = folder / "kortbord.sqlite3"
    sqlite_database(path)
    folder.chmod(0o555)
    assert_refused(run_bot(folder, DATABASE_PATH=str(path)), "DATABASE_PATH",
                   "is read-only (SQLite keeps its -wal and -shm files")


def test_a_database_from_a_newer_kortbord(folder: Path) -> None:
    path = folder / "kortbord.sqlite3"
    sqlite_database(path)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    assert_refused(run_bot(folder, DATABASE_PATH=str(path)), "DATABASE_PATH",
                   f"schema version {SCHEMA_VERSION + 1}")


def test_a_healthy_file_passes_the_check(folder: Path) -> None:
    path = folder / "new" / "kortbord.sqlite3"
    proc = run_bot(folder, DATABASE_PATH=str(path))
    assert "cannot use" not in proc.stderr and "cannot reach Discord" in proc.stderr
    assert proc.returncode == 1
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_postgresql_unreachable(folder: Path) -> None:
    proc = run_bot(folder, DATABASE_URL="postgresql://kortbord:secret@127.0.0.1:9/kortbord")
    assert_refused(proc, "DATABASE_URL", "cannot reach the PostgreSQL server")
    assert "secret" not in proc.stderr and "kortbord:***@127.0.0.1:9" in proc.stderr


def test_postgresql_no_server_at_the_socket(folder: Path) -> None:
    proc = run_bot(folder, DATABASE_URL=f"postgresql://kortbord@/kortbord?host={folder}")
    assert_refused(proc, "DATABASE_URL", "cannot reach the PostgreSQL server")


def test_postgresql_wrong_password(folder: Path, pg_server: PgServer) -> None:
    proc = run_bot(folder, DATABASE_URL=pg_server.url(user=GUARDED, password="wrong"))
    assert_refused(proc, "DATABASE_URL", "PostgreSQL refused the login")
    assert "password authentication failed" in proc.stderr and "wrong" not in proc.stderr


def test_postgresql_no_such_database(folder: Path, pg_server: PgServer) -> None:
    proc = run_bot(folder, DATABASE_URL=pg_server.url("missing"))
    assert_refused(proc, "DATABASE_URL", "no such database")


def test_postgresql_user_without_rights(folder: Path, pg_server: PgServer) -> None:
    """A login that works but may not create kortbord's tables."""
    name = pg_server.create_database()
    try:
        url = pg_server.url(name, user=GUARDED, password=GUARDED_PASSWORD)
        assert_refused(run_bot(folder, DATABASE_URL=url), "DATABASE_URL",
                       "the user may not do what kortbord needs")
    finally:
        pg_server.drop_database(name)


def test_postgresql_healthy_passes_the_check(folder: Path, pg_server: PgServer) -> None:
    name = pg_server.create_database()
    try:
        proc = run_bot(folder, DATABASE_URL=pg_server.url(name),
                       DATABASE_PATH=str(folder / "unused.sqlite3"))
        assert "cannot use" not in proc.stderr and "cannot reach Discord" in proc.stderr
        assert "DATABASE_PATH is not used: DATABASE_URL is set" in proc.stderr
        assert proc.returncode == 1
        assert not (folder / "unused.sqlite3").exists()
    finally:
        pg_server.drop_database(name)


def test_a_malformed_url_is_a_settings_error(folder: Path) -> None:
    proc = run_bot(folder, DATABASE_URL="postgresql://host:port/db")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == (
        "kortbord: DATABASE_URL is malformed (the port is not a number): expected "
        "postgresql://user:password@host:port/database or sqlite:///path/to/file")


def test_root_runs_the_bot_without_its_override(folder: Path) -> None:
    """The premise of the permission tests above: the bot cannot write a read-only file."""
    path = folder / "probe"
    path.write_text("")
    path.chmod(0o444)
    proc = subprocess.run(
        [*(["setpriv", "--bounding-set=-dac_override,-dac_read_search",
            "--inh-caps=-dac_override,-dac_read_search"] if os.geteuid() == 0 else []),
         sys.executable, "-c", f"open({str(path)!r}, 'a')"],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 1 and "PermissionError" in proc.stderr
