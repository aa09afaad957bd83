"""kortbord where the bot is not a member (issue 45): people who installed the app to their own
account play in a group DM, the table written only through their interactions."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from bot.discord.reach import ASLEEP_BEFORE
from bot.discord.showing import HOOK_LIFETIME
from bot.fakediscord import Channel, Driver, FakeDiscord
from bot.fakediscord.model import EVERYONE_DEFAULT, USE_EXTERNAL_APPS
from bot.games.tonk import DealNextHand, GreedyStrategy, Phase
from tests.e2e import tonk_table
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import (
    DubbTable,
    card_tokens,
    cards_seen,
    counter_of,
    open_table,
    pings_off,
    table_id_of,
    title,
    to_move,
    wait_table,
)
from tests.e2e.exported import files_of, verifies_and_tampering_fails
from tests.e2e.table_card import turn_line
from tests.fakeclock import FakeClock

pytestmark = [pytest.mark.e2e, pytest.mark.machine_speed]

MAX_TURNS = 400


ASLEEP = "Nobody has pressed a button here for a while"


def _clocked(fake: FakeDiscord, bot_runner: BotRunner) -> FakeClock:
    """The bot's clock moves by hand, and Discord's (which runs the 15-minute tokens) with it."""
    began = time.time()
    clock = FakeClock(start=began)
    fake.clock = lambda: time.time() + (clock.now() - began)
    bot_runner.clock = clock
    return clock


def bot_token_calls(fake: FakeDiscord, channel: Channel) -> list[str]:
    """Requests the bot made with its own token to ``channel`` (every ``/channels/{id}``
    route takes the bot token; interactions' webhooks are under ``/webhooks``)."""
    return [f"{c.method} {c.path} -> {c.status}" for c in fake.rest_calls
            if c.path.startswith(f"/channels/{channel.id}")]


async def _group_of_two(fake: FakeDiscord, bot_runner: BotRunner, driver: Driver, world: World
                        ) -> tuple[FakeClock, Channel]:
    """The bot started on a clock moved by hand (``_clocked``), and a group DM of Anna and Bo,
    who installed kortbord."""
    clock = _clocked(fake, bot_runner)
    await bot_runner.start()
    for person in (world.anna, world.bo):
        driver.install_for(person)
    return clock, driver.add_group_dm(world.anna, [world.bo])


async def _woken_by_a_click(bot_runner: BotRunner, fake: FakeDiscord, driver: Driver,
                            world: World, table: DubbTable, group: Channel, counter: int
                            ) -> None:
    """Bo's click (Your hand) brings a table that waited up to date through the click's own
    token: at ``counter``, two turn timers' moves in all, and never the bot's token."""
    await driver.click(world.bo, table.table, "Your hand")
    await table.wait_counter(counter)
    assert ASLEEP not in turn_line(table.table)
    assert bot_runner.bot is not None
    timeouts = [r for r in await bot_runner.bot.service.moves(table_id_of(table.table))
                if r.move["type"] == "timeout"]
    assert len(timeouts) == 2
    assert bot_token_calls(fake, group) == []
    assert [c.path for c in fake.rest_calls if c.status == 401] == []


async def test_three_people_play_a_whole_dubb_game_in_a_group_dm(
    bot: BotRunner, driver: Driver, fake: FakeDiscord, world: World, tmp_path: Path
) -> None:
    for person in (world.anna, world.bo, world.cem):
        driver.install_for(person)
    group = driver.add_group_dm(world.anna, [world.bo, world.cem], name="Kortkväll")

    table = await open_table(driver, group, world.anna, [world.bo, world.cem])
    turns = 0
    while not table.over():
        await table.turn_by_buttons()
        turns += 1
        assert turns < MAX_TURNS

    final = table.table
    assert title(final) == "Dubb — game over"
    # the table is public in the group DM, posted through the players' interactions
    assert final.ephemeral_for is None and final.webhook_id == fake.application.id
    # not one request with the bot token to a channel the bot is not in
    assert bot_token_calls(fake, group) == []
    # every person was told of their turns: pinged by a table posted anew as a follow-up
    assert {p.user_id for p in driver.pings(channel=group)} == {
        world.anna.id, world.bo.id, world.cem.id}
    # the game is the group DM's own: its history replays it; ratings stay in servers
    history = await driver.slash(world.bo, group, "dubb history")
    assert history.ephemeral and history.message is not None
    assert "Anna" in history.message.text
    assert "recent games here" in history.message.text
    assert "on this server" not in history.message.text
    # and exports it as its public record, which verifies and refuses a tampered copy
    exported = await driver.slash(world.bo, group, "dubb history", {"export": True})
    (name, data), = files_of(exported).items()
    await verifies_and_tampering_fails(data, tmp_path, name, payment=False)
    replay = await driver.click(world.cem, final, "Replay")
    assert replay.ephemeral and replay.message is not None and "Dubb" in replay.message.text
    top = await driver.slash(world.cem, group, "dubb top")
    assert top.ephemeral and "only in servers" in top.content
    # hands are private: no public message ever showed a card that was not played in public
    public, _ = await cards_seen(bot.bot.service, table_id_of(final))
    for entry in driver.log_visible_to(world.cem, group):
        if entry.audience is None:
            assert card_tokens(entry.text) <= public, entry.text


async def test_a_table_left_alone_says_so_and_the_next_click_brings_it_up_to_date(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    clock, group = await _group_of_two(fake, bot_runner, driver, world)
    table = await open_table(driver, group, world.anna, [world.bo], turn_time=600)

    # nobody clicks: the turn timer's move at 10 minutes shows, through the Start click's token
    clock.advance(10 * 60 + 1)
    await table.wait_counter(1)
    # just before that token runs out, the table says it waits for a click. The token's 14
    # minutes count from when Discord made the Start click, on Discord's clock, which runs on
    # in real time beside the bot's moved by hand: the click came at most ``lag`` real seconds
    # after the clocks were set (the bot's start, the lobby), so the note is due by then
    lag = fake.clock() - clock.now()
    clock.advance(HOOK_LIFETIME - ASLEEP_BEFORE - (10 * 60 + 1) + lag)
    await driver.wait_for(lambda: ASLEEP in turn_line(table.table), what="the table's note")
    # the next timeout falls due while no token is good: applied, but nobody can show it
    clock.advance(10 * 60)
    shown = table.table
    assert counter_of(shown) == 1 and ASLEEP in turn_line(shown)

    # a click (Your hand) brings the table up to date through the click's own token
    await _woken_by_a_click(bot_runner, fake, driver, world, table, group, 2)


async def test_a_practice_game_against_computers_in_the_bot_dm(
    bot: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    driver.install_for(world.anna)
    dm = driver.bot_dm(world.anna)
    opened = await driver.slash(world.anna, dm, "dubb start", {"computers": 2})
    assert not opened.ephemeral, opened.content  # the lobby itself answers
    lobby = await wait_table(driver, dm)
    started = await driver.click(world.anna, lobby, "Start")
    assert started.ephemeral, started.content

    table = DubbTable(driver, dm, {world.anna.id: world.anna})
    turns = 0
    while True:
        await driver.wait_for(
            lambda: table.over() or to_move(table.table) == world.anna.id,
            what="Anna's turn or the end")
        if table.over():
            break
        await table.turn_by_buttons()
        turns += 1
        assert turns < MAX_TURNS

    assert turns > 0 and "🤖 Astrid" in table.table.text
    # the bot DM is the person's and the bot's only; the table is written as anywhere the bot
    # is not in the channel: through Anna's interactions
    assert bot_token_calls(fake, dm) == []


async def test_a_table_needing_a_sixth_follow_up_of_one_click_is_edited_instead(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    clock = _clocked(fake, bot_runner)
    await bot_runner.start()
    people = (world.anna, world.bo, world.cem)
    for person in people:
        driver.install_for(person)
    group = driver.add_group_dm(world.anna, [world.bo, world.cem])
    table = await open_table(driver, group, world.anna, [world.bo, world.cem], turn_time=30)
    # from now on nobody clicks: each turn timer's move passes the turn to another person,
    # whose turn the table would announce as a follow-up of the host's Start click
    for move in range(1, 7):
        clock.advance(30 + 1)
        await table.wait_counter(move)

    start = next(r for r in fake.interactions.values()
                 if r.payload["data"].get("custom_id", "").endswith(":start"))
    assert len(start.followup_ids) == 5
    # Discord never had to refuse one (the test fails on any 400), and the table shows the
    # sixth move all the same
    assert counter_of(table.table) == 6
    assert bot_token_calls(fake, group) == []


async def test_a_server_that_forces_private_answers_gets_one_private_line(
    bot: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    strict = driver.add_guild("Strict", with_bot=False,
                              everyone_permissions=EVERYONE_DEFAULT & ~USE_EXTERNAL_APPS)
    channel = driver.add_channel(strict, "cards")
    driver.join(world.anna, strict)
    driver.install_for(world.anna)

    answer = await driver.slash(world.anna, channel, "dubb start")

    assert answer.ephemeral
    assert "group DM" in answer.content and "\n" not in answer.content
    assert driver.channel_messages(channel) == []
    assert bot.bot is not None and await bot.bot.service.get(channel.id) is None
    assert bot_token_calls(fake, channel) == []


async def test_tonk_hands_in_a_server_that_never_added_the_bot(
    bot: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    elsewhere = driver.add_guild("Friends", with_bot=False)
    channel = driver.add_channel(elsewhere, "cards")
    for person in (world.anna, world.bo):
        driver.join(person, elsewhere)
        driver.install_for(person)

    play = await tonk_table.open_table(bot, driver, channel, world.anna, [world.bo], seed=7,
                                       options={"stake": 2})
    nets: dict[str, int] = {"Anna": 0, "Bo": 0}
    for hand in (1, 2):
        if hand > 1:
            await play.play(DealNextHand(), "buttons", world.bo)
        while (engine := await play.engine()).phase is not Phase.HAND_OVER:
            assert engine.to_move is not None
            move = GreedyStrategy().choose(engine.observe(engine.to_move), random.Random(0))
            await play.play(move, "buttons")
        for payer, payee, amount, _ in tonk_table.payments_announced(play.table):
            nets[payer] -= amount
            nets[payee] += amount

    # the hands are private, the table public, the server's ledger exact
    assert play.scanner.checked > 0
    assert play.table.ephemeral_for is None
    ledger = await driver.slash(world.anna, channel, "tonk ledger")
    assert ledger.message is not None
    shown = tonk_table.standings_shown(ledger.message)
    assert {name: row[0] for name, row in shown.items()} == {
        name: net for name, net in nets.items() if name in shown}
    # an event posts and opens threads as the bot: not here
    refused = await driver.slash(world.anna, channel, "tonk event new")
    assert refused.ephemeral and "only in servers that added kortbord" in refused.content
    assert bot_token_calls(fake, channel) == []


async def test_a_move_shown_in_a_tokens_last_half_minute_still_says_the_table_waits(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    clock, group = await _group_of_two(fake, bot_runner, driver, world)
    table = await open_table(driver, group, world.anna, [world.bo], turn_time=820)
    started = counter_of(table.table)
    assert started is not None
    # 30 s before the Start click's token runs out the table says it waits ...
    lag = fake.clock() - clock.now()
    clock.advance(HOOK_LIFETIME - ASLEEP_BEFORE + lag)
    await driver.wait_for(lambda: ASLEEP in turn_line(table.table), what="the table's note")
    # ... and still says so once the turn timer's move, ten seconds later, is shown through
    # that token in its last 20 s
    clock.advance(max(1.0, 820 + 1 - (HOOK_LIFETIME - ASLEEP_BEFORE + lag)))
    await driver.wait_for(
        lambda: counter_of(table.table) == started + 1 and ASLEEP in turn_line(table.table),
        what="the timer's move with the table's note")
    assert bot_token_calls(fake, group) == []


async def test_after_a_restart_a_table_only_clicks_write_shows_its_timeout_and_says_it_waits(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    """The newest click's token is stored with the table's write: the restarted process
    shows what happens meanwhile through it, and says on the table when it runs out."""
    clock, group = await _group_of_two(fake, bot_runner, driver, world)
    table = await open_table(driver, group, world.anna, [world.bo], turn_time=600)

    # five minutes on, a move: its clicks are the newest tokens, five minutes younger than
    # the lobby's and the Start click's
    clock.advance(5 * 60)
    await table.turn_by_buttons()
    moved = counter_of(table.table)
    assert moved is not None
    await bot_runner.restart()

    # the turn timer's move ten minutes after that one is applied by the restarted process,
    # and shown through the stored token (the lobby's and the Start click's have run out)
    clock.advance(10 * 60 + 1)
    await table.wait_counter(moved + 1)
    # the move's clicks came at most ``lag`` real seconds after the clocks were set: by then
    # their token is 30 s from running out (``HOOK_LIFETIME`` after the move, not the start)
    lag = fake.clock() - clock.now()
    clock.advance(HOOK_LIFETIME - ASLEEP_BEFORE - (10 * 60 + 1) + lag)
    await driver.wait_for(lambda: ASLEEP in turn_line(table.table), what="the table's note")
    assert counter_of(table.table) == moved + 1

    # the next timeout is applied while no token is good; a click brings the table up to
    # date through the click's own token, as before
    clock.advance(10 * 60)
    await _woken_by_a_click(bot_runner, fake, driver, world, table, group, moved + 2)


async def test_after_a_restart_an_aged_table_message_is_edited_through_the_stored_token(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    """With turn pings off the table message is edited, never posted anew, until it is old
    enough to be moved down (``REPOST_AGE``). After a restart, with no click's follow-up to
    move it down with, the stored token edits it all the same."""
    clock, group = await _group_of_two(fake, bot_runner, driver, world)
    await pings_off(driver, group, [world.anna, world.bo])
    table = await open_table(driver, group, world.anna, [world.bo], turn_time=420)
    posted = table.table.id
    # a move every six minutes for 48 minutes, each edits the table through its own click
    for _ in range(8):
        clock.advance(6 * 60)
        await table.turn_by_buttons()
        assert not table.over()
    assert table.table.id == posted
    moved = counter_of(table.table)
    assert moved is not None
    await bot_runner.restart()

    # the turn timer's move at 55 minutes: the message is past its age to be moved down, and
    # the last move's stored token (good until 62 minutes) edits it where it stands
    clock.advance(7 * 60 + 1)
    shown = await table.wait_counter(moved + 1)
    assert shown.id == posted
    assert bot_token_calls(fake, group) == []


async def test_a_stale_deal_button_brings_a_table_only_clicks_write_up_to_date(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    """A restart between a deal's commit and its table write leaves a table that only clicks
    can write showing the hand over, with Deal next hand, the one button a player would
    press: stale now. Its click is told so, and brings the table up to date."""
    for person in (world.anna, world.bo):
        driver.install_for(person)
    channel = driver.add_group_dm(world.anna, [world.bo], name="Tonk night")
    play = await tonk_table.open_table(bot, driver, channel, world.anna, [world.bo], seed=7,
                                       options={"stake": 2})
    while (engine := await play.engine()).phase is not Phase.HAND_OVER:
        assert engine.to_move is not None
        await play.play(GreedyStrategy().choose(engine.observe(engine.to_move),
                                                random.Random(0)), "buttons")
    over = await play.settle()
    assert "Hand 1 is over." in over.text
    assert bot.bot is not None
    controller = bot.bot.controllers["tonk"]
    publish = controller.publish

    async def lost(*_: Any, **__: Any) -> None:
        controller.publish = publish  # type: ignore[method-assign]

    controller.publish = lost  # type: ignore[method-assign]
    dealt = await driver.click(world.bo, over, "Deal next hand")
    assert dealt.ephemeral
    assert (await play.engine()).phase is not Phase.HAND_OVER and play.table is over

    stale = await driver.click(world.anna, over, "Deal next hand")
    assert stale.ephemeral and "the table has moved on" in stale.content
    dealt_shown = await driver.wait_for(
        lambda: play.table if "Hand 1 is over." not in play.table.text else None,
        what="the table brought up to date")
    assert tonk_table.to_move(dealt_shown) == (await play.engine()).to_move
    assert bot_token_calls(driver.fake, channel) == []


async def test_a_right_click_on_someone_opens_a_lobby_that_invites_them(
    bot: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    for person in (world.anna, world.bo):
        driver.install_for(person)
    group = driver.add_group_dm(world.anna, [world.bo, world.cem])

    # Apps → "Play Dubb with…" on Bo, in the group DM
    opened = await driver.user_command(world.anna, group, "Play Dubb with…", world.bo)
    assert not opened.ephemeral, opened.content  # the lobby itself answers
    lobby = await wait_table(driver, group)
    assert f"Anna invites <@{world.bo.id}> to play Dubb" in turn_line(lobby)
    assert [p.message_id for p in driver.pings(world.bo, group)] == [lobby.id]
    joined = await driver.click(world.bo, lobby, "Join")
    assert joined.ephemeral and "joined" in joined.content
    # the first turn is pinged as ever, even if it is the invited person's
    started = await driver.click(world.anna, lobby, "Start")
    assert started.ephemeral, started.content
    table = await driver.wait_for_message(group, lambda m: to_move(m) is not None)
    first = world.bo if to_move(table) == world.bo.id else world.anna
    assert table.id in [p.message_id for p in driver.pings(first, group)]

    # and as a command in a server, Swedish client: the names as the client shows them
    driver.set_locale(world.cem, "sv-SE")
    driver.install_for(world.cem)
    refused = await driver.slash(world.cem, world.channel, "dubb challenge",
                                 {"user": world.cem})
    assert refused.ephemeral and "Välj någon annan" in refused.content
    await driver.slash(world.cem, world.channel, "dubb challenge", {"user": world.anna})
    invitation = await wait_table(driver, world.channel)
    # the public lobby speaks the server's language, the private answer Cem's
    assert f"Cem invites <@{world.anna.id}> to play Dubb" in turn_line(invitation)
    assert bot_token_calls(fake, group) == []


async def test_play_tonk_with_someone_in_a_server_opens_a_lobby_that_invites_them(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    # Apps → "Play Tonk with…" on Bo, in a server channel: the Tonk face's own user command
    opened = await driver.user_command(world.anna, world.channel, "Play Tonk with…", world.bo)
    assert not opened.ephemeral, opened.content  # the lobby itself answers
    lobby = await driver.wait_for_message(
        world.channel, lambda m: tonk_table.title(m).startswith("Tonk"))
    assert f"Anna invites <@{world.bo.id}> to play Tonk" in turn_line(lobby)
    assert lobby.id in [p.message_id for p in driver.pings(world.bo, world.channel)]
    joined = await driver.click(world.bo, lobby, "Join")
    assert joined.ephemeral and "joined" in joined.content
    started = await driver.click(world.anna, lobby, "Start")
    assert started.ephemeral, started.content
    # the game is up: someone to move, or (T4, tonk on the deal: about one deal in a hundred
    # with two players) the first hand already over, its next one to deal
    table = await driver.wait_for_message(
        world.channel, lambda m: tonk_table.to_move(m) is not None or any(
            b.get("label") == "Deal next hand" for b in m.buttons()))
    assert tonk_table.to_move(table) in (world.anna.id, world.bo.id, None)
    # inviting oneself is refused, privately, and opens nothing
    refused = await driver.user_command(world.bo, world.channel, "Play Tonk with…", world.bo)
    assert refused.ephemeral and "someone else" in refused.content.lower()


async def test_a_persons_own_kortbord_commands_work_where_they_installed_it(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    driver.install_for(world.anna)
    group = driver.add_group_dm(world.anna, [world.bo])
    elsewhere = driver.add_guild("Friends", with_bot=False)
    channel = driver.add_channel(elsewhere, "cards")
    driver.join(world.anna, elsewhere)

    # her turn pings, chosen in a group DM, hold at every table
    pings = await driver.slash(world.anna, group, "kortbord pings", {"choice": "off"})
    assert pings.ephemeral and "won't be pinged" in pings.content
    helped = await driver.slash(world.anna, channel, "kortbord help")
    assert helped.ephemeral and "/dubb start" in helped.content
    # a server's settings are made only where kortbord was added to the server
    for place in (group, channel):
        refused = await driver.slash(world.anna, place, "kortbord settings", {"hints": False})
        assert refused.ephemeral and "a server that added kortbord" in refused.content
    assert (await bot.bot.preferences.person(world.anna.id)).pings is False
