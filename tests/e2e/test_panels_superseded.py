"""Issue 36: only a player's newest hand panel offers moves, and a move that gives the same
player the turn again shows what they played as well as their turn."""

from __future__ import annotations

import pytest

from bot.cards import ACE, RANK_NAMES
from bot.fakediscord import Driver, StoredMessage
from bot.gamekit.contract import Seat
from bot.games.dubb import DubbOptions, Play
from bot.games.dubb.engine import DubbEngine
from tests.e2e.automation import set_seed
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import open_table, to_move
from tests.e2e.handled import handled

pytestmark = pytest.mark.e2e


def _offers_nothing(message: StoredMessage) -> bool:
    return not message.buttons() and not message.selects()


async def test_an_older_panel_says_it_is_out_of_date_and_offers_no_moves(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    """The reported case: a panel refreshed to "🔔 Your turn." kept its menu after the player
    moved from a newer panel."""
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    mover = table.players[to_move(table.table) or 0]
    waiting = world.bo if mover is world.anna else world.anna
    older = await driver.click(waiting, table.table, "Your hand")
    assert older.message is not None
    older_id = older.message.id
    await table.turn_by_buttons()  # the turn comes to them: the older panel shows it
    await driver.wait_for(lambda: "Your turn" in driver.fake.messages[older_id].shown,
                          what="the older panel refreshed for the turn")
    assert driver.fake.messages[older_id].selects() or driver.fake.messages[older_id].buttons()

    await table.turn_by_buttons()  # their move, from a newer panel opened on the table
    await handled()
    retired = driver.fake.messages[older_id]
    assert "out of date" in retired.shown and "Your turn" not in retired.shown
    assert _offers_nothing(retired) and not retired.attachments
    newest = driver.ephemerals(waiting, world.channel)[-1]
    assert newest.id != older_id and not _offers_nothing(newest)


def _aces_on_the_second_move(seats: list[Seat]) -> tuple[int, Play, Play]:
    """A deal seed where the first move is a play and the second player may then play aces
    and still hold cards: that seed, the first play and the aces."""
    for seed in range(5000):
        game = DubbEngine.new(seats, DubbOptions(), seed)
        first = game.to_move
        assert first is not None
        opening = next((m for m in game.legal_moves(first) if isinstance(m, Play)), None)
        if opening is None:
            continue
        game.apply(first, opening)
        second = game.to_move
        if second is None or second == first:
            continue
        aces = [m for m in game.legal_moves(second) if isinstance(m, Play)
                and m.rank == ACE and not m.jokers and m.naturals < len(game.hand(second))]
        if aces:
            return seed, opening, aces[0]
    raise AssertionError("no seed deals the second player aces to play")


def _typed(play: Play) -> str:
    return " ".join([RANK_NAMES[play.rank]] * play.naturals)


async def test_aces_show_what_was_played_and_that_it_is_your_turn_again(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    """D7: aces turn the pile and the player goes again; the refresh for that turn used to
    overwrite "You played …" with "🔔 Your turn."."""
    users = {world.anna.id: world.anna, world.bo.id: world.bo}
    seed, opening, aces = _aces_on_the_second_move(
        [Seat(u.id, u.display_name) for u in users.values()])
    set_seed(bot, seed)
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    first = users[to_move(table.table) or 0]
    played = await driver.slash(first, world.channel, "dubb play", {"cards": _typed(opening)})
    assert played.ephemeral and "You played" in played.content, played.content
    second = users[to_move(await table.wait_counter(1)) or 0]
    assert second is not first
    panel = await driver.slash(second, world.channel, "dubb play", {"cards": _typed(aces)})
    assert panel.message is not None
    await handled()
    shown = driver.fake.messages[panel.message.id]
    assert "You played A" in shown.shown, shown.shown
    assert "your turn again" in shown.shown
    assert shown.selects() or shown.buttons()  # ready for their next play
