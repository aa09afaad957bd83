"""Expert computer players on Discord (issue 34), end to end: a person plays a whole Dubb game
against two experts seated by `/dubb start computers:2 level:expert`; the host seats a computer of
a chosen level from the lobby's menu; a server's default level seats computers of that level.
Searches are small here (``BotRunner.expert_rollouts``) and run in a thread."""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from typing import Any

import pytest

from bot import cards
from bot.fakediscord import Driver
from bot.fakediscord.model import StoredMessage
from bot.gamekit.search import Budget, Decision, ExpertStrategy, run_job
from bot.games.tonk import DealNextHand
from bot.table.computers import computer_level
from bot.table.service import TableSnapshot
from tests.e2e import dubb_table
from tests.e2e.automation import snapshot, start_clocked
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import DubbTable
from tests.e2e.table_card import card, row_buttons
from tests.e2e.test_computers import play_until_hand_over
from tests.e2e.tonk_table import open_table

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
    assert not opened.ephemeral, opened.content  # the lobby itself answers
    lobby = await dubb_table.wait_table(driver, world.channel)
    assert card(lobby)["fields"][1]["value"] == "• Anna (host)\n• 🤖 Rut\n• 🤖 Sune"
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
    assert "🤖 Rut" in card(table.table)["description"]
    assert await snapshot(bot_runner, world.channel) is None

    assert bot_runner.bot is not None
    records = await bot_runner.bot.service.moves(table_id)
    by_player = Counter(r.player_id for r in records[1:])
    experts = sorted(p for p in by_player if p < 0)
    assert [computer_level(p) for p in experts] == ["expert", "expert"]
    assert all(by_player[p] > 0 for p in experts)
    # the experts moved for themselves: none of their moves was a timer's
    assert {r.move["type"] for r in records[1:] if r.player_id < 0} <= {"play", "draw", "pass"}


