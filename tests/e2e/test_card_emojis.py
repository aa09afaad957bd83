"""The cards as the application's own emojis, end to end through the fake: uploaded on the first
start, none on a restart, one per card when two processes start together, letters and a log line
when Discord refuses; a Dubb game whose table and hand panel show them."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import cards
from bot.cardart import EMOJI_FACES, emoji_name
from bot.discord import emojis
from bot.fakediscord import Driver, FakeDiscord
from tests.e2e.conftest import BareClients, BotRunner, SubprocessBot, World
from tests.e2e.dubb_table import open_table, to_move
from tests.e2e.tonk_table import field_value
from tests.e2e.tonk_table import open_table as open_tonk
from tests.e2e.tonk_table import to_move as tonk_to_move

pytestmark = [pytest.mark.e2e]

NAMES = {emoji_name(face) for face in EMOJI_FACES}
MARKUP = re.compile(r"<:(\w+):(\d+)>")
_CREATED = re.compile(r"card emojis: (\d+) in use, (\d+) created now")


def emoji_names(fake: FakeDiscord) -> list[str]:
    return sorted(e.name for e in fake.emojis.by_id.values())


def markups(fake: FakeDiscord, text: str) -> list[str]:
    """The custom emojis written in ``text``, each checked to be one of the application's."""
    found = MARKUP.findall(text)
    for name, emoji_id in found:
        emoji = fake.emojis.by_id.get(int(emoji_id))
        assert emoji is not None and emoji.name == name, (name, emoji_id)
    return [name for name, _ in found]


async def emojis_ready(runner: BotRunner) -> int:
    assert runner.bot is not None and runner.bot.card_emojis is not None
    return await runner.bot.card_emojis


@pytest.fixture(autouse=True)
def letters_after() -> Iterator[None]:
    """Cards are letters again for the tests that run next in this process, however this ends."""
    yield
    cards.use_emojis({})


@pytest.fixture
def emoji_bot(bot_runner: BotRunner, world: World) -> BotRunner:
    bot_runner.card_emojis = True
    return bot_runner


