"""Load benchmark (not a test): live tables played through the fake Discord, against a bare
discord.py echo bot on the same fake as the floor.

    .venv/bin/python scripts/bench_discord.py [--tables 200] [--seconds 30] [--warmup 15]
        [--interval 2.0] [--computer-pause 1.5] [--game dubb] [--people 1] [--computers 2]
        [--level easy|normal|expert]
        [--only bot|echo|base] [--baseline WORKTREE] [--rounds N] [--profile FILE]
        [--echo-loop asyncio|uvloop]
    .venv/bin/python scripts/bench_discord.py --memory 1000

The fake Discord (Discord's rate limits, as in the tests) and its simulated people run in this
process; the bot runs in a child process — the real ``KortbordBot`` with the settings
``python -m bot`` would read, logging at INFO to a file — so its CPU time and event-loop lag
are its own. The child also runs a small monitor: a task that asks to wake every 10 ms and
records how late it wakes (the loop lag: how long ready callbacks kept the loop busy).

Every table seats ``--people`` people and ``--computers`` computer players (``--game dubb``
or ``tonk``) of ``--level`` (issue 34: ``expert`` computers search in the bot's worker process;
unset: the server's default, normal). Each person clicks once per ``--interval`` seconds on
average (uniformly 0.5–1.5×, tables staggered), as a person with their hand panel open would:
when the panel says it is their turn they make a move on it (the first play or discard offered,
else draw, else pass; Tonk: deal the next hand), otherwise they press **Refresh**; a finished
game is followed by a new one (`/dubb start`, Start). Computers move after ``--computer-pause``
seconds, through the bot's own ``COMPUTER_PAUSE``.

With ``--baseline WORKTREE`` (a checkout of older code, e.g. ``git worktree add --detach
/work/wt/load-base <commit>``) the same load also runs against the bot of that checkout, in the
same run on the same machine, and the figures are printed side by side. ``--rounds N`` measures
every phase N times, the baseline's and the bot's in turn first (base then bot, then bot then
base), and ends with each round's figures and their median: on a shared machine one round can
mislead, a machine slowing down over the run weighs on whichever phase came last.

The echo phase runs a bare ``discord.Client`` (the guilds intent only) in the child instead,
with one message with a button per channel; the same people click it on the same schedule,
and the client answers each interaction with one ephemeral message. It runs on asyncio's loop,
as a bare discord.py bot does, unless ``--echo-loop uvloop``; the bot runs on the loop
``python -m bot`` picks (``bot.runloop``: uvloop where it is installed).

Reported for the measured window (after ``--warmup`` seconds): moves/s (every move: people's
and computers', read from the bot's database), interactions/s, interaction answer latency
p50/p99 (the fake's clock, from the interaction's creation to its callback), CPU per move and
per interaction (the child's user+system time, all threads), Discord requests per move (every
REST request the child made, interaction callbacks included), 429s over the whole phase,
gateway events dispatched to the child, loop lag p50/p99/max and how long the loop's thread
was ready to run but waited for a core (Linux's run-queue delay: a lag the operating system
made, not the loop's own work), how long each single callback of
the child's loop took (p50/p99/max, and the tasks of those over 5 ms: the issue's "no single
callback over 5 ms at p99"; on uvloop's loop each step of a task, see ``CallbackTimer``), and
the ratios bot/echo.

``--memory N`` opens N tables (one person, ``--computers`` computers, no turn timer) and
reports the bot's resident memory per live table (the slope between N/5 and N tables, after a
garbage collection); then it kills the bot with SIGKILL, starts it again on the same database,
and reports how it redrew the tables left behind: requests, 429s and how long it took.
"""

from __future__ import annotations

import argparse
import asyncio
import collections.abc
import contextlib
import gc
import inspect
import json
import logging
import os
import random
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# a child for --baseline imports the bot of that checkout
sys.path.insert(0, sys.argv[sys.argv.index("--root") + 1] if "--root" in sys.argv else str(ROOT))

from bot.fakediscord import Channel, Driver, FakeDiscord, User  # noqa: E402
from bot.fakediscord.driver import DriverError, InteractionFailed  # noqa: E402
from bot.fakediscord.model import StoredMessage  # noqa: E402
from bot.fakediscord.ratelimit import RateLimitConfig  # noqa: E402

TOKEN = "bench-token"
LAG_PERIOD = 0.010
BOOT_TIMEOUT = 60.0
REPORT_LIMIT = 64 * 1024 * 1024
MOVE_BUTTONS = ("Deal next hand", "Draw from stock", "Draw", "Pass", "Draw & play",
                "End the hand")
