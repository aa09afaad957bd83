"""Issue 12, one regression test per case: forged or misplaced components, long text, options
outside their range, markdown in names, a long Discord outage, pings across restarts, the
start command under load, and the Tonk table between hands. (A database the bot cannot use at
start is tests/unit/test_database_startup.py.)"""

from __future__ import annotations

import pytest

from bot.discord.publisher import RETRY_MAX
from bot.fakediscord import Driver, FakeDiscord, InteractionRejected
from bot.fakediscord.model import StoredMessage
from bot.games.tonk import Phase
from bot.games.tonk.settlement import HandEnd
from tests.e2e import dubb_table, tonk_table
from tests.e2e.automation import set_seed, snapshot, start_clocked
from tests.e2e.conftest import BotRunner, World
from tests.e2e.table_card import card, title
from tests.e2e.test_channel_webhooks import STALE, clocked
from tests.fakeclock import FakeClock

pytestmark = pytest.mark.e2e

LONG = "7" * 2500
"""One word longer than any answer may be (Discord allows 6,000 characters in options)."""


async def _state(bot: BotRunner, channel_id: int) -> tuple[int, int, dict[str, object]] | None:
    assert bot.bot is not None
    snap = await bot.bot.service.get(channel_id)
    if snap is None or snap.engine is None:
        return None
    return snap.counter, snap.version, snap.engine.to_stored()


def _short_answer(text: str) -> None:
    assert 0 < len(text) <= 300 and "7" * 30 not in text


# -- 1. forged or misplaced components ------------------------------------------------------------


