"""The answers of an event's clicks and of ``/<game> event new``, where they could fail.

A click on the event's message (Register, Start, …) stores its change before it answers; where
the store is slow, the deadline's watch (``bot.discord.deadline``) acknowledges the click and
the answer edits the message through the interaction's webhook. Each such test holds the slow
step (``tests.e2e.held``) until Discord has seen the click answered, so the answer is always the
late one. ``event new`` posts the event's message with the bot's token: where the bot may not,
no event is left open without its message.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.discord import events as events_room
from bot.fakediscord import Channel, Driver, FakeDiscord, User
from bot.fakediscord.model import SEND_MESSAGES, StoredMessage
from bot.fakediscord.results import InteractionResult
from bot.i18n import tr
from bot.storage import EventRecord
from tests.e2e.conftest import BotRunner, ErrorLog, World
from tests.e2e.held import HeldUntilAnswered

pytestmark = pytest.mark.e2e

DEFERRED_UPDATE_MESSAGE = 6
MEMBER = 1
"""A permission overwrite's type for one member (the bot's)."""


async def open_event(driver: Driver, channel: Channel, host: User) -> StoredMessage:
    answer = await driver.slash(host, channel, "dubb event new",
                                {"rounds": 1, "seats": 2, "computers": 4})
    assert "opened below" in answer.content, answer.content
    return await driver.wait_for_message(channel, lambda m: m.button("Register") is not None)


async def events_of(bot: BotRunner, world: World) -> list[EventRecord]:
    assert bot.bot is not None
    return await bot.bot.store.events.of_guild(world.guild.id, "dubb")


def held(bot: BotRunner, method: str) -> HeldUntilAnswered:
    """The next call of the event service's ``method`` held until the click is answered."""
    assert bot.bot is not None
    return HeldUntilAnswered(bot.bot.events.service, method)


async def answered_late(driver: Driver, slow: HeldUntilAnswered,
                        result: InteractionResult) -> None:
    """The click was acknowledged (an update of its message) before the held step ran."""
    slow.clicked.set_result(result.record)
    await driver.wait_for(lambda: slow.answered_first is not None, what="the held step to run")
    assert slow.answered_first is True
    assert not result.failed and result.type == DEFERRED_UPDATE_MESSAGE


def shown(fake: FakeDiscord, message: StoredMessage) -> str:
    return json.dumps(fake.messages[message.id].components, ensure_ascii=False)


async def test_a_start_whose_seating_is_slow_shows_the_event_running_and_opens_round_one(
    bot: BotRunner, driver: Driver, fake: FakeDiscord, world: World, bot_errors: ErrorLog
) -> None:
    host = driver.add_user("Host Hedvig", admin=True)
    message = await open_event(driver, world.channel, host)
    slow = held(bot, "begin")
    result = await driver.click(host, message, "Start", wait=False)
    await answered_late(driver, slow, result)

    # the late answer shows the event running on its message
    await driver.wait_for(lambda: "Round 1 of 1 is being played" in shown(fake, message),
                          what="the event's message to show the event running")
    assert [b.get("label") for b in fake.messages[message.id].buttons()] == [
        "Standings", "Continue", "Cancel"]
    # round 1's tables open: a thread and a game each, then the seating is posted
    seating = await driver.wait_for_message(world.channel, lambda m: "— round 1**" in m.content)
    assert seating.content.count("Table ") == 2
    [event] = await events_of(bot, world)
    assert event.status == "running"
    assert bot.bot is not None
    tables = await bot.bot.store.events.tables(event.id, 1)
    assert len(tables) == 2 and all(t.table_id is not None for t in tables)
    assert len(fake.guilds[world.guild.id].threads()) == 2
    assert not result.followups, "no second answer (an error) followed"
    assert bot_errors.records == []


