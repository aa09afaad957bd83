"""Load benchmark (not a test): live tables played through the fake Discord, against a bare
discord.py echo bot on the same fake as the floor.

    .venv/bin/python scripts/bench_discord.py [--tables 200] [--seconds 30] [--warmup 15]
        [--interval 2.0] [--computer-pause 1.5] [--game dubb] [--people 1] [--computers 2]
        [--level easy|normal|expert] [--levels normal,expert]
        [--only bot|echo|base] [--baseline WORKTREE] [--rounds N] [--profile FILE] [--spy FILE]
        [--trace module:Class.function,...]
        [--echo-loop asyncio|uvloop]
    .venv/bin/python scripts/bench_discord.py --memory 1000 [--webhooks]
    .venv/bin/python scripts/bench_discord.py --cold 1000 [--restart] [--interval 20]
        [--start-at-once] [--seconds 60] [--baseline WORKTREE] [--rounds N]
    .venv/bin/python scripts/bench_discord.py --only bot --processes 2 [--shards 4]

The fake Discord (Discord's rate limits, as in the tests) and its simulated people run in this
process; the bot runs in a child process — the real ``KortbordBot`` with the settings
``python -m bot`` would read, logging at INFO to a file — so its CPU time and event-loop lag
are its own. The child also runs a small monitor: a task that asks to wake every 10 ms and
records how late it wakes (the loop lag: how long ready callbacks kept the loop busy).

Every table seats ``--people`` people and ``--computers`` computer players (``--game dubb`` or
``tonk``) of ``--level`` (issue 34: ``expert`` computers search in the bot's worker process; unset:
the server's default, normal). ``--levels normal,expert`` runs the bot alone once per level (in
turn first from round to round) and ends with a row per level. Each person looks once per
``--interval`` seconds on average (uniformly 0.5–1.5×, tables staggered). With ``--watch table``
(the default) they learn that it is their turn as the table's other players do, from the **public
table** (the table names them; a new table message that mentions them is their ping): then they
make a move on their hand panel if it shows this turn (the bot announces the turn on an open
panel), else open their hand from the table first (the first play or discard offered, else draw,
else pass; Tonk: deal the next hand); otherwise they do nothing. With ``--watch panel`` they read
only their self-refreshing hand panel, as before issue 32: they move when it says it is their turn,
else press **Refresh**. A finished game is followed by a new one (`/dubb start`, Start). Computers
move after ``--computer-pause`` seconds, through the bot's own ``COMPUTER_PAUSE``.

``--processes 2`` runs the bot in two processes on one token and one PostgreSQL database (a
throwaway server, ``tests/store/pgserver.py``), each with half of ``--shards`` shards, the
tables spread over one server per shard (the echo phase is skipped).

What people see is watched in the fake as it happens (``Watch``): every version of every table
message (the move counter its buttons carry), every ping, every panel's "🔔 Your turn". From the
moves in the database, the figures for the measured window: **table freshness** (a move's
commit until the public table first shows it) p50/p99/max, over every move, and the tables'
longest wait; **turn wait** (the move that gave a person the turn until the public table shows
it) p50/p99/max; the person turns **pinged** (a new message mentioning them between the turn's
start and their move), **announced on their panel** only, and **neither** (which must be 0,
but for Tonk's Deal next hand: a person's move after another's that is nobody's turn, so nobody
is called to it);
requests per second **by kind** (on the bot token's global budget, on interaction endpoints, on
the IP's budget: webhook tokens) with the busiest 1-s window of the global one; and the invalid
requests (401, 403, 429) the fake counted.

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
the ratios bot/echo. With ``--baseline`` the run ends with this code against the baseline,
paired by round: the mean difference and its 95 % confidence interval (CPU per move; with
``--cold``, lobby p99, p50 and CPU a lobby).

``--trace module:Class.function,...`` adds up the CPU the bot (and the baseline) spends inside
those functions — each step of a coroutine, nested calls counted in each — and prints it per
move for the measured window, or per table until each mark of a cold start (``CpuTrace``): a
breakdown without cProfile's inflation of Python-heavy code or py-spy's samples of time spent
waiting for a core.

``--memory N`` opens N tables (one person, ``--computers`` computers, no turn timer) and
reports the bot's resident memory per live table (the slope between N/5 and N tables, after a
garbage collection); then it kills the bot with SIGKILL, starts it again on the same database,
and reports how it redrew the tables left behind: requests, 429s and how long it took.

``--cold N`` measures a cold start (issue 49): N people in N new channels (on one server, or
spread by turns over ``--servers`` servers, as a bot added to many servers sees them), where
the bot has Manage Webhooks and has never played, each type `/{game} start` at the same moment (no
warm-up, no staggering), press Start once their lobby shows, after a thought as long as any
other click's (``--interval`` seconds, 0.5–1.5×; ``--start-at-once``: none, so that the starts
of the first lobbies compete with the lobbies still to show), and play on (a look every
``--interval`` seconds) for ``--seconds``. Reported: **lobby appearance** (the command until
the lobby message exists on the fake) p50/p99/max and how many took over 30 s, **tables
started** and when the last one started (from the burst), the bot's **CPU from the burst
until the last lobby showed and until the last table started** (its user and system time,
whatever else ran on the machine; the latter includes the first moves of the tables started
early), the bot token's requests per
second over the burst (each second's count, its busiest second and the busiest sliding 1 s),
the channel-webhook set-ups (GET and POST ``/channels/{id}/webhooks``) and when the last one
was made, 429s, interactions failed, and the table freshness of the moves made. With
``--restart`` the bot then stops (as a deployment does) and starts again on the same database
with the N tables live; the people play on, and the same figures are reported from the restart
on: answers, table freshness and turn wait, requests per second on the global budget, 429s.
The bot's CPU until each of those marks comes with the garbage collector's share by generation
(collections and their CPU). With ``--baseline`` the older checkout runs the same cold start in
the same run. Each round
first runs the echo bot's cold start (the floor: a bare discord.py bot answering each command
with a public message, which its people read as their lobby; ``--only`` picks one phase). The
burst waits until the bot has made sure of its card emojis (a new fake has none).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import collections.abc
import contextlib
import functools
import gc
import importlib
import inspect
import itertools
import json
import logging
import math
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
from bot.fakediscord.model import BOT_DEFAULT, MANAGE_WEBHOOKS, StoredMessage  # noqa: E402
from bot.fakediscord.ratelimit import BUDGET_INTERACTION, RateLimitConfig  # noqa: E402

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


class CpuTrace:
    """``--trace``: the CPU (this thread's time) spent inside chosen functions, with their calls.
    A coroutine function's time is that of each of its steps, whatever it awaits in between;
    a call nested in another traced one counts in both. Unlike cProfile it leaves the rest of
    the code at its own speed (about a microsecond a traced call), and unlike py-spy's samples
    on a busy machine it counts no time spent waiting for a core."""

    def __init__(self) -> None:
        self.spent: dict[str, list[int]] = {}

    def install(self, paths: list[str]) -> None:
        """Wrap each of ``paths`` (``module:Class.function`` or ``module:function``) in place,
        where those who call it find it (an import by name elsewhere keeps the original)."""
        for path in paths:
            module, _, name = path.partition(":")
            owner: Any = importlib.import_module(module)
            *outer, last = name.split(".")
            for part in outer:
                owner = getattr(owner, part)
            found = inspect.getattr_static(owner, last)
            setattr(owner, last, self._wrapped(found, name))

    def _wrapped(self, found: Any, name: str) -> Any:
        spent = self.spent.setdefault(name, [0, 0])
        now = time.thread_time_ns
        plain = found.__func__ if isinstance(found, staticmethod) else found
        if inspect.iscoroutinefunction(plain):
            @functools.wraps(plain)
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                spent[1] += 1
                return _TracedSteps(plain(*args, **kwargs), spent)
        else:
            @functools.wraps(plain)
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                spent[1] += 1
                began = now()
                try:
                    return plain(*args, **kwargs)
                finally:
                    spent[0] += now() - began
        return staticmethod(wrapper) if isinstance(found, staticmethod) else wrapper

    def take(self) -> dict[str, list[int]]:
        return {name: list(spent) for name, spent in self.spent.items()}


def traced_lines(before: dict[str, Any], after: dict[str, Any], count: int, per: str) -> None:
    """Prints each traced function's CPU between two reports, the largest first, per call and
    per ``per`` (``count`` of them: tables, moves)."""
    spent = {name: (ns - before.get(name, (0, 0))[0], calls - before.get(name, (0, 0))[1])
             for name, (ns, calls) in after.items()}
    idle = sorted(name for name, (_, calls) in spent.items() if not calls)
    for name, (ns, calls) in sorted(spent.items(), key=lambda item: -item[1][0]):
        if not calls:
            continue
        print(f"    {name}: {ns / 1e6:.1f} ms in {calls} calls, {ns / 1e3 / max(calls, 1):.1f} "
              f"µs a call, {ns / 1e3 / max(count, 1):.1f} µs a {per}")
    if idle:
        print(f"    not called (or called by a name imported before it was traced): "
              f"{', '.join(idle)}")


def collections_line(pauses: list[Any]) -> str:
    """The garbage collector's CPU by generation in ``pauses`` (a report's ``gc``)."""
    by: dict[int, list[float]] = {}
    for generation, wall, *cpu in pauses:
        by.setdefault(int(generation), []).append(float(cpu[0]) if cpu else float(wall))
    return ", ".join(f"{generation}: {len(cpus)}, {sum(cpus) * 1000:.0f} ms of CPU, the longest "
                     f"{max(cpus) * 1000:.1f} ms" for generation, cpus in sorted(by.items()))


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


class _Steps(collections.abc.Coroutine):  # type: ignore[type-arg]
    """A coroutine whose every step (``send``, ``throw``) is measured by ``clock`` and handed to
    ``_took``, whether a task drives it or another coroutine awaits it."""

    __slots__ = ("_coro",)
    clock: Callable[[], float] = staticmethod(time.perf_counter)

    def __init__(self, coro: Any) -> None:
        self._coro = coro

    def _took(self, took: float) -> None:
        raise NotImplementedError

    def send(self, value: Any) -> Any:
        began = self.clock()
        try:
            return self._coro.send(value)
        finally:
            self._took(self.clock() - began)

    def throw(self, *exc: Any) -> Any:
        began = self.clock()
        try:
            return self._coro.throw(*exc)
        finally:
            self._took(self.clock() - began)

    def close(self) -> None:
        self._coro.close()

    def __await__(self) -> Any:
        return self

    def __iter__(self) -> Any:
        return self

    def __next__(self) -> Any:
        return self.send(None)


class _TimedSteps(_Steps):
    """A task's coroutine whose every step is timed into a timer."""

    __slots__ = ("_timer",)

    def __init__(self, coro: Any, timer: CallbackTimer) -> None:
        super().__init__(coro)
        self._timer = timer

    def _name(self) -> str:
        return getattr(self._coro, "__qualname__", "task")

    def _took(self, took: float) -> None:
        self._timer.record(took, _TimedSteps._name, self)


