"""Issues 13 and 15 end to end: pings people control, card pictures, server settings, history
and replays."""

from __future__ import annotations

import re

import pytest

from bot.fakediscord import Driver
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import open_table, table_id_of, to_move
from tests.e2e.table_card import card

pytestmark = [pytest.mark.e2e, pytest.mark.machine_speed]

CARD_WORDS = re.compile(r"\b(?:two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|"
                        r"ace) of (?:spades|hearts|diamonds|clubs)\b|\bjoker\b")


async def test_pings_follow_each_persons_choice_and_carry_the_hand_button(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    off = await driver.slash(world.anna, world.channel, "kortbord pings", {"choice": "off"})
    assert off.ephemeral and "won't be pinged" in off.content
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    turns_of_bo = 0
    last = None
    for moves in range(13):
        now = None if table.over() else to_move(table.table)
        if now == world.bo.id and last != world.bo.id:
            turns_of_bo += 1
        last = now
        if now is None or moves == 12:
            break
        await table.turn_by_buttons()
    assert driver.pings(world.anna) == []
    # Bo is pinged by the table itself, at most once at each of his turns' start: while he plays
    # from his open panel it tells him instead (issue 32, test_quiet_turns.py), so his first
    # turn, before any panel of his was open, is the one sure ping
    assert 1 <= len(driver.pings(world.bo)) <= turns_of_bo
    ping = driver.pings(world.bo)[-1]
    pinged = next(m for m in driver.channel_messages(world.channel) if m.id == ping.message_id)
    if not pinged.deleted and not table.over():
        panel = await driver.click(world.bo, pinged, "Your hand")
        assert panel.ephemeral and "Your hand" in panel.content


async def test_cards_are_pictures_by_default_and_text_for_who_chooses_it(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    player = {world.anna.id: world.anna, world.bo.id: world.bo}[to_move(table.table) or 0]
    panel = await driver.click(player, table.table, "Your hand")
    assert panel.message is not None
    [picture] = panel.message.attachments
    assert picture.filename == "hand.png" and picture.data.startswith(b"\x89PNG")
    assert picture.description and picture.description.startswith("Your hand: ")
    assert len(picture.data) <= 100_000

    await table.turn_by_buttons()
    shown = table.table
    [streak] = shown.attachments if shown.attachments else [None]
    image_url = (card(shown) or {}).get("image", {}).get("url", "")
    if streak is not None:
        assert image_url.endswith("table.png") or image_url.startswith("attachment://")
        assert streak.description and CARD_WORDS.search(streak.description)

    text = await driver.slash(player, world.channel, "kortbord cards", {"shown": "text"})
    assert text.ephemeral and "as text" in text.content
    again = await driver.click(player, table.table, "Your hand")
    assert again.message is not None and again.message.attachments == []
    assert "Your hand" in again.content  # the text is always there


async def test_server_settings_need_manage_server_and_set_the_next_tables(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    owner = driver.add_user("Owner Olga", admin=True)
    refused = await driver.slash(world.anna, world.channel, "kortbord settings",
                                 {"cards": "text"})
    assert refused.ephemeral and "Manage Server" in refused.content
    shown = await driver.slash(world.anna, world.channel, "kortbord settings")
    assert shown.ephemeral and "pictures" in shown.content  # reading is for everyone

    changed = await driver.slash(owner, world.channel, "kortbord settings",
                                 {"cards": "text", "game": "dubb", "turn_time": 45,
                                  "pings": False})
    assert changed.ephemeral and "45 seconds per turn" in changed.content, changed.content
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    assert bot.bot is not None
    snapshot = await bot.bot.service.get(world.channel.id)
    assert snapshot is not None and snapshot.turn_seconds == 45
    await table.turn_by_buttons()
    assert table.table.attachments == []  # the server chose text for its tables
    assert driver.pings() == []  # and no pings unless people turn them on

    here = await driver.slash(owner, world.channel, "kortbord settings",
                              {"games_here": "deny"})
    assert here.ephemeral
    other = driver.add_channel(world.guild, "other")
    elsewhere = await driver.slash(world.cem, other, "dubb start")
    assert not elsewhere.ephemeral and "waiting for players" in elsewhere.content
    here_too = await driver.slash(world.cem, world.channel, "dubb start")
    assert here_too.ephemeral and "can't be started in this channel" in here_too.content


async def test_history_lists_finished_games_and_a_replay_shows_only_public_cards(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    while not table.over():
        await table.turn_by_buttons()
    final = table.table
    game = table_id_of(final)

    history = await driver.slash(world.cem, world.channel, "dubb history")
    assert history.ephemeral and history.message is not None
    assert f"#{game}" in history.message.text and "lost" in history.message.text

    replay = await driver.click(world.cem, final, "Replay")
    assert replay.ephemeral and replay.message is not None
    assert bot.bot is not None
    records = await bot.bot.service.moves(game)
    last = len(records) - 1
    message = replay.message
    steps = 0
    while True:
        steps += 1
        assert f"of {last}" in message.text
        # a replay shows the public table only: no player's hand, no picture of one
        assert "Your hand (" not in message.text
        if any(b.get("label") == "▶" and not b.get("disabled") for b in message.buttons()):
            step = await driver.click(world.cem, message, "▶")
            assert step.type == 7 and step.message is not None
            message = step.message
        else:
            break
    assert steps == last + 1
    assert "game over" in message.text


async def test_a_server_sets_the_default_tonk_stake_with_manage_server(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    refused = await driver.slash(world.anna, world.channel, "tonk defaults", {"stake": 5})
    assert refused.ephemeral and "Manage Server" in refused.content
    owner = driver.add_user("Owner Olga", admin=True)
    set_ = await driver.slash(owner, world.channel, "tonk defaults", {"stake": 5})
    assert set_.ephemeral and "5 chips" in set_.content, set_.content
    opened = await driver.slash(world.anna, world.channel, "tonk start")
    assert not opened.ephemeral, opened.content  # the lobby itself answers
    assert bot.bot is not None
    snapshot = await bot.bot.service.get(world.channel.id)
    assert snapshot is not None and snapshot.options.stake == 5  # type: ignore[attr-defined]
    # a host's own stake still wins
    other = driver.add_channel(world.guild, "other")
    chosen = await driver.slash(world.bo, other, "tonk start", {"stake": 2})
    assert not chosen.ephemeral, chosen.content  # the lobby itself answers
    snapshot = await bot.bot.service.get(other.id)
    assert snapshot is not None and snapshot.options.stake == 2  # type: ignore[attr-defined]
