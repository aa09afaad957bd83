"""Turn timers and abandoned tables on Discord (issue 8), end to end, with a clock the test moves
by hand: a player who stops responding gets the safe automatic move (Dubb: draw or pass; Tonk:
T11), announced on the table with its live countdown, and is removed after three in a row; a
deadline that passed while the bot was down fires once at start-up; an idle lobby closes after
15 minutes; `/dubb stop` and `/tonk stop` work for the host and moderators even when the table
is in a strange state."""

from __future__ import annotations

import random
import sqlite3

import pytest

from bot.fakediscord import Channel, Driver, User
from bot.fakediscord.model import StoredMessage
from bot.games.tonk import GreedyStrategy, Phase
from bot.table.service import LOBBY_TTL_SECONDS
from tests.e2e import dubb_table, tonk_table
from tests.e2e.automation import assert_someone_can_move, snapshot, start_clocked
from tests.e2e.conftest import BotRunner, ErrorLog, World
from tests.e2e.dubb_table import DubbTable
from tests.e2e.table_card import card

pytestmark = pytest.mark.e2e

TURN = 30


def _shown_ever(driver: Driver, channel: Channel, text: str) -> bool:
    """Whether any public version of any message in the channel showed ``text``."""
    return any(e.audience is None and e.channel_id == channel.id and text in e.text
               for e in driver.log)


def _ping_texts(driver: Driver, user: User) -> list[str]:
    pinged = {p.message_id for p in driver.pings(user)}
    return [e.text for e in driver.log if e.action == "create" and e.message_id in pinged]


async def _timeouts(runner: BotRunner, table_id: int, player: int) -> int:
    assert runner.bot is not None
    return sum(1 for r in await runner.bot.service.moves(table_id)
               if r.player_id == player and r.move["type"] == "timeout")


async def _open_dubb(driver: Driver, channel: Channel, host: User, guests: list[User],
                     **options: object) -> tuple[DubbTable, int]:
    await driver.slash(host, channel, "dubb start", dict(options))
    lobby = await driver.wait_for_message(
        channel, lambda m: dubb_table.title(m) == "Dubb — waiting for players"
    )
    table_id = dubb_table.table_id_of(lobby)
    for guest in guests:
        await driver.click(guest, lobby, "Join")
    started = await driver.click(host, lobby, "Start")
    assert started.ephemeral, started.content
    players = {u.id: u for u in [host, *guests]}
    return DubbTable(driver, channel, players), table_id


def _person_to_move_or_over(table: DubbTable) -> StoredMessage | None:
    message = table.table
    if table.over() or dubb_table.to_move(message) is not None:
        return message
    return None


