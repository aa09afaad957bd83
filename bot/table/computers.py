"""Computer players at tables (issue 8), for every game alike.

A computer sits in a seat with a negative player id and a name from ``COMPUTER_NAMES`` (shown
as "🤖 Astrid"). Whenever a table changes and a computer is to move, a task for that channel
waits a short, human-readable pause, asks the game's computer strategy (``GameSpec.computer``)
for a move and applies it through ``TableService.apply`` like any player's move, then has it
shown (``Shows``).

A strategy decides from what its seat may see and nothing else: the engine's ``observe`` for its
seat, and — for a strategy that ``remembers`` — the table's events as its seat saw them, read
back from the move log through the game's ``EventCodec.for_seat``, so its memory also survives a
restart. Its randomness is seeded from the table, the seat and the move, so a game replays the
same way.

Computers never move between hands (nobody is to move then): the table waits for a person or
its turn timer.

Levels (issue 34): ``easy`` plays the game's ``greedy`` strategy, ``normal`` its ``smart`` one and
``expert`` searches (``bot.gamekit.search``). A computer's level is part of its player id — each
level has its own block of ids and names — so it is stored wherever a seat is, with no column of
its own; every computer seated before levels existed has an id of the first block and plays
``normal``, as it did. An expert's search runs in a process pool (``SearchPool``), off the event
loop, with only its seat's information set crossing.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, Protocol

from bot import metrics
from bot.gamekit.contract import GameSpec, RuleError, Strategy
from bot.gamekit.search import Budget, Decision, ExpertStrategy, run_job
from bot.logs import log_context
from bot.storage import MoveRecord, SeatInfo
from bot.table.errors import NoTableError, NotPlayingError, StaleMoveError
from bot.table.priority import PeopleFirst
from bot.table.service import ApplyResult, TableService, TableSnapshot
from bot.table.timers import Clock

_log = logging.getLogger(__name__)

LEVELS: dict[str, str] = {"easy": "greedy", "normal": "smart", "expert": "expert"}
"""Computer levels as players name them, each with the strategy it plays."""
DEFAULT_LEVEL = "normal"
OLD_LEVEL_NAMES = {strategy: level for level, strategy in LEVELS.items()}
"""A level stored under its strategy's name (``smart``) reads as that level."""

_NAMES: dict[str, tuple[str, ...]] = {
    "normal": ("Astrid", "Bertil", "Cecilia", "Dagny", "Einar", "Frida", "Gunnar", "Hedda"),
    "easy": ("Ivar", "Jonna", "Kalle", "Lotta", "Måns", "Nora", "Olle", "Pia"),
    "expert": ("Rut", "Sune", "Tove", "Ulf", "Vera", "Wilhelm", "Ylva", "Åke"),
}
COMPUTER_NAMES = _NAMES["normal"]
_ID_BLOCK = 100
_BLOCKS = ("normal", "easy", "expert")
"""Computer ``n`` (from 1) of the level at index ``b`` here is player id ``-(100 b + n)`` in
every server, so its stats and ledger rows add up under one name. ``normal`` is block 0: the
ids every computer had before levels. A table seats at most six, so a free name is always
left."""


def computer_label(name: str) -> str:
    return f"🤖 {name}"


def level_name(text: str | None) -> str | None:
    """The level ``text`` names (a level, or a strategy's name as older settings stored it),
    or ``None``."""
    if text in LEVELS:
        return text
    return OLD_LEVEL_NAMES.get(text or "")


def computer_level(player_id: int) -> str:
    """The level of the computer with this (negative) id."""
    block = (-player_id - 1) // _ID_BLOCK
    return _BLOCKS[block] if 0 <= block < len(_BLOCKS) else DEFAULT_LEVEL


def game_levels(game: GameSpec) -> list[str]:
    """The levels ``game`` offers: those whose strategy it has."""
    return [level for level, strategy in LEVELS.items() if strategy in game.strategies]


def free_computer(seats: Sequence[SeatInfo], level: str = DEFAULT_LEVEL) -> tuple[int, str]:
    """The id and name of the first computer of ``level`` whose name is free at this table."""
    names = {s.name for s in seats}
    block = _BLOCKS.index(level) * _ID_BLOCK
    return next((-(block + n), name) for n, name in enumerate(_NAMES[level], start=1)
                if name not in names)


def strategy_for(game: GameSpec, player_id: int) -> str:
    """The strategy the computer ``player_id`` plays in ``game``: its level's, or the game's
    own computer strategy where the game lacks that level."""
    strategy = LEVELS[computer_level(player_id)]
    return strategy if strategy in game.strategies else game.computer


