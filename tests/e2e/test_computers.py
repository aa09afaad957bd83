"""Computer players on Discord (issue 8), end to end: a person plays a whole Dubb game and five
Tonk hands against two computer players; computers are seated by `/… start computers:` and by
the host's lobby button; they move through the same engine moves as people, are never pinged,
never deal a Tonk hand, and count in stats and the ledger under their "🤖" label; a table with
no person left ends."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.fakediscord import Driver
from bot.fakediscord.model import StoredMessage
from bot.games.dubb import players as dubb_players
from bot.games.registry import GAMES
from bot.games.tonk import DealNextHand, GreedyStrategy, Phase
from bot.storage import MoveRecord
from bot.table.timers import RETRY_SECONDS
from tests.e2e import dubb_table
from tests.e2e.automation import assert_someone_can_move, snapshot, start_clocked
from tests.e2e.conftest import BotRunner, ErrorLog, World
from tests.e2e.dubb_table import DubbTable
from tests.e2e.table_card import card, row_buttons, turn_line
from tests.e2e.tonk_table import TonkPlay, open_table, payments_announced, standings_shown

pytestmark = pytest.mark.e2e


def _moves(records: list[MoveRecord]) -> list[tuple[int, str]]:
    return [(r.player_id, r.move["type"]) for r in records[1:]]


@pytest.mark.machine_speed
async def test_a_person_plays_a_whole_dubb_game_against_two_computers(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    await start_clocked(bot_runner, seed=11)
    anna = world.anna
    opened = await driver.slash(anna, world.channel, "dubb start", {"computers": 2})
    assert not opened.ephemeral, opened.content  # the lobby itself answers
    lobby = await dubb_table.wait_table(driver, world.channel)
    players = dubb_table.title(lobby), card(lobby)["fields"][1]["value"]
    assert players == ("Dubb — waiting for players",
                       "• Anna (host)\n• 🤖 Astrid\n• 🤖 Bertil")
    assert "90 seconds per turn" in card(lobby)["fields"][0]["value"]
    table_id = dubb_table.table_id_of(lobby)
    started = await driver.click(anna, lobby, "Start")
    assert started.ephemeral, started.content

    table = DubbTable(driver, world.channel, {anna.id: anna})
    turns = 0
    while True:
        shown = await driver.wait_for(
            lambda: _dubb_waiting_for(table.table, anna.id), what="Anna's turn or the end"
        )
        if table.over():
            break
        assert "🤖 Astrid" in shown.text and "🤖 Bertil" in shown.text
        await table.turn_by_buttons()
        turns += 1

    final = table.table
    assert turns > 0
    ranking = card(final)["description"]
    assert "🤖 Astrid" in ranking and "🤖 Bertil" in ranking and "Anna" in ranking
    assert [b["label"] for b in row_buttons(final)] == ["Play again", "Replay", "Review"]
    assert await snapshot(bot_runner, world.channel) is None

    assert bot_runner.bot is not None
    records = await bot_runner.bot.service.moves(table_id)
    by_player = Counter(player for player, _ in _moves(records))
    assert by_player[-1] > 0 and by_player[-2] > 0 and by_player[anna.id] == turns
    # computers play, draw and pass like anyone; nobody timed out
    assert {kind for player, kind in _moves(records) if player < 0} <= {"play", "draw", "pass"}
    assert {p.user_id for p in driver.pings(channel=world.channel)} == {anna.id}

    # a computer's record is there like anyone's (the ranking waits for 5 games)
    stats = await driver.slash(anna, world.channel, "dubb stats", {"player": anna})
    assert stats.message is not None and "of 1 game" in stats.message.text
    rows = {r.player_id: r for r in await bot_runner.bot.service.stats(world.guild.id, "dubb")}
    assert {pid: rows[pid].count("games_played") for pid in (anna.id, -1, -2)} == {
        anna.id: 1, -1: 1, -2: 1}
    assert sum(rows[pid].count("losses") for pid in (anna.id, -1, -2)) == 1


def _dubb_waiting_for(message: StoredMessage, player_id: int) -> StoredMessage | None:
    title = dubb_table.title(message)
    if title.endswith("game over") or (title.endswith("in play")
                                       and dubb_table.to_move(message) == player_id):
        return message
    return None


async def play_until_hand_over(play: TonkPlay, person: int) -> StoredMessage:
    """The person plays their turns (greedy, through the buttons); computers play theirs."""
    assert play.runner.bot is not None
    while True:
        table = await snapshot(play.runner, play.channel)
        assert table is not None and table.engine is not None
        engine = table.engine
        if engine.phase is Phase.HAND_OVER:
            return await play.settle()
        if engine.to_move == person:
            move = GreedyStrategy().choose(engine.observe(person), random.Random(0))
            # the person acts on the table as it shows their turn
            await play.settle()
            await play.play(move, "buttons", play.users[person])
            continue
        counter = table.counter
        # a computer is to move: it does so on its own
        await play.driver.wait_for(lambda c=counter: _tonk_counter_past(play, c),
                                   what="a computer's move")


def _tonk_counter_past(play: TonkPlay, counter: int) -> bool:
    from tests.e2e.tonk_table import counter_of

    shown = counter_of(play.table)
    return shown is not None and shown > counter


@pytest.mark.machine_speed
async def test_a_person_plays_five_tonk_hands_against_two_computers(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    await start_clocked(bot_runner)
    anna = world.anna
    play = await open_table(bot_runner, driver, world.channel, anna, [], seed=5,
                            options={"computers": 2, "stake": 2})
    nets: Counter[str] = Counter()
    for hand in range(1, 6):
        if hand > 1:
            await play.play(DealNextHand(), "buttons", anna)
        final = await play_until_hand_over(play, anna.id)
        assert card(play.table)["title"] == f"Tonk — hand {hand} over"
        for payer, payee, amount, _ in payments_announced(final):
            nets[payer] -= amount
            nets[payee] += amount
        await assert_someone_can_move(bot_runner, world.channel)

    assert bot_runner.bot is not None
    records = await bot_runner.bot.service.moves(play.table_id)
    moves = _moves(records)
    # people deal; computers never do, so nobody dealt but Anna
    assert {p for p, kind in moves if kind == "deal_next_hand"} == {anna.id}
    assert {p for p, _ in moves if p < 0} == {-1, -2}
    assert not any(kind in ("timeout", "leave") for _, kind in moves)
    assert {p.user_id for p in driver.pings(channel=world.channel)} == {anna.id}
    assert play.scanner.checked > 0

    ledger = await driver.slash(anna, world.channel, "tonk ledger")
    assert ledger.message is not None
    shown = standings_shown(ledger.message)
    assert set(shown) >= {"🤖 Astrid", "🤖 Bertil", "Anna"} - {n for n in nets if not nets[n]}
    assert {name: row[0] for name, row in shown.items()} == {name: nets[name] for name in shown}
    assert all(row[1] == 5 for row in shown.values())
    assert sum(row[0] for row in shown.values()) == 0

    stopped = await driver.slash(anna, world.channel, "tonk stop")
    assert stopped.ephemeral and "stopped" in stopped.content


async def test_the_host_seats_computers_with_the_lobby_button(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    anna, bo = world.anna, world.bo
    await driver.slash(anna, world.channel, "tonk start", {"turn_time": 0})
    lobby = await driver.wait_for_message(world.channel,
                                          lambda m: dubb_table.title(m).startswith("Tonk"))
    assert "no turn timer" in card(lobby)["fields"][0]["value"]
    await driver.click(bo, lobby, "Join")
    refused = await driver.click(bo, lobby, "Add computer player")
    assert refused.ephemeral and refused.content == "Only the host can do that."
    added = await driver.click(anna, lobby, "Add computer player")
    assert added.ephemeral and added.content == "🤖 Astrid (normal) sat down at the table."
    full = await driver.click(anna, lobby, "Add computer player")
    assert full.content == "🤖 Bertil (normal) sat down at the table."
    again = await driver.click(anna, lobby, "Add computer player")
    assert again.content == "This table is full: it seats 4."
    shown = await driver.wait_for(
        lambda: lobby if "🤖 Bertil" in lobby.text else None, what="the lobby with Bertil"
    )
    assert "Players (4/4)" in shown.text
    # computers never hold a seat: Bo leaving leaves Anna's table with Anna and two computers
    await driver.click(bo, lobby, "Leave")
    started = await driver.click(anna, lobby, "Start")
    assert started.ephemeral, started.content
    table = await snapshot(bot, world.channel)
    assert table is not None and [s.player_id for s in table.seats] == [anna.id, -1, -2]
    await driver.slash(anna, world.channel, "tonk stop")


async def test_too_many_computers_or_a_too_short_turn_are_refused(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    many = await driver.slash(world.anna, world.channel, "dubb start", {"computers": 5,
                                                                       "turn_time": 5})
    assert many.ephemeral and many.content == ("A turn time is 0 (no timer) or 10 to 3600 "
                                               "seconds. Nothing was changed.")
    assert await snapshot(bot, world.channel) is None
    six = await driver.slash(world.anna, world.channel, "dubb start", {"computers": 5})
    assert not six.ephemeral and "waiting for players" in six.content
    table = await snapshot(bot, world.channel)
    assert table is not None and len(table.seats) == 6
    await driver.slash(world.anna, world.channel, "dubb stop")


async def test_a_dubb_table_whose_last_person_leaves_ends(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    await start_clocked(bot_runner, seed=3)
    anna = world.anna
    await driver.slash(anna, world.channel, "dubb start", {"computers": 2, "turn_time": 0})
    lobby = await dubb_table.wait_table(driver, world.channel)
    await driver.click(anna, lobby, "Start")
    await driver.wait_for(lambda: _dubb_waiting_for(dubb_table.table_message(driver,
                                                                             world.channel),
                                                    anna.id), what="Anna's turn")
    left = await driver.slash(anna, world.channel, "dubb leave")
    assert left.ephemeral, left.content
    closed = await driver.wait_for(
        lambda: _titled(dubb_table.table_message(driver, world.channel), "Dubb — closed"),
        what="the table closed",
    )
    assert card(closed)["description"] == ("Nobody but computer players was left at the "
                                               "table, so the game ended.")
    assert "Anna left the game (counts as a loss)" in closed.text
    # a game that ended can be played again and replayed, nothing more
    assert [b["label"] for b in closed.buttons()] == ["Play again", "Replay", "Review"]
    assert await snapshot(bot_runner, world.channel) is None
    assert bot_runner.bot is not None
    rows = {r.player_id: r for r in await bot_runner.bot.service.stats(world.guild.id, "dubb")}
    assert (rows[anna.id].count("games_played"), rows[anna.id].count("losses")) == (1, 1)
    # the channel is free again
    again = await driver.slash(anna, world.channel, "dubb start")
    assert "waiting for players" in again.content
    await driver.slash(anna, world.channel, "dubb stop")


async def test_a_tonk_table_whose_last_person_leaves_mid_hand_pays_and_ends(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    await start_clocked(bot_runner)
    anna = world.anna
    play = await open_table(bot_runner, driver, world.channel, anna, [], seed=9,
                            options={"computers": 2, "stake": 3})
    table = await snapshot(bot_runner, world.channel)
    assert table is not None and table.engine is not None
    if table.engine.phase is Phase.HAND_OVER:
        await play.play(DealNextHand(), "buttons", anna)
    left = await driver.slash(anna, world.channel, "tonk leave")
    assert "forfeited" in left.content
    closed = await driver.wait_for(
        lambda: _titled(play.table, "Tonk — closed"), what="the table closed"
    )
    assert "Anna left during the hand" in closed.text
    assert await snapshot(bot_runner, world.channel) is None
    assert bot_runner.bot is not None
    entries = await bot_runner.bot.service.ledger_entries(world.guild.id, "tonk", limit=None)
    forfeits = [(e.payer_id, e.payee_id, e.amount) for e in entries if e.reason == "forfeit"]
    assert sorted(forfeits) == [(anna.id, -2, 3), (anna.id, -1, 3)]


def _titled(message: StoredMessage, title: str) -> StoredMessage | None:
    return message if dubb_table.title(message) == title else None



async def test_a_table_where_a_computer_is_to_move_after_a_restart_goes_on(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    """The bot stops right after a person's move, before the computer could answer; at start-up
    the computer moves without anyone pressing anything."""
    await start_clocked(bot_runner, seed=11)
    anna = world.anna
    await driver.slash(anna, world.channel, "dubb start", {"computers": 1})
    lobby = await dubb_table.wait_table(driver, world.channel)
    await driver.click(anna, lobby, "Start")
    table = DubbTable(driver, world.channel, {anna.id: anna})
    await driver.wait_for(lambda: _dubb_waiting_for(table.table, anna.id), what="Anna's turn")
    assert bot_runner.bot is not None
    # the computer gets no chance to move before the bot stops
    bot_runner.bot.computers.kick = lambda snapshot: None  # type: ignore[method-assign]
    await table.turn_by_buttons()
    before = await snapshot(bot_runner, world.channel)
    assert before is not None and before.engine is not None
    assert before.engine.to_move == -1
    await bot_runner.restart()
    await driver.wait_for(lambda: _dubb_waiting_for(table.table, anna.id),
                          what="the computer's move after the restart")
    after = await snapshot(bot_runner, world.channel)
    assert after is None or after.counter > before.counter
    if after is not None:
        await assert_someone_can_move(bot_runner, world.channel)
        await driver.slash(anna, world.channel, "dubb stop")


async def test_a_computer_that_cannot_move_is_moved_by_its_turn_timer(
    bot_runner: BotRunner, driver: Driver, world: World, bot_errors: ErrorLog,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its deadline first starts it again; when the same turn comes due once more it times out
    like anyone's (D5 draw or pass), so the table never waits for it forever."""

    class Broken:
        name = "broken"
        remembers = False

        def choose(self, view: object, rng: object) -> object:
            raise RuntimeError("the strategy crashed")

        def remember(self, events: object) -> None:
            pass

    monkeypatch.setitem(dubb_players.STRATEGIES, GAMES["dubb"].computer, Broken)
    bot_errors.expect()
    clock = await start_clocked(bot_runner, seed=11)
    anna = world.anna
    await driver.slash(anna, world.channel, "dubb start", {"computers": 1, "turn_time": 40})
    lobby = await dubb_table.wait_table(driver, world.channel)
    await driver.click(anna, lobby, "Start")
    table = DubbTable(driver, world.channel, {anna.id: anna})
    first = await snapshot(bot_runner, world.channel)
    assert first is not None and first.engine is not None
    if first.engine.to_move == anna.id:
        await driver.wait_for(lambda: _dubb_waiting_for(table.table, anna.id), what="Anna")
        await table.turn_by_buttons()
    stuck = await snapshot(bot_runner, world.channel)
    assert stuck is not None and stuck.engine is not None and stuck.engine.to_move == -1
    await driver.wait_for(lambda: turn_line(table.table) == "🤖 Astrid to move.",
                          what="the computer's turn on the table")

    clock.advance(40)
    assert await clock.someone_sleeping() == clock.now() + RETRY_SECONDS
    clock.advance(RETRY_SECONDS)
    await driver.wait_for(
        lambda: table.table if "⏱ 🤖 Astrid's time ran out (1 of 3)" in table.table.text
        else None, what="the computer's timeout",
    )
    moved = await snapshot(bot_runner, world.channel)
    assert moved is None or moved.counter == stuck.counter + 1
    if moved is not None:
        await driver.slash(anna, world.channel, "dubb stop")