MOVE_SELECTS = ("play", "rank", "discard")
"""What a bench person picks on their panel, in this order after the selects (the first play
or discard offered, a rank first when plays are chosen by rank)."""


# -- the child: the bot (or the echo bot) and its monitor ----------------------------------------


class LagMonitor:
    """Asks to wake every ``LAG_PERIOD`` seconds and records how late each wake-up is."""

    def __init__(self) -> None:
        self.samples = array("d")

    async def run(self) -> None:
        # not the loop's clock: uvloop's counts whole milliseconds, read once per pass
        clock = time.perf_counter
        while True:
            due = clock() + LAG_PERIOD
            await asyncio.sleep(LAG_PERIOD)
            self.samples.append(clock() - due)

    def take(self) -> list[float]:
        samples, self.samples = self.samples, array("d")
        return samples.tolist()


class CallbackTimer:
    """Times every callback the event loop runs (asyncio's ``Handle._run``: a task's step, a
    future's done callback, a protocol's ``data_received``). The loop lag says how long the
    loop was busy before a timer could run — often several callbacks in a row; this says how
    long each single callback held it, and names the task of each one over ``STALL``.

    uvloop runs its callbacks in C, out of reach: on its loop this times every step of every
    task created after ``install`` instead (each task's coroutine wrapped by a task factory),
    which is where all of the bot's own code and discord.py's run; its transports' reads and
    writes, in C, are not timed."""

    STALL = 0.005

    def __init__(self) -> None:
        # an array, not a list: the garbage collector would walk a list's tens of thousands
        # of floats in every full collection, and stretch the pauses it measures
        self.samples = array("d")
        self.stalls: dict[str, int] = {}
        self._handles = True

    @property
    def what(self) -> str:
        return "callbacks" if self._handles else "task steps"

    def install(self) -> None:
        loop = asyncio.get_running_loop()
        self._handles = isinstance(loop, asyncio.BaseEventLoop)
        if not self._handles:
            def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> Any:
                return asyncio.Task(_TimedSteps(coro, self), loop=loop, **kwargs)

            loop.set_task_factory(factory)
            return
        run = asyncio.events.Handle._run
        clock = time.perf_counter

        def timed(handle: asyncio.Handle) -> None:
            began = clock()
            run(handle)
            self.record(clock() - began, _callback_name, handle)

        asyncio.events.Handle._run = timed  # type: ignore[method-assign]

    def record(self, took: float, name: Callable[[Any], str], what: Any) -> None:
        """One callback or step took ``took`` seconds; ``name(what)`` names it if it stalled."""
        self.samples.append(took)
        if took > self.STALL:
            key = name(what)
            self.stalls[key] = self.stalls.get(key, 0) + 1

    def take(self) -> tuple[list[float], dict[str, int]]:
        samples, self.samples = self.samples, array("d")
        stalls, self.stalls = self.stalls, {}
        return samples.tolist(), stalls


class _TimedSteps(collections.abc.Coroutine):  # type: ignore[type-arg]
    """A task's coroutine whose every step (``send``, ``throw``) is timed into a timer."""

    __slots__ = ("_coro", "_timer")

    def __init__(self, coro: Any, timer: CallbackTimer) -> None:
        self._coro = coro
        self._timer = timer

    def _name(self) -> str:
        return getattr(self._coro, "__qualname__", "task")

    def send(self, value: Any) -> Any:
        began = time.perf_counter()
        try:
            return self._coro.send(value)
        finally:
            self._timer.record(time.perf_counter() - began, _TimedSteps._name, self)

    def throw(self, *exc: Any) -> Any:
        began = time.perf_counter()
        try:
            return self._coro.throw(*exc)
        finally:
            self._timer.record(time.perf_counter() - began, _TimedSteps._name, self)

    def close(self) -> None:
        self._coro.close()

    def __await__(self) -> Any:
        return self._coro.__await__()


def _callback_name(handle: asyncio.Handle) -> str:
    """What a callback ran: a task's outermost coroutine, else the function."""
    callback = handle._callback  # type: ignore[attr-defined]
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        return getattr(owner.get_coro(), "__qualname__", "task")
    return getattr(callback, "__qualname__", type(callback).__name__)