class SearchPool:
    """Where expert computer players think: ``workers`` processes (``None``: one fewer than the
    machine's cores, at least one), started on first use; 0 runs each search in a thread of this
    process instead (tests). Either way the event loop never waits on a search."""

    def __init__(self, workers: int | None, budget: Budget) -> None:
        self.budget = budget
        self._workers = max(1, (os.cpu_count() or 2) - 1) if workers is None else workers
        self._executor: Executor | None = None

    async def run(self, job: Any, work: Callable[[Any], Any] = run_job) -> Any:
        """``work(job)`` (a search, by default) in a worker, awaited."""
        if self._workers == 0:
            return await asyncio.to_thread(work, job)
        if self._executor is None:
            # spawn, not fork: a forked copy of a running bot (sockets, threads, the loop)
            # is not safe to run code in
            self._executor = ProcessPoolExecutor(
                max_workers=self._workers, mp_context=multiprocessing.get_context("spawn"))
        return await asyncio.get_running_loop().run_in_executor(self._executor, work, job)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


class Shows(Protocol):
    """Whatever shows a move the bot made (the Discord layer)."""

    async def show_automatic(self, result: ApplyResult) -> None: ...


class Computer:
    """One computer seat: its strategy and how far through the move log it has remembered (the
    coach asks an expert one what it would play in a person's seat: ``bot.coach.hints``)."""

    def __init__(self, game: GameSpec, player_id: int, pool: SearchPool | None,
                 strategy: str | None = None) -> None:
        self.game = game
        self.player_id = player_id
        self.strategy: Strategy = game.strategies[strategy or strategy_for(game, player_id)]()
        self.pool = pool
        if isinstance(self.strategy, ExpertStrategy) and pool is not None:
            self.strategy.budget = pool.budget
        self.seen = -1

    @property
    def searches(self) -> bool:
        """Whether this computer's decisions are searches in the pool (not in the loop)."""
        return isinstance(self.strategy, ExpertStrategy) and self.pool is not None

    async def decide(self, service: TableService, channel_id: int
                     ) -> tuple[int, object] | None:
        """(the counter the move is for, the move), or ``None`` when it is not this computer's
        turn any more or the table moved while it looked."""
        thought = await self.think(service, channel_id)
        return None if thought is None else thought[:2]

    async def think(self, service: TableService, channel_id: int
                    ) -> tuple[int, object, Decision | None] | None:
        """``decide``, and the search's whole decision for a searching strategy."""
        records: list[MoveRecord] = []
        snapshot = await service.get(channel_id)
        if snapshot is None:
            return None
        if self.strategy.remembers:
            records = await service.moves(snapshot.table_id, after=self.seen)
            # looked up again: the engine is only read without an await after the lookup
            snapshot = await service.get(channel_id)
        if not _to_move(snapshot, self.player_id):
            return None
        assert snapshot is not None and snapshot.engine is not None
        if self.strategy.remembers:
            for record in records:
                if record.seq > snapshot.counter:
                    break
                self.strategy.remember([self.game.events.for_seat(e, self.player_id)
                                        for e in record.events])
                self.seen = record.seq
            if self.seen != snapshot.counter:
                return None
        rng = random.Random(f"kortbord:{snapshot.table_id}:{self.player_id}:{snapshot.counter}")
        view = snapshot.engine.observe(self.player_id)
        if self.searches:
            assert isinstance(self.strategy, ExpertStrategy) and self.pool is not None
            # the information set is taken now (the table is read without an await after
            # the lookup); the table may move on while the search runs, and then the move is
            # refused as stale
            decision: Decision = await self.pool.run(self.strategy.job(view, rng))
            metrics.COMPUTER_DECISION_SECONDS.labels(snapshot.kind).observe(decision.cpu)
            return snapshot.counter, decision.move, decision
        started = time.thread_time()
        move = self.strategy.choose(view, rng)
        metrics.COMPUTER_DECISION_SECONDS.labels(snapshot.kind).observe(
            time.thread_time() - started)
        return snapshot.counter, move, None


def _to_move(snapshot: TableSnapshot | None, player_id: int) -> bool:
    return (snapshot is not None and snapshot.is_playing and snapshot.engine is not None
            and snapshot.engine.to_move == player_id)


def computer_to_move(snapshot: TableSnapshot) -> int | None:
    """The computer whose turn it is at this table, if any."""
    if not snapshot.is_playing or snapshot.engine is None:
        return None
    player = snapshot.engine.to_move
    return player if player is not None and player < 0 else None


