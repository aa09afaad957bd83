"""The Activity's backend end to end (issue 48): the real bot with its Activity server, the fake
Discord playing Discord's part (launch, OAuth2, Bearer tokens, Activity instances), and the
page's requests made over HTTP as the page makes them (docs/activity.md). The page itself is
tested in a browser (tests/browser/test_activity*.py)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.activity.sessions import LIFETIME
from bot.fakediscord import Driver, FakeDiscord
from bot.fakediscord.model import StoredMessage
from bot.games.registry import GAMES
from bot.i18n import signed, tr
from tests.e2e.activity_client import Scene, action, pages
from tests.e2e.conftest import BotRunner, ErrorLog, World
from tests.e2e.dubb_table import (
    DubbTable,
    counter_of,
    open_table,
    table_id_of,
    table_message,
    title,
    wait_table,
)
from tests.fakeclock import FakeClock
from tests.highcard import SPEC as HIGHCARD

pytestmark = pytest.mark.e2e


@pytest.fixture
async def activity(world: World, driver: Driver, bot_runner: BotRunner
                   ) -> AsyncIterator[int]:
    """The bot with its Activity on, Activities on for the app; the Activity server's port."""
    driver.enable_activities()
    bot_runner.activity = True
    bot = await bot_runner.start()
    assert bot.activity_server is not None
    yield bot.activity_server.port


def mover(scene: Scene) -> str | None:
    return next((s["id"] for s in scene["seats"] if s["to_move"]), None)


async def test_a_person_launches_from_the_table_and_both_faces_show_each_move(
    activity: int, driver: Driver, world: World, fake: FakeDiscord
) -> None:
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    launched = await driver.click(world.anna, table.table, "Play in an Activity")
    assert launched.type == 12 and launched.activity_instance is not None
    instance = launched.activity_instance
    joined = await driver.click(world.bo, table.table, "Play in an Activity")
    assert joined.activity_instance is instance

    driver.set_locale(world.bo, "da")
    async with pages(activity) as new:
        anna, bo = new(), new()
        status, config = await anna.get("/api/config")
        assert status == 200 and config["client_id"] == str(fake.application.id)
        session = await anna.sign_in(driver, world.anna, instance)
        await bo.sign_in(driver, world.bo, instance)
        assert session["user"] == {"id": str(world.anna.id), "name": "Anna"}
        assert session["channel_id"] == str(world.channel.id)
        assert session["guild_id"] == str(world.guild.id) and session["lang"] == "en"
        async with anna.stream() as annas, bo.stream() as bos:
            scene = await annas.until(lambda s: s["state"] == "playing", "the game")
            theirs = await bos.until(lambda s: s["state"] == "playing", "the game")
            assert scene["game"] == {"name": "Dubb"} and scene["title"] == "Dubb — in play"
            mine = {s["id"]: s for s in scene["seats"]}
            assert mine[str(world.anna.id)]["you"] and not mine[str(world.bo.id)]["you"]
            assert len(scene["hand"]["cards"]) == mine[str(world.anna.id)]["cards"]
            assert len(theirs["hand"]["cards"]) == mine[str(world.bo.id)]["cards"]
            # each sees only their own hand, in their own language
            assert not {c["id"] for c in scene["hand"]["cards"]} & {
                c["id"] for c in theirs["hand"]["cards"]}
            assert theirs["lang"] == "da"
            assert theirs["title"] == tr("da", "{game} — in play", game="Dubb") != scene["title"]
            assert theirs["words"]["your_hand"] == tr("da", "Your hand")
            assert all(c["name"] for c in scene["hand"]["cards"])
            assert [p["id"] for p in scene["piles"]] == ["play", "draw"]
            by_activity = by_button = 0
            while by_activity < 2 or by_button < 2:
                counter = counter_of(table_message(driver, world.channel))
                assert counter is not None
                version = scene["version"]
                if mover(scene) == str(world.anna.id):
                    # the person to move sees exactly their moves; the other none
                    theirs = await bos.until(lambda s, v=version: s["version"] >= v,
                                             "Bo's stream up to date")
                    assert not any(a["kind"] == "move" for a in theirs["actions"])
                    status, answer = await anna.act(scene, action(scene, "move"))
                    assert status == 200, answer
                    assert answer["scene"]["version"] > version
                    # the channel's table message shows it, and Bo's stream
                    await table.wait_counter(counter + 1)
                    await bos.until(lambda s, v=version: s["version"] > v,
                                    "Anna's move on Bo's stream")
                    by_activity += 1
                else:
                    await table.turn_by_buttons()
                    by_button += 1
                scene = await annas.until(lambda s, v=version: s["version"] > v,
                                          "the move on Anna's stream")
                if table.over():
                    break
            assert annas.latest is not None and annas.latest["latest"]


