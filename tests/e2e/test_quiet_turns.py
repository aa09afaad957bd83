"""A person who is playing is told of their turn by their open hand panel, not pinged (issue 32).

A ping is a new table message and the old one's deletion: two requests at every turn. A person
who was answered at the table within the last minute and has their hand panel open sees
"🔔 Your turn." on it the moment the turn comes (issue 13), so the table is edited instead, and
pings them only if they have not moved ``PING_AFTER`` seconds later (they looked away). The
bot's clock is moved by hand here, so nothing waits for those seconds.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

import pytest

from bot.discord import panels
from bot.discord.showing import PING_AFTER
from bot.fakediscord import Driver, User
from bot.fakediscord.layouts import layout_text
from bot.fakediscord.model import StoredMessage
from bot.fakediscord.records import LogEntry
from tests.e2e.conftest import BotRunner, World
from tests.e2e.table_card import is_layout, title, turn_line
from tests.e2e.test_request_budget import _counter, _fresh_panel, _table
from tests.e2e.test_turn_pings import _move_from
from tests.fakeclock import FakeClock

pytestmark = pytest.mark.e2e


async def test_a_player_is_told_by_their_panel_and_pinged_only_when_they_look_away(
    bot_runner: BotRunner, driver: Driver, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock(start=time.time())
    bot_runner.clock = clock
    bot = await bot_runner.start()
    anna, bo = world.anna, world.bo
    people = {anna.id: anna, bo.id: bo}
    await driver.slash(anna, world.channel, "dubb start", {"turn_time": 0})
    lobby = await driver.wait_for_message(
        world.channel, lambda m: "waiting for players" in title(m))
    await driver.click(bo, lobby, "Join")
    await driver.click(anna, lobby, "Start")
    table = await driver.wait_for(
        lambda: (t := _table(driver, world.channel, "dubb")) and _counter(t) >= 0 and t,
        what="the first turn")
    for person in people.values():
        opened = await driver.click(person, table, "Your hand")
        assert opened.message is not None

    async def turn() -> tuple[int, int]:
        snapshot = await bot.service.get(world.channel.id)
        assert snapshot is not None and snapshot.engine is not None
        assert snapshot.engine.to_move is not None
        return snapshot.counter, snapshot.engine.to_move

    async def panel_of(user: User, counter: int) -> StoredMessage:
        return await driver.wait_for(
            lambda: _fresh_panel(driver, user, counter) or _last_panel(driver, user, counter),
            what=f"the panel of {user.id} at move {counter}")

    async def hand_on(counter: int) -> int:
        """Play until the turn passes to the other person; whose turn it is then."""
        first = (await turn())[1]
        while True:
            counter, player = await turn()
            if player != first:
                return player
            await _move_from(driver, people[player], await panel_of(people[player], counter))

    # a turn passes: the next player's panel says so, the table shows it, and nobody is pinged.
    # A busy bot's panel edit is slow here: it waits (1 s at most) for the table to be written
    # first, as it would be if the table were written before the panel is told
    edit_answer = panels.edit_answer
    slow = {"turn": True}

    async def slow_panel(*args: Any, **kwargs: Any) -> None:
        view = kwargs.get("view")  # a panel is a layout: its words are its Text Displays
        shown = layout_text(view.to_components()) if view is not None else ""
        if slow["turn"] and shown.startswith("🔔"):
            slow["turn"] = False
            seq = len(driver.fake.log)
            with contextlib.suppress(AssertionError):
                await driver.fake.wait_for(
                    lambda: any(e.audience is None for e in driver.fake.log[seq:]), 1.0,
                    "a table write before the panel's")
        await edit_answer(*args, **kwargs)

    monkeypatch.setattr(panels, "edit_answer", slow_panel)
    pinged = len(driver.fake.pings)
    player = await hand_on(0)
    counter, _ = await turn()
    panel = await driver.wait_for(lambda: _fresh_panel(driver, people[player], counter),
                                  what="the panel announcing the turn")
    assert panel.text.startswith("🔔")
    await driver.wait_for(lambda: _counter(_table(driver, world.channel, "dubb")) >= counter,
                          what="the table showing the turn")
    # and the panel said it before the table did: a person looking at the table never sees
    # their turn there untold
    assert _first_seen(driver, None, counter) > _first_seen(driver, player, counter)
    # they move within PING_AFTER: the turn passes back, still without a ping
    other = await hand_on(counter)
    assert other != player
    counter, _ = await turn()
    await driver.wait_for(lambda: _counter(_table(driver, world.channel, "dubb")) >= counter,
                          what="the table showing the next turn")
    assert len(driver.fake.pings) == pinged

    # this time the player looks away: PING_AFTER later the table pings them
    await driver.wait_for(lambda: _fresh_panel(driver, people[other], counter),
                          what="the panel announcing the turn")
    before = len(driver.pings(people[other]))
    # the ping to come waits for the clock from when the turn went out to the table
    clock.advance(PING_AFTER)
    await driver.wait_for(lambda: len(driver.pings(people[other])) > before,
                          what="the ping of the player who looked away")
    assert len(driver.fake.pings) == pinged + 1
    assert f"<@{other}>" in turn_line(_table(driver, world.channel, "dubb"))
    assert driver.fake.rate_limited == []


def _first_seen(driver: Driver, audience: int | None, counter: int) -> int:
    """The fake's sequence number of the first version shown to ``audience`` (None: the
    channel's table; else that person's panel announcing the turn) drawn at ``counter``."""
    def custom_ids(components: list[dict[str, Any]]) -> list[str]:
        found = []
        for c in components:
            if "custom_id" in c:
                found.append(str(c["custom_id"]))
            found += custom_ids(c.get("components", []))
        return found

    def drawn_at(entry: LogEntry) -> int:
        parts = [i.split(":") for i in custom_ids(entry.components)]
        return max((int(p[4]) for p in parts if len(p) > 4), default=-1)

    for entry in driver.fake.log:
        if entry.audience != audience or drawn_at(entry) < counter:
            continue
        if audience is None and is_layout(entry.components):
            return entry.seq
        if audience is not None and layout_text(entry.components).startswith("🔔"):
            return entry.seq
    raise AssertionError(f"nothing shown to {audience} at move {counter}")


def _last_panel(driver: Driver, user: User, counter: int) -> StoredMessage | None:
    """The person's latest panel when it was drawn at this counter (their own last move
    answered, the turn still theirs)."""
    panels = driver.ephemerals(user)
    if panels and _counter(panels[-1]) == counter:
        return panels[-1]
    return None
