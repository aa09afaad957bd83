"""Expert computer players on Discord (issue 34), end to end: a person plays a whole Dubb game
against two experts seated by `/dubb start computers:2 level:expert`; the host seats a computer of
a chosen level from the lobby's menu; a server's default level seats computers of that level.
Searches are small here (``BotRunner.expert_rollouts``) and run in a thread."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.fakediscord import Driver
from bot.fakediscord.model import StoredMessage
from bot.table.computers import computer_level
from tests.e2e import dubb_table
from tests.e2e.automation import snapshot, start_clocked
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import DubbTable

pytestmark = pytest.mark.e2e


def _waiting_for(message: StoredMessage, player_id: int) -> StoredMessage | None:
    title = dubb_table.title(message)
    if title.endswith("game over") or (title.endswith("in play")
                                       and dubb_table.to_move(message) == player_id):
        return message
    return None


@pytest.mark.machine_speed
async def test_a_person_plays_a_whole_dubb_game_against_two_experts(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    await start_clocked(bot_runner, seed=11)
    anna = world.anna
    opened = await driver.slash(anna, world.channel, "dubb start",
                                {"computers": 2, "level": "expert"})
    assert opened.ephemeral, opened.content
    lobby = await dubb_table.wait_table(driver, world.channel)
    assert lobby.embeds[0]["fields"][1]["value"] == "• Anna (host)\n• 🤖 Rut\n• 🤖 Sune"
    table_id = dubb_table.table_id_of(lobby)
    await driver.click(anna, lobby, "Start")

    table = DubbTable(driver, world.channel, {anna.id: anna})
    turns = 0
    while True:
        await driver.wait_for(lambda: _waiting_for(table.table, anna.id),
                              what="Anna's turn or the end")
        if table.over():
            break
        await table.turn_by_buttons()
        turns += 1
    assert turns > 0
    assert "🤖 Rut" in table.table.embeds[0]["description"]
    assert await snapshot(bot_runner, world.channel) is None

    assert bot_runner.bot is not None
    records = await bot_runner.bot.service.moves(table_id)
    by_player = Counter(r.player_id for r in records[1:])
    experts = sorted(p for p in by_player if p < 0)
    assert [computer_level(p) for p in experts] == ["expert", "expert"]
    assert all(by_player[p] > 0 for p in experts)
    # the experts moved for themselves: none of their moves was a timer's
    assert {r.move["type"] for r in records[1:] if r.player_id < 0} <= {"play", "draw", "pass"}


async def test_the_host_picks_a_level_in_the_lobby_and_the_server_sets_a_default(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    anna = world.anna
    owner = driver.add_user("Owner Olga", admin=True)
    changed = await driver.slash(owner, world.channel, "kortbord settings",
                                 {"game": "tonk", "computer_level": "easy"})
    assert "Tonk: computer players play easy" in changed.content, changed.content
    await driver.slash(anna, world.channel, "tonk start", {"turn_time": 0, "computers": 1})
    lobby = await driver.wait_for_message(world.channel,
                                          lambda m: dubb_table.title(m).startswith("Tonk"))
    assert "🤖 Ivar" in lobby.text
    picked = await driver.select(anna, lobby, ["expert"])
    assert picked.ephemeral and picked.content == "🤖 Rut (expert) sat down at the table."
    default = await driver.click(anna, lobby, "Add computer player")
    assert default.content == "🤖 Jonna (easy) sat down at the table."
    table = await snapshot(bot, world.channel)
    assert table is not None
    assert [computer_level(s.player_id) for s in table.seats if s.is_computer] == [
        "easy", "expert", "easy"]
    await driver.slash(anna, world.channel, "tonk stop")
