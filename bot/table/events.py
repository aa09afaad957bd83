"""Events: tournaments across tables. The event service keeps an event's registration, seats
each round (``bot.table.tourney``), scores each table once it has ended and moves the event
from round to round. It knows games only through their ``GameSpec`` (``GameSpec.event`` says
how a table scores); the Discord layer (``bot.discord.events``) creates the threads and opens
the tables it is told to.

Every step is stored before it is acted on, and every step can be taken again: the seating of
a round is committed before any of its tables exists, a table is scored from its stored game,
and the next round is seated in the same transaction that closes the last one. A process
killed anywhere in a round finds, when it is back, which tables still need a thread, a game or
a score (``EventService.pending``), and the round completes.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from bot.errors import KortbordError
from bot.gamekit.contract import EventRules, GameSpec
from bot.storage import EventEntrant, EventRecord, EventTable, Shards, Store, TableRecord
from bot.table import tourney
from bot.table.tourney import Score, Standing

_log = logging.getLogger("kortbord.events")

Strengths = Callable[[Store, int, str, Sequence[int]], Awaitable[Mapping[int, float]]]
"""``strengths(store, guild_id, kind, player_ids)``: how strong each player is, for the first
round's balanced seating and the tie-break of later seatings (higher is stronger). Players
missing from the answer count as 0.0."""

MAX_ROUNDS = 10
MAX_HANDS = 20


async def equal_strengths(store: Store, guild_id: int, kind: str,
                          player_ids: Sequence[int]) -> dict[int, float]:
    """Everyone equally strong: round 1 is then seated in registration order, dealt back and
    forth over the tables."""
    return dict.fromkeys(player_ids, 0.0)


class EventSettings(BaseModel):
    """What the host chose when the event opened."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    rounds: int = Field(ge=1, le=MAX_ROUNDS)
    seats: int = Field(ge=2)
    hands: int = Field(default=0, ge=0, le=MAX_HANDS)
    """Hands per round at each table (games that play hands); 0 for games played to the end."""
    turn_seconds: int = Field(ge=0)
    tables_in: int
    """The channel the tables' threads are created in."""


