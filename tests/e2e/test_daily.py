"""The daily deal end to end (issue 46, docs/daily.md): six people on two servers play the same
day's Dubb daily through the fake Discord with a fake clock, privately, and Tonk's too; the
same moves get the same computer replies; results against the stored baseline; one attempt a
day; an abandoned daily scored at the day's end; the day changes, streaks move and yesterday's
secret is shown and checks."""

from __future__ import annotations

import asyncio
import json
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bot.daily import service as daily_service
from bot.daily.baseline import compute_baseline
from bot.daily.day import day_end, day_of
from bot.daily.play import PERSON
from bot.daily.secret import day_commitment
from bot.discord import daily as daily_room
from bot.fakediscord import Driver
from bot.fakediscord.model import Channel, User
from bot.i18n import ordinal, signed
from bot.storage import DailyAttempt, Finish
from tests.e2e.automation import start_clocked
from tests.e2e.conftest import BotRunner, ErrorLog, World
from tests.e2e.exported import files_of, verifies_and_tampering_fails
from tests.e2e.table_card import card
from tests.fakeclock import START, FakeClock
from tests.forks import run

pytestmark = pytest.mark.e2e

DAY = date(2026, 1, 1)
DEFERRED_UPDATE = 6
SECRET = bytes(range(32))
BASELINE_WAIT = 90.0
"""Seconds the move that ends a daily may take: the expert's baseline (a few seconds of CPU,
more on a loaded machine) is computed then."""


def runner_day(clock: FakeClock) -> date:
    return day_of(clock.now())


async def _attempt(runner: BotRunner, kind: str, user: User, day: date = DAY) -> DailyAttempt:
    assert runner.bot is not None
    found = await runner.bot.store.daily.attempt(kind, day.isoformat(), user.id)
    assert found is not None
    return found


async def _fix_secret(runner: BotRunner, kind: str, secret: bytes, day: date = DAY) -> None:
    """Store the day's secret before anyone asks for it, so the test plays a known deal."""
    assert runner.bot is not None
    await runner.bot.store.daily.day_secret(kind, day.isoformat(), secret.hex(),
                                            day_commitment(kind, day, secret), START)


async def _play(driver: Driver, user: User, channel: Channel, kind: str, *,
                pick: str = "first", stop_after: int | None = None) -> list[str]:
    """Play ``user``'s daily by its move menu (the first move, or the last), returning the
    daily message's content after every move; ``stop_after``: walk away after that many."""
    opened = await driver.slash(user, channel, f"{kind} daily")
    assert opened.ephemeral, opened.content
    message = opened.message
    assert message is not None
    seen = [message.content]
    moves = 0
    while message.selects():
        if stop_after is not None and moves >= stop_after:
            break
        options = message.selects()[0]["options"]
        value = options[0]["value"] if pick == "first" else options[-1]["value"]
        before, message_id = message.content, message.id
        done = await driver.select(user, message, [value])
        assert not done.failed
        updated = done.message
        assert updated is not None and updated.id == message.id and updated.ephemeral
        if done.type == DEFERRED_UPDATE:
            # acknowledged first (the move that ends a daily waits for the baseline): the
            # edit follows
            await driver.wait_for(partial(_edited, driver, message_id, before),
                                  within=BASELINE_WAIT, what="the daily after the move")
            updated = driver.fake.messages[message_id]
        message = updated
        seen.append(message.content)
        moves += 1
    return seen


def _unranked(seen: list[str]) -> list[str]:
    """The messages without the percentile line, which depends on who finished before."""
    return ["\n".join(line for line in text.splitlines() if not line.startswith("Better than"))
            for text in seen]


def _edited(driver: Driver, message_id: int, before: str) -> bool:
    return driver.fake.messages[message_id].content != before


def _result_line(attempt: DailyAttempt, expert: int) -> str:
    assert attempt.outcome is not None and attempt.score is not None
    return (f"You finished {ordinal('en', attempt.outcome)}; the expert finished "
            f"{ordinal('en', expert)}: {signed('en', attempt.score)}.")


