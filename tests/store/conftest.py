"""Store fixtures. ``db_url`` (and the ``store`` and ``service`` built on it) runs a test twice:
on a fresh SQLite file and on a fresh database of a throwaway PostgreSQL server (one server for
the session, ``tests/store/pgserver.py``). ``db_path`` is a SQLite file, for SQLite's own tests.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest

from bot.storage import Store
from bot.table import TableService
from tests.store.pgserver import PgServer, shared_server
from tests.store.toy import TOY

BACKENDS = ("sqlite", "postgresql")


class FakeClock:
    """A clock the test moves by hand (no sleeping)."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(scope="session")
def pg_server(request: pytest.FixtureRequest) -> PgServer:
    return shared_server(request.config)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "kortbord.sqlite3"


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_url(backend: str, db_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A new, empty database of ``backend``, as the URL ``Store.open`` takes."""
    if backend == "sqlite":
        yield f"sqlite:///{db_path}"
        return
    server: PgServer = request.getfixturevalue("pg_server")
    name = server.create_database()
    yield server.url(name)
    server.drop_database(name)


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    s = await Store.open(db_url)
    yield s
    await s.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_service(clock: FakeClock) -> Callable[[Store], TableService]:
    seeds = itertools.count(12345)

    def make(store: Store) -> TableService:
        return TableService(store, {"toy": TOY}, clock=clock,
                            seed_source=lambda: next(seeds))

    return make


@pytest.fixture
def service(store: Store, make_service: Callable[[Store], TableService]) -> TableService:
    return make_service(store)
