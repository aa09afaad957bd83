"""End-to-end fixtures: the fake Discord, a driver over it, and the real bot against it.

``fake`` and ``driver`` need no bot. ``bot`` starts ``KortbordBot`` in-process (commands synced
globally) once ``world`` exists; ``bot_runner`` starts, restarts and stops it by hand (and with
dev guilds); ``start_subprocess_bot`` runs ``python -m bot`` against the fake. At teardown a
test fails if any interaction failed, the bot sent a request Discord would reject (400/401), one
the fake does not model or one that breaks Discord's API description (``tests/contract``), or
anything logged an error — unless the test opted out
(``driver.allow_failed_interactions()``, ``driver.allow_rest_errors()``,
``bot_errors.expect()``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import signal
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest
import uvloop
from discord import app_commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.client import KortbordBot
from bot.config import Settings
from bot.discord_api import point_discord_at
from bot.fakediscord import Channel, Driver, FakeDiscord, Guild, User
from bot.fakediscord.ratelimit import RateLimitConfig
from bot.games.registry import GAMES, Registry
from bot.sharding import make_bot
from bot.storage import Shards
from bot.table.timers import Clock
from tests.contract.discord_spec import discord_spec
from tests.forks import Forked, fork
from tests.store.pgserver import shared_server

REPO_ROOT = Path(__file__).resolve().parents[2]
_LOGGED_ERROR = re.compile(r"^\S+ \S+ (ERROR|CRITICAL) ")
# discord.utils.setup_logging colours its output inside containers even when it is a file
_ANSI_COLOUR = re.compile(r"\x1b\[[0-9;]*m")
TEST_TOKEN = "kortbord-test-token"
BOOT_TIMEOUT = 30.0


BOTH_LOOPS = frozenset({"test_dubb_game.py", "test_tonk_game.py"})
"""Whole games, played on asyncio's loop as well: the bot's loop where uvloop has no build."""


def pytest_asyncio_loop_factories(
    config: pytest.Config, item: pytest.Item
) -> dict[str, Callable[[], asyncio.AbstractEventLoop]]:
    """The bot runs here on the loop ``python -m bot`` runs it on (``bot.runloop``: uvloop);
    the whole games on asyncio's too."""
    factories: dict[str, Callable[[], asyncio.AbstractEventLoop]] = {
        "uvloop": uvloop.new_event_loop}
    if item.path.name in BOTH_LOOPS:
        factories["asyncio"] = asyncio.new_event_loop
    return factories


class ErrorLog(logging.Handler):
    """Collects every record at ERROR or above while a test runs."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self.expected = False

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def expect(self) -> None:
        self.expected = True

    def report(self) -> list[str]:
        if self.expected:
            return []
        return [f"logged {r.levelname} from {r.name}: {r.getMessage()}" for r in self.records]


@pytest.fixture
def bot_errors() -> Iterator[ErrorLog]:
    handler = ErrorLog()
    root = logging.getLogger()
    root.addHandler(handler)
    yield handler
    root.removeHandler(handler)


@pytest.fixture
async def fake(request: pytest.FixtureRequest) -> AsyncIterator[FakeDiscord]:
    """The fake Discord with Discord's rate limits; a test marked ``machine_speed`` (it plays
    whole games as fast as a machine can click, and is about the games) gets Discord's limits
    in a tenth of the time."""
    quick = request.node.get_closest_marker("machine_speed") is not None
    limits = RateLimitConfig.discord_like(time_scale=0.1 if quick else 1.0)
    async with FakeDiscord(rate_limits=limits) as server:
        server.contract = discord_spec()
        yield server


@pytest.fixture
def driver(fake: FakeDiscord, bot_errors: ErrorLog) -> Iterator[Driver]:
    test_driver = Driver(fake)
    yield test_driver
    problems = test_driver.problems() + bot_errors.report()
    if problems:
        pytest.fail("end-to-end check failed:\n  " + "\n  ".join(problems), pytrace=False)


@pytest.fixture
def discord_redirect(fake: FakeDiscord) -> Iterator[None]:
    """Point this process's discord.py at the fake (``bot.discord_api``), then restore it."""
    saved_base, saved_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    point_discord_at(fake.api_base)
    yield
    Route.BASE = saved_base
    DiscordWebSocket.DEFAULT_GATEWAY = saved_gateway


