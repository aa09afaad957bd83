"""Where the database is: a SQLite file or a PostgreSQL server, named by one URL.

``postgresql://user:password@host:port/database`` (or ``postgres://…``; asyncpg's query options
such as ``?host=/run/postgresql`` work too) selects PostgreSQL; ``sqlite:///relative/path`` and
``sqlite:////absolute/path`` (SQLAlchemy's spelling), or a plain file path, select SQLite.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

Backend = Literal["sqlite", "postgresql"]

_SQLITE_PREFIX = "sqlite:///"
_POSTGRES_SCHEMES = ("postgresql", "postgres")


@dataclass(frozen=True, slots=True)
class DatabaseUrl:
    """A parsed database location. ``path`` is set for SQLite, ``dsn`` for PostgreSQL."""

    backend: Backend
    path: Path | None = None
    dsn: str | None = None

    @property
    def display(self) -> str:
        """The location for messages and logs, without the password."""
        if self.path is not None:
            return str(self.path)
        assert self.dsn is not None
        parts = urlsplit(self.dsn)
        if parts.password is None:
            return self.dsn
        netloc = parts.netloc.rsplit("@", 1)[1]
        user = parts.username or ""
        return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))

    def __str__(self) -> str:
        return self.display


def sqlite_file(path: str | Path) -> DatabaseUrl:
    return DatabaseUrl("sqlite", path=Path(path))


def parse_database_url(value: str | Path | DatabaseUrl) -> DatabaseUrl:
    """Parse a database URL (or take a plain path as a SQLite file); ``ValueError`` with a short
    reason for anything else."""
    if isinstance(value, DatabaseUrl):
        return value
    if isinstance(value, Path):
        return sqlite_file(value)
    text = value.strip()
    if not text:
        raise ValueError("it is empty")
    if "://" not in text:
        return sqlite_file(text)
    scheme = text.split("://", 1)[0].lower()
    if scheme == "sqlite":
        if not text.startswith(_SQLITE_PREFIX) or len(text) == len(_SQLITE_PREFIX):
            raise ValueError("a SQLite URL has three slashes before its path")
        rest = text[len(_SQLITE_PREFIX):]
        if "?" in rest or "#" in rest:
            raise ValueError("a SQLite URL takes no options")
        return sqlite_file(rest)
    if scheme in _POSTGRES_SCHEMES:
        parts = urlsplit(text)
        try:
            _ = parts.port  # a port that is not a number raises
        except ValueError:
            raise ValueError("the port is not a number") from None
        if parts.fragment:
            raise ValueError("a PostgreSQL URL has no #fragment")
        return DatabaseUrl("postgresql", dsn=text)
    raise ValueError(f"unknown scheme {scheme}://")
