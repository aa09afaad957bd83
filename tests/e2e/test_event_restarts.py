"""An event picks up where a killed process left it, at the moments between two of its steps
that ``tests/e2e/test_event_crash.py``'s kills rarely hit: the process stops at the exact
step (the call never returns, nothing after it runs, as under SIGKILL) and a fresh bot starts
on the same database and the same Discord. Also: a tables' channel that refuses threads is
said once, not at every pass (docs/events.md)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from bot.client import KortbordBot
from bot.fakediscord import Channel, Driver, FakeDiscord, StoredMessage, User
from bot.fakediscord.model import BOT_DEFAULT, CREATE_PUBLIC_THREADS, EVERYONE_DEFAULT
from bot.storage import EventTable
from tests.e2e import table_card
from tests.e2e.automation import start_clocked
from tests.e2e.conftest import BotRunner, World
from tests.e2e.table_card import card
from tests.e2e.test_events import (
    dubb_outcomes,
    event_of,
    expected_lines,
    final_standings,
    open_event,
    play_out,
)
from tests.fakeclock import FakeClock

pytestmark = [pytest.mark.e2e, pytest.mark.machine_speed]

WITHIN = 60.0
REFUSAL = "I can't open the tables' threads"


def stop_at(owner: Any, method: str, when: Callable[..., bool]) -> asyncio.Event:
    """The process stops in ``owner.method`` the first time ``when`` holds for its
    arguments: the call never returns and nothing after it in that task runs, as if the
    process were killed there. The event returned is set once it has stopped."""
    stopped = asyncio.Event()
    original = getattr(owner, method)

    async def stopping(*args: Any, **kwargs: Any) -> Any:
        if not stopped.is_set() and when(*args, **kwargs):
            stopped.set()
            await asyncio.Future()  # never done: the restart cancels it
        return await original(*args, **kwargs)

    setattr(owner, method, stopping)
    return stopped


async def stopped_at_the_start(bot_runner: BotRunner, driver: Driver, world: World,
                               owner: Callable[[KortbordBot], Any], method: str
                               ) -> tuple[FakeClock, User]:
    """A one-round event of two people, the host and Anna, started; the process stops in
    ``owner(bot).method`` the first time it gets there (``stop_at``). The clock and the host."""
    clock = await start_clocked(bot_runner, seed=7)
    host = driver.add_user("Host Hedvig", admin=True)
    message = await open_event(driver, world.channel, host, "dubb",
                               {"rounds": 1, "seats": 2, "computers": 0, "turn_time": 0})
    for person in (host, world.anna):
        await driver.click(person, message, "Register")
    assert bot_runner.bot is not None
    stopped = stop_at(owner(bot_runner.bot), method, lambda *_: True)
    await driver.click(host, message, "Start")
    await asyncio.wait_for(stopped.wait(), WITHIN)
    return clock, host


async def restarted_and_played_in(bot_runner: BotRunner, driver: Driver, fake: FakeDiscord,
                                  clock: FakeClock, world: World, host: User, thread: Channel
                                  ) -> EventTable:
    """Restart the bot of ``stopped_at_the_start``: its table shows in ``thread`` and the
    event is played to its final standings. The event's table then."""
    await bot_runner.restart()
    shown = await driver.wait_for_message(
        thread, lambda m: table_card.title(m).startswith("Dubb"), within=WITHIN)
    assert shown.button("Your hand") is not None
    done = await play_out(bot_runner, driver, fake, clock, world, world.channel,
                          people=[host, world.anna])
    assert "final standings" in str((card(done) or {}).get("title"))
    event = await event_of(bot_runner, world.guild.id, "dubb")
    assert bot_runner.bot is not None
    (table,) = await bot_runner.bot.store.events.tables(event.id)
    return table


def titles(driver: Driver, channel: Channel) -> list[str]:
    return [str(c.get("title")) for m in driver.channel_messages(channel) if (c := card(m))]


def over(fake: FakeDiscord, message: StoredMessage) -> bool:
    return "The event is over" in json.dumps(fake.messages[message.id].components)