@dataclass
class World:
    guild: Guild
    channel: Channel
    anna: User
    bo: User
    cem: User
    mod: User


@pytest.fixture
def postgres_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """A new, empty database on the session's throwaway PostgreSQL server."""
    server = shared_server(request.config)
    name = server.create_database()
    yield server.url(name)
    server.drop_database(name)


@pytest.fixture
def world(driver: Driver) -> World:
    """One server with #general, three players and a moderator (Manage Messages)."""
    guild = driver.add_guild("Kortbord Test")
    channel = driver.add_channel(guild, "general")
    return World(
        guild=guild,
        channel=channel,
        anna=driver.add_user("Anna"),
        bo=driver.add_user("Bo"),
        cem=driver.add_user("Cem"),
        mod=driver.add_user("Moderator Maja", manage_messages=True),
    )


async def wait_shards_ready(fake: FakeDiscord, shards: Shards, before: set[str]) -> None:
    """Wait until each of ``shards`` has a READY session that was not among ``before``."""
    def ready() -> bool:
        live = [s for s in fake.gateway.live_sessions() if s.id not in before]
        return all(any(s.shard == (i, shards.count) for s in live) for i in shards.ids)

    await fake.wait_for(ready, BOOT_TIMEOUT, f"shards {shards.ids} of {shards.count} to connect")


class BotRunner:
    """Starts the real ``KortbordBot`` in this event loop against the fake; restarts keep the
    database and the fake's state, as a process restart would. Set ``clock`` (a
    ``tests.fakeclock.FakeClock``) before starting to drive turn timers by hand, ``games`` to
    play other games than the registry's, ``shards`` (count, ids) to run a sharded bot,
    ``database_url`` to use another database than the SQLite file (PostgreSQL), and
    ``computer_pause`` to make computers wait (on ``clock``); by default they never pause.
    ``card_emojis`` uploads the cards' emojis and shows cards as them; off by default, so
    tests about other things read cards as letters and start without some fifty uploads."""

    def __init__(self, fake: FakeDiscord, driver: Driver, database_path: Path) -> None:
        self.fake = fake
        self.driver = driver
        self.database_path = database_path
        self.clock: Clock | None = None
        self.games: Registry = GAMES
        self.shards: tuple[int, Sequence[int]] | None = None
        self.database_url: str | None = None
        self.computer_pause = 0.0
        self.card_emojis = False
        self.expert_rollouts = 8
        """Small searches, in a thread, with no CPU cap that could make them differ by load."""
        self.activity = False
        """Serve the Activity (``bot.activity``) on a free port, with the fake's client
        secret; ``bot.activity_server.port`` says which."""
        self.bot: KortbordBot | None = None
        self._task: asyncio.Task[None] | None = None
        self._dev_guild_ids: list[int] = []

    async def start(self, *, dev_guild_ids: Sequence[int] = ()) -> KortbordBot:
        self._dev_guild_ids = list(dev_guild_ids)
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            discord_token=TEST_TOKEN,
            database_path=self.database_path,
            database_url=self.database_url,
            discord_api_base=self.fake.api_base,
            discord_gateway_url=self.fake.gateway_url,
            dev_guild_ids=self._dev_guild_ids,
            log_level="INFO",
            computer_pause=self.computer_pause,
            card_emojis=self.card_emojis,
            expert_rollouts=self.expert_rollouts, expert_workers=0, expert_cpu_ms=10_000,
            # the bot paces its writes to the limits this fake enforces (faster in some tests)
            discord_limits_scale=self.fake.rate_limits.global_per,
            shard_count=None if self.shards is None else self.shards[0],
            shard_ids=[] if self.shards is None else list(self.shards[1]),
            activity_port=0 if self.activity else None,
            client_secret=self.fake.client_secret if self.activity else None,
        )
        bot = make_bot(settings, clock=self.clock, games=self.games)
        before = self.fake.gateway.identify_count
        sessions = set(self.fake.gateway.sessions)
        task = asyncio.create_task(bot.start(TEST_TOKEN))
        ready = asyncio.create_task(
            self.driver.wait_bot_ready(after=before, within=BOOT_TIMEOUT) if settings.shards
            is None else wait_shards_ready(self.fake, settings.shards, sessions)
        )
        done, _ = await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            ready.cancel()
            await task
            raise AssertionError("the bot stopped before it connected")
        await ready
        self.bot, self._task = bot, task
        return bot

    async def stop(self) -> None:
        bot, task = self.bot, self._task
        self.bot, self._task = None, None
        if bot is None or task is None:
            return
        # discord.py's close() leaves its task that waits out the GUILD_CREATEs and then
        # dispatches "ready" running; `python -m bot` exits after closing, but this event loop
        # goes on, so that task would dispatch into a closed client when a close takes longer
        # than guild_ready_timeout (as it does while a rate-limited request is being held).
        ready_task = bot._connection._ready_task
        if ready_task is not None:
            ready_task.cancel()
        await bot.close()
        await task

    async def restart(self) -> KortbordBot:
        await self.stop()
        return await self.start(dev_guild_ids=self._dev_guild_ids)


