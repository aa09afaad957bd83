"""Tables that no person's interaction can write go through the bot's channel webhook where the
server grants Manage Webhooks (issue 32; ``bot/discord/webhooks.py``): a turn that times out
after everyone's tokens ran out, or after a restart, is posted and edited through
``/webhooks/{id}/{token}``, which Discord counts per webhook and per address, never against
the bot's global budget, and its ping notifies like any message. Without the permission the
tables are the bot's own messages; a webhook a member deletes is made anew.

The bot's clock and Discord's move together by hand (``clocked``): 14½ minutes on, every
interaction token at the table is stale to the bot, and the turn timer is what moves the game."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from bot.discord.publisher import SETUPS_AT_ONCE
from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.model import MANAGE_WEBHOOKS, Channel, StoredMessage
from bot.fakediscord.records import RestCall
from tests.e2e import dubb_table
from tests.e2e.conftest import BotRunner, World
from tests.e2e.dubb_table import DubbTable
from tests.fakeclock import FakeClock

pytestmark = pytest.mark.e2e

STALE = 15 * 60 - 30
"""Seconds on at which every interaction token at the table is stale to the bot (it uses one
for 14 minutes), though Discord still takes it for another half minute: a write already on its
way when the clock jumps lands, as it would in real time, instead of meeting a token that aged
past Discord's 15 minutes between the bot's look at it and Discord's (a race that only a
jumping clock makes)."""
TURN = 60
HELD = 8.0
"""Seconds Discord holds the webhook routes back (a 429 asking to retry that much later)."""
WEBHOOK_ROUTES = "/channels/{channel_id}/webhooks"
MESSAGES = ("/channels/{channel_id}/messages", "/channels/{channel_id}/messages/{message_id}")


def clocked(fake: FakeDiscord, bot_runner: BotRunner) -> FakeClock:
    """The bot's clock moves by hand and Discord's with it (tokens age on both sides)."""
    began = time.time()
    clock = FakeClock(start=began)
    fake.clock = lambda: time.time() + (clock.now() - began)
    bot_runner.clock = clock
    return clock


def by_bot_token(calls: list[RestCall]) -> list[RestCall]:
    """The requests on the bot token's global budget (webhooks and interactions are not)."""
    return [c for c in calls if not c.route.startswith(("/webhooks/", "/interactions/"))]


def _bot_table_writes(calls: list[RestCall]) -> list[RestCall]:
    return [c for c in calls if c.route in MESSAGES and c.method in ("POST", "PATCH")]


def _refusals(calls: list[RestCall]) -> list[RestCall]:
    return [c for c in calls if c.error and c.error.get("code") == 30007]


def through(calls: list[RestCall], webhook_id: int) -> list[RestCall]:
    return [c for c in calls if c.path.split("/")[2:3] == [str(webhook_id)]]


class _Noted(logging.Handler):
    """Set when the bot logs a line containing ``words``: how a test knows the bot has taken
    in an answer of Discord's that changes nothing Discord can show."""

    def __init__(self, words: str) -> None:
        super().__init__(logging.INFO)
        self.words = words
        self.said = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if self.words in record.getMessage():
            self.said.set()


async def _time_out(clock: FakeClock, table: DubbTable, by: float = TURN) -> StoredMessage:
    """Let the turn's time run out (``by`` seconds on); the table after the timeout."""
    counter = dubb_table.counter_of(table.table)
    assert counter is not None
    clock.advance(by)
    return await table.wait_counter(counter + 1)


async def open_turn_table(driver: Driver, world: World, channel: Channel | None = None
                          ) -> DubbTable:
    return await dubb_table.open_table(driver, channel or world.channel, world.anna,
                                       [world.bo], turn_time=TURN)


