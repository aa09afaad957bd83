"""The daily deal where the app is installed to a person (issue 46, docs/daily.md "Anywhere"):
played in the bot's DM and in a group DM, privately as in a server; each counts on the board of
the place it was started in (the group DM's own board; none across servers); and its result
shared there, line and picture, through the click alone."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.fakediscord import Channel, Driver, FakeDiscord
from bot.fakediscord.model import EVERYONE_DEFAULT, USE_EXTERNAL_APPS
from bot.i18n import signed
from bot.storage import Finish
from tests.e2e.automation import start_clocked
from tests.e2e.conftest import BotRunner, World
from tests.e2e.table_card import card
from tests.e2e.test_daily import DAY, SECRET, _attempt, _fix_secret, _play
from tests.fakeclock import START

pytestmark = pytest.mark.e2e


def _bot_token_calls(fake: FakeDiscord, channel: Channel) -> list[str]:
    """Requests with the bot's own token to ``channel`` (interactions' webhooks are under
    ``/webhooks``): none may reach a channel the bot is not in."""
    return [f"{c.method} {c.path} -> {c.status}" for c in fake.rest_calls
            if c.path.startswith(f"/channels/{channel.id}")]


def _names(answer: Any) -> list[str]:
    assert answer.message is not None and not answer.ephemeral, answer.content
    description = card(answer.message)["description"]
    return [line.split("**")[1] for line in description.splitlines() if "**" in line]


def _field(answer: Any, name: str) -> str:
    assert answer.message is not None
    return next(f["value"] for f in card(answer.message).get("fields", [])
                if f["name"] == name)


def _finished(driver: Driver, user: Any, channel: Channel) -> Any:
    [message] = [m for m in driver.ephemerals(user, channel)
                 if any(b.get("label") == "Share result" for b in m.buttons())]
    return message


async def test_the_daily_in_the_bot_dm_and_a_group_dm(
        bot_runner: BotRunner, driver: Driver, fake: FakeDiscord, world: World) -> None:
    anna, bo, cem = world.anna, world.bo, world.cem
    for person in (anna, bo, cem):
        driver.install_for(person)
    dm = driver.bot_dm(anna)
    group = driver.add_group_dm(bo, [cem, anna], name="Kortkväll")
    await start_clocked(bot_runner)
    await _fix_secret(bot_runner, "dubb", SECRET)

    # Anna plays in the bot's DM, Bo in the group DM: the same deal as in any server,
    # every message private to its player
    in_dm = await _play(driver, anna, dm, "dubb")
    in_group = await _play(driver, bo, group, "dubb", pick="last")
    assert in_dm[0] == in_group[0]
    for message in driver.ephemerals(bo, group):
        assert not message.visible_to(anna.id) and not message.visible_to(cem.id)
    anna_daily = await _attempt(bot_runner, "dubb", anna)
    bo_daily = await _attempt(bot_runner, "dubb", bo)
    assert anna_daily.finished and bo_daily.finished
    # each daily counts for the place it was started in: the DM's channel, the group DM's
    assert (anna_daily.guild_id, bo_daily.guild_id) == (dm.id, group.id)
    assert bot_runner.bot is not None
    store = bot_runner.bot.store
    await store.daily.start_attempt("dubb", DAY.isoformat(), cem.id, group.id, "Cem", [], START)
    assert await store.daily.save_attempt("dubb", DAY.isoformat(), cem.id, counted=0, moves=[],
                                          now=START, finish=Finish("played", 4, -3))

    # the group DM's board: the dailies started there, shown to everyone in it
    board = await driver.slash(cem, group, "dubb daily", {"board": "today"})
    order = sorted([(bo_daily.score or 0, bo.id, "Bo"), (-3, cem.id, "Cem")],
                   key=lambda row: (-row[0], row[1]))
    assert _names(board) == [name for _, _, name in order]
    assert _field(board, "Everyone on this board") == (
        f"2 players · 2 dailies · average {signed('en', sum(r[0] for r in order) / 2, 2)}")
    place = "1st of 2 (top 50%)" if order[0][2] == "Cem" else "2nd of 2 (top 100%)"
    assert _field(board, "You") == (
        f"{place}\n−3 · 1 daily · average −3.0\nStreak: 1 day in a row.")
    # the bot's DM has no board of its own: there the board is the one across servers, and
    # no server opted in
    across = await driver.slash(anna, dm, "dubb daily", {"board": "week"})
    assert across.message is not None and not across.ephemeral
    embed = card(across.message)
    assert embed["title"] == "Dubb daily across servers — this week"
    assert embed["footer"]["text"].endswith(
        "Dailies played in DMs and group DMs count on no board across servers.")
    assert _names(across) == []

    # Bo shares his result in the group DM: the line and the picture, public, by his click
    shared = await driver.click(bo, _finished(driver, bo, group), "Share result")
    assert not shared.failed and shared.message is not None and not shared.ephemeral
    message = shared.message
    assert all(message.visible_to(u.id) for u in (anna, cem))
    assert message.content == (
        f"Bo played the Dubb daily of 2026-01-01: {signed('en', bo_daily.score or 0)} "
        "against the expert. Streak: 1 day in a row.")
    [picture] = message.attachments
    assert picture.filename == "dubb-daily-2026-01-01.png"
    assert picture.description is not None and picture.description.startswith(
        f"Bo's Dubb daily of 2026-01-01: {signed('en', bo_daily.score or 0)} against the "
        "expert. Streak: 1 day in a row.")
    assert "Cards in hand as each turn began: 6, " in picture.description
    with Image.open(io.BytesIO(picture.data)) as image:
        assert image.format == "PNG" and image.size == (480, 200)
    assert len(picture.data) < 16 * 1024
    # not one request with the bot token to the group DM, which the bot is not in
    assert _bot_token_calls(fake, group) == []
    # in the bot's DM it is shared there too (for Anna to forward)
    mine = await driver.click(anna, _finished(driver, anna, dm), "Share result")
    assert mine.message is not None and mine.message.attachments


async def test_a_server_that_never_added_kortbord_has_a_daily_board_of_its_own(
        bot_runner: BotRunner, driver: Driver, fake: FakeDiscord) -> None:
    """A person with kortbord on their account, in a server without it: the daily is filed
    under that server, whose board is its own (it cannot opt in to the one across servers)."""
    elsewhere = driver.add_guild("Elsewhere", with_bot=False)
    hall = driver.add_channel(elsewhere, "hall")
    dag = driver.add_user("Dag", guilds=[elsewhere])
    driver.install_for(dag)
    await start_clocked(bot_runner)
    await _fix_secret(bot_runner, "tonk", SECRET)
    await _play(driver, dag, hall, "tonk", stop_after=1)
    started = await _attempt(bot_runner, "tonk", dag)
    assert started.guild_id == elsewhere.id and not started.finished
    board = await driver.slash(dag, hall, "tonk daily", {"board": "all"})
    assert board.message is not None and not board.ephemeral
    assert card(board.message)["description"] == "Nobody here has finished a daily yet."
    assert _bot_token_calls(fake, hall) == []


async def test_a_shared_result_speaks_the_channels_language(
        bot_runner: BotRunner, driver: Driver) -> None:
    """The line and the picture's alt text are in the server's language, whoever clicks."""
    guild = driver.add_guild("Kortklubben", preferred_locale="sv-SE")
    channel = driver.add_channel(guild, "kort")
    anna = driver.add_user("Anna", guilds=[guild], locale="en-US")
    await start_clocked(bot_runner)
    await _fix_secret(bot_runner, "dubb", SECRET)
    assert bot_runner.bot is not None
    store, day = bot_runner.bot.store, DAY.isoformat()
    assert await store.daily.claim_baseline("dubb", day, START, 600.0)
    await store.daily.store_baseline("dubb", day, 3, [], 0.0, START)
    await store.daily.start_attempt("dubb", day, anna.id, guild.id, "Anna", [], START)
    assert await store.daily.save_attempt("dubb", day, anna.id, counted=0, moves=[], now=START,
                                          finish=Finish("played", 2, 1))
    again = await driver.slash(anna, channel, "dubb daily")
    assert again.message is not None and again.content.startswith("You have played")
    shared = await driver.click(anna, again.message, "Share result")
    assert shared.message is not None and not shared.ephemeral
    assert shared.content == ("Anna spelade dagens giv i Dubb 2026-01-01: +1 mot experten. "
                              "Dagar i rad: 1.")
    [picture] = shared.message.attachments
    assert picture.description == (
        "Dagens giv i Dubb 2026-01-01, spelad av Anna: +1 mot experten. Dagar i rad: 1.")


async def test_sharing_is_refused_where_every_answer_would_be_private(
        bot_runner: BotRunner, driver: Driver, fake: FakeDiscord) -> None:
    """In a server without kortbord where the person lacks Use External Apps, Discord would
    show the post to them alone: one private line says so, and nothing is posted."""
    strict = driver.add_guild("Strict", with_bot=False,
                              everyone_permissions=EVERYONE_DEFAULT & ~USE_EXTERNAL_APPS)
    hall = driver.add_channel(strict, "hall")
    dag = driver.add_user("Dag", guilds=[strict])
    driver.install_for(dag)
    await start_clocked(bot_runner)
    assert bot_runner.bot is not None
    store, day = bot_runner.bot.store, DAY.isoformat()
    await _fix_secret(bot_runner, "dubb", SECRET)
    assert await store.daily.claim_baseline("dubb", day, START, 600.0)
    await store.daily.store_baseline("dubb", day, 3, [], 0.0, START)
    await store.daily.start_attempt("dubb", day, dag.id, strict.id, "Dag", [], START)
    assert await store.daily.save_attempt("dubb", day, dag.id, counted=0, moves=[], now=START,
                                          finish=Finish("played", 2, 1))
    again = await driver.slash(dag, hall, "dubb daily")
    assert again.message is not None and again.ephemeral
    refused = await driver.click(dag, again.message, "Share result")
    assert refused.ephemeral and refused.content == (
        "This server lets kortbord answer you only privately, so your result can't be shared "
        "here.")
    assert driver.channel_messages(hall) == []
    assert _bot_token_calls(fake, hall) == []