class _TracedSteps(_Steps):
    """A coroutine whose every step's CPU (nanoseconds of this thread) is added to ``spent``."""

    __slots__ = ("_spent",)
    clock = staticmethod(time.thread_time_ns)

    def __init__(self, coro: Any, spent: list[int]) -> None:
        super().__init__(coro)
        self._spent = spent

    def _took(self, took: float) -> None:
        self._spent[0] += int(took)


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


ECHO_LOBBY = "echo: waiting for players"
"""The echo bot's answer to a command: the title the people read as a lobby's."""


def _echo_client() -> Any:
    import discord

    intents = discord.Intents.none()
    intents.guilds = True
    client = discord.Client(intents=intents)

    @client.event
    async def on_interaction(interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.application_command:
            # the cold start's floor (--cold): a public answer its people read as their lobby
            await interaction.response.send_message(embed=discord.Embed(title=ECHO_LOBBY))
            return
        await interaction.response.send_message("echo", ephemeral=True)

    return client


async def child(args: argparse.Namespace) -> None:

    import discord

    from bot.client import KortbordBot
    from bot.config import Settings
    from bot.discord_api import point_discord_at

    folder = Path(args.folder)
    handler = logging.FileHandler(folder / f"{args.role}.log")
    setup = None
    if args.role in ("bot", "base"):
        setup = getattr(importlib.import_module("bot.main"), "setup_logging", None)
    if setup is not None and "writer" in inspect.signature(setup).parameters:
        # as ``python -m bot`` logs (a thread of its own writes the lines), into the file
        setup(logging.INFO, "text", writer=handler)
    else:
        # a bare discord.py bot's logging (the echo's, and an older checkout's bot's here)
        discord.utils.setup_logging(handler=handler, level=logging.INFO, root=True)
    point_discord_at(args.api_base)
    sharding: dict[str, Any] = {}
    if args.shard_ids:
        sharding = {"shard_count": args.shards,
                    "shard_ids": [int(i) for i in args.shard_ids.split(",")]}
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token=TOKEN, database_path=folder / "kortbord.sqlite3",
        database_url=args.database_url or None,
        computer_pause=args.computer_pause, log_level="INFO", **sharding,
    )
    # before the client is made: discord.py keeps its gateway parsers by the time it is
    trace = CpuTrace()
    if args.trace:
        trace.install(args.trace.split(","))
    # as ``python -m bot`` makes it (``bot.main``), in a checkout that knows how
    settle = {"settle": True} if "settle" in inspect.signature(KortbordBot).parameters else {}
    if args.role in ("bot", "base"):
        from bot.sharding import make_bot

        client: discord.Client = make_bot(settings, **settle)
    else:
        client = _echo_client()
    monitor = LagMonitor()
    timer = CallbackTimer()
    timer.install()
    pauses: list[tuple[int, float, float]] = []
    began = [0.0, 0.0]

    def on_gc(when: str, info: dict[str, int]) -> None:
        # a collection runs inside whatever callback allocated: a long one is a loop stall;
        # its CPU apart, as a starved machine stretches the wall time (the thread's CPU: the
        # collector runs on the thread that allocated)
        if when == "start":
            began[:] = [time.perf_counter(), time.thread_time()]
        else:
            pauses.append((info["generation"], time.perf_counter() - began[0],
                           time.thread_time() - began[1]))

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
                  "gc": pauses[:], "objects": len(gc.get_objects()),
                  "trace": trace.take()}
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
                 args: argparse.Namespace, *, database_url: str = "",
                 shard_ids: str = "") -> None:
        self.role = role
        self.fake = fake
        self.folder = folder
        self.args = args
        self.database_url = database_url
        self.shard_ids = shard_ids
        self.process: asyncio.subprocess.Process | None = None

    async def start(self, driver: Driver) -> None:
        before = self.fake.gateway.identify_count
        sessions = set(self.fake.gateway.sessions)
        argv = [sys.executable, __file__, "--role", self.role, "--folder", str(self.folder),
                "--api-base", self.fake.api_base,
                "--computer-pause", str(self.args.computer_pause),
                "--echo-loop", self.args.echo_loop, "--shards", str(self.args.shards)]
        if self.database_url:
            argv += ["--database-url", self.database_url]
        if self.shard_ids:
            argv += ["--shard-ids", self.shard_ids]
        if self.role == "base":
            argv += ["--root", self.args.baseline]
        if self.args.profile and self.role == "bot":
            argv += ["--profile", self.args.profile]
        if self.args.trace and self.role in ("bot", "base"):
            argv += ["--trace", self.args.trace]
        if self.args.spy and self.role in ("bot", "base"):
            # py-spy samples from outside: no tracing hook slows the bot as cProfile's does.
            # Attaching to a running process is refused on some machines; starting it is not.
            spy = str(Path(sys.executable).with_name("py-spy"))
            argv = [spy, "record", "--nonblocking", "--format", "raw", "--rate", "100",
                    "-o", f"{self.args.spy}.{self.role}.txt", "--", *argv]
        self.process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            start_new_session=True,
            # a report carries every loop-lag sample since the last one: a long phase (opening
            # 1,000 tables) sends more than asyncio's default 64 KiB line
            limit=REPORT_LIMIT,
        )
        if not self.shard_ids:
            await driver.wait_bot_ready(after=before, within=BOOT_TIMEOUT)
            return
        wanted = {int(i) for i in self.shard_ids.split(",")}

        def ready() -> bool:
            live = [x for x in self.fake.gateway.live_sessions() if x.id not in sessions]
            return wanted <= {x.shard[0] for x in live if x.shard is not None}

        await self.fake.wait_for(ready, BOOT_TIMEOUT, f"shards {self.shard_ids} to connect")

    async def ask(self, command: str = "mark") -> dict[str, Any]:
        assert self.process is not None and self.process.stdin and self.process.stdout
        self.process.stdin.write(f"{command}\n".encode())
        await self.process.stdin.drain()
        line = await self.process.stdout.readline()
        while line and (line.startswith(b"py-spy>") or not line.strip()):
            # what --spy's sampler says about itself on the same output
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
    acted: tuple[int, int] = (-1, -1)
    """The table and move counter at which the person last acted on a turn of theirs."""