def _rss() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _waited() -> float:
    """Seconds the main thread (the event loop's) has spent ready to run while the operating
    system ran something else on its core (Linux's run-queue delay), ``nan`` where unknown."""
    try:
        with open("/proc/self/schedstat") as schedstat:
            return int(schedstat.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")


def _echo_client() -> Any:
    import discord

    intents = discord.Intents.none()
    intents.guilds = True
    client = discord.Client(intents=intents)

    @client.event
    async def on_interaction(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("echo", ephemeral=True)

    return client


async def child(args: argparse.Namespace) -> None:

    import discord

    from bot.client import KortbordBot
    from bot.config import Settings
    from bot.discord_api import point_discord_at

    folder = Path(args.folder)
    handler = logging.FileHandler(folder / f"{args.role}.log")
    discord.utils.setup_logging(handler=handler, level=logging.INFO, root=True)
    point_discord_at(args.api_base)
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token=TOKEN, database_path=folder / "kortbord.sqlite3",
        computer_pause=args.computer_pause, log_level="INFO",
    )
    # as ``python -m bot`` makes it (``bot.main``), in a checkout that knows how
    settle = {"settle": True} if "settle" in inspect.signature(KortbordBot).parameters else {}
    client: discord.Client = (KortbordBot(settings, **settle) if args.role in ("bot", "base")
                              else _echo_client())
    monitor = LagMonitor()
    timer = CallbackTimer()
    timer.install()
    pauses: list[tuple[int, float]] = []
    began = [0.0]

    def on_gc(when: str, info: dict[str, int]) -> None:
        # a collection runs inside whatever callback allocated: a long one is a loop stall
        if when == "start":
            began[0] = time.perf_counter()
        else:
            pauses.append((info["generation"], time.perf_counter() - began[0]))

    gc.callbacks.append(on_gc)
    tasks = [asyncio.create_task(monitor.run()), asyncio.create_task(client.start(TOKEN))]
    profile = None
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := (await reader.readline()).decode().strip():
        if line == "gc":
            gc.collect()
        if line == "profile" and args.profile:
            import cProfile

            profile = cProfile.Profile()
            profile.enable()
        if line == "quit":
            break
        times = os.times()
        callbacks, stalls = timer.take()
        report = {"cpu": times.user + times.system, "rss": _rss(), "lag": monitor.take(),
                  "waited": _waited(), "loop": type(loop).__module__.split(".")[0],
                  "callbacks": callbacks, "stalls": stalls, "timed": timer.what,
                  "gc": pauses[:], "objects": len(gc.get_objects())}
        pauses.clear()
        print(json.dumps(report), flush=True)
    if profile is not None:
        profile.disable()
        profile.dump_stats(args.profile)
    await client.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


class Child:
    """The bot (or echo bot) process and its control line: each command is answered with the
    process's CPU time, resident memory and the loop-lag samples since the previous one."""

    def __init__(self, role: str, fake: FakeDiscord, folder: Path,
                 args: argparse.Namespace) -> None:
        self.role = role
        self.fake = fake
        self.folder = folder
        self.args = args
        self.process: asyncio.subprocess.Process | None = None

    async def start(self, driver: Driver) -> None:
        before = self.fake.gateway.identify_count
        argv = [sys.executable, __file__, "--role", self.role, "--folder", str(self.folder),
                "--api-base", self.fake.api_base,
                "--computer-pause", str(self.args.computer_pause),
                "--echo-loop", self.args.echo_loop]
        if self.role == "base":
            argv += ["--root", self.args.baseline]
        if self.args.profile and self.role == "bot":
            argv += ["--profile", self.args.profile]
        self.process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            start_new_session=True,
            # a report carries every loop-lag sample since the last one: a long phase (opening
            # 1,000 tables) sends more than asyncio's default 64 KiB line
            limit=REPORT_LIMIT,
        )
        await driver.wait_bot_ready(after=before, within=BOOT_TIMEOUT)

    async def ask(self, command: str = "mark") -> dict[str, Any]:
        assert self.process is not None and self.process.stdin and self.process.stdout
        self.process.stdin.write(f"{command}\n".encode())
        await self.process.stdin.drain()
        line = await self.process.stdout.readline()
        result: dict[str, Any] = json.loads(line)
        return result

    async def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.returncode is not None:
            return
        assert process.stdin is not None
        process.stdin.write(b"quit\n")
        await process.stdin.drain()
        try:
            async with asyncio.timeout(30):
                await process.wait()
        except TimeoutError:
            process.kill()
            await process.wait()

    async def kill(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            process.send_signal(signal.SIGKILL)
            await process.wait()


# -- the people ---------------------------------------------------------------------------------


@dataclass
class Clicks:
    latencies: list[tuple[float, float, str]] = field(default_factory=list)
    """(when the interaction was made, seconds until it was answered, what it was: a move,
    a refresh, ...), fake loop time."""
    failed: int = 0
    errors: int = 0


@dataclass
class Person:
    user: User
    channel: Channel
    host: bool
    panel: StoredMessage | None = None


def _title(message: StoredMessage) -> str:
    return str(message.embeds[0].get("title", "")) if message.embeds else ""


def table_message(driver: Driver, channel: Channel) -> StoredMessage | None:
    for message in reversed(driver.channel_messages(channel)):
        if message.embeds and message.author.id == driver.fake.bot_user.id:
            return message
    return None


class Bench:
    def __init__(self, fake: FakeDiscord, driver: Driver, args: argparse.Namespace) -> None:
        self.fake = fake
        self.driver = driver
        self.args = args
        self.clicks = Clicks()
        self.rng = random.Random(7)

    def note(self, result: Any, what: str) -> None:
        record = result.record
        if record.callback_at is not None:
            self.clicks.latencies.append((record.created_at,
                                          record.callback_at - record.created_at, what))

    async def act(self, action: Callable[[], Any], what: str) -> Any:
        try:
            result = await action()
        except InteractionFailed:
            self.clicks.failed += 1
            return None
        except DriverError:
            self.clicks.errors += 1
            return None
        self.note(result, what)
        return result

    async def open_table(self, people: list[Person], *, turn_time: int | None = None) -> None:
        host = people[0]
        options: dict[str, Any] = {"computers": self.args.computers}
        if self.args.level is not None:
            options["level"] = self.args.level
        if turn_time is not None:
            options["turn_time"] = turn_time
        started_before = {m.id for m in self.driver.channel_messages(host.channel)}
        opened = await self.act(lambda: self.driver.slash(
            host.user, host.channel, f"{self.args.game} start", options,
            within=BOOT_TIMEOUT), "start")
        if opened is None:
            return
        lobby = await self.driver.wait_for_message(
            host.channel,
            lambda m: m.id not in started_before and "waiting for players" in _title(m),
            within=BOOT_TIMEOUT * 5)
        for guest in people[1:]:
            await self.act(lambda g=guest: self.driver.click(g.user, lobby, "Join"), "join")
        await self.act(lambda: self.driver.click(host.user, lobby, "Start",
                                                 within=BOOT_TIMEOUT), "Start")
        for person in people:
            person.panel = None

    async def click(self, person: Person, people: list[Person]) -> None:
        """One click, as described in the module's docstring."""
        driver, panel = self.driver, person.panel
        text = panel.content if panel is not None and not panel.deleted else ""
        if panel is None or not any(b.get("label") == "Refresh" for b in panel.buttons()):
            if "game is over" in text or "table has closed" in text or (
                    "no longer at this table" in text):
                if person.host:
                    await self.open_table(people)
                return
            table = table_message(driver, person.channel)
            if table is None or not any(b.get("label") == "Your hand" for b in table.buttons()):
                if person.host and (table is None or "waiting for players" not in _title(table)):
                    await self.open_table(people)
                return
            result = await self.act(lambda: driver.click(person.user, table, "Your hand"),
                                    "hand")
        elif "Your turn" in text or "You start" in text or "Deal next hand" in text:
            result = await self.act(lambda: self.move(person, panel), "move")
        else:
            result = await self.act(lambda: driver.click(person.user, panel, "Refresh"),
                                    "refresh")
        if result is not None and result.message is not None and result.message.ephemeral:
            person.panel = result.message

    async def move(self, person: Person, panel: StoredMessage) -> Any:
        for select in panel.selects():
            action = str(select.get("custom_id", "")).split(":")[3:4]
            if action and action[0] in MOVE_SELECTS and select.get("options"):
                value = select["options"][0]["value"]
                return await self.driver.select(person.user, panel, [value],
                                                custom_id=select["custom_id"])
        labels = [b.get("label") for b in panel.buttons() if not b.get("disabled")]
        for label in MOVE_BUTTONS:
            if label in labels:
                return await self.driver.click(person.user, panel, label)
        take = next((label for label in labels if label and label.startswith("Take")), None)
        return await self.driver.click(person.user, panel, take or "Refresh")

    async def play(self, people: list[Person], stop_at: float) -> None:
        interval = self.args.interval
        rng = random.Random(people[0].user.id)
        await asyncio.sleep(rng.uniform(0, interval))
        while time.monotonic() < stop_at:
            for person in people:
                await self.click(person, people)
            await asyncio.sleep(interval * rng.uniform(0.5, 1.5))


def build_world(driver: Driver, tables: int, people: int) -> list[list[Person]]:
    guild = driver.add_guild("Bench")
    seated = []
    for n in range(tables):
        channel = driver.add_channel(guild, f"table-{n}")
        users = [driver.add_user(f"P{n}-{k}") for k in range(people)]
        seated.append([Person(u, channel, host=k == 0) for k, u in enumerate(users)])
    return seated


def moves_in(database: Path) -> int:
    """Every move played so far (the start records of games left out)."""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True,
                                            timeout=30)) as db:
        return int(db.execute("SELECT COUNT(*) FROM moves WHERE seq > 0").fetchone()[0])