@pytest.fixture
async def bot_runner(
    fake: FakeDiscord, driver: Driver, discord_redirect: None, tmp_path: Path
) -> AsyncIterator[BotRunner]:
    runner = BotRunner(fake, driver, tmp_path / "kortbord.sqlite3")
    yield runner
    await runner.stop()


@pytest.fixture
async def bot(world: World, bot_runner: BotRunner) -> BotRunner:
    """The bot, running, with its commands synced globally."""
    await bot_runner.start()
    return bot_runner


class SubprocessBot:
    """``python -m bot`` (forked from the test worker's fork server, ``tests.forks``) with
    ``DISCORD_API_BASE`` pointing at the fake; ``env`` adds settings
    (``DATABASE_URL``, ``SHARD_COUNT`` and ``SHARD_IDS``: then it is ready once each of its
    shards is; ``CARD_EMOJIS``, off unless set, as for ``BotRunner``)."""

    def __init__(self, fake: FakeDiscord, driver: Driver, workdir: Path,
                 env: dict[str, str] | None = None) -> None:
        self.fake = fake
        self.driver = driver
        self.workdir = workdir
        self.env = dict(env or {})
        self.log_path = workdir / "bot.log"
        self.process: Forked | None = None
        self.errors_expected = False
        self.session_ids: set[str] = set()
        """The fake's gateway sessions this bot opened while starting, over every start."""

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def errors(self) -> list[str]:
        """ERROR/CRITICAL lines and tracebacks in the bot's log (discord.py's log format)."""
        lines = _ANSI_COLOUR.sub("", self.output()).splitlines()
        return [line for line in lines if _LOGGED_ERROR.match(line) or line.startswith("Traceback")]

    async def start(self, *, dev_guild_ids: Sequence[int] = ()) -> None:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("DISCORD_", "DEV_", "SHARD_", "DATABASE_"))}
        env.update(
            DISCORD_TOKEN=TEST_TOKEN,
            DISCORD_API_BASE=self.fake.api_base,
            DATABASE_PATH=str(self.workdir / "kortbord.sqlite3"),
            LOG_LEVEL="INFO",
            DISCORD_LIMITS_SCALE=str(self.fake.rate_limits.global_per),
            CARD_EMOJIS="false",
            PYTHONPATH=os.pathsep.join([str(REPO_ROOT), env.get("PYTHONPATH", "")]),
        )
        if dev_guild_ids:
            env["DEV_GUILD_IDS"] = ",".join(str(g) for g in dev_guild_ids)
        env.update(self.env)
        before = self.fake.gateway.identify_count
        sessions = set(self.fake.gateway.sessions)
        # cwd is the test's own folder, so a developer's .env cannot leak into the run; forked
        # from a process that imported the bot already (``tests.forks``)
        with self.log_path.open("ab") as log:
            self.process = await asyncio.to_thread(fork, "bot", cwd=self.workdir, env=env,
                                                   stdout=log.fileno())
        exited = asyncio.create_task(self.process.wait())
        shards = None
        if "SHARD_COUNT" in self.env:
            count = int(self.env["SHARD_COUNT"])
            ids = self.env.get("SHARD_IDS")
            shards = Shards(count=count, ids=tuple(int(i) for i in ids.split(","))
                            if ids else tuple(range(count)))
        ready = asyncio.create_task(
            self.driver.wait_bot_ready(after=before, within=BOOT_TIMEOUT) if shards is None
            else wait_shards_ready(self.fake, shards, sessions)
        )
        done, _ = await asyncio.wait({exited, ready}, return_when=asyncio.FIRST_COMPLETED)
        if exited in done:
            ready.cancel()
            raise AssertionError(
                f"python -m bot exited with {self.process.returncode}:\n{self.output()}"
            )
        exited.cancel()
        try:
            await ready
        except AssertionError as exc:
            raise AssertionError(f"{exc}\nbot output:\n{self.output()}") from None
        self.session_ids |= set(self.fake.gateway.sessions) - sessions

    async def kill(self) -> None:
        """SIGKILL, as a crash or an out-of-memory kill would: no shutdown runs."""
        process, self.process = self.process, None
        assert process is not None, "the bot is not running"
        process.kill()
        await process.wait()

    async def stop(self) -> int | None:
        """SIGTERM, as a container runtime would; returns the exit status."""
        process, self.process = self.process, None
        if process is None or process.returncode is not None:
            return process.returncode if process is not None else None
        process.send_signal(signal.SIGTERM)
        try:
            async with asyncio.timeout(BOOT_TIMEOUT):
                return await process.wait()
        except TimeoutError:
            process.kill()
            await process.wait()
            raise AssertionError(f"python -m bot ignored SIGTERM:\n{self.output()}") from None