def _layout_texts(message: StoredMessage) -> list[str]:
    """The Text Displays of a table drawn as a Components V2 layout (a container first)."""
    box = message.components[0] if message.components else {}
    if box.get("type") != 17:
        return []
    return [str(c["content"]) for c in box.get("components") or [] if c.get("type") == 10]


def _title(message: StoredMessage) -> str:
    """A table's title, in the embed of old code or in the layout's heading of new code."""
    if message.embeds:
        return str(message.embeds[0].get("title", ""))
    heading = next((t for t in _layout_texts(message) if t.startswith("## ")), "")
    return heading[3:].split("\n")[0]


def _said(message: StoredMessage) -> str:
    """What a table says above itself (who is to move): its content, or its layout's text."""
    return message.content or "\n".join(_layout_texts(message))


def by_bot(fake: FakeDiscord, message: StoredMessage) -> bool:
    """Whether the bot wrote ``message``: as itself (or through an interaction), or through
    its application's webhook on the channel."""
    if message.author.id == fake.bot_user.id:
        return True
    hook = None if message.webhook_id is None else fake.webhooks.get(message.webhook_id)
    return hook is not None and hook.application_id == fake.application.id


def table_message(driver: Driver, channel: Channel) -> StoredMessage | None:
    for message in reversed(driver.channel_messages(channel)):
        shown = message.embeds or _layout_texts(message)
        if shown and by_bot(driver.fake, message):
            return message
    return None


FINAL = 1 << 62
"""The counter a finished table shows (its buttons carry none): past every move of its game."""


def shown_counter(message: StoredMessage) -> tuple[int, int] | None:
    """The table and move counter a table message shows (``FINAL`` once its game is over);
    ``None`` for a message that is no table of a game in play or over."""
    table, counter, final = -1, -1, False
    for component in message.interactive_components():
        parts = str(component.get("custom_id", "")).split(":")
        if len(parts) < 4 or parts[0] != "kb":
            continue
        table = int(parts[2]) if parts[2].isdigit() else table
        final = final or parts[3] == "again"
        if len(parts) > 4 and parts[4].isdigit():
            counter = max(counter, int(parts[4]))
    if table < 0:
        return None
    return table, FINAL if final else counter


class Watch:
    """What people can see, recorded as the fake makes it: every version of every public table
    message (its table and move counter), every ping, and every hand panel's "🔔 Your turn"."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.shows: dict[int, tuple[list[float], list[int]]] = {}
        """Table → when each version was shown, and its counter (never lower than before)."""
        self.pings: dict[tuple[int, int], list[float]] = {}
        """(channel, person) → when a new message mentioned them."""
        self.announced: dict[int, list[float]] = {}
        """Person → when their open panel announced a turn of theirs."""
        self.lobbies: dict[int, float] = {}
        """Channel → when its first lobby message was made."""
        self.started: dict[int, float] = {}
        """Channel → when a table there first showed a game under way."""
        create, edit = fake.create_message, fake.edit_message

        def created(*args: Any, **kwargs: Any) -> StoredMessage:
            pinged = len(fake.pings)
            message = create(*args, **kwargs)
            now = time.time()
            for ping in fake.pings[pinged:]:
                self.pings.setdefault((ping.channel_id, ping.user_id), []).append(now)
            self._seen(message, now)
            return message

        def edited(*args: Any, **kwargs: Any) -> StoredMessage:
            message = edit(*args, **kwargs)
            self._seen(message, time.time())
            return message

        fake.create_message = created  # type: ignore[method-assign]
        fake.edit_message = edited  # type: ignore[method-assign]

    def _seen(self, message: StoredMessage, now: float) -> None:
        if not by_bot(self.fake, message):
            return
        if message.ephemeral_for is not None:
            if message.text.startswith("🔔"):
                self.announced.setdefault(message.ephemeral_for, []).append(now)
            return
        if message.channel_id not in self.lobbies and "waiting for players" in _title(message):
            self.lobbies[message.channel_id] = now
        shown = shown_counter(message)
        if shown is None:
            return
        if shown[1] >= 0 and message.channel_id not in self.started:
            self.started[message.channel_id] = now
        times, counters = self.shows.setdefault(shown[0], ([], []))
        if not counters or shown[1] > counters[-1]:
            times.append(now)
            counters.append(shown[1])

    def first_shown(self, table: int, counter: int) -> float | None:
        """When the table first showed move ``counter`` (or a later one)."""
        times, counters = self.shows.get(table, ([], []))
        at = bisect.bisect_left(counters, counter)
        return times[at] if at < len(times) else None

    @staticmethod
    def between(times: list[float], start: float, end: float) -> bool:
        at = bisect.bisect_left(times, start)
        return at < len(times) and times[at] <= end


class Bench:
    def __init__(self, fake: FakeDiscord, driver: Driver, args: argparse.Namespace, *,
                 echo: bool = False) -> None:
        self.fake = fake
        self.driver = driver
        self.args = args
        self.echo = echo
        """People of the echo phase: their channel's one message has no table to read."""
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

    async def open_table(self, people: list[Person], *, turn_time: int | None = None,
                         think: bool = False) -> None:
        """``/{game} start``, everyone else's Join and the host's Start once the lobby shows;
        ``think``: after as long a thought as any other click (``--interval``, 0.5–1.5×)."""
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
        if think:
            await asyncio.sleep(self.args.interval
                                * random.Random(host.user.id).uniform(0.5, 1.5))
        for guest in people[1:]:
            await self.act(lambda g=guest: self.driver.click(g.user, lobby, "Join"), "join")
        await self.act(lambda: self.driver.click(host.user, lobby, "Start",
                                                 within=BOOT_TIMEOUT), "Start")
        for person in people:
            person.panel = None

    async def look(self, person: Person, people: list[Person]) -> None:
        """One look at the public table, and the person's move if it is their turn
        (``--watch table``, as described in the module's docstring)."""
        driver = self.driver
        table = table_message(driver, person.channel)
        labels = [] if table is None else [b.get("label") for b in table.buttons()]
        if table is not None and "Deal next hand" in labels:
            # a Tonk hand is over: its table has no Your hand, and the table goes on
            shown = shown_counter(table)
            if person.host and shown is not None and shown > person.acted and await self.act(
                    lambda: driver.click(person.user, table, "Deal next hand"), "move"):
                person.acted = shown
            return
        if table is None or "Your hand" not in labels:
            if person.host and (table is None or "waiting for players" not in _title(table)):
                await self.open_table(people)
            return
        shown = shown_counter(table)
        if shown is None or shown <= person.acted:
            return
        if f"<@{person.user.id}>" not in _said(table):
            return
        panel = None if person.panel is None else self.fake.messages.get(person.panel.id)
        if panel is None or panel.deleted or shown_counter(panel) != shown:
            opened = await self.act(lambda: driver.click(person.user, table, "Your hand"),
                                    "hand")
            if opened is None or opened.message is None or not opened.message.ephemeral:
                return
            panel = person.panel = opened.message
        moved = await self.act(lambda: self.move(person, panel), "move")
        if moved is not None:
            # a move that failed is tried again at the next look
            person.acted = shown
            if moved.message is not None and moved.message.ephemeral:
                person.panel = moved.message

    async def click(self, person: Person, people: list[Person]) -> None:
        """One click, as described in the module's docstring (``--watch panel``)."""
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

    async def ask_echo(self, person: Person, people: list[Person]) -> None:
        """One click on the echo bot's message at each look: it shows no turn to wait for
        (``look`` would find no table counter on it and never click)."""
        message = table_message(self.driver, person.channel)
        if message is not None:
            await self.act(lambda: self.driver.click(person.user, message, "Your hand"), "hand")

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
        # tables staggered: at most a hundred tables' first looks a second
        await asyncio.sleep(rng.uniform(0, max(interval, self.args.tables / 100)))
        step = (self.ask_echo if self.echo
                else self.look if self.args.watch == "table" else self.click)
        while time.monotonic() < stop_at:
            for person in people:
                await step(person, people)
            await asyncio.sleep(interval * rng.uniform(0.5, 1.5))