def gateway_events(fake: FakeDiscord) -> int:
    return sum(s.seq for s in fake.gateway.sessions.values())


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


@dataclass
class Phase:
    role: str
    seconds: float = 0.0
    moves: int = 0
    interactions: int = 0
    cpu: float = 0.0
    waited: float = 0.0
    """Seconds the child's loop was ready to run but had no core (``_waited``)."""
    requests: int = 0
    by_route: dict[str, int] = field(default_factory=dict)
    rate_limited: int = 0
    events: int = 0
    latencies: list[float] = field(default_factory=list)
    kinds: dict[str, list[float]] = field(default_factory=dict)
    gc: list[tuple[int, float]] = field(default_factory=list)
    """The garbage collections in the window: (generation, seconds)."""
    objects: int = 0
    """Objects the collector tracks in the child at the end."""
    fake_lag: list[float] = field(default_factory=list)
    """This process's own loop lag (the fake and the people): answers are timed here."""
    lag: list[float] = field(default_factory=list)
    loop: str = ""
    """The child's event loop: ``asyncio`` or ``uvloop``."""
    timed: str = "callbacks"
    """What ``callbacks`` timed: every callback, or (on uvloop) every task's step."""
    callbacks: list[float] = field(default_factory=list)
    """How long each callback the child's loop ran took."""
    stalls: dict[str, int] = field(default_factory=dict)
    """Callbacks over ``CallbackTimer.STALL``, by the task (or function) they ran."""
    failed: int = 0

    @property
    def per_move(self) -> float:
        return self.cpu / self.moves * 1000 if self.moves else float("nan")

    @property
    def per_interaction(self) -> float:
        return self.cpu / self.interactions * 1000 if self.interactions else float("nan")