async def test_an_expert_searches_while_the_table_shows_the_last_move(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    """A search (up to its budget, in a worker) runs during the computer's pause, not after
    it: the pause hides it. The clock stands still until the search is done, and only then
    does the computer move."""
    bot_runner.computer_pause = 30.0
    clock = await start_clocked(bot_runner, seed=11)
    assert bot_runner.bot is not None
    pool = bot_runner.bot.computers._pool
    assert pool is not None
    searched: list[float] = []
    done = asyncio.Event()
    run = pool.run

    async def recorded(job: Any, work: Any = run_job) -> Any:
        result = await run(job, work)
        searched.append(clock.now())
        done.set()
        return result

    pool.run = recorded  # type: ignore[method-assign]
    table = await _anna_against_two_computers_of(bot_runner, driver, world, "expert")
    while True:
        state = await snapshot(bot_runner, world.channel)
        assert state is not None and state.engine is not None
        if state.engine.to_move != world.anna.id:
            break
        await table.turn_by_buttons()
    paused_at, counter = clock.now(), state.counter
    async with asyncio.timeout(30):
        await done.wait()
    assert searched == [paused_at]
    after = await snapshot(bot_runner, world.channel)
    assert after is not None and after.counter == counter  # thought, but still pausing
    clock.advance(30.0)
    await driver.wait_for(lambda: (dubb_table.counter_of(table.table) or 0) > counter or None,
                          what="the computer's move")


@pytest.mark.machine_speed
async def test_a_person_plays_tonk_hands_against_two_experts(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    await start_clocked(bot_runner)
    anna = world.anna
    play = await open_table(bot_runner, driver, world.channel, anna, [], seed=6,
                            options={"computers": 2, "level": "expert"})
    for hand in range(1, 4):
        if hand > 1:
            await play.play(DealNextHand(), "buttons", anna)
        await play_until_hand_over(play, anna.id)
        assert card(play.table)["title"] == f"Tonk — hand {hand} over"
    assert bot_runner.bot is not None
    records = await bot_runner.bot.service.moves(play.table_id)
    by_player = Counter(r.player_id for r in records[1:])
    experts = sorted(p for p in by_player if p < 0)
    assert [computer_level(p) for p in experts] == ["expert", "expert"]
    # the experts moved for themselves, every turn: no timer moved for them, nobody left
    assert not any(r.move["type"] in ("timeout", "leave") for r in records[1:])
    assert play.scanner.checked > 0
    await driver.slash(anna, world.channel, "tonk stop")


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


async def _expected_hint(bot_runner: BotRunner, snapshot: TableSnapshot, player: int
                         ) -> Decision:
    """The expert's own decision for ``player``'s seat, searched here from the engine's view
    with the seed an expert computer there would use, its memory given every event of the
    move log as that seat saw it (the Dubb expert infers from the dubs others did not make)."""
    assert snapshot.engine is not None and bot_runner.bot is not None
    game = bot_runner.bot.games[snapshot.kind]
    expert = game.strategies["expert"]()
    assert isinstance(expert, ExpertStrategy)
    expert.budget = Budget(bot_runner.expert_rollouts, 10.0)
    if expert.remembers:
        for record in await bot_runner.bot.service.moves(snapshot.table_id, after=-1):
            if record.seq > snapshot.counter:
                break
            expert.remember([game.events.for_seat(e, player) for e in record.events])
    rng = random.Random(f"kortbord:{snapshot.table_id}:{player}:{snapshot.counter}")
    return expert.decide(snapshot.engine.observe(player), rng)


async def _anna_against_two_computers(bot_runner: BotRunner, driver: Driver, world: World,
                                      *, seed: int) -> DubbTable:
    """A Dubb table of Anna and two computers, dealt from ``seed``, on a clock moved by hand."""
    await start_clocked(bot_runner, seed=seed)
    return await _anna_against_two_computers_of(bot_runner, driver, world, None)


async def _anna_against_two_computers_of(bot_runner: BotRunner, driver: Driver, world: World,
                                         level: str | None) -> DubbTable:
    """A Dubb table of Anna and two computers of ``level`` (the server's default: ``None``),
    started on a bot already running."""
    options: dict[str, Any] = {"computers": 2}
    if level is not None:
        options["level"] = level
    await driver.slash(world.anna, world.channel, "dubb start", options)
    lobby = await dubb_table.wait_table(driver, world.channel)
    await driver.click(world.anna, lobby, "Start")
    return DubbTable(driver, world.channel, {world.anna.id: world.anna})


@pytest.mark.machine_speed
async def test_a_hint_is_the_experts_move_for_that_position_and_seed(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    anna = world.anna
    table = await _anna_against_two_computers(bot_runner, driver, world, seed=4)
    hinted = reasoned = 0
    while hinted < 3:
        await driver.wait_for(lambda: _waiting_for(table.table, anna.id),
                              what="Anna's turn or the end")
        if table.over():
            break
        before = await snapshot(bot_runner, world.channel)
        assert before is not None and before.engine is not None
        expected = await _expected_hint(bot_runner, before, anna.id)
        hint = await driver.slash(anna, world.channel, "dubb hint")
        assert hint.ephemeral
        assert bot_runner.bot is not None
        face = bot_runner.bot.controllers["dubb"].face
        assert hint.content.startswith(
            f"💡 {face.move_text(before.engine, anna.id, expected.move, {}, 'en')}:"), hint.content
        # and says what the move does (a play: whom it dubs, what it leaves)
        controller = bot_runner.bot.controllers["dubb"]
        reason = face.move_reason(before.engine, anna.id, expected.move,
                                  controller.names(before), "en")
        if reason is not None:
            assert f": {reason}; " in hint.content, hint.content
            reasoned += 1
        # a hint reads only the caller's seat: never a card of another hand or the draw pile
        hidden = {c for p in before.engine.names if p != anna.id
                  for c in before.engine.hand(p)} | set(before.engine._draw)
        assert not any(cards.display(c) in hint.content for c in hidden - set(
            before.engine.hand(anna.id)))
        hinted += 1
        await table.turn_by_buttons()
    assert hinted > 0 and reasoned > 0


async def test_hints_on_the_panel_and_off_when_the_server_says_so(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    anna = world.anna
    # a table of people only is rated unless its host says not: this one is not
    play = await open_table(bot, driver, world.channel, anna, [world.bo], seed=3,
                            options={"rated": False})
    await play.settle()
    engine = await play.engine()
    assert engine.to_move is not None
    first = play.users[engine.to_move]
    panel = await driver.click(first, play.table, "Your hand")
    assert panel.message is not None and "Hint" in [b["label"] for b in panel.message.buttons()]
    hint = await driver.click(first, panel.message, "Hint")
    assert hint.ephemeral and hint.content.startswith("💡 "), hint.content
    # only the caller's own cards, the discard pile's top and the spreads can be named
    table = await snapshot(bot, world.channel)
    assert table is not None and table.engine is not None
    engine = table.engine
    shown = set(engine.hand(first.id)) | {engine.discard_top} | {
        c for sp in engine.spreads for c in sp.cards}
    named = set(re.findall(r"(?:10|[2-9AJQK])[♠♥♦♣]", hint.content))
    assert named <= {cards.display(c) for c in shown if c is not None}, hint.content

    owner = driver.add_user("Owner Olga", admin=True)
    await driver.slash(owner, world.channel, "kortbord settings", {"hints": False})
    refused = await driver.slash(first, world.channel, "tonk hint")
    assert refused.ephemeral and refused.content == "Hints are turned off on this server."
    again = await driver.click(first, play.table, "Your hand")
    assert again.message is not None
    assert "Hint" not in [b["label"] for b in again.message.buttons()]


async def test_a_rated_table_gives_no_hints(bot: BotRunner, driver: Driver, world: World) -> None:
    """Rated tables give no hints (``bot.table.settings.rated``): a rating measures a player's
    own play. A table of people only is rated by default."""
    table = await dubb_table.open_table(driver, world.channel, world.anna, [world.bo])
    user = table.players[dubb_table.to_move(table.table) or 0]
    panel = await driver.click(user, table.table, "Your hand")
    assert panel.message is not None
    assert "Hint" not in [b["label"] for b in panel.message.buttons()]
    refused = await driver.slash(user, world.channel, "dubb hint")
    assert refused.ephemeral and refused.content == (
        "Rated tables give no hints: a rating should measure your own play.")


@pytest.mark.machine_speed
async def test_a_review_weighs_the_players_decisions_the_same_every_time(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    anna = world.anna
    table = await _anna_against_two_computers(bot_runner, driver, world, seed=9)
    while True:
        await driver.wait_for(lambda: _waiting_for(table.table, anna.id),
                              what="Anna's turn or the end")
        if table.over():
            break
        await table.turn_by_buttons()
    final = table.table
    assert [b["label"] for b in row_buttons(final)] == ["Play again", "Replay", "Review"]

    first = await driver.click(anna, final, "Review")
    assert first.ephemeral and first.message is not None, first.content
    assert first.message.text.startswith("**Your review**"), first.message.text
    [chart] = first.message.attachments
    assert chart.filename == "review.png" and chart.description
    assert chart.description.startswith("Your chance of losing (%) after each of your decisions")
    again = await driver.click(anna, final, "Review")
    assert again.message is not None
    assert again.message.text == first.message.text
    assert again.message.attachments[0].description == chart.description
    # only Anna's own moves are named, by rank: a card's suit (any hidden card) never shows
    assert not re.search(r"[♠♥♦♣]", first.message.text)

    stranger = await driver.click(world.bo, final, "Review")
    assert stranger.ephemeral and stranger.content == "Only the players of a game can review it."