def build_world(driver: Driver, tables: int, people: int, shards: int = 0, *,
                webhooks: bool = False, servers: int = 1) -> list[list[Person]]:
    """The tables' channels and people: on ``servers`` servers, or (``shards``) on one
    server per shard, by turns; ``webhooks``: the bot has Manage Webhooks there."""
    permissions = BOT_DEFAULT | MANAGE_WEBHOOKS if webhooks else BOT_DEFAULT
    guilds = ([driver.add_guild(f"Bench {k}", shard_of=(k, shards), bot_permissions=permissions)
               for k in range(shards)]
              if shards else [driver.add_guild(f"Bench {k}", bot_permissions=permissions)
                              for k in range(max(1, servers))])
    seated = []
    for n in range(tables):
        guild = guilds[n % len(guilds)]
        channel = driver.add_channel(guild, f"table-{n}")
        users = [driver.add_user(f"P{n}-{k}", guilds=[guild]) for k in range(people)]
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
class Sight:
    """What people saw of the moves in the measured window."""

    freshness: list[float] = field(default_factory=list)
    """Seconds from each move's commit until the public table showed it."""
    unshown: int = 0
    """Moves the table had not shown by the end of the phase."""
    turn_wait: list[float] = field(default_factory=list)
    """Seconds from the move that gave a person the turn until the public table showed it."""
    turns: int = 0
    pinged: int = 0
    announced: int = 0
    """Turns announced on the person's open panel and not pinged."""
    neither: int = 0


def what_people_saw(watch: Watch, moves: list[tuple[int, int, int, float]],
                    channels: dict[int, int], since: float, until: float) -> Sight:
    """The figures of ``Sight`` from the moves (table, seq, player, committed at: seq 0 is a
    game's start) and each table's channel."""
    sight = Sight()
    by_table: dict[int, list[tuple[int, int, float]]] = {}
    for table, seq, player, at in moves:
        by_table.setdefault(table, []).append((seq, player, at))
    for table, rows in by_table.items():
        rows.sort()
        for seq, _, at in rows:
            if seq == 0 or not since <= at <= until:
                continue
            shown = watch.first_shown(table, seq)
            if shown is None:
                sight.unshown += 1
            else:
                sight.freshness.append(shown - at)
        for (seq0, before, began), (seq1, player, acted) in itertools.pairwise(rows):
            if player <= 0 or seq1 != seq0 + 1 or (seq0 > 0 and before == player):
                continue  # a computer's move, or the same person's turn going on
            if not since <= began <= until:
                continue
            sight.turns += 1
            shown = watch.first_shown(table, seq0)
            if shown is not None:
                sight.turn_wait.append(shown - began)
            if Watch.between(watch.pings.get((channels[table], player), []), began, acted):
                sight.pinged += 1
            elif Watch.between(watch.announced.get(player, []), began, acted):
                sight.announced += 1
            else:
                sight.neither += 1
    return sight


async def read_moves(database: Path, url: str) -> tuple[list[tuple[int, int, int, float]],
                                                         dict[int, int]]:
    """Every move (table, seq, player, committed at) and each table's channel."""
    if url:
        import asyncpg

        connection = await asyncpg.connect(url)
        try:
            moves = [tuple(r) for r in await connection.fetch(
                "SELECT table_id, seq, player_id, created_at FROM moves")]
            channels = {r[0]: r[1] for r in await connection.fetch(
                "SELECT id, channel_id FROM tables")}
        finally:
            await connection.close()
        return moves, channels  # type: ignore[return-value]
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True,
                                            timeout=30)) as db:
        moves = db.execute("SELECT table_id, seq, player_id, created_at FROM moves").fetchall()
        channels = dict(db.execute("SELECT id, channel_id FROM tables").fetchall())
    return moves, channels