async def run_phase(role: str, args: argparse.Namespace, folder: Path) -> Phase:
    folder.mkdir(parents=True, exist_ok=True)  # noqa: ASYNC240 (before anything runs)
    fake = FakeDiscord(token=TOKEN, rate_limits=RateLimitConfig.discord_like())
    await fake.start()
    driver = Driver(fake)
    tables = build_world(driver, args.tables, 1 if role == "echo" else args.people)
    bench = Bench(fake, driver, args)
    child_process = Child(role, fake, folder, args)
    await child_process.start(driver)
    phase = Phase(role)
    try:
        print(f"[{role}] opening {args.tables} tables ...", flush=True)
        if role != "echo":
            opening = asyncio.Semaphore(25)

            async def open_one(people: list[Person]) -> None:
                async with opening:
                    await bench.open_table(people)

            await asyncio.gather(*(open_one(people) for people in tables))
        else:
            body = {"content": "echo", "components": [{"type": 1, "components": [
                {"type": 2, "style": 1, "label": "Your hand", "custom_id": "echo"}]}]}
            for people in tables:
                fake.create_message(people[0].channel, fake.bot_user,
                                    {**body, "embeds": [{"title": "echo"}]})
            for people in tables:
                people[0].panel = None
        # the fake and the people are the measuring instrument: full collections over their
        # world would stall every answer they time, whichever bot is measured
        gc.collect()
        gc.freeze()
        print(f"[{role}] playing: {args.warmup:g} s warm-up, {args.seconds:g} s measured",
              flush=True)
        start = time.monotonic()
        stop_at = start + args.warmup + args.seconds
        players = [asyncio.create_task(bench.play(people, stop_at)) for people in tables]
        await asyncio.sleep(args.warmup)
        if role == "bot" and args.profile:
            await child_process.ask("profile")
        first = await child_process.ask()
        fake_lag = LagMonitor()
        lag_task = asyncio.create_task(fake_lag.run())
        loop_from = asyncio.get_running_loop().time()
        calls_from, events_from = len(fake.rest_calls), gateway_events(fake)
        moves_from = moves_in(folder / "kortbord.sqlite3") if role != "echo" else 0
        clicks_from = len(bench.clicks.latencies)
        failed_from = bench.clicks.failed
        t0 = time.monotonic()
        await asyncio.sleep(args.seconds)
        last = await child_process.ask()
        phase.seconds = time.monotonic() - t0
        calls = fake.rest_calls[calls_from:]
        phase.requests = len(calls)
        for call in calls:
            key = f"{call.method} {call.route}"
            phase.by_route[key] = phase.by_route.get(key, 0) + 1
        phase.events = gateway_events(fake) - events_from
        if role != "echo":
            phase.moves = moves_in(folder / "kortbord.sqlite3") - moves_from
        measured = [(lat, what) for at, lat, what in bench.clicks.latencies[clicks_from:]
                    if at >= loop_from]
        phase.interactions = len(measured)
        phase.latencies = [lat for lat, _ in measured]
        for lat, what in measured:
            phase.kinds.setdefault(what, []).append(lat)
        phase.failed = bench.clicks.failed - failed_from
        phase.cpu = last["cpu"] - first["cpu"]
        phase.waited = last["waited"] - first["waited"]
        phase.lag = last["lag"]
        phase.callbacks = last["callbacks"]
        phase.loop = last["loop"]
        phase.timed = last["timed"]
        phase.stalls = last["stalls"]
        phase.gc = [(int(gen), float(secs)) for gen, secs in last["gc"]]
        phase.objects = int(last["objects"])
        phase.fake_lag = fake_lag.take()
        lag_task.cancel()
        if role == "echo":
            phase.moves = phase.interactions
        await asyncio.gather(*players, return_exceptions=True)
        phase.rate_limited = len(fake.rate_limited)
        for hit in fake.rate_limited[:5]:
            print(f"  429: {hit.method} {hit.route} ({hit.scope}, retry after "
                  f"{hit.retry_after:.2f} s)")
    finally:
        gc.unfreeze()
        await child_process.stop()
        await fake.stop()
    return phase


