"""Shards in two bot processes on one PostgreSQL database (issue 17), end to end through the fake
Discord, with a clock the test moves by hand.

Each "process" is its own ``KortbordBot`` (its own gateway connections, database connections,
caches, timers and computer players) in this event loop, so the test can read which one did
what (``KortbordBot.automatic``). With four shards split 0,1 / 2,3, people play Dubb and Tonk in
servers of both halves to the end, and each process runs the turn timers, lobby expiry and
computer players of its own servers only. With both processes owning one shard (a
misconfiguration, or a rolling restart's overlap), every click reaches both, both fire the same
deadlines and both wake the same computers; the database still applies each move once and
writes each ledger row and stat once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.fakediscord import Channel, Driver, FakeDiscord, Guild, User
from bot.fakediscord.driver import DriverError, InteractionFailed
from bot.fakediscord.snowflake import shard_of
from bot.storage import MoveRecord, Store
from bot.table.service import LOBBY_TTL_SECONDS
from tests.e2e import dubb_table
from tests.e2e.conftest import BOOT_TIMEOUT, BotRunner, ErrorLog
from tests.e2e.table_players import Player, check_table, hands_ended, open_game
from tests.fakeclock import FakeClock

pytestmark = [pytest.mark.e2e, pytest.mark.machine_speed]

COUNT = 4
TURN = 30
STRIKES = 3
"""Timeouts in a row after which a player is removed (issue 8)."""


@pytest.fixture
async def processes(
    fake: FakeDiscord, driver: Driver, discord_redirect: None, tmp_path: Path,
    postgres_url: str,
) -> AsyncIterator[list[BotRunner]]:
    """Two bots on one PostgreSQL database (stopped before it is dropped)."""
    runners = [BotRunner(fake, driver, tmp_path / f"unused-{i}.sqlite3") for i in range(2)]
    for runner in runners:
        runner.database_url = postgres_url
    yield runners
    for runner in runners:
        await runner.stop()


async def _start(runners: Sequence[BotRunner], halves: Sequence[Sequence[int]],
                 clock: FakeClock | None = None) -> FakeClock:
    """Start the processes with one clock; returns once each has its servers (discord.py's
    ready: every shard's GUILD_CREATEs are in)."""
    clock = clock or FakeClock()
    for runner, ids in zip(runners, halves, strict=True):
        runner.clock, runner.shards = clock, (COUNT, ids)
        bot = await runner.start()
        async with asyncio.timeout(BOOT_TIMEOUT):
            await bot.wait_until_ready()
    return clock


def _users(driver: Driver, guild: Guild, prefix: str, n: int) -> list[User]:
    # a person sits at one table at a time, so each table gets its own people
    return [driver.add_user(f"{prefix}{i}", guilds=[guild]) for i in range(n)]


async def _idle_lobby(driver: Driver, channel: Channel, host: User) -> None:
    await driver.slash(host, channel, "dubb start")
    await dubb_table.wait_table(driver, channel)


def _timed_out(driver: Driver, channel: Channel, strike: int) -> bool:
    return any(e.audience is None and e.channel_id == channel.id
               and f"time ran out ({strike} of {STRIKES})" in e.text for e in driver.log)


def _closed(driver: Driver, channel: Channel) -> bool:
    return dubb_table.title(dubb_table.table_message(driver, channel)) == "Dubb — closed"


def _done(player: Player) -> bool:
    """Dubb: the game is over; Tonk: a hand has ended."""
    return player.finished() if player.game == "dubb" else hands_ended(player) > 0


async def _check(url: str, players: Sequence[Player], guild_of: dict[int, int]) -> None:
    store = await Store.open(url)
    try:
        for player in players:
            ended = await check_table(store, player, guild_of[player.channel.id])
            # the turn timers that ran afterwards may have played more Tonk hands
            assert ended == 0 if player.game == "dubb" else ended >= 1
    finally:
        await store.close()


async def test_each_process_runs_only_its_own_servers(
    processes: list[BotRunner], driver: Driver, postgres_url: str
) -> None:
    halves = ((0, 1), (2, 3))
    guilds = [driver.add_guild(f"Server {k}", shard_of=(k, COUNT)) for k in range(COUNT)]
    clock = await _start(processes, halves)
    owner = {g.id: processes[0 if shard_of(g.id, COUNT) in halves[0] else 1] for g in guilds}

    players: list[Player] = []
    idle: list[tuple[Guild, Channel]] = []
    lobbies: list[tuple[Guild, Channel]] = []
    guild_of: dict[int, int] = {}
    for guild in guilds:
        dubb, tonk, timed, lobby = (driver.add_channel(guild, name)
                                    for name in ("dubb", "tonk", "timed", "lobby"))
        guild_of.update({c.id: guild.id for c in (dubb, tonk, timed, lobby)})
        players.append(await open_game(driver, dubb, "dubb", _users(driver, guild, "D", 2),
                                       {"computers": 1}))
        players.append(await open_game(driver, tonk, "tonk", _users(driver, guild, "T", 2),
                                       {"computers": 1, "stake": 2}))
        # one person and a computer; the person never moves, so the turn timer does
        await open_game(driver, timed, "dubb", _users(driver, guild, "I", 1),
                        {"computers": 1, "turn_time": TURN})
        idle.append((guild, timed))
        await _idle_lobby(driver, lobby, _users(driver, guild, "L", 1)[0])
        lobbies.append((guild, lobby))

    while not all(_done(p) for p in players):
        await asyncio.gather(*(p.step() for p in players if not _done(p)))

    for strike in range(1, STRIKES + 1):
        clock.advance(TURN)
        for _, channel in idle:
            await driver.wait_for(lambda c=channel, s=strike: _timed_out(driver, c, s),
                                  what=f"timeout {strike} in {channel.name}")
    clock.advance(LOBBY_TTL_SECONDS)
    for _, channel in lobbies:
        await driver.wait_for(lambda c=channel: _closed(driver, c), what="the lobby closed")

    for runner, ids in zip(processes, halves, strict=True):
        assert runner.bot is not None
        made = runner.bot.automatic
        # each server's events reached only the process that owns its shard ...
        assert {shard_of(g.id, COUNT) for g in runner.bot.guilds} == set(ids)
        # ... and only that process ran its timers, lobby expiry and computers
        assert {shard_of(g, COUNT) for _, g in made} <= set(ids), made
        for guild in guilds:
            if owner[guild.id] is runner:
                assert made["lobby", guild.id] == 1
                assert made["timer", guild.id] >= STRIKES
                assert made["computer", guild.id] > 0
    # The last clock jump also ran the Tonk tables' between-hands timers: the table deals the
    # next hand, which can end at once (Tonk on the deal) or be played on by a computer, so
    # moves and ledger rows may still be committing. The check reads the move log and the
    # ledger one after the other, so it must not read while anything can move.
    for runner in processes:
        await runner.stop()
    await _check(postgres_url, players, guild_of)


def _shown(player: Player) -> tuple[int, int] | None:
    table = player.table()
    return None if table is None else (table.id, table.version)


async def _over_in_database(store: Store, player: Player) -> bool:
    """Dubb: the game has ended; Tonk: a hand has ended (from the database: while two
    processes race, the table message may show an older version than the table holds)."""
    table = next(t for t in await store.tables_of_guild(player.channel.guild_id)
                 if t.channel_id == player.channel.id)
    if player.game == "dubb":
        return table.status != "playing"
    return any(e.get("type") == "hand_ended"
               for m in await store.moves(table.id) for e in m.events)


async def _play_racing(store: Store, player: Player, clock: FakeClock, rounds: int) -> None:
    """Every step twice at once (a double click, each reaching both processes). Answers and
    the table message may lag behind the database while the processes race; a step after which
    the table shows nothing new lets the turn timer move it on."""
    for _ in range(rounds):
        if await _over_in_database(store, player):
            return
        before = _shown(player)
        with contextlib.suppress(InteractionFailed, DriverError, AssertionError, TimeoutError):
            await asyncio.gather(player.step(), player.step())
        if _shown(player) == before:
            clock.advance(TURN)
    raise AssertionError(f"the racing {player.game} table did not finish")


async def test_two_processes_owning_one_shard_apply_everything_once(
    processes: list[BotRunner], driver: Driver, postgres_url: str, bot_errors: ErrorLog
) -> None:
    # both processes answer every click; one answer per interaction reaches Discord
    driver.allow_rest_errors()
    driver.allow_failed_interactions()
    # both edit the same table messages, each unaware of the other's rate-limit buckets
    driver.allow_rate_limits()
    bot_errors.expect()
    guild = driver.add_guild("Shared", shard_of=(1, COUNT))
    old, new = processes
    clock = await _start([old], [(0, 1)])
    dubb, tonk, timed, lobby = (driver.add_channel(guild, name)
                                for name in ("dubb", "tonk", "timed", "lobby"))
    players = [
        await open_game(driver, dubb, "dubb", _users(driver, guild, "D", 2),
                        {"computers": 1, "turn_time": TURN}),
        await open_game(driver, tonk, "tonk", _users(driver, guild, "T", 2),
                        {"computers": 1, "stake": 2, "turn_time": TURN}),
    ]
    idler = _users(driver, guild, "I", 1)
    await open_game(driver, timed, "dubb", idler, {"computers": 1, "turn_time": TURN})
    await _idle_lobby(driver, lobby, _users(driver, guild, "L", 1)[0])
    # a rolling restart's overlap: the new process owns shard 1 while the old one still runs
    await _start([new], [(1, 2)], clock)
    for runner in processes:
        assert runner.bot is not None and [g.id for g in runner.bot.guilds] == [guild.id]

    watcher = await Store.open(postgres_url)
    try:
        for player in players:
            player.patience = 1.0
        await asyncio.gather(*(_play_racing(watcher, p, clock, rounds=150) for p in players))
    finally:
        await watcher.close()
    for strike in range(1, STRIKES + 1):
        clock.advance(TURN)
        await driver.wait_for(lambda s=strike: _timed_out(driver, timed, s),
                              what=f"timeout {strike}")
    clock.advance(LOBBY_TTL_SECONDS)
    await driver.wait_for(lambda: _closed(driver, lobby), what="the lobby closed")
    made: Counter[tuple[str, int]] = Counter()
    for runner in processes:
        assert runner.bot is not None
        made.update(runner.bot.automatic)
        await runner.stop()

    store = await Store.open(postgres_url)
    try:
        for player in players:
            await check_table(store, player, guild.id)
        timed_table = await store.live_table(timed.id)
        assert timed_table is None, "the idle player's table is still live"
        logs: dict[int, list[MoveRecord]] = {}
        for record in await store.tables_of_guild(guild.id):
            moves = await store.moves(record.id)
            assert [m.seq for m in moves] == list(range(len(moves)))
            logs[record.channel_id] = moves
            if record.kind == "dubb" and record.status == "finished":
                played = {r.player_id: r.count("games_played")
                          for r in await store.stats(guild.id, "dubb", table_id=record.id)}
                # once per player who sat down, also those removed on the way
                assert played == {s["player_id"]: 1 for s in moves[0].move["seats"]}
        timeouts = [m for m in logs[timed.id]
                    if m.player_id == idler[0].id and m.move["type"] == "timeout"]
        assert len(timeouts) == STRIKES
        assert lobby.id not in logs or len(logs[lobby.id]) <= 1
    finally:
        await store.close()
    # both expired the lobby; one closed it
    assert made["lobby", guild.id] == 1