async def test_an_idle_dubb_player_is_moved_by_the_timer_then_removed(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    clock = await start_clocked(bot_runner, seed=21)
    anna, bo = world.anna, world.bo
    table, table_id = await _open_dubb(driver, world.channel, anna, [bo], computers=1,
                                       turn_time=TURN)
    bo_turns = 0
    while not table.over():
        message = await driver.wait_for(lambda: _person_to_move_or_over(table),
                                        what="a person's turn")
        if table.over():
            break
        counter = dubb_table.counter_of(message)
        assert counter is not None
        if dubb_table.to_move(message) == anna.id:
            await table.turn_by_buttons()
            continue
        # Bo's turn: the table counts down, and Bo does nothing
        now = await snapshot(bot_runner, world.channel)
        assert now is not None and now.turn_deadline == clock.now() + TURN
        assert "▶ **Bo**: " in message.text
        assert f"; time runs out <t:{int(now.turn_deadline)}:R>" in message.text
        bo_turns += 1
        clock.advance(TURN)
        await table.wait_counter(counter + 1)
        assert await _timeouts(bot_runner, table_id, bo.id) == bo_turns
        if bo_turns == 3:
            await driver.wait_for(
                lambda: table.table if _bo_removed(table.table.text) else None,
                what="Bo removed",
            )

    assert bo_turns == 3
    for strike in (1, 2, 3):
        assert _shown_ever(driver, world.channel, f"⏱ Bo's time ran out ({strike} of 3)")
    assert _shown_ever(driver, world.channel, "Bo was removed after three timeouts")
    pings = _ping_texts(driver, bo)
    # each ping is the table itself, posted anew, with its countdown
    assert len(pings) == 3 and all("time runs out <t:" in p for p in pings)
    final = table.table
    assert "Bo" in card(final)["description"]
    assert bot_runner.bot is not None
    rows = {r.player_id: r for r in await bot_runner.bot.service.stats(world.guild.id, "dubb")}
    assert (rows[bo.id].count("games_played"), rows[bo.id].count("losses")) == (1, 1)


async def test_an_idle_tonk_player_gets_t11_moves_then_forfeits_and_the_table_goes_on(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    clock = await start_clocked(bot_runner)
    anna, bo = world.anna, world.bo
    play = await tonk_table.open_table(bot_runner, driver, world.channel, anna, [bo], seed=4,
                                       options={"computers": 1, "turn_time": TURN, "stake": 2})
    timeouts = 0
    while timeouts < 3:
        table = await snapshot(bot_runner, world.channel)
        assert table is not None and table.engine is not None
        engine = table.engine
        if engine.phase is Phase.HAND_OVER:
            await play.settle()
            await play.play(tonk_table.DealNextHand(), "buttons", anna)
        elif engine.to_move == anna.id:
            move = GreedyStrategy().choose(engine.observe(anna.id), random.Random(0))
            await play.settle()
            await play.play(move, "buttons", anna)
        elif engine.to_move == bo.id:
            shown = await play.settle()
            assert f"⏱ Their time runs out <t:{int(clock.now()) + TURN}:R>." in shown.text
            clock.advance(TURN)
            timeouts += 1
            await driver.wait_for(lambda c=table.counter: _past(play, c), what="T11's move")
            await play.settle()
        else:
            await driver.wait_for(lambda c=table.counter: _past(play, c), what="Astrid's move")

    assert await _timeouts(bot_runner, play.table_id, bo.id) == 3
    for strike in (1, 2, 3):
        assert _shown_ever(driver, world.channel,
                           f"⏱ Bo ran out of time ({strike} of 3 in a row), so a move was made "
                           "for them")
    table = await snapshot(bot_runner, world.channel)
    assert table is not None and [s.player_id for s in table.seats] == [anna.id, -1]
    assert bot_runner.bot is not None
    entries = await bot_runner.bot.service.ledger_entries(world.guild.id, "tonk", limit=None)
    forfeits = sorted((e.payer_id, e.payee_id, e.amount) for e in entries
                      if e.reason == "forfeit")
    assert forfeits == sorted([(bo.id, anna.id, 2), (bo.id, -1, 2)])
    # the forfeit ended the hand (T11); the table goes on between Anna and the computer
    shown = await play.settle()
    assert tonk_table.title(shown).endswith("over")
    assert "Bo left during the hand and forfeited it." in shown.text
    assert "At the table: Anna and 🤖 Astrid." in shown.text
    await assert_someone_can_move(bot_runner, world.channel)
    stopped = await driver.slash(anna, world.channel, "tonk stop")
    assert "stopped" in stopped.content


def _past(play: tonk_table.TonkPlay, counter: int) -> bool:
    shown = tonk_table.counter_of(play.table)
    return shown is not None and shown > counter


async def test_a_deadline_that_passed_while_the_bot_was_down_fires_once(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    clock = await start_clocked(bot_runner, seed=2)
    anna, bo = world.anna, world.bo
    table, table_id = await _open_dubb(driver, world.channel, anna, [bo], turn_time=60)
    message = await driver.wait_for(lambda: _person_to_move_or_over(table), what="a turn")
    idle = dubb_table.to_move(message)
    assert idle in (anna.id, bo.id)
    before = await snapshot(bot_runner, world.channel)
    assert before is not None and before.turn_deadline == clock.now() + 60

    await bot_runner.stop()
    clock.advance(10 * 60)
    await bot_runner.restart()
    name = "Anna" if idle == anna.id else "Bo"
    await driver.wait_for(
        lambda: table.table if f"⏱ {name}'s time ran out (1 of 3)" in table.table.text else None,
        what="the timeout after the restart",
    )
    after = await snapshot(bot_runner, world.channel)
    assert after is not None and after.counter == before.counter + 1
    # the next turn has a full minute from the restart, and the scheduler waits for it
    assert after.turn_deadline == clock.now() + 60
    assert await clock.someone_sleeping() == clock.now() + 60
    assert await _timeouts(bot_runner, table_id, idle) == 1

    # a second restart with no time passed fires nothing
    await bot_runner.restart()
    assert await clock.someone_sleeping() == clock.now() + 60
    again = await snapshot(bot_runner, world.channel)
    assert again is not None and again.counter == after.counter
    await assert_someone_can_move(bot_runner, world.channel)
    await driver.slash(anna, world.channel, "dubb stop")


async def test_a_lobby_nobody_starts_closes_after_15_minutes(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    clock = await start_clocked(bot_runner)
    opened_at = clock.now()
    await driver.slash(world.anna, world.channel, "tonk start")
    lobby = await driver.wait_for_message(world.channel,
                                          lambda m: tonk_table.title(m).startswith("Tonk"))
    expires = int(opened_at + LOBBY_TTL_SECONDS)
    assert f"This lobby closes <t:{expires}:R> if the game hasn't started." in lobby.text
    await driver.click(world.bo, lobby, "Join")
    clock.advance(LOBBY_TTL_SECONDS)
    closed = await driver.wait_for(
        lambda: lobby if tonk_table.title(lobby) == "Tonk — closed" else None,
        what="the lobby closed",
    )
    assert card(closed)["description"] == ("The lobby closed: the game did not start "
                                               "within 15 minutes.")
    assert closed.interactive_components() == []
    assert await snapshot(bot_runner, world.channel) is None
    # both players are free to sit down again
    reopened = await driver.slash(world.bo, world.channel, "dubb start")
    assert "waiting for players" in reopened.content


async def test_a_lobby_that_expired_while_the_bot_was_down_closes_at_start_up(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    clock = await start_clocked(bot_runner)
    await driver.slash(world.anna, world.channel, "dubb start", {"computers": 2})
    lobby = await dubb_table.wait_table(driver, world.channel)
    await bot_runner.stop()
    clock.advance(LOBBY_TTL_SECONDS + 60)
    await bot_runner.restart()
    closed = await driver.wait_for(
        lambda: lobby if dubb_table.title(lobby) == "Dubb — closed" else None,
        what="the lobby closed at start-up",
    )
    assert "did not start within 15 minutes" in closed.text
    assert await snapshot(bot_runner, world.channel) is None


async def test_a_table_without_a_turn_time_shows_no_countdown(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    await start_clocked(bot_runner, seed=2)
    table, _ = await _open_dubb(driver, world.channel, world.anna, [world.bo], turn_time=0)
    message = await driver.wait_for(lambda: _person_to_move_or_over(table), what="a turn")
    assert "time runs out" not in message.text
    current = await snapshot(bot_runner, world.channel)
    assert current is not None and current.turn_deadline is None
    assert bot_runner.bot is not None
    assert await bot_runner.bot.service.next_deadline() is None
    await driver.slash(world.anna, world.channel, "dubb stop")


async def test_stop_works_for_the_host_who_left_and_for_moderators_only(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    await start_clocked(bot_runner, seed=2)
    anna, bo, cem, mod = world.anna, world.bo, world.cem, world.mod
    table, _ = await _open_dubb(driver, world.channel, anna, [bo, cem], turn_time=TURN)
    await driver.wait_for(lambda: _person_to_move_or_over(table), what="a turn")
    left = await driver.slash(anna, world.channel, "dubb leave")
    assert left.ephemeral and "left" in left.content
    refused = await driver.slash(bo, world.channel, "dubb stop")
    assert refused.content == ("Only the host, or a member who can manage messages, can stop "
                               "this table.")
    # Anna still hosts the table she left; she may stop it
    stopped = await driver.slash(anna, world.channel, "dubb stop")
    assert stopped.content == "The game was stopped by Anna."
    assert await snapshot(bot_runner, world.channel) is None

    table, _ = await _open_dubb(driver, world.channel, bo, [cem], turn_time=TURN)
    by_mod = await driver.slash(mod, world.channel, "dubb stop")
    assert by_mod.content == "The game was stopped by Moderator Maja."
    await driver.wait_for(
        lambda: table.table if dubb_table.title(table.table) == "Dubb — closed" else None,
        what="the table closed",
    )
    assert await snapshot(bot_runner, world.channel) is None


async def test_stop_works_on_a_table_whose_stored_game_no_longer_loads(
    bot_runner: BotRunner, driver: Driver, world: World, bot_errors: ErrorLog
) -> None:
    await start_clocked(bot_runner, seed=2)
    anna, bo = world.anna, world.bo
    play = await tonk_table.open_table(bot_runner, driver, world.channel, anna, [bo],
                                       options={"computers": 1})
    await bot_runner.stop()
    with sqlite3.connect(bot_runner.database_path) as db:
        db.execute("UPDATE tables SET state = '{\"kind\": \"tonk\", \"v\": -1}' WHERE id = ?",
                   (play.table_id,))
    bot_errors.expect()
    await bot_runner.restart()
    refused = await driver.slash(bo, world.channel, "tonk stop")
    assert refused.content == ("Only the host, or a member who can manage messages, can stop "
                               "this table.")
    stopped = await driver.slash(anna, world.channel, "tonk stop")
    assert stopped.content == "The game was stopped by Anna."
    closed = await driver.wait_for(
        lambda: play.table if tonk_table.title(play.table) == "Tonk — closed" else None,
        what="the table closed",
    )
    assert closed.interactive_components() == []
    assert await snapshot(bot_runner, world.channel) is None
    again = await driver.slash(bo, world.channel, "tonk start")
    assert "waiting for players" in again.content


def _bo_removed(text: str) -> bool:
    """Bo is shown as gone: left, and the loser if the game ended with it."""
    return "Bo loses: left the game" in text or "🚪 Bo: left the game" in text