def show(phase: Phase) -> None:
    ms = 1000
    print(f"[{phase.role}] {phase.seconds:.1f} s: {phase.moves / phase.seconds:.1f} moves/s, "
          f"{phase.interactions / phase.seconds:.1f} interactions/s, {phase.failed} failed")
    print(f"  answer p50 {statistics.median(phase.latencies) * ms:.1f} ms, "
          f"p99 {pct(phase.latencies, 99) * ms:.1f} ms, max {max(phase.latencies) * ms:.1f} ms")
    if len(phase.kinds) > 1:
        print("  answer p99 by what was clicked: " + ", ".join(
            f"{what} {pct(lats, 99) * ms:.1f} ms ({len(lats)})"
            for what, lats in sorted(phase.kinds.items(), key=lambda kv: -len(kv[1]))))
    print(f"  CPU {phase.cpu:.2f} s: {phase.per_move:.2f} ms per move, "
          f"{phase.per_interaction:.2f} ms per interaction")
    per_move = phase.requests / phase.moves if phase.moves else float("nan")
    routes = ", ".join(f"{k} {v}" for k, v in sorted(phase.by_route.items(),
                                                       key=lambda kv: -kv[1]))
    print(f"  requests {phase.requests} ({per_move:.2f} per move): {routes}")
    print(f"  429s (whole phase) {phase.rate_limited}; gateway events {phase.events}")
    print(f"  loop lag p50 {pct(phase.lag, 50) * ms:.2f} ms, p99 {pct(phase.lag, 99) * ms:.2f} "
          f"ms, max {max(phase.lag, default=0) * ms:.1f} ms ({len(phase.lag)} samples); "
          f"waited for a core {phase.waited * ms:.0f} ms in all; on {phase.loop}'s loop")
    over = sum(1 for c in phase.callbacks if c > CallbackTimer.STALL)
    print(f"  {phase.timed} {len(phase.callbacks)}: p50 {pct(phase.callbacks, 50) * ms:.2f} ms, "
          f"p99 {pct(phase.callbacks, 99) * ms:.2f} ms, max "
          f"{max(phase.callbacks, default=0) * ms:.1f} ms; {over} over "
          f"{CallbackTimer.STALL * ms:g} ms" + (": " + ", ".join(
              f"{name} {n}" for name, n in sorted(phase.stalls.items(), key=lambda kv: -kv[1])[:6])
              if phase.stalls else ""))
    print("  garbage collections by generation: " + ", ".join(
        f"{gen}: {len(pauses)}, {sum(pauses) * ms:.0f} ms in all, longest "
        f"{max(pauses, default=0) * ms:.1f} ms"
        for gen in range(3) for pauses in [[s for g, s in phase.gc if g == gen]])
        + f"; {phase.objects} objects tracked")
    print(f"  the fake's own loop lag p99 {pct(phase.fake_lag, 99) * ms:.2f} ms, max "
          f"{max(phase.fake_lag, default=0) * ms:.1f} ms")