async def count_moves(database: Path, url: str) -> int:
    if not url:
        return moves_in(database)
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        return int(await connection.fetchval("SELECT COUNT(*) FROM moves WHERE seq > 0"))
    finally:
        await connection.close()


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
    gc_cpu: float = 0.0
    """The CPU seconds the collections took."""
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
    sight: Sight | None = None
    """What people saw (``--watch table``)."""
    kinds_per_second: dict[str, float] = field(default_factory=dict)
    """Requests per second on each budget: global (the bot token's), interaction, webhook."""
    global_peak: int = 0
    """The most requests on the bot token's global budget within any 1 s of the window."""
    invalid: int = 0
    """Responses 401, 403 and 429 in the last 10 minutes, as the fake counts them."""
    processes: int = 1
    failed_in_all: int = 0
    """Interactions that failed over the whole phase (opening and warm-up included)."""

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
    watch = Watch(fake)
    driver = Driver(fake)
    several = role != "echo" and args.processes > 1
    tables = build_world(driver, args.tables, 1 if role == "echo" else args.people,
                         args.shards if several else 0, webhooks=args.webhooks,
                         servers=args.servers)
    bench = Bench(fake, driver, args, echo=role == "echo")
    postgres = url = None
    if several:
        sys.path.insert(0, str(ROOT))
        from tests.store.pgserver import PgServer

        postgres = PgServer.start()
        url = postgres.url(postgres.create_database())
        per = args.shards // args.processes
        children = [Child(role, fake, folder / f"process-{n}", args, database_url=url,
                          shard_ids=",".join(str(i) for i in range(n * per, (n + 1) * per)))
                    for n in range(args.processes)]
        for one in children:
            one.folder.mkdir(parents=True, exist_ok=True)
    else:
        children = [Child(role, fake, folder, args)]
    for one in children:
        await one.start(driver)
    child_process = children[0]
    phase = Phase(role, processes=len(children))
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
        firsts = [await one.ask() for one in children]
        fake_lag = LagMonitor()
        lag_task = asyncio.create_task(fake_lag.run())
        loop_from = asyncio.get_running_loop().time()
        calls_from, events_from = len(fake.rest_calls), gateway_events(fake)
        database = folder / "kortbord.sqlite3"
        moves_from = await count_moves(database, url or "") if role != "echo" else 0
        clicks_from = len(bench.clicks.latencies)
        failed_from = bench.clicks.failed
        t0 = time.monotonic()
        wall_from = time.time()
        await asyncio.sleep(args.seconds)
        lasts = [await one.ask() for one in children]
        last = lasts[0]
        phase.seconds = time.monotonic() - t0
        wall_to = wall_from + phase.seconds
        budgets = {"global": fake.global_budget(TOKEN), "interaction": BUDGET_INTERACTION,
                   "webhook": "ip:127.0.0.1"}
        for kind, budget in budgets.items():
            sent = [t for t in fake.limiter.times(budget) if wall_from <= t <= wall_to]
            phase.kinds_per_second[kind] = len(sent) / phase.seconds
        phase.global_peak = fake.limiter.peak(budgets["global"], 1.0, since=wall_from)
        calls = fake.rest_calls[calls_from:]
        phase.requests = len(calls)
        for call in calls:
            key = f"{call.method} {call.route}"
            phase.by_route[key] = phase.by_route.get(key, 0) + 1
        phase.events = gateway_events(fake) - events_from
        if role != "echo":
            phase.moves = await count_moves(database, url or "") - moves_from
            if args.trace:
                print(f"  [{role}] traced over the window's {phase.moves} moves:")
                traced_lines(firsts[0]["trace"], last["trace"], phase.moves, "move")
        measured = [(lat, what) for at, lat, what in bench.clicks.latencies[clicks_from:]
                    if at >= loop_from]
        phase.interactions = len(measured)
        phase.latencies = [lat for lat, _ in measured]
        for lat, what in measured:
            phase.kinds.setdefault(what, []).append(lat)
        phase.failed = bench.clicks.failed - failed_from
        phase.cpu = sum(b["cpu"] - a["cpu"] for a, b in zip(firsts, lasts, strict=True))
        phase.waited = sum(b["waited"] - a["waited"] for a, b in zip(firsts, lasts, strict=True))
        phase.lag = last["lag"]
        phase.callbacks = last["callbacks"]
        phase.loop = last["loop"]
        phase.timed = last["timed"]
        phase.stalls = last["stalls"]
        phase.gc = [(int(gen), float(secs)) for gen, secs, *_ in last["gc"]]
        phase.gc_cpu = sum(float(rest[0]) for _, _, *rest in last["gc"] if rest)
        phase.objects = int(last["objects"])
        phase.fake_lag = fake_lag.take()
        lag_task.cancel()
        if role == "echo":
            phase.moves = phase.interactions
        await asyncio.gather(*players, return_exceptions=True)
        if role != "echo":
            # what the window's last moves looked like once the tables caught up
            await asyncio.sleep(args.settle)
            moves, channels = await read_moves(database, url or "")
            phase.sight = what_people_saw(watch, moves, channels, wall_from, wall_to)
        phase.invalid = fake.invalid_requests.count("127.0.0.1", time.time())
        phase.failed_in_all = bench.clicks.failed
        phase.rate_limited = len(fake.rate_limited)
        for hit in fake.rate_limited[:5]:
            print(f"  429: {hit.method} {hit.route} ({hit.scope}, retry after "
                  f"{hit.retry_after:.2f} s)")
    finally:
        gc.unfreeze()
        for one in children:
            await one.stop()
        await fake.stop()
        if postgres is not None:
            postgres.stop()
    return phase


def show(phase: Phase) -> None:
    ms = 1000
    print(f"[{phase.role}] {phase.seconds:.1f} s: {phase.moves / phase.seconds:.1f} moves/s, "
          f"{phase.interactions / phase.seconds:.1f} interactions/s, {phase.failed} failed "
          f"({phase.failed_in_all} over the whole phase)")
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
    print(f"  429s (whole phase) {phase.rate_limited}; invalid requests (401/403/429, 10 min) "
          f"{phase.invalid}; gateway events {phase.events}")
    print("  requests per second by budget: " + ", ".join(
        f"{kind} {rate:.1f}" for kind, rate in phase.kinds_per_second.items())
        + f"; busiest 1 s of the global budget {phase.global_peak}"
        + (f" (over {phase.processes} processes)" if phase.processes > 1 else ""))
    sight = phase.sight
    if sight is not None:
        fresh, wait = sight.freshness, sight.turn_wait
        print(f"  table freshness (move -> the table shows it) p50 {pct(fresh, 50) * ms:.0f} ms, "
              f"p99 {pct(fresh, 99) * ms:.0f} ms, max {max(fresh, default=0):.2f} s "
              f"({len(fresh)} moves, {sight.unshown} not shown by the end)")
        print(f"  turn wait (the turn's move -> the table shows it) p50 "
              f"{pct(wait, 50) * ms:.0f} ms, p99 {pct(wait, 99) * ms:.0f} ms, max "
              f"{max(wait, default=0):.2f} s")
        turns = max(1, sight.turns)
        print(f"  person turns {sight.turns}: pinged {sight.pinged / turns:.1%}, announced on "
              f"their panel only {sight.announced / turns:.1%}, neither "
              f"{sight.neither / turns:.1%} ({sight.neither})")
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
        + f"; {phase.gc_cpu * ms:.0f} ms of CPU in all"
        f" ({phase.gc_cpu / phase.cpu:.1%} of the phase's)" * bool(phase.cpu)
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


_T95 = (12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23)
"""Student's t for a two-sided 95 % interval, by degrees of freedom (1–10); 1.96 beyond."""


def paired(what: str, new: list[float], old: list[float], unit: str) -> None:
    """Prints the new code's figure against the baseline's, paired by round: the mean
    difference with its 95 % confidence interval (the machine's noise moves both codes of a
    round alike, so the difference of a pair says more than either figure)."""
    diffs = [n - o for n, o in zip(new, old, strict=True)]
    if not diffs:
        return
    mean = statistics.mean(diffs)
    if len(diffs) < 2:
        print(f"  {what}, this code against the baseline: {mean:+.2f} {unit} (one round: no "
              "interval)")
        return
    df = len(diffs) - 1
    t = _T95[df - 1] if df <= len(_T95) else 1.96
    half = t * statistics.stdev(diffs) / math.sqrt(len(diffs))
    print(f"  {what}, this code against the baseline, paired by round: {mean:+.2f} ± "
          f"{half:.2f} {unit} (95 %, {len(diffs)} rounds)")


def _order(roles: tuple[str, ...], round_: int) -> tuple[str, ...]:
    """The phases of a round: the echo first, then the bots, in turn first and last (base, bot
    in the first round; bot, base in the second), so that a machine getting slower or faster
    over the run weighs on both alike."""
    echo, bots = roles[:1], roles[1:]
    return echo + (bots if round_ % 2 == 0 else bots[::-1])


async def levels(args: argparse.Namespace, base: Path) -> None:
    """The bot under the same load once per computer level of ``--levels`` (issue 34: expert
    computers against normal ones), in turn first from round to round, then one row per level."""
    rows: dict[str, list[Phase]] = {}
    names = args.levels.split(",")
    for round_ in range(args.rounds):
        for level in (names if round_ % 2 == 0 else names[::-1]):
            print(f"-- computers {level}" + (f", round {round_ + 1} of {args.rounds}"
                                             if args.rounds > 1 else ""), flush=True)
            phase = await run_phase("bot", argparse.Namespace(**{**vars(args), "level": level}),
                                    base / f"bot-{level}-{round_ + 1}")
            show(phase)
            rows.setdefault(level, []).append(phase)
    ms = 1000
    print("| computers | moves/s | answer p50 / p99 ms | loop lag p50 / p99 / max ms "
          "| waited for a core s | failed |")
    print("|---|---|---|---|---|---|")
    for level, phases in rows.items():
        for phase in phases:
            print(f"| {level} | {phase.moves / phase.seconds:.1f} "
                  f"| {statistics.median(phase.latencies) * ms:.1f} / "
                  f"{pct(phase.latencies, 99) * ms:.1f} "
                  f"| {pct(phase.lag, 50) * ms:.2f} / {pct(phase.lag, 99) * ms:.2f} / "
                  f"{max(phase.lag, default=0) * ms:.1f} | {phase.waited:.1f} | {phase.failed} |")


