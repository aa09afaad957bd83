"""A hand panel is drawn and sent in steps of the loop of their own (``PeopleFirst.step``,
issue 16), and a panel refreshed for the next person's turn is dropped when a move is made
while it waits: that move's own publishing refreshes it."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord import panels as panels_module
from bot.discord.panels import HandPanels, OpenPanel, PanelWrites
from bot.table.priority import PeopleFirst


class Steps(PeopleFirst):
    """A ``PeopleFirst`` whose steps go one by one, as the test lets them."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting = asyncio.Queue[asyncio.Future[None]]()

    async def step(self) -> None:
        turn = asyncio.get_running_loop().create_future()
        await self.waiting.put(turn)
        await turn

    async def let_one_go(self) -> None:
        (await asyncio.wait_for(self.waiting.get(), 10)).set_result(None)


def table(counter: int) -> Any:
    return SimpleNamespace(table_id=1, channel_id=5, counter=counter)


def refreshing(log: list[str], counters: list[int]) -> Any:
    """Hand panels with one open panel (table 1, player 7), whose table is at the counters
    given, one per look."""
    steps = Steps()

    class Service:
        async def get(self, channel_id: int) -> Any:
            log.append("look")
            return table(counters.pop(0))

    async def panel(snapshot: Any, player: int, lang: str, **_: Any) -> Any:
        log.append(f"draw at {snapshot.counter}")
        return SimpleNamespace(content="Your turn", view=None, image=None)

    panels: Any = SimpleNamespace(
        people=steps, service=Service(), draw=panel, _clock=lambda: 0.0,
        _writes=PanelWrites(),
        _open={(1, 7): OpenPanel((1, 7), SimpleNamespace(), None, "en", 0.0, None, 1)})
    panels._still = lambda snapshot: HandPanels._still(panels, snapshot)
    return panels


@pytest.fixture
def edits(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    sent: list[str] = []

    async def edit_answer(webhook: Any, *, view: discord.ui.LayoutView, **_: Any) -> None:
        # a panel is a Components V2 layout: its words are in the container's first text
        sent.append(view.to_components()[0]["components"][0]["content"])

    monkeypatch.setattr(panels_module, "edit_answer", edit_answer)
    return sent


async def test_a_refreshed_panel_is_drawn_and_sent_in_steps_of_their_own(
        edits: list[str]) -> None:
    log: list[str] = []
    panels = refreshing(log, [3, 3])
    refresh = asyncio.create_task(HandPanels.refresh(panels, table(3), 7))
    await panels.people.let_one_go()
    # drawn after the first step, and waiting for the second to send it
    second = await asyncio.wait_for(panels.people.waiting.get(), 10)
    assert log == ["look", "draw at 3"] and edits == []
    second.set_result(None)
    await asyncio.wait_for(refresh, 10)
    assert log == ["look", "draw at 3", "look"] and edits == ["Your turn"]


@pytest.mark.parametrize("moved_at", [0, 1])
async def test_a_refresh_made_stale_by_a_move_is_dropped(edits: list[str], moved_at: int
                                                         ) -> None:
    counters = [3, 3]
    counters[moved_at] = 4
    log: list[str] = []
    panels = refreshing(log, counters)
    refresh = asyncio.create_task(HandPanels.refresh(panels, table(3), 7))
    await panels.people.let_one_go()
    if moved_at == 1:
        await panels.people.let_one_go()
    await asyncio.wait_for(refresh, 10)
    assert edits == []
    assert log == (["look"] if moved_at == 0 else ["look", "draw at 3", "look"])


async def test_a_panel_answer_is_sent_in_a_step_of_its_own(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    sent: list[str] = []

    async def answer_panel(interaction: Any, panel: Any, **_: Any) -> None:
        sent.append(panel.content)

    monkeypatch.setattr(panels_module, "answer_panel", answer_panel)
    steps = Steps()
    panels: Any = SimpleNamespace(people=steps, _open={}, _writes=PanelWrites())
    interaction: Any = SimpleNamespace(user=SimpleNamespace(id=7), message=None)
    panel: Any = SimpleNamespace(content="Your hand", image=None)
    answer = asyncio.create_task(
        HandPanels.answer(panels, interaction, 1, panel, edit=True))
    turn = await asyncio.wait_for(steps.waiting.get(), 10)
    assert sent == []
    turn.set_result(None)
    await asyncio.wait_for(answer, 10)
    assert sent == ["Your hand"]
