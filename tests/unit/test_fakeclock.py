"""The tests' ``FakeClock``: ``someone_sleeping`` can wait for a sleep that ends soon, past the
ones that end later, and a wait for a sleep that never comes fails naming where each task is
stuck (an outage test once hung waiting for a sleep nothing in the bot needed to take)."""

from __future__ import annotations

import asyncio

import pytest

from tests import fakeclock
from tests.fakeclock import START, FakeClock


async def test_a_wait_for_a_sleep_that_never_comes_fails_naming_the_tasks(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fakeclock, "PATIENCE", 0.01)
    clock = FakeClock()
    far = asyncio.create_task(clock.sleep_until(START + 60), name="far")
    assert await clock.someone_sleeping() == START + 60
    with pytest.raises(AssertionError, match=r"(?s)within 5 s.*\n  far: \S*tests/fakeclock.py:\d+ "
                                             r"in sleep_until"):
        await clock.someone_sleeping(within=5)
    near = asyncio.create_task(clock.sleep_until(START + 5), name="near")
    assert await clock.someone_sleeping(within=5) == START + 5
    clock.advance(60)
    await asyncio.gather(far, near)
