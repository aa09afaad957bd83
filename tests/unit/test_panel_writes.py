"""A player's panel writes at a table go one at a time, in the order they asked; another
player's do not wait for them."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import aiohttp
import discord
import pytest

from bot.discord import panels
from bot.discord.panels import PanelWrites

KEY = (1, 7)


async def _write(writes: PanelWrites, key: tuple[int, int], name: str, log: list[str],
                 release: asyncio.Event) -> None:
    async with writes.one(key):
        log.append(f"{name} begins")
        await release.wait()
        log.append(f"{name} ends")


async def test_one_players_writes_go_one_at_a_time_in_order() -> None:
    writes, log = PanelWrites(), []
    first, second = asyncio.Event(), asyncio.Event()
    tasks = [asyncio.create_task(_write(writes, KEY, "refresh", log, first)),
             asyncio.create_task(_write(writes, KEY, "retire", log, second))]
    await asyncio.sleep(0)
    second.set()
    await asyncio.sleep(0)
    assert log == ["refresh begins"]  # the retirement waits for the refresh in flight
    first.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 10)
    assert log == ["refresh begins", "refresh ends", "retire begins", "retire ends"]


async def test_another_players_writes_do_not_wait() -> None:
    writes, log = PanelWrites(), []
    held, free = asyncio.Event(), asyncio.Event()
    mine = asyncio.create_task(_write(writes, KEY, "mine", log, held))
    free.set()
    await asyncio.wait_for(_write(writes, (1, 8), "theirs", log, free), 10)
    assert log == ["mine begins", "theirs begins", "theirs ends"]
    held.set()
    await asyncio.wait_for(mine, 10)


@pytest.mark.parametrize("failure", [
    aiohttp.ClientConnectionError("connection reset"), TimeoutError(),
    discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "Unknown Message"),
], ids=["network", "timeout", "dismissed"])
async def test_a_panel_that_cannot_be_retired_is_left_as_it_is(
        monkeypatch: pytest.MonkeyPatch, failure: BaseException) -> None:
    # the move it follows is made and answered: its retirement is best effort, whatever Discord
    # or the network answers
    async def refused(*_: Any, **__: Any) -> None:
        raise failure

    monkeypatch.setattr(panels, "edit_answer", refused)
    hands = panels.HandPanels(cast(Any, None), cast(Any, None), cast(Any, None),
                              cast(Any, None), cast(Any, None), lambda: 100.0, None)
    old = panels.OpenPanel(KEY, cast(Any, None), None, "en", shown_at=90.0, image=None,
                           message_id=1)
    await hands.retire(old)  # raises nothing
