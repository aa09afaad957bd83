"""The daily deal on a real database (SQLite and PostgreSQL), through ``DailyService`` with a
clock the test moves: one secret a day whoever asks first (two processes' stores included), the
next day committed before it starts, the baseline computed once however many ask at the same
moment, a claim on it held while renewed and taken over from a killed process within its lease,
one attempt a person and day that resumes where it was left, a move stored once, an abandoned
daily scored at the day's end, streaks and the day's results; two processes agree on the day and
compute its baseline once."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from datetime import date, timedelta

import pytest

from bot.daily import service as daily_service
from bot.daily.baseline import compute_baseline
from bot.daily.day import day_end, day_of, day_start
from bot.daily.play import PERSON
from bot.daily.secret import day_commitment
from bot.daily.service import (
    DailyMovedError,
    DailyOverError,
    DailyPlayedError,
    DailyService,
)
from bot.gamekit.search import Budget
from bot.games.registry import GAMES
from bot.storage import DailyBaseline, DailyStanding, Finish, Store
from tests.fakeclock import FakeClock as SleepingClock
from tests.store.conftest import FakeClock
from tests.store.helpers import run_together

QUICK = Budget(iterations=6, seconds=float("inf"))
GUILD = 1 << 40
ANNA, BO, CEM = 1001, 1002, 1003


def _service(store: Store, clock: FakeClock) -> DailyService:
    return DailyService(store, GAMES, clock, QUICK)


def _sleeping_service(store: Store, clock: SleepingClock) -> DailyService:
    """A service whose waits (looking again, renewing its claim) are on the test's clock."""
    return DailyService(store, GAMES, clock.now, QUICK,
                        sleep=lambda seconds: clock.sleep_until(clock.now() + seconds))


async def _standings(service: DailyService, kind: str, span: str, place: int | None
                     ) -> list[DailyStanding]:
    return (await service.board(kind, span, place)).standings


def _first_legal(daily_game: object) -> object:
    return daily_game.engine.legal_moves(PERSON)[0]  # type: ignore[attr-defined]


async def test_one_secret_a_day_and_the_next_committed_before_it_starts(
        db_url: str, clock: FakeClock) -> None:
    one, two = await Store.open(db_url), await Store.open(db_url)
    try:
        first, second = _service(one, clock), _service(two, clock)
        today = first.today()
        a, b = await asyncio.gather(first.day("dubb", today), second.day("dubb", today))
        assert a == b
        assert a.commitment == day_commitment("dubb", today, bytes.fromhex(a.secret))
        tomorrow = await one.daily.known_day("dubb", (today + timedelta(days=1)).isoformat())
        assert tomorrow is not None and tomorrow.secret != a.secret
        assert (await first.day("tonk", today)).secret != a.secret
        # the secret is shown only once the day is over
        assert await first.revealed("dubb", today) is None
        clock.now = day_end(today)
        assert (await second.revealed("dubb", today)) == a
    finally:
        await one.close()
        await two.close()


