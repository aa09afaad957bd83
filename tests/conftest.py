"""The whole suite: the order tests are handed out in.

``scripts/test`` runs the suite on pytest-xdist's ``worksteal`` scheduling: each worker starts on
its share of the tests in collection order — one contiguous slice each — and a worker that runs
out takes the last half of the longest queue left. Longest first is the classic rule for
finishing a batch of jobs early on a few workers: a long test that starts last would end the run
alone. So the ``slow`` tests come first, then the browser and the end-to-end tests (which mostly
wait on Discord's rate limits and on processes starting), then the short engine, store and unit
tests that fill the gaps; within each group the order is pytest's own. And since a worker keeps
the head of its slice (what others take is its tail), the tests are dealt out to the workers'
slices in turn, like cards: each worker begins with its own share of the slow tests, instead of
the first running them all one after another while the others ran short ones.
"""

from __future__ import annotations

import pytest

_FIRST = ("slow", "browser", "e2e")


def _group(item: pytest.Item) -> int:
    for rank, marker in enumerate(_FIRST):
        if item.get_closest_marker(marker) is not None:
            return rank
    return len(_FIRST)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=_group)  # stable: each group keeps pytest's order
    # xdist's workers each collect the suite and must agree on its order: this depends only on
    # the items and the number of workers
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    if workers > 1:
        items[:] = [item for hand in range(workers) for item in items[hand::workers]]