@pytest.fixture
async def subprocess_bot(
    fake: FakeDiscord, driver: Driver, tmp_path: Path
) -> AsyncIterator[SubprocessBot]:
    runner = SubprocessBot(fake, driver, tmp_path)
    yield runner
    with contextlib.suppress(AssertionError):
        await runner.stop()
    if runner.errors() and not runner.errors_expected:
        pytest.fail("python -m bot logged errors:\n" + runner.output(), pytrace=False)


class BareClients:
    """Plain ``discord.Client``s with a command tree: the fake tested without kortbord's code."""

    def __init__(self, fake: FakeDiscord, driver: Driver) -> None:
        self.fake = fake
        self.driver = driver
        self.running: list[tuple[discord.Client, asyncio.Task[None]]] = []

    async def start(
        self,
        tree_setup: Callable[[app_commands.CommandTree], None] | None = None,
        *,
        intents: discord.Intents | None = None,
        token: str = TEST_TOKEN,
        sync: bool = True,
    ) -> tuple[discord.Client, app_commands.CommandTree]:
        client = discord.Client(intents=intents or discord.Intents.default())
        tree = app_commands.CommandTree(client)
        if tree_setup is not None:
            tree_setup(tree)

        async def setup_hook() -> None:
            if sync:
                await tree.sync()

        client.setup_hook = setup_hook  # type: ignore[method-assign]
        before = self.fake.gateway.identify_count
        task = asyncio.create_task(client.start(token))
        self.running.append((client, task))
        ready = asyncio.create_task(self.driver.wait_bot_ready(after=before))
        done, _ = await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            ready.cancel()
            await task
            raise AssertionError("the client stopped before it connected")
        await ready
        return client, tree

    async def close_all(self) -> None:
        for client, task in self.running:
            await client.close()
            with contextlib.suppress(Exception):
                await task


@pytest.fixture
async def bare_clients(
    fake: FakeDiscord, driver: Driver, discord_redirect: None
) -> AsyncIterator[BareClients]:
    clients = BareClients(fake, driver)
    yield clients
    await clients.close_all()
