"""Computer players at Discord tables (issue 8).

A computer sits in a seat with a negative player id and a name from ``COMPUTER_NAMES`` (shown
as "🤖 Astrid"). Whenever a table changes and a computer is to move, a task for that channel
waits a short, human-readable pause, asks the game's strategy for a move and applies it through
``TableService.apply`` like any player's move, then shows it through the game's controller.

A strategy decides from what its seat may see and nothing else: a Dubb computer gets the
engine's ``DubbObservation`` for its seat (D14); a Tonk computer gets its ``SeatView`` and the
table's events as its seat saw them — read back from the move log with every other hand and
every card drawn by someone else removed, so its memory also survives a restart. Each computer
plays "smart" when the game's strategy registry has it, else "greedy", with randomness seeded
from the table, the seat and the move, so a game replays the same way.

Computers never deal a Tonk hand: between hands the table waits for a person, so a table whose
people have all gone quiet stops instead of dealing hand after hand among computers.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.games.base import RuleError
from bot.games.dubb import players as dubb_players
from bot.games.tonk import players as tonk_players
from bot.games.tonk.strategy import for_seat
from bot.service import NoTableError, NotPlayingError, StaleMoveError, TableService
from bot.service.tables import ApplyResult, TableSnapshot
from bot.storage import MoveRecord, SeatInfo
from bot.ui.timers import Clock

_log = logging.getLogger(__name__)

COMPUTER_NAMES = ("Astrid", "Bertil", "Cecilia", "Dagny", "Einar", "Frida", "Gunnar", "Hedda")
"""Computer ``n`` (from 1) is player id ``-n`` in every server, so its stats and ledger rows
add up under one name. A table seats at most six, so a free name is always left."""

PREFERRED_STRATEGIES = ("smart", "greedy")


def computer_label(name: str) -> str:
    return f"🤖 {name}"


def free_computer(seats: Sequence[SeatInfo]) -> tuple[int, str]:
    """The id and name of the first computer not seated at this table."""
    taken = {s.player_id for s in seats}
    return next((-n, name) for n, name in enumerate(COMPUTER_NAMES, start=1) if -n not in taken)


def _strategy_name(registry: Mapping[str, Any]) -> str:
    return next(name for name in PREFERRED_STRATEGIES if name in registry)


class Shows(Protocol):
    """The game's table controller, as far as computers need it."""

    async def show_automatic(self, result: ApplyResult) -> None: ...


class _Player(Protocol):
    async def decide(self, service: TableService, channel_id: int
                     ) -> tuple[int, Any] | None:
        """(the counter the move is for, the move), or ``None`` when it is not this computer's
        turn any more or the table moved while it looked."""
        ...


class _DubbComputer:
    """Stateless: everything it may know is in its seat's observation (D14)."""

    def __init__(self, player_id: int) -> None:
        self.player_id = player_id

    async def decide(self, service: TableService, channel_id: int) -> tuple[int, Any] | None:
        snapshot = await service.get(channel_id)
        if not _to_move(service, snapshot, self.player_id):
            return None
        assert snapshot is not None
        strategy = dubb_players.STRATEGIES[_strategy_name(dubb_players.STRATEGIES)]
        rng = random.Random(f"{snapshot.table_id}:{self.player_id}:{snapshot.counter}")
        return snapshot.counter, strategy(snapshot.engine.observe(self.player_id), rng)