async def test_the_baseline_is_computed_once_however_many_ask_at_once(
        db_url: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    computed: list[str] = []

    def counting(game, day, secret, budget):  # type: ignore[no-untyped-def]
        computed.append(game.kind)
        return compute_baseline(game, day, secret, budget)

    monkeypatch.setattr(daily_service, "compute_baseline", counting)
    one, two = await Store.open(db_url), await Store.open(db_url)
    try:
        services = [_service(one, clock), _service(two, clock)]
        today = services[0].today()
        game = GAMES["tonk"]
        found = await asyncio.gather(*(services[i % 2].baseline(game, today)
                                       for i in range(8)))
        assert computed == ["tonk"]
        assert len({(b.outcome, str(b.moves)) for b in found}) == 1
        secret = bytes.fromhex((await one.daily.known_day("tonk", today.isoformat())).secret)
        assert found[0].outcome == compute_baseline(game, today, secret, QUICK).outcome
    finally:
        await one.close()
        await two.close()


async def test_a_claim_holds_while_renewed_and_is_taken_over_once_it_is_not(
        store: Store, clock: FakeClock) -> None:
    day, at = day_of(clock.now).isoformat(), clock.now
    assert await store.daily.claim_baseline("dubb", day, at, 20.0)
    assert not await store.daily.claim_baseline("dubb", day, at + 10, 20.0)
    # renewed, it holds for the lease from the renewal however old the claim is
    assert await store.daily.renew_baseline("dubb", day, at, at + 15)
    assert not await store.daily.claim_baseline("dubb", day, at + 30, 20.0)
    # not renewed for the lease: its process died, and the claim is taken over
    assert await store.daily.claim_baseline("dubb", day, at + 36, 20.0)
    assert not await store.daily.renew_baseline("dubb", day, at + 15, at + 37)
    # a claim given up is free at once; the dead process's token releases nothing
    await store.daily.release_baseline("dubb", day, at + 15)
    assert not await store.daily.claim_baseline("dubb", day, at + 37, 20.0)
    await store.daily.release_baseline("dubb", day, at + 36)
    assert await store.daily.claim_baseline("dubb", day, at + 37, 20.0)
    await store.daily.store_baseline("dubb", day, 2, [], 0.5, at + 38)
    # a stored baseline is neither claimed, renewed nor released again
    assert not await store.daily.claim_baseline("dubb", day, at + 5000, 20.0)
    assert not await store.daily.renew_baseline("dubb", day, at + 37, at + 39)
    await store.daily.release_baseline("dubb", day, at + 37)
    stored = await store.daily.baseline("dubb", day)
    assert stored is not None and stored.outcome == 2


async def test_a_claim_left_by_a_killed_process_is_taken_over_within_the_lease(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process claimed the day's baseline and was killed before storing it, so its claim is
    never renewed. The restarted bot, asking at once, waits for that claim only until its lease
    runs out (seconds, not ten minutes), then computes the baseline itself, once."""
    clock = SleepingClock()
    computed: list[float] = []

    def counting(game, day, secret, budget):  # type: ignore[no-untyped-def]
        computed.append(clock.now())
        return compute_baseline(game, day, secret, budget)

    monkeypatch.setattr(daily_service, "compute_baseline", counting)
    game, killed_at = GAMES["tonk"], clock.now()
    today = day_of(killed_at)
    assert await store.daily.claim_baseline("tonk", today.isoformat(), killed_at, 600.0)
    restarted = _sleeping_service(store, clock)
    asking = asyncio.create_task(restarted.baseline(game, today))
    # it looks again every POLL; once it has claimed, its renewal waits longer than that
    while await clock.someone_sleeping() <= clock.now() + daily_service.POLL:
        assert clock.now() - killed_at < 30, "still waiting for a dead process's claim"
        clock.advance(daily_service.POLL)
    found = await asking
    assert len(computed) == 1
    assert (daily_service.CLAIM_LEASE <= computed[0] - killed_at
            <= daily_service.CLAIM_LEASE + daily_service.POLL)
    secret = bytes.fromhex((await store.daily.known_day("tonk", today.isoformat())).secret)
    assert found == await store.daily.baseline("tonk", today.isoformat())
    assert found.outcome == compute_baseline(game, today, secret, QUICK).outcome


async def test_a_process_computing_the_baseline_keeps_its_claim_however_long_it_takes(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process computing the baseline renews its claim: a process asking a minute later
    (three leases) waits for it rather than computing too."""
    clock = SleepingClock()
    computed: list[str] = []
    started, finish = threading.Event(), threading.Event()

    def slow(game, day, secret, budget):  # type: ignore[no-untyped-def]
        computed.append(game.kind)
        if len(computed) == 1:
            started.set()
            finish.wait()
        return compute_baseline(game, day, secret, budget)

    monkeypatch.setattr(daily_service, "compute_baseline", slow)
    one, two = await Store.open(db_url), await Store.open(db_url)
    asking: list[asyncio.Task[DailyBaseline]] = []
    try:
        older, newer = _sleeping_service(one, clock), _sleeping_service(two, clock)
        game, today = GAMES["tonk"], day_of(clock.now())
        computing = asyncio.create_task(older.baseline(game, today))
        asking.append(computing)
        # the search is under way (in its thread) before its minute goes by
        assert await asyncio.to_thread(started.wait, 60)
        for _ in range(12):
            wake = await clock.someone_sleeping()  # its renewal waits for its time
            clock.advance(wake - clock.now())
        await clock.someone_sleeping()  # and has renewed the claim
        waiting = asyncio.create_task(newer.baseline(game, today))
        asking.append(waiting)
        polled = asyncio.create_task(clock.someone_sleeping(within=daily_service.POLL))
        await asyncio.wait({waiting, polled}, return_when=asyncio.FIRST_COMPLETED)
        assert computed == ["tonk"] and not waiting.done()
        finish.set()
        first = await computing
        clock.advance(daily_service.POLL)
        assert await waiting == first
        assert computed == ["tonk"]
    finally:
        finish.set()
        for task in asking:  # none left using a store once it is closed
            task.cancel()
        await asyncio.gather(*asking, return_exceptions=True)
        await one.close()
        await two.close()


async def test_a_computation_given_up_releases_its_claim(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot stopping while it computes the baseline (its call cancelled) gives up its claim:
    the next to ask computes it at once."""
    clock = SleepingClock()
    finish = threading.Event()

    def blocked(game, day, secret, budget):  # type: ignore[no-untyped-def]
        finish.wait()
        return compute_baseline(game, day, secret, budget)

    monkeypatch.setattr(daily_service, "compute_baseline", blocked)
    today = day_of(clock.now())
    try:
        asking = asyncio.create_task(_sleeping_service(store, clock).baseline(
            GAMES["dubb"], today))
        await clock.someone_sleeping()  # computing, its renewal waiting
        asking.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asking
    finally:
        finish.set()
    assert await store.daily.claim_baseline("dubb", today.isoformat(), clock.now(), 600.0)


async def test_one_attempt_a_day_resumed_then_refused_once_over(
        store: Store, clock: FakeClock) -> None:
    service = _service(store, clock)
    game = GAMES["dubb"]
    daily = await service.start(game, ANNA, GUILD, "Anna")
    assert daily.attempt.guild_id == GUILD and not daily.attempt.finished
    # starting again (another server, later) resumes the same daily
    clock.advance(3600)
    again = await service.start(game, ANNA, GUILD + 1, "Anna")
    assert again.attempt.started_at == daily.attempt.started_at
    assert again.game.moves_record() == daily.game.moves_record()
    # the same first hand for another person
    bo = await service.start(game, BO, GUILD, "Bo")
    assert bo.game.engine.hand(PERSON) == daily.game.engine.hand(PERSON)
    day = date.fromisoformat(daily.attempt.day)
    while True:
        now = await service.start(game, ANNA, GUILD, "Anna")
        done = await service.play(game, ANNA, day, _first_legal(now.game))
        if done.attempt.finished:
            break
    attempt = done.attempt
    base = await service.baseline(game, day)
    assert attempt.how == "played"
    assert attempt.outcome == done.game.outcome()
    assert attempt.score == base.outcome - attempt.outcome
    with pytest.raises(DailyPlayedError):
        await service.start(game, ANNA, GUILD, "Anna")
    with pytest.raises(DailyOverError):
        await service.play(game, ANNA, day, _first_legal(bo.game))


async def test_a_move_read_before_another_is_stored_once(
        store: Store, clock: FakeClock) -> None:
    service = _service(store, clock)
    game = GAMES["tonk"]
    daily = await service.start(game, ANNA, GUILD, "Anna")
    move = _first_legal(daily.game)
    a = daily.attempt
    daily.game.play(move)
    assert await store.daily.save_attempt(a.kind, a.day, ANNA, counted=a.move_count,
                                          moves=daily.game.moves_record(), now=clock.now)
    assert not await store.daily.save_attempt(a.kind, a.day, ANNA, counted=a.move_count,
                                              moves=daily.game.moves_record(), now=clock.now)
    with pytest.raises(DailyMovedError):
        await service._save(game, daily, "played")


async def test_an_abandoned_daily_is_scored_at_the_days_end_and_streaks_move(
        store: Store, clock: FakeClock) -> None:
    service = _service(store, clock)
    game = GAMES["dubb"]
    first_day = service.today()
    daily = await service.start(game, ANNA, GUILD, "Anna")
    await service.play(game, ANNA, first_day, _first_legal(daily.game))
    assert await service.streak("dubb", ANNA) == 1
    # the day ends with Anna's daily unfinished
    clock.now = day_end(first_day) + 60
    assert await service.settle() == 1
    attempt = await store.daily.attempt("dubb", first_day.isoformat(), ANNA)
    assert attempt is not None and attempt.how == "timed_out"
    assert attempt.outcome == 4  # removed after three timed-out turns: last
    base = await service.baseline(game, first_day)
    assert attempt.score == base.outcome - 4
    assert await service.settle() == 0
    # yesterday's daily is over; today's streak holds until today's is missed too
    with pytest.raises(DailyOverError):
        await service.play(game, ANNA, first_day, _first_legal(daily.game))
    assert await service.streak("dubb", ANNA) == 1
    await service.start(game, ANNA, GUILD, "Anna")
    assert await service.streak("dubb", ANNA) == 2
    # two days later, with the day between missed
    clock.now = day_start(first_day + timedelta(days=3))
    assert await service.streak("dubb", ANNA) == 0
    # the day's results, best first, this server's or everyone's
    board = await store.daily.day_attempts("dubb", first_day.isoformat(), GUILD)
    assert [a.player_id for a in board] == [ANNA]
    assert await store.daily.day_attempts("dubb", first_day.isoformat(), GUILD + 1) == []


async def test_the_same_moves_get_the_same_replies_for_everyone(
        store: Store, clock: FakeClock) -> None:
    service = _service(store, clock)
    game = GAMES["tonk"]
    day = service.today()
    games = {}
    for who, name in ((ANNA, "Anna"), (BO, "Bo")):
        daily = await service.start(game, who, GUILD, name)
        rng = random.Random(5)
        while not daily.attempt.finished:
            legal = daily.game.engine.legal_moves(PERSON)
            daily = await service.play(game, who, day, legal[rng.randrange(len(legal))])
        games[who] = daily
    assert games[ANNA].attempt.moves == games[BO].attempt.moves
    assert games[ANNA].attempt.score == games[BO].attempt.score


def test_two_processes_agree_on_the_day_and_compute_the_baseline_once(
        db_url: str, clock: FakeClock) -> None:
    async def migrated() -> None:
        await (await Store.open(db_url)).close()

    asyncio.run(migrated())
    # both ask at the same moment
    command = ["tests.store.daily_worker", db_url, str(clock.now)]
    outputs = run_together(command, command)
    answers = [json.loads(out.splitlines()[0]) for out in outputs]
    assert all(out.endswith("DONE\n") for out in outputs)
    assert answers[0]["commitment"] == answers[1]["commitment"]
    assert (answers[0]["outcome"], answers[0]["moves"]) == (answers[1]["outcome"],
                                                            answers[1]["moves"])
    assert sorted(a["computed"] for a in answers) == [0, 1]


async def test_the_servers_board_adds_up_scores_by_span(store: Store, clock: FakeClock) -> None:
    service = _service(store, clock)
    day = service.today()
    for who, name, guild, when, score in (
            (ANNA, "Anna", GUILD, day, 2), (BO, "Bo", GUILD, day, -1),
            (ANNA, "Anna", GUILD, day - timedelta(days=1), -3),
            (CEM, "Cem", GUILD + 1, day, 3)):
        await store.daily.start_attempt("dubb", when.isoformat(), who, guild, name, [],
                                        clock.now)
        assert await store.daily.save_attempt(
            "dubb", when.isoformat(), who, counted=0, moves=[], now=clock.now,
            finish=Finish("played", 1, score))
    today = await _standings(service, "dubb", "today", GUILD)
    assert [(s.name, s.dailies, s.total) for s in today] == [("Anna", 1, 2), ("Bo", 1, -1)]
    ever = await _standings(service, "dubb", "all", GUILD)
    assert [(s.name, s.dailies, s.total) for s in ever] == [("Bo", 1, -1), ("Anna", 2, -1)]
    assert [(s.name, s.total) for s in await _standings(service, "dubb", "today", GUILD + 1)] == [
        ("Cem", 3)]


async def test_boards_give_averages_and_streaks_alike_on_every_backend(
        store: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A board's averages (each person's and the whole board's, from integer sums) and the
    streaks of the people on it, this week and all time; a group DM's dailies make a board of
    their own and none across servers."""
    service = _service(store, clock)
    today = service.today()
    group_dm = 1 << 41
    week = [today - timedelta(days=n) for n in range(today.weekday() + 1)]
    rows = [(ANNA, "Anna", GUILD, today - timedelta(days=n), score)
            for n, score in enumerate((1, 0, -2, 2, 1, 1, 0, -1))]
    rows += [(BO, "Bo", GUILD, today, 3), (BO, "Bo", GUILD, today - timedelta(days=2), -1),
             (CEM, "Cem", group_dm, today, -1), (CEM, "Cem", group_dm, today - timedelta(1), 2)]
    for who, name, place, when, score in rows:
        await store.daily.start_attempt("dubb", when.isoformat(), who, place, name, [],
                                        clock.now)
        assert await store.daily.save_attempt(
            "dubb", when.isoformat(), who, counted=0, moves=[], now=clock.now,
            finish=Finish("played", 1, score))
    await store.set_guild_settings(GUILD, {"daily_everywhere": True}, now=clock.now)

    ever = await service.board("dubb", "all", GUILD)
    assert [(s.name, s.dailies, s.total, s.average) for s in ever.standings] == [
        ("Bo", 2, 2, 1.0), ("Anna", 8, 2, 0.25)]
    assert ever.streaks == {ANNA: 8, BO: 1}
    assert ever.dailies == 10 and ever.average == 0.4
    this_week = await service.board("dubb", "week", GUILD)
    anna_week = sum(score for who, _, _, when, score in rows if who == ANNA and when in week)
    assert next(s for s in this_week.standings if s.player_id == ANNA).total == anna_week
    # the group DM's board is its own, and it is on no board across servers
    group = await service.board("dubb", "all", group_dm)
    assert [(s.name, s.dailies, s.total) for s in group.standings] == [("Cem", 2, 1)]
    assert group.streaks == {CEM: 2} and group.average == 0.5
    across = await service.board("dubb", "all", None, viewer=CEM)
    assert [s.name for s in across.standings] == ["Bo", "Anna"]
    assert CEM not in across.streaks
    # streaks are looked up for the board's top and the viewer, nobody else
    monkeypatch.setattr(daily_service, "BOARD_TOP", 1)
    assert set((await service.board("dubb", "all", GUILD)).streaks) == {BO}
    assert set((await service.board("dubb", "all", GUILD, viewer=ANNA)).streaks) == {BO, ANNA}
    empty = await service.board("tonk", "today", GUILD)
    assert empty.standings == [] and empty.average is None and empty.streaks == {}


async def test_the_board_across_servers_has_only_opted_in_servers_and_nobody_hidden(
        store: Store, clock: FakeClock) -> None:
    """Across servers: only those whose setting opted in; a hidden person is on no board but
    still counts in everyone's percentile, which every store reads alike."""
    service = _service(store, clock)
    day = service.today().isoformat()
    dan = 1004
    for who, name, guild, score in ((ANNA, "Anna", GUILD, 2), (BO, "Bo", GUILD, -1),
                                    (CEM, "Cem", GUILD + 1, 3), (dan, "Dan", GUILD, 0)):
        await store.daily.start_attempt("dubb", day, who, guild, name, [], clock.now)
        assert await store.daily.save_attempt("dubb", day, who, counted=0, moves=[],
                                              now=clock.now, finish=Finish("played", 1, score))
    # nobody opted in yet: the board across servers is empty
    assert await _standings(service, "dubb", "today", None) == []
    await store.set_guild_settings(GUILD, {"daily_everywhere": True}, now=clock.now)
    await store.set_guild_settings(GUILD + 1, {"hints": False}, now=clock.now)
    everywhere = await _standings(service, "dubb", "today", None)
    assert [(s.name, s.total) for s in everywhere] == [("Anna", 2), ("Dan", 0), ("Bo", -1)]
    # Dan hides himself: on no board, his own server's included; showing him puts him back
    await store.daily.set_hidden(dan, True, clock.now)
    await store.daily.set_hidden(dan, True, clock.now)
    assert await store.daily.hidden(dan)
    assert [s.name for s in await _standings(service, "dubb", "today", None)] == ["Anna", "Bo"]
    assert [s.name for s in await _standings(service, "dubb", "all", GUILD)] == ["Anna", "Bo"]
    # opting out takes the server off again
    await store.set_guild_settings(GUILD, {"daily_everywhere": False}, now=clock.now)
    assert await _standings(service, "dubb", "today", None) == []
    await store.daily.set_hidden(dan, False, clock.now)
    assert not await store.daily.hidden(dan)
    assert [s.name for s in await _standings(service, "dubb", "today", GUILD)] == [
        "Anna", "Dan", "Bo"]
    # percentiles among everyone who played the day, every server and hidden or not
    percent = {}
    for who in (ANNA, BO, CEM, dan):
        attempt = await store.daily.attempt("dubb", day, who)
        assert attempt is not None
        percent[who] = await service.percentile(attempt)
    assert percent == {ANNA: 66, BO: 0, CEM: 100, dan: 33}
    # alone on a day, there is nobody to be better than
    await store.daily.start_attempt("tonk", day, ANNA, GUILD, "Anna", [], clock.now)
    await store.daily.save_attempt("tonk", day, ANNA, counted=0, moves=[], now=clock.now,
                                   finish=Finish("played", 3, 1))
    alone = await store.daily.attempt("tonk", day, ANNA)
    assert alone is not None and await service.percentile(alone) is None