class EventError(KortbordError):
    """A request the event's state refuses; ``why`` names the case for the Discord layer."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


@dataclass(frozen=True, slots=True)
class RoundState:
    """Where a running event's round stands: tables still to open (no table yet), tables in
    play, tables just scored, and whether every table of the round has its score."""

    event: EventRecord
    to_open: list[EventTable]
    playing: list[tuple[EventTable, TableRecord]]
    complete: bool


class EventService:
    def __init__(self, store: Store, games: Mapping[str, GameSpec], *,
                 clock: Callable[[], float] = time.time,
                 strengths: Strengths = equal_strengths,
                 shards: Shards | None = None) -> None:
        self._store = store
        self._games = games
        self._clock = clock
        self._strengths = strengths
        self._shards = shards

    @property
    def store(self) -> Store:
        return self._store

    def rules(self, kind: str) -> EventRules:
        rules = self._games[kind].event
        if rules is None:
            raise ValueError(f"{kind!r} runs no events")
        return rules

    @staticmethod
    def settings(event: EventRecord) -> EventSettings:
        return EventSettings.model_validate(event.settings)

    # -- registration ----------------------------------------------------------------------

    async def create(self, *, guild_id: int, channel_id: int, kind: str, host_id: int,
                     settings: EventSettings, locale: str | None,
                     computers: Sequence[tuple[int, str]] = ()) -> EventRecord:
        game = self._games[kind]
        if not game.min_players <= settings.seats <= game.max_players:
            raise EventError("seats")
        if game.event is None:
            raise EventError("no_events")
        return await self._store.events.create(
            guild_id=guild_id, channel_id=channel_id, kind=kind, host_id=host_id,
            settings=settings.model_dump(), locale=locale, now=self._clock(),
            computers=computers)

    async def event(self, event_id: int) -> EventRecord:
        event = await self._store.events.event(event_id)
        if event is None:
            raise EventError("gone")
        return event

    async def register(self, event_id: int, player_id: int, name: str) -> EventRecord:
        done = await self._store.events.register(event_id, player_id, name)
        if done is None:
            raise EventError("closed")
        if not done:
            raise EventError("registered")
        return await self.event(event_id)

    async def unregister(self, event_id: int, player_id: int) -> EventRecord:
        done = await self._store.events.unregister(event_id, player_id)
        if done is None:
            raise EventError("closed")
        if not done:
            raise EventError("not_registered")
        return await self.event(event_id)

    async def entrants(self, event_id: int) -> list[EventEntrant]:
        return await self._store.events.entrants(event_id)

    async def begin(self, event_id: int) -> EventRecord:
        """Close registration and seat round 1 (balanced by strength). Raises ``EventError``
        with ``few`` when too few registered for one table."""
        event = await self.event(event_id)
        if event.status != "registering":
            raise EventError("closed")
        game = self._games[event.kind]
        settings = self.settings(event)
        players = [e.player_id for e in await self.entrants(event_id)]
        sizes = tourney.table_sizes(len(players), settings.seats, game.min_players)
        if not sizes:
            raise EventError("few")
        strengths = await self._strengths(self._store, event.guild_id, event.kind, players)
        seating = tourney.first_round(players, strengths, sizes)
        if not await self._store.events.begin(event_id, seating, self._clock()):
            raise EventError("closed")
        _log.info("event %d: started with %d players at %d tables", event_id, len(players),
                  len(seating))
        return await self.event(event_id)

    async def cancel(self, event_id: int) -> EventRecord:
        if not await self._store.events.cancel(event_id, self._clock()):
            raise EventError("closed")
        return await self.event(event_id)

    # -- rounds ----------------------------------------------------------------------------

    async def resuming(self) -> list[EventRecord]:
        """The events a start-up moves on: the running ones, and the finished ones whose final
        standings were not noted as posted (a process killed as its event finished)."""
        return await self._store.events.resuming(shards=self._shards)

    async def table_of(self, table_id: int) -> EventTable | None:
        return await self._store.events.table_of(table_id)

    async def pending(self, event_id: int) -> RoundState:
        """Score every table of the round in play that has ended, and say what is left."""
        event = await self.event(event_id)
        to_open: list[EventTable] = []
        playing: list[tuple[EventTable, TableRecord]] = []
        if event.status != "running":
            return RoundState(event, [], [], False)
        complete = True
        for table in await self._store.events.tables(event_id, event.round):
            if table.result is not None:
                continue
            if table.table_id is None:
                to_open.append(table)
                complete = False
                continue
            record = await self._store.table(table.table_id)
            assert record is not None
            if record.is_live:
                playing.append((table, record))
                complete = False
                continue
            await self.score(event, table, record)
        return RoundState(event, to_open, playing, complete)

    async def score(self, event: EventRecord, table: EventTable, record: TableRecord | None,
                    *, present: Sequence[int] = ()) -> list[Score]:
        """Score a table that has ended (``record``), and store the score, once. ``None``: the
        table could not start (too few of its players were free to sit down): those
        ``present`` share first place, the others score as no-shows."""
        seated = list(table.players)
        rules = self.rules(event.kind)
        places: list[tuple[int, ...]] = [tuple(present)] if present else []
        left: set[int] = set()
        if record is not None:
            state = await self._store.table_state(record.id)
            if state is not None:
                game = self._games[event.kind]
                engine = game.load_engine(json.loads(state))
                money = None
                if game.stakes:
                    money = {b.player_id: b.net for b in await self._store.balances(
                        record.guild_id, record.kind, table_id=record.id)}
                places = rules.places(engine, money)
                still = {s.player_id for s in engine.seats}
                left = {p for p in engine.names if p not in still}
        scores = tourney.score_table(places, seated, left, self.settings(event).seats)
        await self._store.events.set_result(event.id, table.round, table.table_no,
                                            [s.to_dict() for s in scores])
        return scores

    async def results(self, event_id: int, through: int | None = None) -> list[list[Score]]:
        """Every scored table of the event, in round and table order; ``through``: of the
        rounds up to that one only."""
        return [[Score.from_dict(s) for s in t.result]
                for t in await self._store.events.tables(event_id)
                if t.result is not None and (through is None or t.round <= through)]

    async def standings(self, event_id: int, through: int | None = None) -> list[Standing]:
        """The standings from every table scored so far; ``through``: as they stood after that
        round (the standings posted after it, however late)."""
        players = [e.player_id for e in await self.entrants(event_id)]
        return tourney.standings(players, await self.results(event_id, through))

    async def next_round(self, event: EventRecord) -> EventRecord:
        """The round in play has every table scored: seat the next one (Swiss-style), or finish
        the event after its last round or when too few players are left for a table. Whoever
        gets there second (another process) changes nothing."""
        game = self._games[event.kind]
        settings = self.settings(event)
        results = await self.results(event.id)
        players = [e.player_id for e in await self.entrants(event.id)]
        gone = tourney.withdrawn(results)
        still = [p for p in players if p not in gone]
        sizes = tourney.table_sizes(len(still), settings.seats, game.min_players)
        seating: list[list[int]] | None = None
        if event.round < settings.rounds and sizes:
            strengths = await self._strengths(self._store, event.guild_id, event.kind, still)
            seating = tourney.swiss_round(still, tourney.points_of(results), strengths, sizes)
        if await self._store.events.next_round(event.id, event.round, seating, self._clock()):
            _log.info("event %d: round %d over, %s", event.id, event.round,
                      "finished" if seating is None else f"round {event.round + 1} seated")
        return await self.event(event.id)

    async def announced(self, event_id: int, round_no: int) -> bool:
        return await self._store.events.announced(event_id, round_no)

    async def seated(self, event_id: int, round_no: int) -> bool:
        return await self._store.events.seated(event_id, round_no)

    async def set_thread(self, table: EventTable, thread_id: int) -> bool:
        return await self._store.events.set_thread(table.event_id, table.round,
                                                   table.table_no, thread_id)

    async def set_table(self, table: EventTable, table_id: int) -> bool:
        return await self._store.events.set_table(table.event_id, table.round,
                                                  table.table_no, table_id)

    async def tables(self, event_id: int, round_no: int | None = None) -> list[EventTable]:
        return await self._store.events.tables(event_id, round_no)

    async def closed_events(self, guild_id: int, kind: str, limit: int = 5
                            ) -> list[EventRecord]:
        return await self._store.events.of_guild(guild_id, kind, limit=limit, closed=True)