async def test_a_start_whose_answer_fails_opens_round_one_and_says_it_went_through(
    bot: BotRunner, driver: Driver, fake: FakeDiscord, world: World, bot_errors: ErrorLog
) -> None:
    """Discord refuses the Start's answer (its callback): the event is begun all the same, so
    round 1's tables open and the event's message is brought up to date with the bot's token;
    the host is told that what they did went through, not that nothing changed."""
    host = driver.add_user("Host Hedvig", admin=True)
    message = await open_event(driver, world.channel, host)
    bot_errors.expect()  # the refused answer is the bot's failure, logged as one
    fake.fail_next(1, status=403, match=lambda _, route: route.endswith("/callback"))
    started = await driver.click(host, message, "Start")

    assert started.ephemeral
    assert started.content == tr("en", events_room.EVENT_SHOWS_IT)
    assert "Nothing was changed" not in started.content
    await driver.wait_for(lambda: "Round 1 of 1 is being played" in shown(fake, message),
                          what="the event's message to show the event running")
    await driver.wait_for_message(world.channel, lambda m: "— round 1**" in m.content)
    [event] = await events_of(bot, world)
    assert bot.bot is not None
    tables = await bot.bot.store.events.tables(event.id, 1)
    assert event.status == "running" and all(t.table_id is not None for t in tables)


async def test_a_registration_whose_store_is_slow_lists_the_entrant(
    bot: BotRunner, driver: Driver, fake: FakeDiscord, world: World, bot_errors: ErrorLog
) -> None:
    host = driver.add_user("Host Hedvig", admin=True)
    message = await open_event(driver, world.channel, host)
    slow = held(bot, "register")
    result = await driver.click(world.anna, message, "Register", wait=False)
    await answered_late(driver, slow, result)

    await driver.wait_for(lambda: "Registered (5)" in shown(fake, message),
                          what="the event's message to list Anna")
    assert "Anna" in shown(fake, message)
    assert not result.followups, "no second answer (an error) followed"
    [event] = await events_of(bot, world)
    assert bot.bot is not None
    entrants = await bot.bot.store.events.entrants(event.id)
    assert world.anna.id in {e.player_id for e in entrants}
    assert bot_errors.records == []


async def test_an_event_where_the_bot_may_not_post_is_refused_and_nothing_is_stored(
    bot: BotRunner, driver: Driver, fake: FakeDiscord, world: World, bot_errors: ErrorLog
) -> None:
    """The channel denies the bot Send Messages, which Discord says with the interaction
    (``app_permissions``): a short private answer, no event stored, nothing posted."""
    fake.set_overwrite(world.channel, fake.bot_user.id, MEMBER, deny=SEND_MESSAGES)
    host = driver.add_user("Host Hedvig", admin=True)
    answer = await driver.slash(host, world.channel, "dubb event new", {"computers": 4})

    assert answer.ephemeral and not answer.followups
    assert answer.content == tr("en", events_room.CANNOT_POST, channel=world.channel.id)
    assert "Nothing was changed" in answer.content and "opened" not in answer.content
    assert await events_of(bot, world) == []
    assert driver.channel_messages(world.channel) == []
    assert bot_errors.records == []


async def test_an_event_whose_message_cannot_be_posted_is_not_left_open(
    bot: BotRunner, driver: Driver, fake: FakeDiscord, world: World, bot_errors: ErrorLog
) -> None:
    """The bot loses Send Messages in the channel after Discord sent the interaction (a
    moderator's change a moment earlier): the post is refused (403), the event is closed
    at once and the host is told privately, once, that it was not opened."""
    assert bot.bot is not None
    service = bot.bot.events.service
    create = service.create

    async def create_then_deny(**kwargs: Any) -> EventRecord:
        event = await create(**kwargs)
        fake.set_overwrite(world.channel, fake.bot_user.id, MEMBER, deny=SEND_MESSAGES)
        return event

    service.create = create_then_deny  # type: ignore[method-assign]
    host = driver.add_user("Host Hedvig", admin=True)
    answer = await driver.slash(host, world.channel, "dubb event new", {"computers": 4})

    assert answer.ephemeral and not answer.followups
    assert answer.content == tr("en", events_room.NOT_POSTED, channel=world.channel.id)
    assert "opened below" not in answer.content
    [event] = await events_of(bot, world)
    assert event.status == "cancelled" and event.message_id is None
    assert driver.channel_messages(world.channel) == []
    assert bot_errors.records == []
