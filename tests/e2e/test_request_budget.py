"""The request budget per move (issue 16): whole games through the fake Discord count every
request the bot makes — interaction answers included — against the moves played, and no
request may be refused (the fixtures fail a test on any 429).

People play as people do: when the table names them they play from their own hand panel if it
updated itself for their turn (issue 13), else open their hand from the table, and make the
first move their panel offers (the first play or discard, else draw, else pass; Tonk:
deal the next hand from the table). Computers move at once, as fast as the bot lets them.

Against computers a move costs at most 2 requests on average, everything counted. Between two
people with pings on (the default) every move hands the turn to a person, whose ping is the
table posted anew, and the old table must go, and their open panel is brought up to date: the
move's answer, the post, the delete and the panel's edit — 4 requests a move, everything
counted (before panels updated themselves, the next player's click on Your hand cost the
same fourth request).

A game also leaves nothing of discord.py's — interactions, views, files — for the cyclic
garbage collector: at a hundred clicks a second its collections were about half the time the
event loop spent in stalls over 5 ms."""

from __future__ import annotations

import gc
import io
from collections import Counter

import discord
import pytest

from bot.fakediscord import Channel, Driver, User
from bot.fakediscord.model import StoredMessage
from tests.e2e.conftest import BotRunner, World
from tests.e2e.table_card import title as table_title
from tests.e2e.table_card import turn_line

pytestmark = pytest.mark.e2e

BUDGET = 2.0
PERSON_TO_PERSON = 4.0
MOVE_BUTTONS = ("Deal next hand", "Draw from stock", "Draw", "Pass", "Draw and play",
                "End the hand")
MOVE_SELECTS = ("play", "rank", "discard")
TONK_HANDS = 3
_WATCHED = (discord.Interaction, discord.ui.View, discord.ui.Item, discord.File, io.BytesIO)
"""What the bot's clicks and writes make in numbers: none of it may wait for the cyclic
collector."""


def _title(message: StoredMessage) -> str:
    return table_title(message)


def _table(driver: Driver, channel: Channel, game: str) -> StoredMessage:
    for message in reversed(driver.channel_messages(channel)):
        if _title(message).startswith(game.capitalize() + " —"):
            return message
    raise AssertionError(f"no {game} table in the channel")


def _labels(message: StoredMessage) -> list[str]:
    return [str(b.get("label")) for b in message.buttons() if not b.get("disabled")]


def _actor(table: StoredMessage, people: dict[int, User]) -> User | None:
    """Who the table waits for: the person it names, the host between Tonk hands."""
    if "Deal next hand" in _labels(table):
        return next(iter(people.values()))
    return next((u for uid, u in people.items() if f"<@{uid}>" in turn_line(table)), None)


async def _move(driver: Driver, user: User, table: StoredMessage) -> int:
    """Make the person's move; returns how many interactions only looked (opened the hand)."""
    if "Deal next hand" in _labels(table):
        dealt = await driver.click(user, table, "Deal next hand")
        assert dealt.ephemeral, dealt.content
        return 0
    panel = _fresh_panel(driver, user, _counter(table))
    looked = 0
    if panel is None:
        opened = await driver.click(user, table, "Your hand")
        assert opened.message is not None and opened.message.ephemeral, opened.content
        panel = opened.message
        looked = 1
    for select in panel.selects():
        action = str(select.get("custom_id", "")).split(":")[3:4]
        if action and action[0] in MOVE_SELECTS and select.get("options"):
            moved = await driver.select(user, panel, [select["options"][0]["value"]],
                                        custom_id=select["custom_id"])
            break
    else:
        labels = _labels(panel)
        label = next((b for b in MOVE_BUTTONS if b in labels), None)
        label = label or next((b for b in labels if b.startswith(("Take", "Drop"))), None)
        assert label, panel.content
        moved = await driver.click(user, panel, label)
    assert moved.type == 7, moved.content  # the panel updated in place
    return looked


def _fresh_panel(driver: Driver, user: User, counter: int) -> StoredMessage | None:
    """The person's hand panel if it updated itself for this turn."""
    for message in reversed(driver.ephemerals(user)):
        if message.text.startswith("🔔") and _counter(message) == counter:
            return message
    return None