async def test_the_first_start_uploads_every_card_and_a_restart_none(
    emoji_bot: BotRunner, fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.discord.emojis")
    await emoji_bot.start()

    assert await emojis_ready(emoji_bot) == len(NAMES) == 55
    assert emoji_names(fake) == sorted(NAMES)
    assert all(e.content_type == "image/png" and len(e.image) <= 256 * 1024
               for e in fake.emojis.by_id.values())
    ids = set(fake.emojis.by_id)
    seven = cards.display(cards.make(7, 1))
    assert markups(fake, seven) == ["7_of_hearts"]

    await emoji_bot.restart()

    assert await emojis_ready(emoji_bot) == 0
    assert set(fake.emojis.by_id) == ids
    assert cards.display(cards.make(7, 1)) == seven
    assert "card emojis: 55 in use, 0 created now (" in caplog.text
    await emoji_bot.stop()
    assert cards.display(cards.make(7, 1)) == "7♥", "a closed bot's emojis are no one's"


async def test_an_emoji_someone_deleted_is_made_again(
    emoji_bot: BotRunner, fake: FakeDiscord
) -> None:
    await emoji_bot.start()
    await emojis_ready(emoji_bot)
    queen = next(e for e in fake.emojis.by_id.values() if e.name == "queen_of_spades")
    fake.emojis.delete(queen.id)

    await emoji_bot.restart()

    assert await emojis_ready(emoji_bot) == 1
    assert emoji_names(fake) == sorted(NAMES)


async def test_a_refused_upload_logs_why_and_shows_letters(
    emoji_bot: BotRunner, driver: Driver, fake: FakeDiscord, world: World,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="bot.discord.emojis")
    fake.inject_faults(1.0, status=503,
                       match=lambda method, route: method == "POST" and route.endswith("/emojis"))
    await emoji_bot.start()

    assert await emojis_ready(emoji_bot) == 0
    assert fake.emojis.by_id == {}
    refused = [r for r in caplog.records
               if r.name == "bot.discord.emojis" and r.levelno == logging.WARNING]
    assert len(refused) == 1
    assert refused[0].getMessage().startswith(
        "card emojis: could not upload them (Discord answered 503")
    assert refused[0].getMessage().endswith("cards are shown as letters")
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    user = table.players[to_move(table.table) or 0]
    panel = await driver.click(user, table.table, "Your hand")
    assert panel.message is not None
    assert "<:" not in panel.message.shown
    assert re.search(r"(?:10|[2-9JQKA])[♠♥♦♣]", panel.message.shown)
    assert all("emoji" not in o for s in panel.message.selects() for o in s["options"])


async def test_an_application_without_room_keeps_letters(
    emoji_bot: BotRunner, fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    for n in range(1950):
        fake.emojis.create({"name": f"other_{n}", "image": _PNG_URI})
    caplog.set_level(logging.INFO, logger="bot.discord.emojis")
    await emoji_bot.start()

    assert await emojis_ready(emoji_bot) == 0
    assert len(fake.emojis.by_id) == 1950
    assert "the application has 1950 other emojis of at most 2000" in caplog.text
    assert cards.display(cards.make(7, 1)) == "7♥"


async def test_a_dubb_table_and_hand_panel_show_the_cards_emojis(
    emoji_bot: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    await emoji_bot.start()
    await emojis_ready(emoji_bot)
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    user = table.players[to_move(table.table) or 0]

    panel = await driver.click(user, table.table, "Your hand")

    assert panel.message is not None
    hand_line = panel.message.shown.splitlines()[0]
    assert hand_line.startswith("**Your hand (12):** <:")
    assert len(markups(fake, hand_line)) == 12
    options = panel.message.selects()[0]["options"]
    assert options and all(o["emoji"]["name"] in NAMES for o in options)
    assert all(fake.emojis.by_id[int(o["emoji"]["id"])].name == o["emoji"]["name"]
               for o in options)
    assert all("<:" not in o["label"] for o in options), "labels stay letters"

    await table.turn_by_buttons()

    pile = field_value(table.table, "Play pile") or ""
    latest = field_value(table.table, "Latest") or ""
    assert markups(fake, pile) and markups(fake, latest)
    assert options[0]["emoji"]["name"] in markups(fake, pile)


@pytest.mark.machine_speed
async def test_two_processes_starting_together_make_one_emoji_per_card(
    fake: FakeDiscord, driver: Driver, world: World, tmp_path: Path
) -> None:
    bots = []
    for n in range(2):
        workdir = tmp_path / f"process-{n}"
        workdir.mkdir()
        bots.append(SubprocessBot(fake, driver, workdir, env={
            "CARD_EMOJIS": "true", "SHARD_COUNT": "2", "SHARD_IDS": str(n)}))
    try:
        await asyncio.gather(*(bot.start() for bot in bots))
        await driver.wait_for(lambda: emoji_names(fake) == sorted(NAMES), within=60,
                              what="every card's emoji")
    finally:
        # each process finishes what it was uploading before it exits, and logs it
        for bot in bots:
            await bot.stop()
    logged = [_CREATED.search(bot.output()) for bot in bots]

    # the process that lost a race for a name was refused it, as Discord refuses a name taken
    refused = [c for c in fake.rest_calls if c.status == 400]
    assert all(c.method == "POST" and c.path.endswith("/emojis") and c.status == 400
               and "APPLICATION_EMOJI_NAME_ALREADY_TAKEN" in str(c.error) for c in refused)
    driver.allow_rest_errors()
    assert emoji_names(fake) == sorted(NAMES), "one emoji per card, none twice"
    assert all(logged), "\n".join(bot.output() for bot in bots)
    assert [int(m.group(1)) for m in logged if m] == [55, 55]
    assert sum(int(m.group(2)) for m in logged if m) == 55, "each card created by one process"
    assert not any(bot.errors() for bot in bots)


async def test_two_uploads_in_step_are_refused_the_names_taken_and_use_the_winners(
    fake: FakeDiscord, driver: Driver, bare_clients: BareClients,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worst case of two processes starting together, made certain: both go down the list
    from the same card, so one of them is refused name after name."""
    monkeypatch.setattr(emojis.random, "randrange", lambda n: 0)
    # bare clients have no pacer: some 160 requests at once meet the global limit, and wait
    driver.allow_rate_limits()
    first, _ = await bare_clients.start(sync=False)
    second, _ = await bare_clients.start(sync=False)

    created = await asyncio.gather(emojis.install(first), emojis.install(second))

    refused = [c for c in fake.rest_calls if c.status == 400]
    assert refused and all("APPLICATION_EMOJI_NAME_ALREADY_TAKEN" in str(c.error)
                           for c in refused)
    driver.allow_rest_errors()
    assert sum(created) == 55
    assert emoji_names(fake) == sorted(NAMES)
    shown = cards.display(cards.make(12, 0))
    assert markups(fake, shown) == ["queen_of_spades"]


_PNG_URI = ("data:image/png;base64,"
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")


async def test_a_tonk_turn_shows_the_cards_emojis_on_buttons_menus_and_the_table(
    emoji_bot: BotRunner, driver: Driver, fake: FakeDiscord, world: World
) -> None:
    await emoji_bot.start()
    await emojis_ready(emoji_bot)
    # a seeded deal: a random one ends on the deal about once in a hundred (T4), with no turn
    # to show
    play = await open_tonk(emoji_bot, driver, world.channel, world.anna, [world.bo], seed=2,
                           options={"no_upcard": False})
    table = play.table
    user = play.users[tonk_to_move(table) or 0]
    take = next(b for b in table.buttons() if b["label"].startswith("Take "))
    assert fake.emojis.by_id[int(take["emoji"]["id"])].name == take["emoji"]["name"]
    assert "<:" not in take["label"]

    panel = await driver.click(user, table, "Your hand")
    assert panel.message is not None
    assert len(markups(fake, panel.message.shown)) >= 5 + 1, "the hand and the discard"
    drawn = await driver.click(user, panel.message, "Draw from stock")
    assert drawn.message is not None
    discard = next(s for s in drawn.message.selects() if ":discard:" in s["custom_id"])
    option = discard["options"][0]
    assert option["emoji"]["name"] in NAMES and "<:" not in option["label"]
    await driver.select(user, drawn.message, [option["value"]], custom_id=discard["custom_id"])

    def discarded() -> str | None:
        latest = field_value(play.table, "Latest")
        return latest if "discarded" in latest else None

    latest = await driver.wait_for(discarded, what="the discard on the table")
    assert option["emoji"]["name"] in markups(fake, latest.splitlines()[-1])