async def test_final_standings_a_kill_left_unposted_as_the_event_finished_are_posted(
    bot_runner: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    """Killed right after the event was marked finished, before its final standings were
    posted: the next start posts them and says on the event's message that it is over."""
    await start_clocked(bot_runner, seed=7)
    host = driver.add_user("Host Hedvig", admin=True)
    message = await open_event(driver, world.channel, host, "dubb",
                               {"rounds": 1, "seats": 2, "computers": 2, "turn_time": 0})
    assert bot_runner.bot is not None
    stopped = stop_at(bot_runner.bot.events, "_announce",
                      lambda event: event.status == "finished")
    await driver.click(host, message, "Start")
    await asyncio.wait_for(stopped.wait(), WITHIN)
    event = await event_of(bot_runner, world.guild.id, "dubb")
    assert (event.status, event.announced) == ("finished", 0)
    assert final_standings(driver, world.channel) is None and not over(fake, message)

    await bot_runner.restart()
    await driver.wait_for(lambda: final_standings(driver, world.channel), within=WITHIN,
                          what="the final standings")
    await driver.wait_for(lambda: over(fake, message), within=WITHIN,
                          what="the event's message to say it is over")
    event = await event_of(bot_runner, world.guild.id, "dubb")
    assert (event.status, event.round, event.announced) == ("finished", 1, 1)
    assert sum("final standings" in t for t in titles(driver, world.channel)) == 1


@pytest.mark.parametrize("where", ["set_table", "show_automatic"])
async def test_a_table_a_kill_left_started_and_never_shown_is_shown_and_played(
    bot_runner: BotRunner, driver: Driver, fake: FakeDiscord, world: World, where: str
) -> None:
    """Killed after an event's table started, before the table was posted in its thread
    (``set_table``: before the event recorded it; ``show_automatic``: after): the next start
    posts the table, and its people play the event to its end."""
    clock, host = await stopped_at_the_start(
        bot_runner, driver, world,
        lambda bot: bot.events.service if where == "set_table" else bot.controllers["dubb"],
        where)
    bot = bot_runner.bot
    assert bot is not None
    event = await event_of(bot_runner, world.guild.id, "dubb")
    (table,) = await bot.store.events.tables(event.id)
    assert table.thread_id is not None
    record = await bot.service.live_record(table.thread_id)
    assert record is not None and record.status == "playing" and record.message_id is None
    thread = fake.channels[table.thread_id]

    table = await restarted_and_played_in(bot_runner, driver, fake, clock, world, host, thread)
    assert table.result is not None


async def test_a_thread_a_kill_left_unrecorded_is_used_and_no_second_one_is_made(
    bot_runner: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    """Killed after a table's thread was made, before the event recorded it: the next start
    plays the table in that thread instead of making a second one of the same name beside
    it (an empty thread people would open in vain)."""
    clock, host = await stopped_at_the_start(bot_runner, driver, world,
                                             lambda bot: bot.events.service, "set_thread")
    bot = bot_runner.bot
    assert bot is not None
    [made] = world.guild.threads()
    event = await event_of(bot_runner, world.guild.id, "dubb")
    (table,) = await bot.store.events.tables(event.id)
    assert table.thread_id is None and driver.channel_messages(made) == []

    table = await restarted_and_played_in(bot_runner, driver, fake, clock, world, host, made)
    assert world.guild.threads() == [made]
    assert table.thread_id == made.id and table.result is not None


async def test_a_thread_of_an_earlier_event_of_the_same_number_is_not_taken(
    bot_runner: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    """A database started afresh numbers its events from 1 again: the thread that the bot
    made for the table of an earlier event 1, still active, is not where the new event's
    table is played."""
    old = fake.world.start_thread(world.channel, {"name": "Dubb event 1 · round 1 · table 1",
                                                  "type": 11})
    # the bot's clock a few minutes on from when the old thread was made
    bot_runner.clock = FakeClock(start=time.time() + 300)
    await bot_runner.start()
    host = driver.add_user("Host Hedvig", admin=True)
    message = await open_event(driver, world.channel, host, "dubb",
                               {"rounds": 1, "seats": 2, "computers": 2, "turn_time": 0})
    await driver.click(host, message, "Start")
    table = await driver.wait_for(
        lambda: next((m for t in world.guild.threads() if t != old
                      for m in driver.channel_messages(t)
                      if table_card.title(m).startswith("Dubb")), None),
        within=WITHIN, what="the table in a thread of its own")
    assert [t.name for t in world.guild.threads()] == [old.name] * 2
    assert table.channel_id != old.id and driver.channel_messages(old) == []


async def test_a_seating_a_kill_left_unposted_is_posted_once_after_the_restart(
    bot_runner: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    """Killed after a round's tables were opened, before "who sits where" was posted: the
    next start posts it, once, and the event plays to its end."""
    clock, host = await stopped_at_the_start(bot_runner, driver, world,
                                             lambda bot: bot.events, "_post_seating")
    bot = bot_runner.bot
    assert bot is not None
    event = await event_of(bot_runner, world.guild.id, "dubb")
    (table,) = await bot.store.events.tables(event.id)
    assert table.thread_id is not None and (event.round, event.seated) == (1, 0)

    await bot_runner.restart()

    def seatings() -> list[StoredMessage]:
        return [m for m in driver.channel_messages(world.channel) if "round 1**" in m.content]

    [seating] = await driver.wait_for(seatings, within=WITHIN, what="the seating")
    assert f"<#{table.thread_id}>" in seating.content
    done = await play_out(bot_runner, driver, fake, clock, world, world.channel,
                          people=[host, world.anna])
    assert "final standings" in str((card(done) or {}).get("title"))
    assert len(seatings()) == 1
    event = await event_of(bot_runner, world.guild.id, "dubb")
    assert event.seated == 1


async def test_standings_a_kill_left_unposted_after_seating_the_next_round_come_first(
    bot_runner: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    """Killed between seating round 2 and posting the standings after round 1: the next start
    posts them before anything of round 2, as they stood after round 1."""
    clock = await start_clocked(bot_runner, seed=7)
    host = driver.add_user("Host Hedvig", admin=True)
    message = await open_event(driver, world.channel, host, "dubb",
                               {"rounds": 2, "seats": 2, "computers": 4, "turn_time": 0})
    assert bot_runner.bot is not None
    stopped = stop_at(bot_runner.bot.events, "_announce",
                      lambda event: event.round == 2 and event.announced == 0)
    await driver.click(host, message, "Start")
    await asyncio.wait_for(stopped.wait(), WITHIN)
    assert not any("after round 1" in t for t in titles(driver, world.channel))

    await bot_runner.restart()
    await play_out(bot_runner, driver, fake, clock, world, world.channel)
    await driver.wait_for(lambda: over(fake, message), within=WITHIN,
                          what="the event's message to say it is over")
    posted = [m for m in driver.channel_messages(world.channel)
              if "after round 1" in str((card(m) or {}).get("title"))
              or "round 2**" in m.content]
    assert len(posted) == 2 and card(posted[0]) is not None, "the standings come first"
    assert bot_runner.bot is not None
    store = bot_runner.bot.store
    event = await event_of(bot_runner, world.guild.id, "dubb")
    assert (event.status, event.announced) == ("finished", 2)
    entrants = await store.events.entrants(event.id)
    names = {e.player_id: f"🤖 {e.name}" for e in entrants}
    round_one = [(s, [[p] for p in r], g) for n, s, r, g in await dubb_outcomes(store, event.id)
                 if n == 1]
    expected = expected_lines(round_one, names, [e.player_id for e in entrants], seats=2)
    assert str((card(posted[0]) or {})["description"]).splitlines() == expected


async def test_a_tables_channel_that_refuses_threads_is_said_once_until_the_host_continues(
    bot_runner: BotRunner, driver: Driver, fake: FakeDiscord
) -> None:
    """The tables' channel refuses threads (Discord's 403): the event's channel is told once,
    and the event waits (no pass after pass of refused requests and messages); each
    **Continue** tries once more, and once the bot may, the tables open."""
    guild = driver.add_guild("Threads later",
                             bot_permissions=BOT_DEFAULT & ~CREATE_PUBLIC_THREADS,
                             everyone_permissions=EVERYONE_DEFAULT & ~CREATE_PUBLIC_THREADS)
    lobby = driver.add_channel(guild, "lobby")
    tables = driver.add_channel(guild, "tables")
    host = driver.add_user("Host Hedvig", admin=True)
    driver.allow_rest_errors()  # the refused threads are the point
    await start_clocked(bot_runner, seed=5)
    bot = bot_runner.bot
    assert bot is not None
    message = await open_event(driver, lobby, host, "dubb",
                               {"rounds": 1, "seats": 2, "computers": 4, "channel": tables})

    def refusals() -> int:
        return sum(REFUSAL in m.content for m in driver.channel_messages(lobby))

    async def settled() -> None:
        """Until every pass the clicks asked for has run, and none asked for another."""
        async with asyncio.timeout(WITHIN):
            while bot.events._tasks:
                await asyncio.wait(list(bot.events._tasks))

    await driver.click(host, message, "Start")
    await settled()
    assert refusals() == 1
    assert fake.guilds[guild.id].threads() == []
    answer = await driver.click(host, fake.messages[message.id], "Continue")
    assert "tried again" in answer.content
    await settled()
    assert refusals() == 2
    assert fake.guilds[guild.id].threads() == []

    for role in fake.guilds[guild.id].roles.values():
        if role.bot_id is not None:
            role.permissions |= CREATE_PUBLIC_THREADS
    await driver.click(host, fake.messages[message.id], "Continue")
    await driver.wait_for_message(lobby, lambda m: "round 1**" in m.content, within=WITHIN)
    assert len(fake.guilds[guild.id].threads()) == 2
    assert refusals() == 2