class ComputerPlayers:
    """Runs every computer seat of the bot: at most one task per channel, started by ``kick``
    whenever a table changes; ``shows`` shows each move made."""

    def __init__(self, service: TableService, shows: Shows, clock: Clock, pause: float,
                 people: PeopleFirst | None = None, pool: SearchPool | None = None) -> None:
        self._service = service
        self._pool = pool
        self._people = people or PeopleFirst()
        self._shows = shows
        self._clock = clock
        self._pause = pause
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()
        self._players: dict[tuple[int, int], Computer] = {}
        self._overdue: dict[int, int] = {}

    def kick(self, snapshot: TableSnapshot) -> None:
        """The table changed: if a computer is to move, make sure one of our tasks sees it."""
        if snapshot.status not in ("lobby", "playing"):
            self._forget(snapshot.table_id)
            return
        if computer_to_move(snapshot) is None:
            return
        channel_id = snapshot.channel_id
        self._dirty.add(channel_id)
        task = self._tasks.get(channel_id)
        if task is None or task.done():
            self._tasks[channel_id] = asyncio.create_task(
                self._run(channel_id), name=f"kortbord-computers-{channel_id}"
            )

    def overdue(self, snapshot: TableSnapshot) -> bool:
        """A computer's turn outlived its deadline (the bot restarted, or its move failed).
        The first time, it is started again and this returns ``False``; if the same turn comes
        due again, this returns ``True`` and the turn should time out like anyone's."""
        if self._overdue.get(snapshot.table_id) == snapshot.counter:
            return True
        self._overdue[snapshot.table_id] = snapshot.counter
        self.kick(snapshot)
        return False

    async def close(self) -> None:
        tasks = [t for t in self._tasks.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
        if self._pool is not None:
            self._pool.close()

    def _forget(self, table_id: int) -> None:
        for key in [k for k in self._players if k[0] == table_id]:
            del self._players[key]
        self._overdue.pop(table_id, None)

    def _player(self, snapshot: TableSnapshot, player_id: int) -> Computer:
        key = (snapshot.table_id, player_id)
        player = self._players.get(key)
        if player is None:
            player = self._players[key] = Computer(self._service.game(snapshot.kind), player_id,
                                                    self._pool)
        return player

    async def _run(self, channel_id: int) -> None:
        with log_context(channel=channel_id):
            await self._play(channel_id)

    async def _play(self, channel_id: int) -> None:
        try:
            while True:
                self._dirty.discard(channel_id)
                snapshot = await self._service.get(channel_id)
                computer = None if snapshot is None else computer_to_move(snapshot)
                if computer is None:
                    # a change announced while we looked may have made it a computer's turn
                    if channel_id in self._dirty:
                        continue
                    return
                assert snapshot is not None
                thinking: asyncio.Task[tuple[int, object] | None] | None = None
                if self._pause > 0 and self._pool is not None:
                    player = self._player(snapshot, computer)
                    if player.searches:
                        # a search takes up to its budget in a worker: it thinks while the
                        # table shows the last move, so the pause hides it (the turn is this
                        # computer's until it moves: nobody else can change the table meanwhile
                        # but a timer or a leave, and then its move is refused as stale)
                        thinking = asyncio.create_task(player.decide(self._service, channel_id))
                try:
                    if self._pause > 0:
                        await self._clock.sleep_until(self._clock.now() + self._pause)
                    # a person being answered goes first; the move (and a computer that does
                    # not search, its decision) goes in the loop's step it waits for
                    await self._people.wait_turn()
                    await self._people.step()
                    await self._move(channel_id, snapshot, computer, thinking)
                finally:
                    if thinking is not None and not thinking.done():
                        thinking.cancel()
        except Exception:
            # the turn's deadline (if the table has a turn time) starts us again
            _log.exception("a computer player in channel %d could not move", channel_id)
        finally:
            if self._tasks.get(channel_id) is asyncio.current_task():
                del self._tasks[channel_id]

    async def _move(self, channel_id: int, snapshot: TableSnapshot, computer: int,
                    thinking: asyncio.Task[tuple[int, object] | None] | None = None) -> None:
        """Applies the computer's move: the one ``thinking`` found, or one decided now."""
        decided = await (thinking if thinking is not None
                         else self._player(snapshot, computer).decide(self._service, channel_id))
        if decided is None:
            return
        counter, move = decided
        try:
            result = await self._service.apply(channel_id, computer, move, counter)
        except (StaleMoveError, NoTableError, NotPlayingError):
            return
        except RuleError:
            _log.exception("computer %d chose a move the rules refuse; it times out instead",
                           computer)
            timeout = self._service.game(snapshot.kind).rules.timeout_move()
            try:
                result = await self._service.apply(channel_id, computer, timeout, counter)
            except (StaleMoveError, NoTableError, NotPlayingError):
                return
        await self._shows.show_automatic(result)
