"""A whole Dubb game and a Tonk hand played by buttons: what the layout tests read every write
of (the table's in ``test_layout_upgrade``, the hand panels' in ``test_panel_layout``)."""

from __future__ import annotations

from bot.fakediscord import Driver
from bot.games.tonk import HandEnd
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import open_table
from tests.e2e.tonk_table import POLICY_FOR, find_seed, seats_of
from tests.e2e.tonk_table import open_table as open_tonk


async def play_a_dubb_game_and_a_tonk_hand(bot: BotRunner, driver: Driver, world: World) -> None:
    dubb = await open_table(driver, world.channel, world.anna, [world.bo])
    while not dubb.over():
        await dubb.turn_by_buttons()
    # a channel of its own: a game's private cards are checked against its channel's messages
    elsewhere = driver.add_channel(world.guild, "tonk")
    # a deal that is played (T4: about 1 deal in 75 is a tonk on the deal, with no move)
    seed = find_seed(seats_of([world.cem, world.mod]), [HandEnd.DROP_CAUGHT])
    tonk = await open_tonk(bot, driver, elsewhere, world.cem, [world.mod], seed=seed)
    await tonk.play_hand(POLICY_FOR[HandEnd.DROP_CAUGHT], "buttons")
