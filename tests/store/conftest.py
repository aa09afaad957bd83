from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.storage import Store
from bot.table import TableService
from tests.store.toy import TOY


class FakeClock:
    """A clock the test moves by hand (no sleeping)."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "kortbord.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(db_path)
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