async def load(args: argparse.Namespace, base: Path) -> None:
    roles = ("echo", "base", "bot") if args.baseline else ("echo", "bot")
    summary: dict[str, list[tuple[float, float, float, float]]] = {}
    pairs: list[tuple[float, float]] = []  # each round's CPU per move: this code, the baseline
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
        if "bot" in phases and "base" in phases and phases["bot"].moves and phases["base"].moves:
            pairs.append((phases["bot"].per_move, phases["base"].per_move))
        echo = phases.get("echo")
        for role in ("base", "bot"):
            bot = phases.get(role)
            if bot is None or echo is None or not bot.latencies or not echo.latencies:
                continue
            p99, cpu = ratios(role, bot, echo)
            summary.setdefault(role, []).append((pct(bot.lag, 99) * 1000,
                                                 pct(bot.latencies, 99) * 1000, p99, cpu))
    if pairs:
        paired("CPU per move", [b for b, _ in pairs], [o for _, o in pairs], "ms")
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
    tables = build_world(driver, args.memory, 1, webhooks=args.webhooks)
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


WEBHOOK_SETUP = "/channels/{channel_id}/webhooks"
GAVE_UP_AFTER = 30.0
"""Seconds after which a person waiting for their lobby would have given up (the issue's)."""


def per_second(times: list[float], start: float, end: float) -> list[int]:
    """How many of ``times`` fell in each whole second from ``start`` until ``end``."""
    counts = [0] * max(1, math.ceil(end - start))
    for at in times:
        if start <= at < end:
            counts[int(at - start)] += 1
    return counts


def spread(values: list[float], ms: bool = False) -> str:
    """p50 / p99 / max of ``values`` (seconds), in ms or s."""
    if not values:
        return "none"
    unit, k, digits = ("ms", 1000, 0) if ms else ("s", 1, 2)
    return ", ".join(f"{name} {value * k:.{digits}f} {unit}" for name, value in (
        ("p50", pct(values, 50)), ("p99", pct(values, 99)), ("max", max(values))))


def budget_line(fake: FakeDiscord, start: float, end: float) -> str:
    """The bot token's requests per second on its global budget from ``start`` to ``end``."""
    budget = fake.global_budget(TOKEN)
    times = fake.limiter.times(budget)
    counts = per_second(times, start, end)
    busy = [c for c in counts if c]
    sliding = fake.limiter.peak(budget, 1.0, since=start)
    return (f"{sum(counts)} in {len(counts)} s, {sum(counts) / len(counts):.1f}/s; busiest "
            f"second {max(counts)}, busiest sliding 1 s {sliding}; seconds over 50: "
            f"{sum(1 for c in counts if c > 50)}; seconds busy {len(busy)}")


def bot_token_routes(calls: list[Any]) -> str:
    """The requests of ``calls`` on the bot token's budget, by route, busiest first."""
    routes: dict[str, int] = {}
    for call in calls:
        if not call.path.startswith(("/webhooks/", "/interactions/")):
            key = f"{call.method} {call.route}"
            routes[key] = routes.get(key, 0) + 1
    return ", ".join(f"{k} {v}" for k, v in sorted(routes.items(), key=lambda kv: -kv[1]))


def behind_at_end(watch: Watch, moves: list[tuple[int, int, int, float]]) -> tuple[int, int]:
    """(tables whose public table shows their last move, tables that do not)."""
    last: dict[int, int] = {}
    for table, seq, _, _ in moves:
        last[table] = max(last.get(table, 0), seq)
    behind = sum(1 for table, seq in last.items() if watch.first_shown(table, seq) is None)
    return len(last) - behind, behind


def _load(first: dict[str, Any], last: dict[str, Any], seconds: float) -> str:
    """The child's CPU and loop lag between two of its reports."""
    cpu = last["cpu"] - first["cpu"]
    return (f"CPU {cpu:.1f} s in {seconds:.0f} s ({cpu / seconds:.0%} of a core), waited for a "
            f"core {last['waited'] - first['waited']:.1f} s; loop lag p99 "
            f"{pct(last['lag'], 99) * 1000:.0f} ms, max "
            f"{max(last['lag'], default=0) * 1000:.0f} ms")


async def _play_until(people: list[Any], stop_at: float,
                      busy: Callable[[int], bool] = lambda n: False) -> None:
    """Run the people's coroutines until ``stop_at`` (monotonic), and no longer (a person
    asleep between two looks is not waited for), but for those still ``busy`` then (by their
    index), which are waited for."""
    tasks = [asyncio.create_task(one) for one in people]
    await asyncio.wait(tasks, timeout=max(0.0, stop_at - time.monotonic()))
    waited = [task for n, task in enumerate(tasks) if busy(n) and not task.done()]
    for task in tasks:
        if task not in waited:
            task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def _burst_cpu(child: Child, watch: Watch, count: int, over: asyncio.Event
                     ) -> list[tuple[str, float, dict[str, Any]]]:
    """The bot's reports when the burst's last lobby showed, and when its last table started
    (the CPU the cold start took, whatever else the machine ran meanwhile); those it has when
    the phase is ``over``."""
    marks = []
    for what, seen in (("the last lobby shown", watch.lobbies), ("the last start", watch.started)):
        while len(seen) < count:
            if over.is_set():
                return marks
            await asyncio.sleep(0.05)
        marks.append((what, time.time(), await child.ask()))
    return marks


def _burst_line(mark: dict[str, Any], began: float, count: int,
                marks: list[tuple[str, float, dict[str, Any]]]) -> dict[str, float]:
    """Prints the bot's CPU from the burst until each of ``marks``; returns the figures."""
    figures = {}
    since, since_what = mark, "the burst"
    for what, at, report in marks:
        cpu = report["cpu"] - mark["cpu"]
        print(f"  the bot from the burst until {what} ({at - began:.1f} s): CPU {cpu:.2f} s, "
              f"{cpu / count * 1000:.2f} ms a table; waited for a core "
              f"{report['waited'] - mark['waited']:.1f} s")
        figures["cpu_lobbies" if "lobby" in what else "cpu_started"] = cpu
        # since the report before: the collections' record starts over at every report
        print(f"    since {since_what}: garbage collections by generation "
              f"{collections_line(report['gc'])}")
        traced_lines(since["trace"], report["trace"], count, "table")
        since, since_what = report, what
    return figures