async def test_six_people_on_two_servers_play_the_same_dubb_daily(
        bot_runner: BotRunner, driver: Driver, world: World, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    computed: list[tuple[str, date]] = []

    def counting(game, day, secret, budget):  # type: ignore[no-untyped-def]
        computed.append((game.kind, day))
        return compute_baseline(game, day, secret, budget)

    monkeypatch.setattr(daily_service, "compute_baseline", counting)
    north = driver.add_guild("North")
    hall = driver.add_channel(north, "hall")
    dag, eva, fia = (driver.add_user(n, guilds=[north]) for n in ("Dag", "Eva", "Fia"))
    anna, bo, cem = world.anna, world.bo, world.cem
    clock = await start_clocked(bot_runner)
    assert runner_day(clock) == DAY
    await _fix_secret(bot_runner, "dubb", SECRET)
    everyone = [anna, bo, cem, dag, eva, fia]
    where = {u.id: (world.channel if u in (anna, bo, cem) else hall) for u in everyone}

    # Anna, Dag and Eva make the same moves; Bo and Fia others; Cem walks away after one
    same = [await _play(driver, u, where[u.id], "dubb") for u in (anna, dag, eva)]
    assert _unranked(same[0]) == _unranked(same[1]) == _unranked(same[2])
    # Anna finished first, alone; Dag and Eva tie with those before them, beating nobody
    assert "Better than" not in same[0][-1]
    assert all("Better than 0% of the others who played this deal." in seen[-1]
               for seen in same[1:])
    others = [await _play(driver, u, where[u.id], "dubb", pick="last") for u in (bo, fia)]
    left = await _play(driver, cem, where[cem.id], "dubb", stop_after=1)
    # everyone was dealt the same first hand, with the same commitment shown
    firsts = [seen[0] for seen in (*same, *others, left)]
    assert len(set(firsts)) == 1
    assert "Commitment to today's deal: `" in firsts[0]
    # every daily message was private to its player
    for user in everyone:
        for message in driver.ephemerals(user, where[user.id]):
            assert not any(message.visible_to(o.id) for o in everyone if o is not user)
    assert computed == [("dubb", DAY)]

    assert bot_runner.bot is not None
    store = bot_runner.bot.store
    base = await store.daily.baseline("dubb", DAY.isoformat())
    assert base is not None
    for user, seen in zip((anna, dag, eva, bo, fia), (*same, *others), strict=True):
        attempt = await _attempt(bot_runner, "dubb", user)
        assert attempt.how == "played" and attempt.score == base.outcome - attempt.outcome
        assert _result_line(attempt, base.outcome) in seen[-1]
        assert "Streak: 1 day in a row." in seen[-1]
    assert {(await _attempt(bot_runner, "dubb", u)).guild_id for u in (anna, dag)} == {
        world.guild.id, north.id}

    # the server's board of the day: the finished dailies started here, best score first
    here = sorted([await _attempt(bot_runner, "dubb", u) for u in (anna, bo)],
                  key=lambda a: (-(a.score or 0), a.player_id))
    board = await driver.slash(bo, world.channel, "dubb daily", {"board": "today"})
    assert board.message is not None and not board.ephemeral
    embed = card(board.message)
    assert embed["title"] == "Dubb daily — today"
    assert [line.split("**")[1] for line in embed["description"].splitlines()] == [
        a.name for a in here]
    assert embed["description"].splitlines()[0].startswith(
        f"1. **{here[0].name}** {signed('en', here[0].score or 0)} · 1 daily · average")

    # the result, shared in the channel: who, the day, the score and the streak, no card
    anna_result = await _attempt(bot_runner, "dubb", anna)
    finished = [m for m in driver.ephemerals(anna, world.channel)
                if any(b.get("label") == "Share result" for b in m.buttons())]
    assert len(finished) == 1
    shared = await driver.click(anna, finished[0], "Share result")
    assert shared.message is not None and not shared.ephemeral
    assert all(shared.message.visible_to(u.id) for u in (bo, cem))
    assert shared.content == (
        f"Anna played the Dubb daily of 2026-01-01: {signed('en', anna_result.score or 0)} "
        "against the expert. Streak: 1 day in a row.")

    # her game and the expert's in her seat, replayed move by move, privately
    replay = await driver.click(anna, finished[0], "Replay the expert's game")
    assert replay.message is not None and replay.ephemeral
    assert replay.content == (f"Replay: the expert's game in your seat, move 0 of "
                              f"{len(base.moves)}.")
    step = await driver.click(anna, replay.message, "Next ▶")
    assert step.message is not None and step.content.endswith(f"move 1 of {len(base.moves)}.")
    assert "The expert" in step.message.text
    mine = await driver.click(anna, step.message, "Replay your game")
    assert mine.message is not None and mine.content == (
        f"Replay: your game, move 0 of {anna_result.move_count}.")

    # one attempt a day
    again = await driver.slash(anna, world.channel, "dubb daily")
    assert again.ephemeral and again.message is not None and not again.message.selects()
    assert again.content.startswith("You have played today's Dubb daily.")
    assert [b["label"] for b in again.message.buttons()] == [
        "Share result", "Replay your game", "Replay the expert's game"]

    # the day ends: Cem's daily is scored as if each of his turns timed out (last place)
    clock.advance(day_end(DAY) - clock.now() + 60)
    next_day = await _play(driver, anna, world.channel, "dubb")
    cem_attempt = await _attempt(bot_runner, "dubb", cem)
    assert cem_attempt.how == "timed_out" and cem_attempt.outcome == 4
    assert cem_attempt.score == base.outcome - 4
    secret = await store.daily.known_day("dubb", DAY.isoformat())
    assert secret is not None
    assert f"The secret of {DAY.isoformat()}'s deal, now out: `{secret.secret}`" in next_day[0]
    assert "Streak: 2 days in a row." in next_day[-1]
    assert computed == [("dubb", DAY), ("dubb", date(2026, 1, 2))]

    # all time, Cem's daily scored at the day's end counts too
    ever = await driver.slash(anna, world.channel, "dubb daily", {"board": "all"})
    assert ever.message is not None
    assert "Cem" in card(ever.message)["description"]

    # yesterday's daily, exported, checks from the file alone; a tampered one does not
    exported = await driver.slash(anna, world.channel, "dubb daily", {"export": True})
    files = files_of(exported)
    assert list(files) == [f"dubb-daily-{DAY.isoformat()}.json"]
    data = next(iter(files.values()))
    await verifies_and_tampering_fails(data, tmp_path, "daily.json", payment=False)
    path = tmp_path / "ops.json"
    path.write_bytes(data)
    checked = await asyncio.to_thread(run, "bot.ops", ["verify", str(path)], cwd=tmp_path,
                                      timeout=120)
    assert checked.returncode == 0, checked.stdout
    assert "ok   daily of 2026-01-01: the secret matches the commitment" in checked.stdout
    forged = json.loads(data)
    forged[0]["daily"]["secret"] = "00" * 32
    path.write_text(json.dumps(forged))
    checked = await asyncio.to_thread(run, "bot.ops", ["verify", str(path)], cwd=tmp_path,
                                      timeout=120)
    assert checked.returncode == 1
    assert "FAIL daily of 2026-01-01: the secret matches the commitment" in checked.stdout


async def test_tonk_daily_same_moves_same_replies_in_any_server(
        bot_runner: BotRunner, driver: Driver, world: World) -> None:
    north = driver.add_guild("North")
    hall = driver.add_channel(north, "hall")
    dag = driver.add_user("Dag", guilds=[north])
    clock = await start_clocked(bot_runner)
    await _fix_secret(bot_runner, "tonk", SECRET)
    # Anna makes two moves and looks away past the interaction's 15 minutes: /tonk daily again
    # shows her daily where she left it, in a new message, and she plays it out from there
    begun = await _play(driver, world.anna, world.channel, "tonk", stop_after=2)
    clock.advance(16 * 60)
    rest = await _play(driver, world.anna, world.channel, "tonk")
    assert rest[0] == begun[-1]
    anna_seen = begun + rest[1:]
    dag_seen = await _play(driver, dag, hall, "tonk")
    assert _unranked(anna_seen) == _unranked(dag_seen)
    assert "Better than 0% of the others who played this deal." in dag_seen[-1]
    anna = await _attempt(bot_runner, "tonk", world.anna)
    assert anna.moves == (await _attempt(bot_runner, "tonk", dag)).moves
    assert bot_runner.bot is not None
    base = await bot_runner.bot.store.daily.baseline("tonk", DAY.isoformat())
    assert base is not None and anna.score == anna.outcome - base.outcome
    assert (f"You ended on {signed('en', anna.outcome or 0)} chips; the expert on "
            f"{signed('en', base.outcome)}: {signed('en', anna.score or 0)}.") in anna_seen[-1]
    # three hands were dealt, the dealer moving on
    deals = [m for m in anna.moves if m.get("table")]
    assert len(deals) == 2



async def test_the_daily_speaks_the_players_language(
        bot_runner: BotRunner, driver: Driver, world: World) -> None:
    await start_clocked(bot_runner)
    for locale, words in (("sv-SE", "**Dagens giv i Dubb, 2026-01-01**"),
                          ("da", "**Dagens spil i Dubb, 2026-01-01**"),
                          ("fi", "**Päivän peli: Dubb, 2026-01-01**"),
                          ("no", "**Dagens spill i Dubb, 2026-01-01**")):
        player = driver.add_user(f"Player {locale}", guilds=[world.guild], locale=locale)
        opened = await driver.slash(player, world.channel, "dubb daily")
        assert opened.ephemeral and opened.content.startswith(words), opened.content


async def test_hiding_from_the_boards_is_answered_in_the_players_language(
        bot_runner: BotRunner, driver: Driver, world: World) -> None:
    await start_clocked(bot_runner)
    for locale, words in (("sv-SE", "Nu syns du inte på någon topplista för dagens giv"),
                          ("da", "Nu er du skjult på alle toplister for dagens spil"),
                          ("fi", "Et nyt näy yhdelläkään päivän pelin tulostaululla"),
                          ("no", "Nå er du skjult på alle topplister for dagens spill")):
        player = driver.add_user(f"Player {locale}", guilds=[world.guild], locale=locale)
        hidden = await driver.slash(player, world.channel, "dubb daily", {"hide": True})
        assert hidden.ephemeral and hidden.content.startswith(words), hidden.content
        assert bot_runner.bot is not None
        assert await bot_runner.bot.store.daily.hidden(player.id)


async def test_moves_beyond_one_menu_are_paged(
        bot_runner: BotRunner, driver: Driver, world: World,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Discord's menus hold 25 options; a page of one shows the paging with any hand
    monkeypatch.setattr(daily_room, "PAGE_SIZE", 1)
    await start_clocked(bot_runner)
    await _fix_secret(bot_runner, "dubb", SECRET)
    opened = await driver.slash(world.anna, world.channel, "dubb daily")
    first = opened.message
    assert first is not None and len(first.selects()[0]["options"]) == 1
    assert first.button("◀ Earlier moves").get("disabled")
    first_label = first.selects()[0]["options"][0]["label"]
    shown = await driver.click(world.anna, first, "More moves ▶")
    second = shown.message
    assert second is not None and second.id == first.id
    option = second.selects()[0]["options"][0]
    assert option["value"] == "1"
    assert option["label"] != first_label
    moved = await driver.select(world.anna, second, ["1"])
    assert moved.message is not None and not moved.failed
    attempt = await _attempt(bot_runner, "dubb", world.anna)
    assert any(m["player"] == 1 for m in attempt.moves)


async def test_boards_across_servers_hiding_and_percentiles(
        bot_runner: BotRunner, driver: Driver, world: World) -> None:
    """Two servers, only North opted in: the board across servers shows North's players only;
    a person who hides is on no board; everyone's percentile among the day's players is exact
    (the dailies are stored finished, with the day's baseline, so no game is played here)."""
    north = driver.add_guild("North")
    hall = driver.add_channel(north, "hall")
    olga = driver.add_user("Olga", admin=True, guilds=[north])
    dag, eva = (driver.add_user(n, guilds=[north]) for n in ("Dag", "Eva"))
    anna, bo = world.anna, world.bo
    await start_clocked(bot_runner)
    await _fix_secret(bot_runner, "dubb", SECRET)
    assert bot_runner.bot is not None
    store = bot_runner.bot.store
    day = DAY.isoformat()
    assert await store.daily.claim_baseline("dubb", day, START, 600.0)
    await store.daily.store_baseline("dubb", day, 3, [], 0.0, START)
    scores = {anna.id: 2, bo.id: 1, dag.id: 1, eva.id: -2}
    for user, guild in ((anna, world.guild), (bo, world.guild), (dag, north), (eva, north)):
        await store.daily.start_attempt("dubb", day, user.id, guild.id,
                                        user.global_name or user.username, [], START)
        assert await store.daily.save_attempt(
            "dubb", day, user.id, counted=0, moves=[], now=START,
            finish=Finish("played", 3 - scores[user.id], scores[user.id]))

    def names(answer: Any) -> list[str]:
        assert answer.message is not None and not answer.ephemeral
        description = card(answer.message)["description"]
        return [line.split("**")[1] for line in description.splitlines() if "**" in line]

    # off by default: nobody is on the board across servers
    empty = await driver.slash(anna, world.channel, "dubb daily",
                               {"board": "today", "everywhere": True})
    assert names(empty) == []
    assert empty.message is not None and card(empty.message)["description"] == (
        "Nobody on the servers that share their boards has finished a daily yet.")
    refused = await driver.slash(dag, hall, "kortbord settings", {"daily_everywhere": True})
    assert refused.ephemeral and "Manage Server" in refused.content
    opted = await driver.slash(olga, hall, "kortbord settings", {"daily_everywhere": True})
    assert "• Players on the daily boards across servers: on" in opted.content

    # asked from the other server, it shows North's players only, best first
    across = await driver.slash(anna, world.channel, "dubb daily",
                                {"board": "today", "everywhere": True})
    assert across.message is not None
    assert card(across.message)["title"] == "Dubb daily across servers — today"
    assert names(across) == ["Dag", "Eva"]
    assert "You" not in str(card(across.message).get("fields"))

    # Dag hides himself: on no board, his server's own included, until he shows himself again
    hidden = await driver.slash(dag, hall, "dubb daily", {"hide": True})
    assert hidden.ephemeral and hidden.content.startswith(
        "You are hidden from every daily board now")
    assert names(await driver.slash(eva, hall, "dubb daily",
                                    {"board": "all", "everywhere": True})) == ["Eva"]
    assert names(await driver.slash(eva, hall, "dubb daily", {"board": "today"})) == ["Eva"]
    assert names(await driver.slash(anna, world.channel, "dubb daily",
                                    {"board": "today"})) == ["Anna", "Bo"]
    shown = await driver.slash(dag, hall, "dubb daily", {"hide": False})
    assert shown.ephemeral and shown.content == "You are on the daily boards again."
    assert names(await driver.slash(eva, hall, "dubb daily", {"board": "week"})) == [
        "Dag", "Eva"]

    # percentiles among everyone who played the deal, on every server, hidden or not
    await driver.slash(bo, world.channel, "dubb daily", {"hide": True})
    expected = ((anna, 100), (bo, 33), (dag, 33), (eva, 0))
    for user, percent in expected:
        channel = world.channel if user in (anna, bo) else hall
        result = await driver.slash(user, channel, "dubb daily")
        assert result.ephemeral and result.content.startswith("You have played today's")
        assert (f"Better than {percent}% of the others who played this deal."
                in result.content), result.content


async def test_a_daily_move_whose_answer_fails_says_the_move_was_made(
        bot_runner: BotRunner, driver: Driver, world: World, bot_errors: ErrorLog,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A daily move is stored before it is answered: an answer that fails (here the bot's own
    edit of the daily, once) must not tell the person that nothing changed. They are told that
    their move was made, and any button of their daily shows where it stands."""
    await start_clocked(bot_runner)
    await _fix_secret(bot_runner, "dubb", SECRET)
    opened = await driver.slash(world.anna, world.channel, "dubb daily")
    message = opened.message
    assert message is not None
    update = daily_room.update_clicked
    failed: list[object] = []

    async def fails_once(*args: Any, **fields: Any) -> None:
        if not failed:
            failed.append(args)
            raise RuntimeError("failed once, for the test")
        await update(*args, **fields)

    monkeypatch.setattr(daily_room, "update_clicked", fails_once)
    value = message.selects()[0]["options"][0]["value"]
    answer = await driver.select(world.anna, message, [value])
    assert failed and answer.ephemeral
    assert "your move was made" in answer.content and "Nothing was changed" not in answer.content
    attempt = await _attempt(bot_runner, "dubb", world.anna)
    assert any(m["player"] == PERSON for m in attempt.moves), attempt.moves
    # her daily still shows the move before it; its menu answers with where it stands now
    again = await driver.select(world.anna, message, [value])
    assert again.message is not None and again.message.id == message.id
    assert "Your daily moved on since this was shown" in again.message.content
    assert (await _attempt(bot_runner, "dubb", world.anna)).moves == attempt.moves
    [logged] = bot_errors.records
    assert "interaction failed" in logged.getMessage()
    bot_errors.expect()