def ratios(role: str, bot: Phase, echo: Phase) -> tuple[float, float]:
    """Prints ``bot``'s answer p50 and p99 and CPU per move over ``echo``'s, measured in the
    same round; returns the last two."""
    p50 = statistics.median(bot.latencies) / statistics.median(echo.latencies)
    p99 = pct(bot.latencies, 99) / pct(echo.latencies, 99)
    cpu = bot.per_move / echo.per_interaction
    print(f"ratios {role}/echo: answer p50 {p50:.2f}x, p99 {p99:.2f}x; "
          f"CPU per move / per echo interaction {cpu:.2f}x")
    return p99, cpu


def _order(roles: tuple[str, ...], round_: int) -> tuple[str, ...]:
    """The phases of a round: the echo first, then the bots, in turn first and last (base, bot
    in the first round; bot, base in the second), so that a machine getting slower or faster
    over the run weighs on both alike."""
    echo, bots = roles[:1], roles[1:]
    return echo + (bots if round_ % 2 == 0 else bots[::-1])


async def load(args: argparse.Namespace, base: Path) -> None:
    roles = ("echo", "base", "bot") if args.baseline else ("echo", "bot")
    summary: dict[str, list[tuple[float, float, float, float]]] = {}
    for round_ in range(args.rounds):
        if args.rounds > 1:
            print(f"-- round {round_ + 1} of {args.rounds}", flush=True)
        phases: dict[str, Phase] = {}
        for role in _order(roles, round_):
            if args.only in (None, role):
                try:
                    phases[role] = await run_phase(role, args, base / f"{role}-{round_ + 1}")
                except AssertionError as exc:
                    # an old bot may not keep up at all (it loses its lobbies to 429s): say so
                    print(f"[{role}] failed: {exc}", flush=True)
                    continue
                show(phases[role])
        echo = phases.get("echo")
        for role in ("base", "bot"):
            bot = phases.get(role)
            if bot is None or echo is None or not bot.latencies or not echo.latencies:
                continue
            p99, cpu = ratios(role, bot, echo)
            summary.setdefault(role, []).append((pct(bot.lag, 99) * 1000,
                                                 pct(bot.latencies, 99) * 1000, p99, cpu))
    if args.rounds > 1:
        print(f"over {args.rounds} rounds (each round's figures, then their median):")
        for role, rows in summary.items():
            for i, name in enumerate(("loop lag p99 ms", "answer p99 ms", "answer p99 / echo",
                                      "CPU per move / echo")):
                values = [row[i] for row in rows]
                print(f"  {role} {name}: " + ", ".join(f"{v:.2f}" for v in values)
                      + f"; median {statistics.median(values):.2f}")