async def test_forged_components_change_nothing_and_never_show_a_hand(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    table = await dubb_table.open_table(driver, world.channel, world.anna, [world.bo])
    message = table.table
    table_id = dubb_table.table_id_of(message)
    mover = table.players[dubb_table.to_move(message) or 0]
    before, version = await _state(bot, world.channel.id), message.version
    # Discord itself refuses a component that is not on the message ...
    with pytest.raises(InteractionRejected):
        await driver.forge_click(world.cem, message, "kb:tonk:0:ledger:0:s")
    # ... and should one get through, the bot refuses it and edits nothing
    ledger = await driver.forge_click(world.cem, message, "kb:tonk:0:ledger:0:s",
                                      validated_by_discord=False)
    assert ledger.ephemeral and "isn't here any more" in ledger.content
    panel_id = f"ks:dubb:{table_id}:rank:0"
    rank = await driver.forge_click(mover, message, panel_id, values=["7"], component_type=3,
                                    validated_by_discord=False)
    assert rank.ephemeral and "isn't here any more" in rank.content
    wrong_type = await driver.forge_click(mover, message, f"kb:dubb:{table_id}:hand",
                                          component_type=3, values=["1"],
                                          validated_by_discord=False)
    assert wrong_type.ephemeral and "isn't here any more" in wrong_type.content
    assert message.version == version and await _state(bot, world.channel.id) == before
    assert not any("Your hand (" in e.text for e in driver.log if e.audience is None)


# -- 2. long text ---------------------------------------------------------------------------------


async def test_long_text_gets_a_short_answer_and_autocomplete_never_fails(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    dubb = await dubb_table.open_table(driver, world.channel, world.anna, [world.bo])
    mover = dubb.players[dubb_table.to_move(dubb.table) or 0]
    before = await _state(bot, world.channel.id)
    played = await driver.slash(mover, world.channel, "dubb play", {"cards": LONG},
                                validate=False)
    assert played.ephemeral
    _short_answer(played.content)
    assert await _state(bot, world.channel.id) == before

    channel = driver.add_channel(world.guild, "tonk")
    users = [world.cem, world.mod]
    play = await tonk_table.open_table(
        bot, driver, channel, world.cem, users[1:],
        seed=tonk_table.find_seed(tonk_table.seats_of(users), [HandEnd.STOCK_OUT]))
    engine = await play.engine()
    tonk_mover = play.users[engine.to_move or 0]
    state = await play.state()
    for command, options in (("tonk discard", {"card": LONG}),
                             ("tonk spread", {"cards": LONG}),
                             ("tonk hit", {"cards": LONG, "spread": "S1"}),
                             ("tonk hit", {"cards": "7h", "spread": LONG})):
        answer = await driver.slash(tonk_mover, channel, command, options, validate=False)
        assert answer.ephemeral
        _short_answer(answer.content)
    for focused, options in (("spread", {"spread": "s" + "9" * 5990}),
                             ("cards", {"cards": LONG, "spread": "s" + "9" * 3000})):
        choices = await driver.autocomplete(tonk_mover, channel, "tonk hit", options,
                                            focused=focused, validate=False)
        assert isinstance(choices, list)
    assert await play.state() == state


# -- 3. option values outside the declared range --------------------------------------------------


@pytest.mark.parametrize(("command", "options", "says"), [
    ("dubb start", {"turn_time": 3601}, "turn time"),
    ("dubb start", {"turn_time": 10**12}, "turn time"),
    ("dubb start", {"computers": -1}, "computer players"),
    ("dubb start", {"decks": 0}, "packs"),
    ("dubb start", {"decks": 3}, "packs"),
    ("dubb start", {"cards_each": 26}, "Cards each"),
    ("tonk start", {"stake": 0}, "stake"),
    ("tonk start", {"computers": 4}, "computer players"),
])
async def test_options_outside_their_range_are_refused_and_open_nothing(
    bot: BotRunner, driver: Driver, world: World, command: str, options: dict[str, int],
    says: str,
) -> None:
    answer = await driver.slash(world.anna, world.channel, command, options, validate=False)
    assert answer.ephemeral and says.lower() in answer.content.lower()
    assert "went wrong" not in answer.content
    assert bot.bot is not None and await bot.bot.service.get(world.channel.id) is None
    assert driver.channel_messages(world.channel) == []


# -- 4. markdown in names -------------------------------------------------------------------------


async def test_names_are_shown_as_typed_never_as_markdown_or_mentions(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    masked = driver.add_user("[nitro](https://x.example)")
    loud = driver.add_user("**@everyone**")
    await driver.slash(masked, world.channel, "dubb start")
    lobby = await dubb_table.wait_table(driver, world.channel)
    await driver.click(loud, lobby, "Join")
    lobby = await driver.wait_for(lambda: dubb_table.table_message(driver, world.channel)
                                  if "everyone" in dubb_table.table_message(
                                      driver, world.channel).text else None, what="the join")
    players = card(lobby)["fields"][1]["value"]
    assert r"\[nitro](https://x.example)" in players  # no masked link
    assert "\\*\\*@\u200beveryone\\*\\*" in players  # @everyone can never ping
    stopped = await driver.slash(masked, world.channel, "dubb stop")
    assert r"\[nitro]" in stopped.content
    closed = await driver.wait_for(
        lambda: (m := dubb_table.table_message(driver, world.channel))
        and "closed" in dubb_table.title(m) and m, what="the closed table")
    assert r"closed by \[nitro](https://x.example)" in closed.text
    assert not any(p.user_id != masked.id and p.message_id == closed.id
                   for p in driver.pings(channel=world.channel))


async def test_names_in_the_ledger_are_escaped(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    tricky = driver.add_user("__under__ <@123456789012345678>")
    users = [tricky, world.bo]
    play = await tonk_table.open_table(
        bot, driver, world.channel, tricky, users[1:],
        seed=tonk_table.find_seed(tonk_table.seats_of(users), [HandEnd.DROP_WON]))
    await play.play_hand(tonk_table.POLICY_FOR[HandEnd.DROP_WON], "buttons")
    ledger = await driver.slash(world.bo, world.channel, "tonk ledger")
    assert ledger.message is not None
    text = (card(ledger.message) or {})["description"]
    assert r"\_\_under\_\_" in text and "<@123456789012345678>" not in text


# -- 5. a long Discord outage ---------------------------------------------------------------------


OUTAGE = 60.0
"""Seconds Discord answers 503 to every table write."""


# the minute's tries come within milliseconds of real time, and the bot paces its writes within
# Discord's per-channel limit, in real time: ten times faster than Discord's here
@pytest.mark.machine_speed
async def test_the_table_catches_up_within_seconds_after_a_long_outage(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    """Every table write fails for a minute (Discord answering 503) when the turn timer moves
    a table: the write is tried again and again, never more than ``RETRY_MAX`` apart, and the
    table shows the move as soon as Discord is back.

    Nobody's interaction can write the table 15 minutes on, so the bot's own token does: a
    person's move is written through their interaction (issue 32), which this outage would
    not reach, and a webhook's 5xx discord.py retries by itself, asleep on real time. The
    bot's own 503 it hands back at once, so the publisher's backoff is the one sleep on the
    clock that ends within seconds: the test waits for it, not for whatever happens to sleep
    (it once waited for the timer's leftover wake-up, which the timer need not have)."""
    clock = clocked(fake, bot_runner)
    await bot_runner.start()
    set_seed(bot_runner, 3)
    driver.allow_rest_errors()
    table = await dubb_table.open_table(driver, world.channel, world.anna, [world.bo],
                                        turn_time=STALE)
    before = table.table
    # the lobby went through the host's interaction, while it is fresh
    await driver.wait_for(lambda: [m for m in driver.channel_messages(world.channel)
                                   if m.buttons()] == [before], what="the lobby gone")

    def table_writes(method: str, route: str) -> bool:
        return route.startswith("/channels/{channel_id}/messages") and method != "GET"

    fake.inject_faults(1.0, status=503, match=table_writes)
    clock.advance(STALE)  # the turn times out with every token at the table stale
    back = clock.now() + OUTAGE
    retry = await clock.someone_sleeping(within=RETRY_MAX)
    while retry < back:
        clock.advance(retry - clock.now())
        retry = await clock.someone_sleeping(within=RETRY_MAX)
    assert dubb_table.table_message(driver, world.channel) is before  # still the old state
    assert len([c for c in fake.rest_calls if c.injected]) >= OUTAGE / RETRY_MAX
    moved = await snapshot(bot_runner, world.channel)
    assert moved is not None and moved.engine is not None
    # Discord is back while the write waits for its next try
    fake.clear_faults()
    clock.advance(retry - clock.now())
    caught_up = await driver.wait_for(
        lambda: (m := dubb_table.table_message(driver, world.channel))
        and dubb_table.counter_of(m) == moved.counter and m, what="the table to catch up")
    assert dubb_table.to_move(caught_up) == moved.engine.to_move


async def test_a_stale_table_message_is_deleted_once_discord_is_back(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    """The table message a write replaced, which only the bot's token can delete, is deleted
    in the background (issue 49); while Discord answers that delete with 503 the sweep tries
    again with the write's backoff, and the channel ends with one table message, not two."""
    clock = clocked(fake, bot_runner)
    await bot_runner.start()
    driver.allow_rest_errors()
    table = await dubb_table.open_table(driver, world.channel, world.anna, [world.bo],
                                        turn_time=STALE)
    before = table.table

    def tables() -> list[StoredMessage]:
        return [m for m in driver.channel_messages(world.channel) if m.buttons()]

    await driver.wait_for(lambda: tables() == [before], what="the lobby gone")

    def deletes(method: str, route: str) -> bool:
        return method == "DELETE" and route == "/channels/{channel_id}/messages/{message_id}"

    fake.inject_faults(1.0, status=503, match=deletes)
    counter = dubb_table.counter_of(before)
    assert counter is not None
    clock.advance(STALE)  # the timeout's table is the bot's, its interaction's token stale
    shown = await table.wait_counter(counter + 1)
    retry = await clock.someone_sleeping(within=RETRY_MAX)
    assert [c for c in fake.rest_calls if c.injected]
    assert tables() == [before, shown]
    fake.clear_faults()
    clock.advance(retry - clock.now())
    await driver.wait_for(lambda: tables() == [shown], what="the old table deleted")


# -- 6. pings across restarts ---------------------------------------------------------------------


async def test_restarts_never_ping_a_turn_twice_and_leave_no_stray_ping(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    driver.allow_rate_limits()  # a restart within Discord's window finds its buckets spent
    await bot_runner.start()
    table = await dubb_table.open_table(driver, world.channel, world.anna, [world.bo, world.cem])
    turns = 1
    for _ in range(6):
        await bot_runner.restart()
        before = dubb_table.to_move(table.table)
        await table.turn_by_buttons()
        turns += dubb_table.to_move(table.table) != before
    await bot_runner.restart()
    pings = driver.pings(channel=world.channel)
    # one notification each time the turn passed to someone else, never more
    assert len(pings) == turns
    assert len({p.message_id for p in pings}) == len(pings)
    # exactly one table message with buttons, no stray ping, once the restart's background
    # sweep deleted the message a ping replaced (only the bot's token could: issue 49)
    await driver.wait_for(
        lambda: [m for m in driver.channel_messages(world.channel) if m.buttons()]
        == [table.table], what="one table message")


# -- 8. the start command answers with the lobby itself ------------------------------------------


async def test_start_answers_with_the_lobby_itself_and_seats_computers_at_once(
    bot: BotRunner, driver: Driver, world: World
) -> None:
    answer = await driver.slash(world.anna, world.channel, "dubb start", {"computers": 5})
    lobby = await dubb_table.wait_table(driver, world.channel)
    # one answer, public: the lobby (issue 49), not a private line and then the lobby's post
    assert not answer.ephemeral and answer.message is not None and answer.message.id == lobby.id
    assert [e.message_id for e in driver.log if e.action == "create"] == [lobby.id]
    first = next(e for e in driver.log if e.message_id == lobby.id)
    assert first.text.count("🤖") == 5  # the computers were seated with the lobby itself


# -- 9. a Tonk table between hands --------------------------------------------------------------


async def _between_hands(bot_runner: BotRunner, driver: Driver, world: World
                         ) -> tuple[FakeClock, tonk_table.TonkPlay, int]:
    """A Tonk table with a 30 s turn time whose first hand is over; and how many ledger rows
    that hand wrote."""
    clock = await start_clocked(bot_runner)
    users = [world.anna, world.bo]
    play = await tonk_table.open_table(
        bot_runner, driver, world.channel, world.anna, users[1:],
        seed=tonk_table.find_seed(tonk_table.seats_of(users), [HandEnd.DROP_WON]),
        options={"turn_time": 30})
    await play.play_hand(tonk_table.POLICY_FOR[HandEnd.DROP_WON], "buttons")
    assert (await play.engine()).phase is Phase.HAND_OVER
    assert "If nobody deals, the table closes" in play.table.text
    return clock, play, len(await _ledger(bot_runner, world))


async def _ledger(bot_runner: BotRunner, world: World) -> list[object]:
    assert bot_runner.bot is not None
    return list(await bot_runner.bot.service.ledger_entries(world.guild.id, "tonk",
                                                              limit=None))


async def test_between_hands_a_table_nobody_deals_at_closes_and_nobody_pays(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    """Issue 36, everyone away: the turn time passes with nobody dealing; the table closes with
    its summary, nobody is dealt in, moved for, removed or charged."""
    clock, play, paid = await _between_hands(bot_runner, driver, world)
    await clock.someone_sleeping()
    clock.advance(30)
    closed = await driver.wait_for(
        lambda: (m := play.table) and title(m) == "Tonk — table closed" and m,
        what="the table closing")
    assert "nobody dealt the next hand in time" in closed.text
    assert "How it went" in closed.text and "Play again" in str(closed.components)
    assert await snapshot(bot_runner, world.channel) is None
    assert bot_runner.bot is not None
    record = await bot_runner.bot.store.table(tonk_table.table_id_of(closed))
    assert record is not None and record.status == "finished"
    assert "hand 2" not in closed.text.lower()
    assert len(await _ledger(bot_runner, world)) == paid
    assert "ran out of time" not in closed.text


async def test_between_hands_a_player_who_deals_in_time_plays_the_next_hand(
    bot_runner: BotRunner, driver: Driver, world: World
) -> None:
    """Issue 36, someone there: a player deals within the turn time and the next hand is played
    as ever; the table never closed, and nobody paid for the wait."""
    clock, play, paid = await _between_hands(bot_runner, driver, world)
    await clock.someone_sleeping()
    clock.advance(20)
    await play.deal("buttons")
    dealt = await driver.wait_for(
        lambda: (m := play.table) and title(m) == "Tonk — hand 2" and m,
        what="the next hand")
    assert "table closed" not in dealt.text
    assert (await play.engine()).hand_number == 2
    assert len(await _ledger(bot_runner, world)) == paid