@pytest.mark.parametrize("in_thread", [False, True])
async def test_a_table_nobodys_token_can_write_goes_through_the_channel_webhook(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World, in_thread: bool
) -> None:
    driver.set_bot_webhooks(world.channel, True)
    # a thread's table goes through its parent's webhook, naming the thread
    channel = (driver.add_channel(world.guild, "table", thread=True, parent=world.channel)
               if in_thread else world.channel)
    clock = clocked(fake, bot_runner)
    await bot_runner.start()
    table = await open_turn_table(driver, world, channel)
    # the webhook is set up in the background once the table is up (issue 49), not before it
    [hook] = await driver.wait_for(lambda: driver.webhooks(channel) or None,
                                   what="the channel's webhook")
    assert hook.channel_id == world.channel.id
    assert hook.application_id == fake.application.id
    first = len(fake.rest_calls)
    pings = len(fake.pings)

    # every token at the table is stale when the turn times out: the timeout's table, which
    # pings the next player, is posted by the webhook, and the interaction's message it
    # replaces is deleted by the bot (the one request it costs the bot's budget)
    before = table.table
    shown = await _time_out(clock, table, STALE)
    await driver.wait_for(lambda: fake.messages[before.id].deleted, what="the old table gone")
    taken_over = fake.rest_calls[first:]
    after = len(fake.rest_calls)
    for _ in range(3):
        if table.over():
            break
        shown = await _time_out(clock, table)
    later = fake.rest_calls[after:]

    assert shown.webhook_id == hook.id and shown.author.id == hook.id
    assert shown.channel_id == channel.id
    assert through(taken_over, hook.id), "the webhook wrote nothing"
    assert _bot_table_writes(taken_over) == []
    assert {(c.method, c.route) for c in by_bot_token(taken_over)} <= {
        ("DELETE", "/channels/{channel_id}/messages/{message_id}")}
    # from then on the table costs the bot's budget nothing at all
    assert by_bot_token(later) == []
    assert through(later, hook.id)
    notified = fake.pings[pings:]
    assert notified and all(fake.messages[p.message_id].webhook_id == hook.id for p in notified)
    assert {p.user_id for p in notified} <= {world.anna.id, world.bo.id}