async def memory(args: argparse.Namespace, base: Path) -> None:
    folder = base / "memory"
    folder.mkdir(parents=True)
    fake = FakeDiscord(token=TOKEN, rate_limits=RateLimitConfig.discord_like())
    await fake.start()
    driver = Driver(fake)
    tables = build_world(driver, args.memory, 1)
    bench = Bench(fake, driver, args)
    bot = Child("bot", fake, folder, args)
    await bot.start(driver)
    opening = asyncio.Semaphore(25)

    async def open_one(people: list[Person]) -> None:
        async with opening:
            await bench.open_table(people, turn_time=0)

    try:
        first = args.memory // 5
        t0 = time.monotonic()
        await asyncio.gather(*(open_one(p) for p in tables[:first]))
        low = await bot.ask("gc")
        await asyncio.gather(*(open_one(p) for p in tables[first:]))
        high = await bot.ask("gc")
        opened = time.monotonic() - t0
        per_table = (high["rss"] - low["rss"]) / (args.memory - first)
        print(f"{args.memory} tables opened in {opened:.0f} s; bot resident memory "
              f"{low['rss'] / 1e6:.1f} MB at {first} tables, {high['rss'] / 1e6:.1f} MB at "
              f"{args.memory}: {per_table / 1000:.1f} KB per live table")
        print(f"  429s so far {len(fake.rate_limited)}; interactions failed "
              f"{bench.clicks.failed}; loop lag p99 {pct(high['lag'], 99) * 1000:.1f} ms, "
              f"max {max(high['lag'], default=0) * 1000:.1f} ms")
        await bot.kill()
        with contextlib.closing(sqlite3.connect(folder / "kortbord.sqlite3")) as db:
            behind = db.execute(
                "SELECT COUNT(*) FROM tables WHERE shown_version IS NOT version").fetchone()[0]
            # a crash leaves tables behind: make every table wait for its redraw
            db.execute("UPDATE tables SET shown_version = version - 1 "
                       "WHERE status IN ('lobby', 'playing')")
            db.commit()
            forced = db.execute(
                "SELECT COUNT(*) FROM tables WHERE shown_version IS NOT version").fetchone()[0]
        calls_from, limited_from = len(fake.rest_calls), len(fake.rate_limited)
        t1 = time.monotonic()
        await bot.start(driver)
        start_up = fake.rest_calls[calls_from:]
        await driver.wait_for(lambda: _redrawn(fake, calls_from, forced), within=600,
                              what="the start-up redraw")
        took = time.monotonic() - t1
        calls = fake.rest_calls[calls_from:]
        print(f"restart after SIGKILL: {behind} tables were behind, {forced} marked behind; "
              f"{len(calls)} requests in {took:.0f} s "
              f"({len(calls) - len(start_up)} after the connection), "
              f"429s {len(fake.rate_limited) - limited_from}")
        await bot.stop()
    finally:
        await bot.kill()
        await fake.stop()


def _redrawn(fake: FakeDiscord, calls_from: int, tables: int) -> bool:
    writes = [c for c in fake.rest_calls[calls_from:]
              if c.method in ("PATCH", "POST") and c.route.startswith("/channels/")]
    return len(writes) >= tables


def _runner(args: argparse.Namespace) -> Callable[[Any], None]:
    """The child's event loop: the bot's own, as ``python -m bot`` runs it (its checkout's
    ``bot.runloop``; asyncio's before there was one), and the echo bot's ``--echo-loop``."""
    if args.role == "echo":
        if args.echo_loop == "uvloop":
            import uvloop

            return uvloop.run
        return asyncio.run
    import bot

    # not ``import bot.runloop``: an older checkout has none, and the editable install would
    # find this checkout's instead
    if not (Path(bot.__file__).parent / "runloop.py").exists():
        return asyncio.run
    from bot import runloop

    return runloop.run


async def main(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.WARNING)
    base = Path(tempfile.mkdtemp(prefix="bench-discord-"))
    load_average = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} CPUs, load average {load_average}; files in {base}")
    print(f"{args.tables} tables of {args.game}: {args.people} people, {args.computers} "
          f"computers ({args.level or 'normal'}); a click per person every {args.interval:g} s; "
          f"COMPUTER_PAUSE "
          f"{args.computer_pause:g} s", flush=True)
    if args.memory:
        await memory(args, base)
    else:
        await load(args, base)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=15.0)
    parser.add_argument("--interval", type=float, default=2.0)
    parser.add_argument("--computer-pause", type=float, default=1.5)
    parser.add_argument("--game", choices=("dubb", "tonk"), default="dubb")
    parser.add_argument("--people", type=int, default=1)
    parser.add_argument("--computers", type=int, default=2)
    parser.add_argument("--level", choices=("easy", "normal", "expert"))
    parser.add_argument("--only", choices=("bot", "echo", "base"))
    parser.add_argument("--rounds", type=int, default=1,
                        help="measure every phase this many times, the bots in turn first")
    parser.add_argument("--baseline", help="a checkout of older code to measure as well")
    parser.add_argument("--echo-loop", choices=("asyncio", "uvloop"), default="asyncio",
                        help="the echo bot's event loop (a bare discord.py bot's is asyncio's)")
    parser.add_argument("--memory", type=int, default=0)
    parser.add_argument("--profile", help="write the bot's cProfile stats of the window here")
    parser.add_argument("--role", choices=("bot", "echo", "base"), help=argparse.SUPPRESS)
    parser.add_argument("--root", help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    parser.add_argument("--api-base", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.baseline and not arguments.role:
        arguments.baseline = os.path.abspath(arguments.baseline)
    if arguments.role:
        _runner(arguments)(child(arguments))
    else:
        asyncio.run(main(arguments))
