"""The whole suite: the order tests are handed out in.

``scripts/test`` runs the suite on pytest-xdist's ``worksteal`` scheduling: each worker starts on
its share of the tests in collection order, and a worker that runs out takes the last half of the
longest queue left. Longest first is the classic rule for finishing a batch of jobs early on a few
workers: a long test that starts last would end the run alone, and one that starts first runs
while the others take over the rest of its worker's share. So the ``slow`` tests come first,
then the browser and the end-to-end tests (which mostly wait on Discord's rate limits and on
processes starting), then the short engine, store and unit tests that fill the gaps. Within each
group the order is pytest's own.
"""

from __future__ import annotations

import pytest

_FIRST = ("slow", "browser", "e2e")


def _group(item: pytest.Item) -> int:
    for rank, marker in enumerate(_FIRST):
        if item.get_closest_marker(marker) is not None:
            return rank
    return len(_FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_group)  # stable: each group keeps pytest's order