async def test_after_a_restart_the_stored_webhook_edits_the_table_it_posted(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.set_bot_webhooks(world.channel, True)
    clock = clocked(fake, bot_runner)
    await bot_runner.start()
    # without pings every timeout edits the table message in place
    await dubb_table.pings_off(driver, world.channel, [world.anna, world.bo])
    table = await open_turn_table(driver, world)
    posted = await _time_out(clock, table, STALE)
    [hook] = driver.webhooks(world.channel)
    assert posted.webhook_id == hook.id
    counter = dubb_table.counter_of(posted)
    assert counter is not None

    await bot_runner.stop()
    clock.advance(TURN)  # the turn's time ran out while the bot was down
    first = len(fake.rest_calls)
    await bot_runner.restart()
    shown = await table.wait_counter(counter + 1)
    again = await _time_out(clock, table)
    calls = fake.rest_calls[first:]

    # the same message, edited through the webhook that posted it, known from the database
    assert shown.id == again.id == posted.id and not posted.deleted
    edits = [c for c in through(calls, hook.id) if c.method == "PATCH"]
    assert len(edits) >= 2
    assert driver.webhooks(world.channel) == [hook]
    assert [c for c in calls if c.route == "/channels/{channel_id}/webhooks"] == []
    assert _bot_table_writes(calls) == []


async def test_without_manage_webhooks_the_bot_writes_its_tables_until_it_is_granted(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    clock = clocked(fake, bot_runner)
    await bot_runner.start()
    table = await open_turn_table(driver, world)
    first = len(fake.rest_calls)
    timeouts = 0
    while not table.over() and timeouts < 4:
        await _time_out(clock, table, STALE if timeouts == 0 else TURN)
        timeouts += 1
    without = fake.rest_calls[first:]

    assert timeouts == 4 and driver.webhooks(world.channel) == []
    # the bot's cache told it there is no permission: it did not even ask
    assert [c for c in without if "/webhooks" in c.route] == []
    assert _bot_table_writes(without), "the tables were not the bot's messages"
    assert table.table.author.id == fake.bot_user.id

    driver.set_bot_webhooks(world.channel, True)
    while not table.over():
        shown = await _time_out(clock, table)
        if shown.webhook_id is not None:
            break
    [hook] = driver.webhooks(world.channel)
    assert table.table.webhook_id == hook.id


async def test_a_webhook_a_member_deletes_mid_game_is_made_anew(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.set_bot_webhooks(world.channel, True)
    clock = clocked(fake, bot_runner)
    await bot_runner.start()
    table = await open_turn_table(driver, world)
    shown = await _time_out(clock, table, STALE)
    [old] = driver.webhooks(world.channel)
    assert shown.webhook_id == old.id

    assert driver.delete_webhooks(world.channel) == 1
    counter = dubb_table.counter_of(shown)
    for _ in range(3):
        if table.over():
            break
        shown = await _time_out(clock, table)

    [new] = driver.webhooks(world.channel)
    assert new.id != old.id
    assert table.over() or (dubb_table.counter_of(table.table) or 0) >= (counter or 0) + 3
    assert table.table.webhook_id == new.id
    # the old webhook's table message could be neither edited nor kept live: a newer one
    # replaced it, and nothing the bot sent was refused for the missing webhook but once
    gone = [c for c in fake.rest_calls if c.error and c.error.get("code") == 10015]
    assert len(gone) == 1


async def test_a_channel_with_its_fifteen_webhooks_gets_bot_messages(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    driver.allow_rest_errors()  # Discord's 400 30007
    driver.set_bot_webhooks(world.channel, True)
    fake.set_overwrite(world.channel, world.mod.id, 1, allow=MANAGE_WEBHOOKS)
    members = [fake.create_webhook(world.channel, {"name": f"feed {n}"}, world.mod)
               for n in range(15)]
    clock = clocked(fake, bot_runner)
    refused = _Noted("its tables are bot messages")
    logger = logging.getLogger("bot.discord.webhooks")
    logger.addHandler(refused)
    logger.setLevel(logging.INFO)
    try:
        await bot_runner.start()
        table = await open_turn_table(driver, world)
        # asked in the background once the table is up (issue 49), not before it; the clock
        # moves only once the bot has taken the refusal in: it counts its ten minutes from then
        await asyncio.wait_for(refused.said.wait(), 30)
    finally:
        logger.removeHandler(refused)
        logger.setLevel(logging.NOTSET)
    opening = _refusals(fake.rest_calls)
    first = len(fake.rest_calls)
    shown = await _time_out(clock, table, STALE)
    calls = fake.rest_calls[first:]
    later = await _time_out(clock, table)

    # a member's webhooks are not the bot's to use, and Discord refused a sixteenth (30007):
    # asked once while the lobby opened, and again only ten minutes on
    assert len(opening) == 1 and len(_refusals(calls)) == 1
    assert later.author.id == fake.bot_user.id
    assert driver.webhooks(world.channel) == members
    assert shown.author.id == fake.bot_user.id and shown.webhook_id is None
    assert _bot_table_writes(calls)


async def test_a_new_channels_first_table_does_not_wait_for_its_webhook(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    """Issue 49: before a table's first write in a channel the bot never played in, the bot
    looked up and made the channel's webhook, two requests on its global budget that a burst of
    new channels queued for tens of seconds, while the person's fresh interaction could post the
    lobby at once. With the webhook routes held back, the lobby appears and the game starts;
    the webhook is set up afterwards, for the writes no interaction will make."""
    driver.set_bot_webhooks(world.channel, True)
    await bot_runner.start()
    fake.fail_next(1, status=429, retry_after=HELD,
                   match=lambda method, route: route == WEBHOOK_ROUTES)
    first = len(fake.rest_calls)
    began = time.monotonic()

    opened = await driver.slash(world.anna, world.channel, "dubb start")
    assert not opened.ephemeral, opened.content  # the lobby itself answers
    lobby = await driver.wait_for_message(
        world.channel, lambda m: dubb_table.title(m).startswith("Dubb"), within=HELD / 2)
    shown_after = time.monotonic() - began
    joined = await driver.click(world.bo, lobby, "Join")
    assert "joined" in joined.content, joined.content
    await driver.click(world.anna, lobby, "Start")
    table = DubbTable(driver, world.channel, {world.anna.id: world.anna, world.bo.id: world.bo})
    await table.wait_counter(0)
    started_after = time.monotonic() - began
    # nothing of the table waited for the held routes: they were asked (and refused) once
    held_calls = [c for c in fake.rest_calls[first:] if c.route == WEBHOOK_ROUTES]

    assert shown_after < HELD / 2 and started_after < HELD
    assert [(c.method, c.status) for c in held_calls] == [("GET", 429)]
    assert lobby.webhook_id is not None and lobby.author.id == fake.bot_user.id, \
        "the lobby was not posted through the person's interaction"
    assert _bot_table_writes(fake.rest_calls[first:]) == []
    # once Discord lets it, the webhook is set up, in the background, for later
    [hook] = await driver.wait_for(lambda: driver.webhooks(world.channel) or None,
                                   within=HELD * 3, what="the channel's webhook")
    assert hook.application_id == fake.application.id


async def test_a_new_channels_lobby_reads_nothing_of_its_webhook_before_it_shows(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    """Issue 49: a lobby that the person's fresh interaction posts needs no channel webhook, so
    the bot no longer looks for a stored one (a round trip to the database) before posting it:
    in a burst of new channels each such look stood in front of a lobby. The background set-up
    looks afterwards, and still finds and sets up the webhook."""
    driver.set_bot_webhooks(world.channel, True)
    bot = await bot_runner.start()
    store = bot.store
    looked: list[bool] = []  # whether the lobby stood in the channel at each look
    stored = store.channel_webhook

    async def channel_webhook(channel_id: int) -> tuple[int, str] | None:
        looked.append(bool(driver.channel_messages(world.channel)))
        return await stored(channel_id)

    store.channel_webhook = channel_webhook  # type: ignore[method-assign]
    opened = await driver.slash(world.anna, world.channel, "dubb start")
    assert not opened.ephemeral, opened.content
    [hook] = await driver.wait_for(lambda: driver.webhooks(world.channel) or None,
                                   what="the channel's webhook")

    assert hook.application_id == fake.application.id
    assert looked and all(looked), f"looked before the lobby showed: {looked}"


async def test_a_burst_of_new_channels_gets_every_webhook_set_up_and_a_later_one_too(
    bot_runner: BotRunner, fake: FakeDiscord, driver: Driver, world: World
) -> None:
    """Issue 49: the webhooks of new channels wait in one line for a few workers
    (``SETUPS_AT_ONCE``) rather than in a task each, whose waits for the people cost a burst of
    new tables a tenth of its CPU. Every channel of a burst larger than the workers gets its
    webhook, made once; so does a channel whose table opens after the line ran dry and its
    workers ended."""
    count = SETUPS_AT_ONCE + 4
    channels = [driver.add_channel(world.guild, f"table-{n}") for n in range(count + 1)]
    hosts = [driver.add_user(f"Host {n}", guilds=[world.guild]) for n in range(count + 1)]
    for channel in channels:
        driver.set_bot_webhooks(channel, True)
    await bot_runner.start()
    *burst, later = zip(hosts, channels, strict=True)

    opened = await asyncio.gather(*(driver.slash(host, channel, "dubb start")
                                    for host, channel in burst))
    assert not any(o.ephemeral for o in opened), [o.content for o in opened]
    await driver.wait_for(lambda: all(driver.webhooks(c) for _, c in burst) or None,
                          what="every channel's webhook")
    host, channel = later
    opened_later = await driver.slash(host, channel, "dubb start")
    assert not opened_later.ephemeral, opened_later.content
    [hook] = await driver.wait_for(lambda: driver.webhooks(channel) or None,
                                   what="the later channel's webhook")

    assert hook.application_id == fake.application.id
    made = [c.path for c in fake.rest_calls if c.route == WEBHOOK_ROUTES and c.method == "POST"]
    assert sorted(made) == sorted(f"/channels/{c.id}/webhooks" for c in channels)
