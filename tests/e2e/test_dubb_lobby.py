"""Dubb on Discord: the lobby — options, joining, leaving, starting, cancelling, stopping."""

from __future__ import annotations

import re

import pytest

from bot.fakediscord import Driver
from tests.e2e.conftest import BotRunner, ErrorLog, World
from tests.e2e.dubb_table import open_table, table_message, title, wait_table

pytestmark = pytest.mark.e2e


async def test_lobby_shows_options_and_seats_and_only_the_host_starts(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    opened = await driver.slash(
        world.anna, world.channel, "dubb start", {"decks": 2, "jokers": True, "hand_limit": True}
    )
    lobby = await wait_table(driver, world.channel)
    # the lobby is the command's own answer (issue 49): no private line besides it
    assert opened.message is not None and opened.message.id == lobby.id
    assert not opened.ephemeral
    assert title(lobby) == "Dubb — waiting for players"
    assert "2 packs, jokers, hand limit 7" in lobby.text
    assert "Anna" in lobby.text and "(host)" in lobby.text

    alone = await driver.click(world.anna, lobby, "Start")
    assert alone.ephemeral and "At least 2 players" in alone.content

    await driver.click(world.bo, lobby, "Join")
    await driver.wait_for(lambda: "Bo" in lobby.text, what="Bo in the lobby")
    again = await driver.slash(world.bo, world.channel, "dubb join")
    assert again.ephemeral and "already" in again.content
    not_host = await driver.click(world.bo, lobby, "Start")
    assert not_host.ephemeral and "Only the host" in not_host.content

    await driver.click(world.bo, lobby, "Leave")
    await driver.wait_for(lambda: "Bo" not in lobby.text, what="Bo gone from the lobby")
    await driver.slash(world.cem, world.channel, "dubb join")
    await driver.click(world.anna, lobby, "Start")
    await driver.wait_for(lambda: title(table_message(driver, world.channel)) == "Dubb — in play",
                          what="the game to start")
    late = await driver.slash(world.bo, world.channel, "dubb join")
    assert late.ephemeral and "already started" in late.content


async def test_cards_each_is_checked_against_d2(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    impossible = await driver.slash(world.anna, world.channel, "dubb start", {"cards_each": 9})
    assert impossible.ephemeral and "can't be dealt" in impossible.content
    assert "D2" not in impossible.content  # issue 13: rules in words, not codes
    assert driver.channel_messages(world.channel) == []

    limited = await driver.slash(
        world.anna, world.channel, "dubb start", {"cards_each": 10, "hand_limit": True}
    )
    assert limited.ephemeral and "at most 7" in limited.content

    await driver.slash(world.anna, world.channel, "dubb start", {"cards_each": 12})
    lobby = await wait_table(driver, world.channel)
    await driver.click(world.bo, lobby, "Join")
    await driver.click(world.cem, lobby, "Join")
    wrong_for_three = await driver.click(world.anna, lobby, "Start")
    assert wrong_for_three.ephemeral and "7 or 8 cards" in wrong_for_three.content
    assert title(lobby) == "Dubb — waiting for players"


async def test_a_moderator_can_cancel_a_lobby_and_others_cannot(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    await driver.slash(world.anna, world.channel, "dubb start")
    lobby = await wait_table(driver, world.channel)
    refused = await driver.click(world.bo, lobby, "Cancel")
    assert refused.ephemeral and "Only the host" in refused.content
    cancelled = await driver.click(world.mod, lobby, "Cancel")
    assert cancelled.ephemeral
    await driver.wait_for(lambda: lobby.buttons() == [], what="the lobby to close")
    assert "closed" in title(lobby)
    fresh = await driver.slash(world.bo, world.channel, "dubb start")
    assert not fresh.ephemeral and "waiting for players" in fresh.content
    new_lobby = await driver.wait_for_message(
        world.channel, lambda m: title(m) == "Dubb — waiting for players"
    )
    assert new_lobby.id != lobby.id


async def test_the_host_stops_a_running_game_and_table_reposts(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    await table.turn_by_buttons()
    old = table.table
    reposted = await driver.slash(world.bo, world.channel, "dubb table")
    assert reposted.ephemeral
    await driver.wait_for(lambda: old.deleted, what="the old table to go")
    new = table_message(driver, world.channel)
    assert new.id != old.id and title(new) == "Dubb — in play"

    refused = await driver.slash(world.bo, world.channel, "dubb stop")
    assert refused.ephemeral and "Only the host" in refused.content
    stopped = await driver.slash(world.anna, world.channel, "dubb stop")
    assert stopped.ephemeral and "stopped" in stopped.content
    await driver.wait_for(lambda: title(new) == "Dubb — closed", what="the table to close")
    # a stopped game can still be played again and replayed, and nothing else
    assert [b["label"] for b in new.buttons()] == ["Play again", "Replay", "Review"]
    nothing = await driver.slash(world.anna, world.channel, "dubb hand")
    assert nothing.ephemeral and "no Dubb game" in nothing.content


async def test_rules_are_private_and_say_the_rules_in_words(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    rules = await driver.slash(world.cem, world.channel, "dubb rules")
    assert rules.ephemeral
    for words in ("lowest rank", "dub", "Aces", "pending", "last player", "docs/rules/dubb.md"):
        assert words in rules.content
    # issue 13: no ruling codes in what players read (they are in the full rules)
    assert not re.search(r"\bD\d+\b", rules.content), rules.content


async def test_stop_works_even_when_the_stored_game_no_longer_loads(
    bot: BotRunner, driver: Driver, world: World, bot_errors: ErrorLog
) -> None:
    """Issue 8: a table in a state the bot cannot read any more can still be stopped."""
    import sqlite3

    table = await open_table(driver, world.channel, world.anna, [world.bo])
    await bot.stop()
    with sqlite3.connect(bot.database_path) as connection:
        connection.execute("""UPDATE tables SET state = '{"format_version": 999}'""")
    await bot.start()
    bot_errors.expect()  # the unreadable state is logged as the bot's own error

    refused = await driver.slash(world.bo, world.channel, "dubb stop")
    assert refused.ephemeral and "Only the host" in refused.content
    stopped = await driver.slash(world.mod, world.channel, "dubb stop")
    assert stopped.ephemeral and "stopped" in stopped.content
    await driver.wait_for(lambda: table.table.buttons() == [], what="the table to close")
    fresh = await driver.slash(world.bo, world.channel, "dubb start")
    assert not fresh.ephemeral and "waiting for players" in fresh.content
    await wait_table(driver, world.channel)