async def _play(runner: BotRunner, driver: Driver, channel: Channel, game: str,
                people: list[User], computers: int) -> tuple[int, int, int]:
    """Open a table, play it to its end (Tonk: a few hands), and return the requests the bot
    made from its first turn, how many of them answered a look at a hand, and the moves played."""
    host, guests = people[0], people[1:]
    opened = await driver.slash(host, channel, f"{game} start", {"computers": computers})
    assert not opened.ephemeral, opened.content  # the lobby itself answers
    lobby = await driver.wait_for_message(channel, lambda m: "waiting for players" in _title(m))
    for guest in guests:
        await driver.click(guest, lobby, "Join")
    await driver.click(host, lobby, "Start")
    by_id = {u.id: u for u in people}
    deals = looks = 0

    acted_at = -1

    def waits_for_someone() -> StoredMessage | None:
        table = _table(driver, channel, game)
        if _over(table):
            return table
        if _counter(table) > acted_at and _actor(table, by_id) is not None:
            return table
        return None

    # counted from the first turn shown: what the game's moves cost
    await driver.wait_for(waits_for_someone, what="the first turn")
    calls_from = len(driver.fake.rest_calls)
    while True:
        table = await driver.wait_for(waits_for_someone, what="a person's turn or the end")
        if _over(table):
            break
        if "Deal next hand" in _labels(table):
            deals += 1
            if deals == TONK_HANDS:
                break
        actor = _actor(table, by_id)
        assert actor is not None
        acted_at = _counter(table)
        looks += await _move(driver, actor, table)
    assert runner.bot is not None
    records = await runner.bot.service.moves(_table_id(lobby))
    return len(driver.fake.rest_calls) - calls_from, looks, len(records) - 1


def _over(table: StoredMessage) -> bool:
    """A finished table offers Play again (a closed one nothing)."""
    return not table.buttons() or "Play again" in _labels(table)


def _counter(table: StoredMessage) -> int:
    """The move counter the table was drawn at (its buttons carry it)."""
    parts = [str(c.get("custom_id", "")).split(":") for c in table.interactive_components()]
    return max((int(p[4]) for p in parts if len(p) > 4), default=-1)


def _table_id(message: StoredMessage) -> int:
    return int(str(message.interactive_components()[0].get("custom_id", "")).split(":")[2])


@pytest.mark.machine_speed
@pytest.mark.parametrize("game", ["dubb", "tonk"])
async def test_against_computers_a_move_costs_at_most_two_requests(
    bot_runner: BotRunner, driver: Driver, world: World, game: str
) -> None:
    await bot_runner.start()

    requests, _, moves = await _play(bot_runner, driver, world.channel, game, [world.anna], 2)

    assert moves > 0
    assert requests / moves <= BUDGET, f"{requests} requests for {moves} moves"
    assert driver.fake.rate_limited == []


@pytest.mark.machine_speed
@pytest.mark.parametrize("game", ["dubb", "tonk"])
async def test_between_two_people_a_move_costs_its_answer_and_the_ping(
    bot_runner: BotRunner, driver: Driver, world: World, game: str
) -> None:
    await bot_runner.start()

    requests, looks, moves = await _play(bot_runner, driver, world.channel, game,
                                         [world.anna, world.bo], 0)

    assert moves > 0
    assert requests / moves <= PERSON_TO_PERSON, (
        f"{requests} requests ({looks} answered looks) for {moves} moves")
    assert driver.fake.rate_limited == []


@pytest.mark.machine_speed
@pytest.mark.parametrize("game", ["dubb", "tonk"])
async def test_a_game_leaves_discord_py_nothing_for_the_cyclic_collector(
    bot_runner: BotRunner, driver: Driver, world: World, game: str
) -> None:
    """What each click and each write makes is freed when its work is done, not by the cyclic
    garbage collector, whose walks stalled the event loop under load (``bot.discord.cycles``):
    no interaction, view, component or attached file of the game (nor of a forged click) is
    found in a cycle."""
    bot = await bot_runner.start()
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector finds unreachable is kept to look at
    try:
        await _play(bot_runner, driver, world.channel, game, [world.anna, world.bo], 0)
        # and a forged click on a component the table does not have, answered as gone
        forged = await driver.forge_click(world.anna, _table(driver, world.channel, game),
                                          "forged", validated_by_discord=False)
        assert forged.ephemeral, forged.content
        await bot._finish_interactions()
        gc.collect()
        cyclic = Counter(type(o).__qualname__ for o in gc.garbage if isinstance(o, _WATCHED))
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()

    assert cyclic == {}