async def cold_phase(role: str, args: argparse.Namespace, folder: Path) -> dict[str, float]:
    """One cold start (``--cold``), and with ``--restart`` the restart after it; prints what
    it saw and returns the headline figures."""
    folder.mkdir(parents=True, exist_ok=True)  # noqa: ASYNC240 (before anything runs)
    fake = FakeDiscord(token=TOKEN, rate_limits=RateLimitConfig.discord_like())
    await fake.start()
    watch = Watch(fake)
    driver = Driver(fake)
    count = args.cold
    tables = build_world(driver, count, args.people, webhooks=True, servers=args.servers)
    bench = Bench(fake, driver, args)
    setups: list[tuple[float, str]] = []
    record = fake.record_call

    def recorded(call: Any) -> None:
        if call.route == WEBHOOK_SETUP and call.status < 300:
            setups.append((time.time(), call.method))
        record(call)

    fake.record_call = recorded  # type: ignore[method-assign]
    if role == "echo":
        # the bare bot syncs no commands: the fake knows the one its people type
        fake.put_commands(None, [echo_command(args)])
    child = Child(role, fake, folder, args)
    await child.start(driver)
    if role != "echo":
        await _emojis_settled(folder / f"{role}.log")
    database = folder / "kortbord.sqlite3"
    figures: dict[str, float] = {}
    try:
        gc.collect()
        gc.freeze()
        print(f"[{role}] cold start: {count} people type /{args.game} start at once in "
              f"{count} new channels (Manage Webhooks granted), then play for "
              f"{args.seconds:g} s", flush=True)
        sent: dict[int, float] = {}
        limited_from, calls_from = len(fake.rate_limited), len(fake.rest_calls)
        if role == "bot" and args.profile:
            # the burst and the play after it, until the bot stops
            await child.ask("profile")
        mark = await child.ask()
        began = time.time()
        stop_at = time.monotonic() + args.seconds

        async def one(people: list[Person]) -> None:
            sent[people[0].channel.id] = time.time()
            if role == "echo":
                await bench.act(lambda: driver.slash(
                    people[0].user, people[0].channel, f"{args.game} start",
                    {"computers": args.computers}, within=BOOT_TIMEOUT), "start")
                return
            await bench.open_table(people, think=not args.start_at_once)
            playing.add(people[0].channel.id)
            if time.monotonic() < stop_at:
                await bench.play(people, stop_at)

        playing: set[int] = set()
        over = asyncio.Event()
        burst = asyncio.create_task(_burst_cpu(child, watch, count, over))
        # however slow the bot, every lobby and start is waited for; a person asleep between
        # two looks at the end is not
        await _play_until([one(people) for people in tables], stop_at,
                          busy=lambda n: tables[n][0].channel.id not in playing)
        ended = time.time()
        # the last start shows a moment after its click was answered
        await asyncio.wait([burst], timeout=args.settle)
        over.set()
        marks = await burst
        last = await child.ask()
        # each report carries the loop lag since the one before
        last["lag"] = [lag for _, _, report in marks for lag in report["lag"]] + last["lag"]
        print(f"  the bot: {_load(mark, last, ended - began)}")
        figures.update(_burst_line(mark, began, count, marks))
        await asyncio.sleep(args.settle)
        lobbies = [watch.lobbies[c] - at for c, at in sent.items() if c in watch.lobbies]
        started = sorted(watch.started[c] - began for c in sent if c in watch.started)
        starts = [lat for _, lat, what in bench.clicks.latencies if what == "start"]
        pressed = [lat for _, lat, what in bench.clicks.latencies if what == "Start"]
        moves, channels = (await read_moves(database, "")) if role != "echo" else ([], {})
        sight = what_people_saw(watch, moves, channels, began, ended)
        last_started = started[-1] if started else float("nan")
        print(f"  lobby appearance (command -> lobby visible) {spread(lobbies)}; "
              f"{len(lobbies)} of {count} shown, {sum(1 for x in lobbies if x > GAVE_UP_AFTER)} "
              f"after {GAVE_UP_AFTER:g} s")
        print(f"  tables started {len(started)} of {count}, the last {last_started:.1f} s after "
              f"the burst; /start answered {spread(starts)}; Start answered "
              f"{spread(pressed, ms=True)}")
        print(f"  bot token, global budget, burst until the last start: "
              f"{budget_line(fake, began, began + max(1.0, last_started))}")
        print(f"  bot token, global budget, whole phase: {budget_line(fake, began, ended)}: "
              f"{bot_token_routes(fake.rest_calls[calls_from:])}")
        setup_times = [at - began for at, _ in setups]
        print(f"  channel webhooks: {sum(1 for _, m in setups if m == 'GET')} looked up, "
              f"{sum(1 for _, m in setups if m == 'POST')} made; the first "
              f"{min(setup_times, default=float('nan')):.1f} s, the last "
              f"{max(setup_times, default=float('nan')):.1f} s after the burst")
        print(f"  429s {len(fake.rate_limited) - limited_from}; interactions failed "
              f"{bench.clicks.failed}, errors {bench.clicks.errors}; answers "
              f"{spread([lat for _, lat, _ in bench.clicks.latencies], ms=True)}")
        print(f"  table freshness {spread(sight.freshness, ms=True)} ({len(sight.freshness)} "
              f"moves, {sight.unshown} not shown); turn wait {spread(sight.turn_wait, ms=True)}")
        figures.update(lobby_p50=pct(lobbies, 50), lobby_p99=pct(lobbies, 99),
                       lobby_max=max(lobbies, default=float("nan")),
                       cpu_lobby_ms=figures.get("cpu_lobbies", float("nan")) / count * 1000,
                       started=len(started),
                       last_started=last_started,
                       global_peak=fake.limiter.peak(fake.global_budget(TOKEN), 1.0, since=began),
                       limited=len(fake.rate_limited) - limited_from)
        if args.restart and role != "echo":
            figures.update(await _restart(role, args, fake, driver, watch, bench, child, tables,
                                          database))
    finally:
        gc.unfreeze()
        await child.stop()
        await fake.stop()
    return figures


async def _restart(role: str, args: argparse.Namespace, fake: FakeDiscord, driver: Driver,
                   watch: Watch, bench: Bench, child: Child, tables: list[list[Person]],
                   database: Path) -> dict[str, float]:
    """The bot stops and starts again with the tables live; the people play on."""
    await child.stop()
    limited_from, calls_from = len(fake.rate_limited), len(fake.rest_calls)
    clicks_from, failed_from = len(bench.clicks.latencies), bench.clicks.failed
    # when each look for strays and each delete went out on the bot token (issue 49: after
    # the tables' first writes, in the background)
    sweeps: list[float] = []
    record = fake.record_call

    def recorded(call: Any) -> None:
        if call.route in SWEEP_ROUTES and call.method in ("GET", "DELETE") and not (
                call.path.startswith("/webhooks/")):
            sweeps.append(time.time())
        record(call)

    fake.record_call = recorded  # type: ignore[method-assign]
    shown_before = {table: counters[-1] for table, (_, counters) in watch.shows.items()}
    began = time.time()
    await child.start(driver)
    ready = time.time()
    print(f"[{role}] restarted with {len(tables)} tables live in {ready - began:.1f} s; "
          f"the people play on for {args.seconds:g} s", flush=True)
    stop_at = time.monotonic() + args.seconds
    mark = await child.ask()
    await _play_until([bench.play(people, stop_at) for people in tables], stop_at)
    ended = time.time()
    print(f"  the bot: {_load(mark, await child.ask(), ended - ready)}")
    await asyncio.sleep(args.settle)
    moves, channels = await read_moves(database, "")
    sight = what_people_saw(watch, moves, channels, ready, ended)
    # each table's first showing of a move made after the restart
    caught = []
    for table, (times, counters) in watch.shows.items():
        at = bisect.bisect_right(counters, shown_before.get(table, -1))
        if at < len(times) and times[at] >= began:
            caught.append(times[at] - ready)
    clicks = bench.clicks.latencies[clicks_from:]
    right, behind = behind_at_end(watch, moves)
    # a table's stale message still standing beside it (its buttons live): not yet swept; an
    # ended game's message keeps only what an ended game offers (play again, replay, review,
    # the seats' profiles) beside the next game's table, as it should
    doubled = sum(1 for people in tables
                  if sum(1 for m in fake.channel_messages(people[0].channel.id)
                         if _live_buttons(m)) > 1)
    print(f"  answers after the restart {spread([lat for _, lat, _ in clicks], ms=True)} "
          f"({len(clicks)}), failed {bench.clicks.failed - failed_from}")
    print(f"  tables showing a move made after the restart: {len(caught)}, the first showing "
          f"after the bot was up {spread(caught)}")
    print(f"  table freshness {spread(sight.freshness, ms=True)} ({len(sight.freshness)} moves, "
          f"{sight.unshown} not shown); turn wait {spread(sight.turn_wait, ms=True)}")
    print(f"  at the end: {right} tables show their last move, {behind} do not; "
          f"{doubled} show a stale table message beside it")
    print(f"  bot token, global budget, from the restart: {budget_line(fake, began, ended)}: "
          f"{bot_token_routes(fake.rest_calls[calls_from:])}")
    print(f"  looks for strays and deletes on the bot token: {len(sweeps)} "
          f"({len(sweeps) / len(tables):.2f} a table), the first "
          f"{min(sweeps, default=float('nan')) - ready:.1f} s, the last "
          f"{max(sweeps, default=float('nan')) - ready:.1f} s after the bot was up")
    print(f"  429s {len(fake.rate_limited) - limited_from}")
    return {"restart_fresh_p99": pct(sight.freshness, 99),
            "restart_caught_max": max(caught, default=float("nan")),
            "restart_sweeps_last": max(sweeps, default=float("nan")) - ready,
            "restart_doubled": doubled,
            "restart_answer_p99": pct([lat for _, lat, _ in clicks], 99),
            "restart_global_peak": fake.limiter.peak(fake.global_budget(TOKEN), 1.0,
                                                     since=began),
            "restart_behind": behind, "restart_limited": len(fake.rate_limited) - limited_from}