class _TonkComputer:
    """Keeps its strategy (and the strategy's memory of this seat's events) for the table."""

    def __init__(self, table_id: int, player_id: int) -> None:
        self.player_id = player_id
        name = _strategy_name(tonk_players.STRATEGIES)
        self.strategy = tonk_players.make_strategy(
            name, random.Random(f"kortbord:{table_id}:{player_id}")
        )
        self.seen = -1

    async def decide(self, service: TableService, channel_id: int) -> tuple[int, Any] | None:
        records: list[MoveRecord] = []
        snapshot = await service.get(channel_id)
        if snapshot is None:
            return None
        if self.strategy.wants_events:
            records = await service.store.moves(snapshot.table_id, after=self.seen)
            # looked up again: the engine is only read without an await after the lookup
            snapshot = await service.get(channel_id)
        if not _to_move(service, snapshot, self.player_id):
            return None
        assert snapshot is not None
        if self.strategy.wants_events:
            for record in records:
                if record.seq > snapshot.counter:
                    break
                self.strategy.observe([for_seat(e, self.player_id)
                                       for e in record.events])
                self.seen = record.seq
            if self.seen != snapshot.counter:
                return None
        return snapshot.counter, self.strategy.choose(snapshot.engine.seat_view(self.player_id))


def _to_move(service: TableService, snapshot: TableSnapshot | None, player_id: int) -> bool:
    return (snapshot is not None and snapshot.is_playing and snapshot.engine is not None
            and service.kind(snapshot.kind).to_move(snapshot.engine) == player_id)


def computer_to_move(service: TableService, snapshot: TableSnapshot) -> int | None:
    """The computer whose turn it is at this table, if any."""
    if not snapshot.is_playing or snapshot.engine is None:
        return None
    player = service.kind(snapshot.kind).to_move(snapshot.engine)
    return player if player is not None and player < 0 else None


class ComputerPlayers:
    """Runs every computer seat of the bot: at most one task per channel, started by ``kick``
    whenever a table changes (``controllers`` maps a game kind to its table controller)."""

    def __init__(self, service: TableService, controllers: Mapping[str, Shows], clock: Clock,
                 pause: float) -> None:
        self._service = service
        self._controllers = controllers
        self._clock = clock
        self._pause = pause
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()
        self._players: dict[tuple[int, int], _Player] = {}
        self._overdue: dict[int, int] = {}

    def kick(self, snapshot: TableSnapshot) -> None:
        """The table changed: if a computer is to move, make sure one of our tasks sees it."""
        if snapshot.status not in ("lobby", "playing"):
            self._forget(snapshot.table_id)
            return
        if computer_to_move(self._service, snapshot) is None:
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

    def _forget(self, table_id: int) -> None:
        for key in [k for k in self._players if k[0] == table_id]:
            del self._players[key]
        self._overdue.pop(table_id, None)

    def _player(self, snapshot: TableSnapshot, player_id: int) -> _Player:
        key = (snapshot.table_id, player_id)
        player = self._players.get(key)
        if player is None:
            if snapshot.kind == "tonk":
                player = _TonkComputer(snapshot.table_id, player_id)
            else:
                player = _DubbComputer(player_id)
            self._players[key] = player
        return player

    async def _run(self, channel_id: int) -> None:
        try:
            while True:
                self._dirty.discard(channel_id)
                snapshot = await self._service.get(channel_id)
                computer = None if snapshot is None else computer_to_move(self._service,
                                                                          snapshot)
                if computer is None:
                    # a change announced while we looked may have made it a computer's turn
                    if channel_id in self._dirty:
                        continue
                    return
                assert snapshot is not None
                if self._pause > 0:
                    await self._clock.sleep_until(self._clock.now() + self._pause)
                await self._move(channel_id, snapshot, computer)
        except Exception:
            # the turn's deadline (if the table has a turn time) starts us again
            _log.exception("a computer player in channel %d could not move", channel_id)
        finally:
            if self._tasks.get(channel_id) is asyncio.current_task():
                del self._tasks[channel_id]

    async def _move(self, channel_id: int, snapshot: TableSnapshot, computer: int) -> None:
        decided = await self._player(snapshot, computer).decide(self._service, channel_id)
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
            kind = self._service.kind(snapshot.kind)
            try:
                result = await self._service.apply(channel_id, computer, kind.timeout_move(),
                                                   counter)
            except (StaleMoveError, NoTableError, NotPlayingError):
                return
        controller = self._controllers.get(result.snapshot.kind)
        if controller is not None:
            await controller.show_automatic(result)
