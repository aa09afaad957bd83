"""The process's garbage collector once start-up is done (``bot.collector``)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot import collector


@pytest.fixture
def restored() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


@pytest.mark.usefixtures("restored")
def test_settling_freezes_start_up_and_makes_full_collections_rarer() -> None:
    young, middle, _ = gc.get_threshold()
    tracked = [[n] for n in range(10)]  # start-up's objects
    collector.settle()

    assert gc.get_freeze_count() >= len(tracked)
    assert gc.get_threshold() == (young, middle, collector.FULL_AFTER)
    full: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 2:
            full.append(1)

    gc.callbacks.append(seen)
    try:
        # a heap growing by 300,000 objects, as a burst of new tables grows it: some 40
        # collections of the middle generation, after which Python's own thresholds would
        # have walked everything at least once
        grown = [[n] for n in range(300_000)]
        assert full == []
        del grown
        # nor is anything given up: a cycle is still freed when a full collection runs
        cycle: list[object] = []
        cycle.append(cycle)
        del cycle
        assert gc.collect() >= 1
    finally:
        gc.callbacks.remove(seen)