async def cold(args: argparse.Namespace, base: Path) -> None:
    """``--cold``: the cold start (and ``--restart``) for the bot, and for ``--baseline`` too,
    in turn first from round to round."""
    rows: dict[str, list[dict[str, float]]] = {}
    for round_ in range(args.rounds):
        for role in phase_order(args, round_):
            rows.setdefault(role, []).append(
                await cold_phase(role, args, base / f"cold-{role}-{round_ + 1}"))
    names = sorted({name for phases in rows.values() for f in phases for name in f})
    print("| " + " | ".join(["role", *names]) + " |")
    for role, phases in rows.items():
        for f in phases:
            print("| " + " | ".join([role, *(f"{f.get(n, float('nan')):.2f}" for n in names)])
                  + " |")
    both = list(zip(rows.get("bot", []), rows.get("base", []), strict=False))
    for name, what, unit in (("lobby_p99", "lobby p99", "s"), ("lobby_p50", "lobby p50", "s"),
                             ("cpu_lobby_ms", "CPU a lobby", "ms")):
        pairs = [(new[name], old[name]) for new, old in both if name in new and name in old]
        paired(what, [n for n, _ in pairs], [o for _, o in pairs], unit)


_ENDED_ACTIONS = frozenset({"again", "replay", "review", "profile"})


def _live_buttons(message: Any) -> bool:
    """Whether ``message`` carries a button of a table in play or in its lobby (a routed custom
    id, ``kb:<game>:<table>:<action>…``, whose action an ended game does not offer)."""
    return any(len(parts := str(b.get("custom_id", "")).split(":")) > 3
               and parts[3] not in _ENDED_ACTIONS for b in message.buttons())


async def _emojis_settled(log: Path) -> None:
    """Wait until the bot made sure of its card emojis (its log says so). A bot that has run
    once has them; this one is new to a new fake, and its drawing and uploading them would
    land in the burst, which measures new channels, not the bot's first start ever."""
    deadline = time.monotonic() + BOOT_TIMEOUT
    while time.monotonic() < deadline:
        with contextlib.suppress(FileNotFoundError):
            if "card emojis:" in log.read_text():  # noqa: ASYNC240 (a small log, polled)
                return
        await asyncio.sleep(0.1)
    print(f"  (the bot's log never said its card emojis were made sure of: {log})")


def phase_order(args: argparse.Namespace, round_: int) -> tuple[str, ...]:
    """The cold start's phases of a round: the echo bot's (the floor: a bare discord.py bot
    answering each command with a public message) first, then the bots in turn first."""
    roles = ("echo", "base", "bot") if args.baseline else ("echo", "bot")
    return tuple(role for role in _order(roles, round_) if args.only in (None, role))


def echo_command(args: argparse.Namespace) -> dict[str, Any]:
    """``/{game} start`` with the options the cold start's people give, for the echo bot."""
    start = {"type": 1, "name": "start", "description": "Open a lobby",
             "options": [{"type": 4, "name": "computers", "description": "Computer players"}]}
    return {"type": 1, "name": args.game, "description": "Play", "options": [start]}


SWEEP_ROUTES = ("/channels/{channel_id}/messages", "/channels/{channel_id}/messages/{message_id}")
"""The look for a table's strays (GET) and the delete of a stale table message."""


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
    print(f"{args.cold or args.tables} tables of {args.game}: {args.people} people, "
          f"{args.computers} computers ({args.levels or args.level or 'normal'}); a click per "
          f"person every {args.interval:g} s; COMPUTER_PAUSE "
          f"{args.computer_pause:g} s", flush=True)
    if args.memory:
        await memory(args, base)
    elif args.cold:
        await cold(args, base)
    elif args.levels:
        await levels(args, base)
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
    parser.add_argument("--levels",
                        help="levels to compare under the same load, e.g. normal,expert "
                             "(the bot alone, once per level and round)")
    parser.add_argument("--only", choices=("bot", "echo", "base"))
    parser.add_argument("--rounds", type=int, default=1,
                        help="measure every phase this many times, the bots in turn first")
    parser.add_argument("--baseline", help="a checkout of older code to measure as well")
    parser.add_argument("--echo-loop", choices=("asyncio", "uvloop"), default="asyncio",
                        help="the echo bot's event loop (a bare discord.py bot's is asyncio's)")
    parser.add_argument("--watch", choices=("table", "panel"), default="table",
                        help="what people read to learn it is their turn")
    parser.add_argument("--processes", type=int, default=1,
                        help="bot processes on one token and one PostgreSQL database")
    parser.add_argument("--servers", type=int, default=1,
                        help="servers the tables are spread over, by turns (without --shards)")
    parser.add_argument("--shards", type=int, default=4,
                        help="shards in all, with --processes 2 and more")
    parser.add_argument("--settle", type=float, default=10.0,
                        help="seconds after the window for the tables to show its last moves")
    parser.add_argument("--memory", type=int, default=0)
    parser.add_argument("--cold", type=int, default=0,
                        help="N people start tables at once in N new channels (a cold start)")
    parser.add_argument("--start-at-once", action="store_true",
                        help="with --cold: people press Start the moment their lobby shows, "
                        "with no thought before it")
    parser.add_argument("--restart", action="store_true",
                        help="with --cold: then restart the bot with the tables live")
    parser.add_argument("--webhooks", action="store_true",
                        help="the servers grant the bot Manage Webhooks (channel webhooks)")
    parser.add_argument("--profile", help="write the bot's cProfile stats of the window here")
    parser.add_argument("--trace", help="functions whose CPU to add up in the bot (and the "
                        "baseline), comma-separated module:Class.function: printed per move "
                        "for the window, per table for a cold start's")
    parser.add_argument("--spy", help="sample the bot (and the baseline) with py-spy over the "
                        "whole phase, opening and warm-up included; raw stacks to "
                        "SPY.bot.txt and SPY.base.txt")
    parser.add_argument("--role", choices=("bot", "echo", "base"), help=argparse.SUPPRESS)
    parser.add_argument("--root", help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    parser.add_argument("--api-base", help=argparse.SUPPRESS)
    parser.add_argument("--database-url", default="", help=argparse.SUPPRESS)
    parser.add_argument("--shard-ids", default="", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.baseline and not arguments.role:
        arguments.baseline = os.path.abspath(arguments.baseline)
    if arguments.role:
        _runner(arguments)(child(arguments))
    else:
        asyncio.run(main(arguments))
