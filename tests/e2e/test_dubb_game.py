"""Dubb on Discord, end to end: whole games with buttons and with slash commands, privacy."""

from __future__ import annotations

import pytest

from bot.fakediscord import Driver
from bot.games.dubb import Play
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import (
    card_tokens,
    cards_seen,
    open_table,
    table_id_of,
    table_message,
    title,
    to_move,
)
from tests.e2e.table_card import card, row_buttons

pytestmark = [pytest.mark.e2e, pytest.mark.machine_speed]

MAX_TURNS = 400


async def test_a_three_player_game_with_buttons_only(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    table = await open_table(driver, world.channel, world.anna, [world.bo, world.cem])
    turns = 0
    while not table.over():
        await table.turn_by_buttons()
        turns += 1
        assert turns < MAX_TURNS
    final = table.table
    assert title(final) == "Dubb — game over"
    description = card(final)["description"]
    loser_line = next(line for line in description.splitlines() if "loses" in line)
    assert sum(name in loser_line for name in ("Anna", "Bo", "Cem")) == 1
    # issue 13: a finished game offers Play again and a Replay, nothing else
    assert [b["label"] for b in row_buttons(final)] == ["Play again", "Replay", "Review"]
    # one ping per turn at most
    assert len(driver.pings()) <= turns + 1

    # Play again: two clicks (Play again, then Start) and the same three sit at a new game
    old_table = table_id_of(final)
    again = await driver.click(world.bo, final, "Play again")
    assert not again.ephemeral, again.content  # the new lobby itself answers
    lobby = await driver.wait_for_message(
        world.channel, lambda m: title(m) == "Dubb — waiting for players")
    assert table_id_of(lobby) != old_table
    seated = card(lobby)["fields"][1]["value"]
    assert all(p.global_name in seated for p in (world.anna, world.bo, world.cem)), seated
    assert "(host)" in next(line for line in seated.splitlines() if "Bo" in line)
    started = await driver.click(world.bo, lobby, "Start")
    assert started.ephemeral and "started" in started.content, started.content
    await driver.wait_for(lambda: title(table_message(driver, world.channel)) == "Dubb — in play",
                          what="the new game")


async def test_a_three_player_game_with_slash_commands_only(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    table = await open_table(driver, world.channel, world.cem, [world.anna, world.bo])
    assert bot.bot is not None
    service = bot.bot.service
    turns = 0
    while not table.over():
        snapshot = await service.get(world.channel.id)
        assert snapshot is not None and snapshot.engine is not None
        player = to_move(table.table)
        assert player == snapshot.engine.to_move
        legal = {
            (m.rank, m.naturals, m.jokers)
            for m in snapshot.engine.legal_moves(player)
            if isinstance(m, Play)
        }
        user = table.players[player]
        choices = await driver.autocomplete(
            user, world.channel, "dubb play", {"cards": ""}, focused="cards"
        )
        # autocomplete offers exactly the legal plays (up to Discord's 25 choices)
        offered = {
            (p.rank, p.naturals, p.jokers)
            for p in (snapshot.engine.play_from_text(player, c["value"]) for c in choices)
        }
        assert len(choices) == len(offered) == min(len(legal), 25)
        assert offered <= legal
        await table.turn_by_commands()
        turns += 1
        assert turns < MAX_TURNS
    assert "loses" in card(table.table)["description"]


async def test_nobody_ever_sees_a_card_they_should_not(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    """D14: every card in a public message was played in public; every card in a player's
    private message was played in public or held by that player at some point."""
    table = await open_table(driver, world.channel, world.anna, [world.bo, world.cem])
    table_id = table_id_of(table.table)
    turns = 0
    while not table.over():
        await table.turn_by_buttons()
        turns += 1
        assert turns < MAX_TURNS
    assert bot.bot is not None
    public, held = await cards_seen(bot.bot.service, table_id)
    checked = 0
    for entry in driver.log:
        shown = card_tokens(entry.text)
        if entry.audience is None:
            assert shown <= public, f"public message shows {shown - public}: {entry.text!r}"
        else:
            allowed = public | held.get(entry.audience, set())
            assert shown <= allowed, f"private message shows {shown - allowed}"
        checked += 1
    assert checked > turns * 2