async def test_refusals_change_nothing(
    activity: int, driver: Driver, world: World, fake: FakeDiscord, bot_runner: BotRunner,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    # Discord's own refusals (a replayed code, a bad token, an unknown instance) are the point
    driver.allow_rest_errors()
    table = await open_table(driver, world.channel, world.anna, [world.bo])
    launched = await driver.click(world.anna, table.table, "Play in an Activity")
    instance = launched.activity_instance
    assert instance is not None
    driver.join_activity(world.bo, instance)
    async with pages(activity) as new:
        anna, bo, cem = new(), new(), new()
        await anna.sign_in(driver, world.anna, instance)
        await bo.sign_in(driver, world.bo, instance)

        code = driver.authorize(world.anna)
        first = await anna.post("/api/token", {"code": code})
        replayed = await anna.post("/api/token", {"code": code})
        assert first[0] == 200 and replayed[0] == 400 and replayed[1]["error"]
        token = first[1]["access_token"]
        forged = await anna.post("/api/session", {"access_token": token,
                                                  "instance_id": "i-1234-forged"})
        assert forged[0] == 403 and forged[1]["error"]
        bad = await anna.post("/api/session", {"access_token": "not-a-token",
                                               "instance_id": instance.id})
        assert bad[0] == 401
        stranger = fake.add_oauth_client("Someone Else's Activity")
        async with aiohttp.ClientSession() as http, http.post(
            fake.api_base + "/oauth2/token",
            data={"client_id": str(stranger.id), "client_secret": stranger.secret,
                  "grant_type": "authorization_code",
                  "code": driver.authorize(world.anna, client_id=stranger.id)}) as answer:
            foreign = (await answer.json())["access_token"]
        other_app = await anna.post("/api/session", {"access_token": foreign,
                                                     "instance_id": instance.id})
        assert other_app[0] == 401
        # Cem is not in the instance: he cannot open a session in it
        cem_code = driver.authorize(world.cem)
        cem_token = (await cem.post("/api/token", {"code": cem_code}))[1]["access_token"]
        outsider = await cem.post("/api/session", {"access_token": cem_token,
                                                   "instance_id": instance.id})
        assert outsider[0] == 403
        malformed = await anna.post("/api/act", {"session": anna.session["session"]})
        assert malformed[0] == 400

        async with anna.stream() as annas, bo.stream() as bos:
            a = await annas.until(lambda s: s["state"] == "playing", "the game")
            b = await bos.until(lambda s: s["state"] == "playing", "the game")
            first_mover, waiter = ((anna, bo), (a, b)) if mover(a) == str(world.anna.id) \
                else ((bo, anna), (b, a))
            moving_scene, waiting_scene = waiter
            mover_page, waiting_page = first_mover
            assert not any(x["kind"] == "move" for x in waiting_scene["actions"])
            before = counter_of(table_message(driver, world.channel))
            moves = await bot_runner.bot.service.moves(  # type: ignore[union-attr]
                waiting_scene["table"])

            # a move for another seat, out of turn: refused
            stolen = action(moving_scene, "move")
            other_seat = await waiting_page.act(waiting_scene, stolen)
            assert other_seat[0] == 422 and other_seat[1]["error"]
            # a made-up action, an older version, a forged session: refused
            made_up = await mover_page.act(moving_scene, "m-0000000000000000")
            assert made_up[0] == 422
            stale = await mover_page.post("/api/act", {
                "session": mover_page.session["session"], "version": moving_scene["version"] - 1,
                "action": {"id": stolen}})
            assert stale[0] == 409 and stale[1]["scene"]["version"] == moving_scene["version"]
            forged_session = mover_page.session["session"][:-4] + "AAAA"
            forged_act = await mover_page.post("/api/act", {
                "session": forged_session, "version": moving_scene["version"],
                "action": {"id": stolen}})
            assert forged_act[0] == 401
            assert counter_of(table_message(driver, world.channel)) == before
            assert await bot_runner.bot.service.moves(  # type: ignore[union-attr]
                waiting_scene["table"]) == moves
            # a table id no database could hold: refused as unreadable, not an error of the bot
            huge = await mover_page.post("/api/act", {
                "session": mover_page.session["session"], "version": moving_scene["version"],
                "action": {"id": stolen}, "table": 10**30})
            assert huge[0] == 400 and huge[1]["error"]
            # the right person's move still goes through
            done = await mover_page.act(moving_scene, stolen)
            assert done[0] == 200

            # a person holds at most eight streams (Anna has one open); a stream naming a
            # table id no database could hold still gets the channel's table
            params = {"session": anna.session["session"]}
            held = [await anna.http.get(anna.base + "/api/stream",
                                        params={**params, "table": "9" * 40})]
            held += [await anna.http.get(anna.base + "/api/stream", params=params)
                     for _ in range(6)]
            assert [r.status for r in held] == [200] * 7
            assert (await held[0].content.readuntil(b"\n\n")).startswith(b"event: scene")
            ninth = await anna.http.get(anna.base + "/api/stream", params=params)
            assert ninth.status == 429 and (await ninth.json())["error"]
            # Bo's are his own
            his = await bo.http.get(bo.base + "/api/stream", params={
                "session": bo.session["session"]})
            assert his.status == 200
            for response in (*held, ninth, his):
                response.close()
    assert fake.client_secret not in str(driver.channel_messages(world.channel))
    assert caplog.records and fake.client_secret not in caplog.text


LAUNCH = "Play in an Activity"


def labels(message: StoredMessage) -> list[str]:
    return [str(b.get("label")) for b in message.buttons()]


async def test_a_table_in_a_thread_offers_no_activity(
    activity: int, driver: Driver, world: World
) -> None:
    # Discord launches no Activity in a thread (an event's tables are all in threads)
    thread = driver.add_channel(world.guild, "side game", thread=True, parent=world.channel)
    await driver.slash(world.anna, thread, "dubb start")
    lobby = await wait_table(driver, thread)
    assert "Join" in labels(lobby) and LAUNCH not in labels(lobby)
    assert not (await driver.click(world.bo, lobby, "Join")).failed
    assert not (await driver.click(world.anna, lobby, "Start")).failed
    table = DubbTable(driver, thread, {world.anna.id: world.anna, world.bo.id: world.bo})
    await table.wait_counter(0)
    assert table.table.buttons() and LAUNCH not in labels(table.table)
    # the channel the thread is in offers it
    await driver.slash(world.cem, world.channel, "dubb start")
    assert LAUNCH in labels(await wait_table(driver, world.channel))


async def test_an_old_launch_button_in_a_thread_gets_a_short_private_answer(
    activity: int, driver: Driver, world: World, fake: FakeDiscord, bot_runner: BotRunner,
    bot_errors: ErrorLog, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Discord refusing the launch in the thread (400) is the point
    driver.allow_rest_errors()
    thread = driver.add_channel(world.guild, "side game", thread=True, parent=world.channel)
    assert bot_runner.bot is not None
    # a table drawn before tables in threads went without the button
    monkeypatch.setattr(bot_runner.bot.publisher, "in_thread", lambda place, channel: False,
                        raising=False)
    table = await open_table(driver, thread, world.anna, [world.bo])
    old = table.table
    assert LAUNCH in labels(old)
    monkeypatch.undo()

    pressed = await driver.click(world.bo, old, LAUNCH)
    assert not pressed.failed and pressed.ephemeral
    assert pressed.content == "That button isn't here any more. Nothing was changed."
    assert pressed.activity_instance is None and driver.activity_in(thread) is None
    refused = [c for c in fake.rest_calls if c.status == 400]
    assert [(c.route, c.path.split("/")[2]) for c in refused] == [
        ("/interactions/{interaction_id}/{interaction_token}/callback", str(pressed.id))]
    assert not bot_errors.records


async def test_a_voice_channel_with_no_table_opens_a_lobby_and_plays_a_game_to_the_end(
    activity: int, driver: Driver, world: World
) -> None:
    lounge = driver.add_channel(world.guild, "Lounge", voice=True)
    driver.set_locale(world.anna, "sv-SE")
    instance = await driver.launch_activity(world.anna, lounge)
    async with pages(activity) as new:
        anna = new()
        session = await anna.sign_in(driver, world.anna, instance)
        assert session["lang"] == "sv" and session["channel_id"] == str(lounge.id)
        async with anna.stream() as scenes:
            empty = await scenes.until(lambda s: s["state"] == "none", "no table")
            assert empty["words"]["your_hand"]
            assert [a["kind"] for a in empty["actions"]] == ["open", "open"]
            opened = await anna.act(empty, action(empty, "open", "Öppna ett Dubb-bord"))
            assert opened[0] == 200, opened
            lobby = await wait_table(driver, lounge)
            assert title(lobby).startswith("Dubb")
            scene = await scenes.until(lambda s: s["state"] == "lobby", "the lobby")
            assert [s["name"] for s in scene["seats"]] == ["Anna"]
            assert (await anna.act(scene, action(scene, "computer")))[0] == 200
            scene = await scenes.until(lambda s: len(s["seats"]) == 2, "a computer seated")
            assert (await anna.act(scene, action(scene, "start")))[0] == 200
            scene = await scenes.until(lambda s: s["state"] == "playing", "the game")
            while scene["state"] == "playing":
                if mover(scene) == str(world.anna.id):
                    status, answer = await anna.act(scene, action(scene, "move"))
                    assert status in (200, 409), answer
                scene = await scenes.until(
                    lambda s, v=scene["version"]: s["version"] > v, "the next move", within=30)
            assert scene["state"] == "over" and scene["result"]
            assert action(scene, "again")
        over = tr("sv", "{game} — game over", game="Dubb")
        await driver.wait_for(lambda: title(table_message(driver, lounge)) == over,
                              what="the table message over")

        # a page that reconnects names the table it showed, and sees how that game ended; a
        # page that names none, or a table of another channel, sees the channel as it is
        await driver.slash(world.bo, world.channel, "dubb start")
        elsewhere = table_id_of(await wait_table(driver, world.channel))
        for named, state in ((scene["table"], "over"), (None, "none"), (elsewhere, "none")):
            async with anna.stream(table=named) as scenes:
                first = await scenes.until(lambda s: True, "the first scene")
                assert first["state"] == state, (named, first["state"])
                if state == "over":
                    assert first["table"] == scene["table"] and action(first, "again")


async def test_a_tonk_hand_played_in_the_activity_is_settled_in_the_ledger(
    activity: int, driver: Driver, world: World, bot_runner: BotRunner
) -> None:
    # the Entry Point command, in the text channel: Discord launches, the bot hears nothing
    instance = await driver.launch_activity(world.anna, world.channel)
    async with pages(activity) as new:
        anna = new()
        await anna.sign_in(driver, world.anna, instance)
        async with anna.stream() as scenes:
            empty = await scenes.until(lambda s: s["state"] == "none", "no table")
            assert (await anna.act(empty, action(empty, "open", "Open a Tonk table")))[0] == 200
            scene = await scenes.until(lambda s: s["state"] == "lobby", "the lobby")
            assert (await anna.act(scene, action(scene, "computer")))[0] == 200
            scene = await scenes.until(lambda s: len(s["seats"]) == 2, "a computer seated")
            assert (await anna.act(scene, action(scene, "start")))[0] == 200
            scene = await scenes.until(lambda s: s["state"] != "lobby", "the deal")
            assert {p["kind"] for p in scene["piles"]} >= {"stock", "discard"}
            turns = 0
            while scene["state"] == "playing":
                moves = [a for a in scene["actions"] if a["kind"] == "move"]
                if moves:
                    # draw and discard a few turns, then drop
                    turns += 1
                    drop = next((a for a in moves if a["label"].startswith("Drop")), None)
                    chosen = next((a for a in moves if a["target"] in ("stock", "discard")),
                                  moves[0])
                    if turns >= 6 and drop is not None:
                        chosen = drop
                    status, answer = await anna.act(scene, chosen["id"])
                    assert status == 200, answer
                scene = await scenes.until(
                    lambda s, v=scene["version"]: s["version"] > v, "the next move", within=30)
            assert scene["state"] == "between" and scene["result"]
            assert any(a["label"] == "Deal next hand" for a in scene["actions"])
    service = bot_runner.bot.service  # type: ignore[union-attr]
    balances = await service.balances(world.guild.id, "tonk", scene["table"])
    assert sum(b.net for b in balances) == 0 and any(b.net for b in balances)
    for balance in balances:
        line = next(r for r in scene["result"] if r.startswith(f"{balance.name} — "))
        assert line.endswith(signed("en", balance.net)), (line, balance)


async def test_the_page_its_files_and_the_sdk_are_served_with_a_csp_and_nothing_above_them(
    activity: int, fake: FakeDiscord
) -> None:
    async with aiohttp.ClientSession() as http:
        base = f"http://127.0.0.1:{activity}"
        async with http.get(base + "/") as page:
            assert page.status == 200 and page.content_type == "text/html"
            csp = page.headers["Content-Security-Policy"]
            assert "default-src 'self'" in csp and "object-src 'none'" in csp
            html = await page.text()
        async with http.get(base + "/sdk/index.mjs") as sdk:
            assert sdk.status == 200 and sdk.content_type == "text/javascript"
        async with http.get(base + "/sdk/LICENSE.md") as licence:
            assert licence.status == 200 and "MIT" in await licence.text()
        for escape in ("/static/../server.py", "/static/%2e%2e/server.py",
                       "/sdk/../../../../server.py", "/static/nothing.js"):
            async with http.get(base + escape) as answer:
                assert answer.status == 404, escape
        async with http.get(base + "/api/config", headers={"Accept-Language": "fi"}) as config:
            body = await config.json()
        assert body["words"]["your_hand"] == tr("fi", "Your hand")
    assert fake.client_secret not in html and fake.client_secret not in str(body)


async def test_a_game_registered_by_a_test_plays_in_the_activity_with_no_host_change(
    world: World, driver: Driver, bot_runner: BotRunner
) -> None:
    driver.enable_activities()
    bot_runner.activity = True
    bot_runner.games = GAMES.with_game(HIGHCARD)
    bot = await bot_runner.start()
    assert bot.activity_server is not None
    instance = await driver.launch_activity(world.anna, world.channel)
    driver.join_activity(world.bo, instance)
    async with pages(bot.activity_server.port) as new:
        anna, bo = new(), new()
        await anna.sign_in(driver, world.anna, instance)
        await bo.sign_in(driver, world.bo, instance)
        async with anna.stream() as annas, bo.stream() as bos:
            empty = await annas.until(lambda s: s["state"] == "none", "no table")
            assert (await anna.act(empty, action(empty, "open", "Open a High card table")))[0] \
                == 200
            lobby = await bos.until(lambda s: s["state"] == "lobby", "the lobby")
            assert (await bo.act(lobby, action(lobby, "join")))[0] == 200
            scene = await annas.until(lambda s: len(s["seats"]) == 2, "Bo seated")
            assert (await anna.act(scene, action(scene, "start")))[0] == 200
            for _ in range(2):
                scene = await annas.until(lambda s: s["state"] != "lobby", "the game")
                page, stream = (anna, annas) if mover(scene) == str(world.anna.id) else (bo, bos)
                mine = await stream.until(lambda s, v=scene["version"]: s["version"] >= v,
                                          "the mover's scene")
                assert (await page.act(mine, action(mine, "move", "Show")))[0] == 200
                scene = await annas.until(lambda s, v=scene["version"]: s["version"] > v,
                                          "the card shown")
            assert scene["state"] == "over" and len(scene["piles"][0]["cards"]) == 2


async def test_a_session_expires_and_its_stream_ends(
    world: World, driver: Driver, bot_runner: BotRunner
) -> None:
    driver.enable_activities()
    bot_runner.activity = True
    bot_runner.clock = clock = FakeClock()
    bot = await bot_runner.start()
    assert bot.activity_server is not None
    instance = await driver.launch_activity(world.anna, world.channel)
    async with pages(bot.activity_server.port) as new:
        anna = new()
        session = await anna.sign_in(driver, world.anna, instance)
        assert session["expires_at"] == int(clock.now()) + LIFETIME
        async with anna.stream() as scenes:
            scene = await scenes.until(lambda s: s["state"] == "none", "no table")
            clock.advance(LIFETIME)
            expired = await anna.act(scene, action(scene, "open"))
            assert expired[0] == 401 and expired[1]["error"]
            # the stream ends at its next wake-up: a change in the channel
            await driver.slash(world.bo, world.channel, "dubb start")
            with pytest.raises(AssertionError, match="the stream ended"):
                await scenes.until(lambda s: False, "nothing")
        async with anna.http.get(anna.base + "/api/stream",
                                 params={"session": session["session"]}) as again:
            assert again.status == 401
