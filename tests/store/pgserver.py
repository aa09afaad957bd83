"""A throwaway PostgreSQL server for the tests and the benchmark.

``PgServer.start()`` runs ``initdb`` into a fresh folder under the system temp directory and
``pg_ctl start`` with a private socket directory (and, if asked, a port on 127.0.0.1);
``stop()`` stops it and deletes the folder. PostgreSQL refuses to run as root, and CI runs as
root: then the server runs as the ``postgres`` user (made by the OS package) or ``nobody``, and
that user owns the folder. The binaries come from ``PATH`` or ``/usr/lib/postgresql/*/bin``;
``scripts/test`` installs them where they are missing. A server that cannot start raises
``RuntimeError`` with its log: the tests fail, they are never skipped.

Roles: ``kortbord`` (superuser, no password over the socket and 127.0.0.1) for the tests, and
``guarded`` (password ``GUARDED_PASSWORD``, nothing else) for tests of a refused login.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SUPERUSER = "kortbord"
GUARDED = "guarded"
GUARDED_PASSWORD = "right-password"
_names = itertools.count(1)


def find_binaries() -> Path:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``."""
    found = shutil.which("pg_ctl")
    if found is not None:
        return Path(found).resolve().parent
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
                        key=lambda p: int(p.parent.parent.name)
                        if p.parent.parent.name.isdigit() else 0)
    if not candidates:
        raise RuntimeError("PostgreSQL's server programs (initdb, pg_ctl) are not installed: "
                           "apt-get install -y postgresql (scripts/test does this)")
    return candidates[-1].parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _unprivileged() -> pwd.struct_passwd | None:
    """The user to run the server as when this process is root (``None`` otherwise)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise RuntimeError("running as root and neither a postgres nor a nobody user exists")


@dataclass
class PgServer:
    base: Path
    bin_dir: Path
    port: int
    tcp: bool
    owner: pwd.struct_passwd | None

    @property
    def data(self) -> Path:
        return self.base / "data"

    @property
    def socket_dir(self) -> Path:
        return self.base / "sock"

    @classmethod
    def start(cls, *, tcp: bool = False, durable: bool = False) -> PgServer:
        """A new server. ``tcp`` also listens on a free port of 127.0.0.1; ``durable`` keeps
        fsync and synchronous commits on (a benchmark wants them; tests do not need them, since
        a test server never survives a power cut)."""
        bin_dir = find_binaries()
        owner = _unprivileged()
        base = Path(tempfile.mkdtemp(prefix="kortbord-pg-"))
        server = cls(base, bin_dir, _free_port() if tcp else 5432, tcp, owner)
        try:
            server._init(durable)
            server._run("pg_ctl", "-D", str(server.data), "-l", str(base / "server.log"),
                        "-w", "-t", "60", "start")
            server._psql(f"CREATE ROLE {GUARDED} LOGIN PASSWORD '{GUARDED_PASSWORD}'")
        except BaseException:
            server.stop()
            raise
        return server

    def _init(self, durable: bool) -> None:
        self.socket_dir.mkdir()
        for path in (self.base, self.socket_dir):
            # any local user may reach the socket (the server's logins are what guard it)
            path.chmod(0o755)
            if self.owner is not None:
                os.chown(path, self.owner.pw_uid, self.owner.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8",
                  "--locale=C", "--no-sync", "--no-instructions")
        settings = {
            "listen_addresses": "'127.0.0.1'" if self.tcp else "''",
            "port": str(self.port),
            "unix_socket_directories": f"'{self.socket_dir}'",
            "max_connections": "200",
        }
        if not durable:
            settings.update(fsync="off", synchronous_commit="off", full_page_writes="off")
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.writelines(f"{k} = {v}\n" for k, v in settings.items())
        (self.data / "pg_hba.conf").write_text(
            f"local all {SUPERUSER} trust\n"
            "local all all scram-sha-256\n"
            f"host all {SUPERUSER} 127.0.0.1/32 trust\n"
            "host all all 127.0.0.1/32 scram-sha-256\n"
        )

    def _run(self, program: str, *args: str) -> None:
        kwargs: dict[str, Any] = {}
        if self.owner is not None:
            kwargs.update(user=self.owner.pw_uid, group=self.owner.pw_gid, extra_groups=[])
        proc = subprocess.run([str(self.bin_dir / program), *args], capture_output=True,
                              text=True, cwd=self.base, timeout=120, check=False, **kwargs)
        if proc.returncode != 0:
            log = self.base / "server.log"
            raise RuntimeError(
                f"{program} failed ({proc.returncode}): {proc.stdout}{proc.stderr}"
                + (log.read_text(errors="replace") if log.exists() else "")
            )

    def _psql(self, sql: str) -> None:
        self._run("psql", "-h", str(self.socket_dir), "-p", str(self.port), "-U", SUPERUSER,
                  "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-qc", sql)

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(RuntimeError):
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.base, ignore_errors=True)

    def halt(self) -> None:
        """Stop the server, keeping its data (``resume()`` starts it again)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.base / "server.log"),
                  "-w", "-t", "60", "start")

    def url(self, database: str = "postgres", *, user: str = SUPERUSER,
            password: str | None = None) -> str:
        """A URL over the private socket."""
        auth = user if password is None else f"{user}:{password}"
        return f"postgresql://{auth}@/{database}?host={self.socket_dir}&port={self.port}"

    def tcp_url(self, database: str = "postgres") -> str:
        assert self.tcp
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A new empty database; returns its name. (Through psql, so it works inside and
        outside an event loop.)"""
        name = f"kortbord_{os.getpid()}_{next(_names)}"
        self._psql(f"CREATE DATABASE {name}")
        return name

    def drop_database(self, name: str) -> None:
        self._psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


_shared: PgServer | None = None


def shared_server(config: Any) -> PgServer:
    """One server for the whole pytest session (``config`` is pytest's; the server stops when
    the session ends), whichever test folder asks first."""
    global _shared
    if _shared is None:
        _shared = PgServer.start()
        config.add_cleanup(_stop_shared)
    return _shared


def _stop_shared() -> None:
    global _shared
    if _shared is not None:
        _shared.stop()
        _shared = None
