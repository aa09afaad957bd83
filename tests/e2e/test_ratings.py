"""Skill ratings on Discord, end to end (issue 33): a rated game shows everyone's rating
change with its result, at the end of each seat's line (issue 44), an unrated one shows none,
and `/dubb top` and `/dubb profile` answer, the profile with its chart attached as a PNG with
alt text in the reader's language."""

from __future__ import annotations

import re

import pytest

from bot.fakediscord import Driver
from bot.fakediscord.model import StoredMessage
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import DubbTable, open_table
from tests.e2e.table_card import card, field_value

pytestmark = [pytest.mark.e2e, pytest.mark.machine_speed]

MAX_TURNS = 400
CHANGE = re.compile(r"^\W*\**(Anna|Bo)\b.* · rating (\d+) \(([+−]\d+|0)\)$")
PLAYERS = "Players (in turn order)"


def field(message: StoredMessage, name: str) -> str | None:
    return field_value(message, name)


async def play_out(table: DubbTable) -> StoredMessage:
    turns = 0
    while not table.over():
        await table.turn_by_buttons()
        turns += 1
        assert turns < MAX_TURNS
    return table.table


async def test_a_rated_game_shows_rating_changes_then_top_and_profile_answer(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    final = await play_out(await open_table(driver, world.channel, world.anna, [world.bo]))
    assert field(final, "Ratings") is None, "no separate block: the seats say it"
    seats = field(final, PLAYERS)
    assert seats is not None, card(final)
    lines = [CHANGE.match(line) for line in seats.splitlines()]
    assert all(lines) and len(lines) == 2, seats
    # the winner's seat is the one that is out
    (first, rating, up), (second, low, down) = sorted(
        (m.groups() for m in lines if m), key=lambda g: g[2].startswith("−"))
    down = down.replace("−", "-")  # the minus sign, as every language writes it
    assert {first, second} == {"Anna", "Bo"}
    # a first game on the 1000 + 20 x ordinal scale: the winner gains, the loser drops
    assert int(up) > 0 > int(down) and int(rating) == 1000 + int(up)
    assert int(low) == 1000 + int(down)

    top = await driver.slash(world.bo, world.channel, "dubb top", {"private": True})
    assert top.ephemeral and top.message is not None
    board = card(top.message)  # a layout in the table's look
    assert board is not None
    # one game is not enough for the leaderboard (5): it says so, and where Bo stands
    assert board["title"] == "Dubb — leaderboard"
    assert "Nobody has played enough rated games yet." in board["description"]
    you = next(f["value"] for f in board["fields"] if f["name"] == "You")
    assert "after 1 rated game" in you and "from 5" in you
    assert "at least 5 rated games" in board["footer"]["text"]

    driver.set_locale(world.anna, "sv-SE")
    answer = await driver.slash(world.anna, world.channel, "dubb profile",
                                {"player": world.bo, "private": True})
    assert answer.ephemeral and answer.message is not None
    profile = answer.message
    embed = card(profile)
    assert embed is not None
    assert embed["title"] == "Dubb — Bo"
    shown = {f["name"]: f["value"] for f in embed["fields"]}
    assert shown["Ratingpartier"] == "1"
    [chart] = profile.attachments
    assert chart.filename == "rating-history.png" and chart.data.startswith(b"\x89PNG")
    assert embed["image"]["url"] == chart.url
    assert chart.description is not None
    assert chart.description.startswith("Diagram över rating i Dubb för Bo:"), chart.description
    assert "under 1 ratingparti" in chart.description

    # each seat on the finished table has a Profile button: Bo's, pressed by Anna, answers
    # her privately with his profile, in her language
    [seat] = [b for b in _profiles(final) if b["custom_id"].endswith(f":{world.bo.id}")]
    pressed = await driver.click(world.anna, final, seat["custom_id"])
    assert pressed.ephemeral and pressed.message is not None
    assert (card(pressed.message) or {}).get("title") == embed["title"]


def _profiles(table: StoredMessage) -> list[dict[str, object]]:
    """The Profile buttons beside the seats' lines."""
    return [b for b in table.buttons() if str(b["custom_id"]).split(":")[3] == "profile"]


async def test_a_computers_profile_button_says_it_is_not_rated(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    table = await open_table(driver, world.channel, world.anna, [], computers=1)
    profiles = _profiles(table.table)
    assert len(profiles) == 2 and {p["label"] for p in profiles} == {"Profile"}
    [computer] = [p for p in profiles if ":-" in str(p["custom_id"])]
    pressed = await driver.click(world.bo, table.table, str(computer["custom_id"]))
    assert pressed.ephemeral
    assert pressed.content.endswith("is a computer player: computers are not rated.")
    assert pressed.content.startswith("🤖 ")


async def test_an_unrated_game_shows_no_ratings(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    table = await open_table(driver, world.channel, world.anna, [world.bo], rated=False)
    lobby_note = [m for m in driver.fake.messages.values()
                  if "not rated" in str(card(m))]
    assert lobby_note, "the lobby says the table is not rated"
    final = await play_out(table)
    assert "rating" not in (field(final, PLAYERS) or ""), card(final)
    answer = await driver.slash(world.anna, world.channel, "dubb profile")
    assert answer.message is not None
    assert (card(answer.message) or {}).get("description") == (
        "Anna has no rated Dubb games here yet.")
    assert answer.message.attachments == []
