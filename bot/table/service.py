"""The table service: the one way the cogs open, change and play tables.

Every call that touches a channel's table runs under that channel's ``asyncio.Lock``, so moves in
one channel apply strictly one after another while different channels never wait for each other
(they share only SQLite's single writer, for the sub-millisecond commit itself).

Engines live in memory (loaded lazily from their stored form on a channel's first use after a
restart) and memory never runs ahead of the database: a move is applied to the engine, then
committed with everything it changes in one transaction; if the engine rejects the move
(``RuleError``) or the commit fails, the engine is rebuilt from the last committed state.
"""

from __future__ import annotations

import json
import logging
import time
import weakref
from asyncio import Lock
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from bot import metrics
from bot.deals import new_master
from bot.gamekit.contract import Engine, GameSpec, Seat
from bot.i18n import L
from bot.ratings.results import job, log_events, rated_places
from bot.storage import (
    Balance,
    ChannelTakenError,
    DueDeadline,
    LedgerEntry,
    MoveCommit,
    MoveRecord,
    Payment,
    RatingJob,
    SeatInfo,
    SeatTakenError,
    Shards,
    StatDelta,
    StatsRow,
    Store,
    TableChangedError,
    TableRecord,
)
from bot.storage.jsontext import dumps
from bot.table.errors import (
    AlreadyJoinedError,
    AlreadySeatedError,
    ChannelBusyError,
    GameStartedError,
    InvalidOptionsError,
    NoTableError,
    NotAllowedError,
    NotEnoughPlayersError,
    NotHostError,
    NotPlayingError,
    NotSeatedError,
    StaleMoveError,
    TableFullError,
)
from bot.table.fairdeal import new_deals, start_deals, stored_secret
from bot.table.priority import PeopleFirst

_log = logging.getLogger("kortbord.tables")

MoveBy = Literal["person", "computer", "timer"]
"""Who made a move, for the metrics."""

LOBBY_TTL_SECONDS = 15 * 60
"""Issue 8: a lobby that does not start within 15 minutes closes itself."""

STOPPED, IDLE, ABANDONED, EMPTY = "stopped", "idle", "abandoned", "empty"
"""Why a table closed without its game ending (``closed_note["why"]``): stopped by someone,
a lobby left idle, nobody but computers left in a game, nobody left in a lobby."""
ROUND_PLAYED = "round"
"""An event's table that played its hands for the round (``bot.table.events``)."""


def _payments(game: GameSpec, events: Sequence[Any]) -> list[Payment]:
    return [Payment(hand_no=p.round_no, payer_id=p.payer, payee_id=p.payee, amount=p.amount,
                    reason=p.reason) for p in game.rules.payments(events)]


def _stat_deltas(game: GameSpec, events: Sequence[Any], engine: Engine) -> list[StatDelta]:
    return [StatDelta(player_id=d.player, counter=d.counter, amount=d.amount)
            for d in game.rules.stat_deltas(events, engine)]


def _options_error(exc: ValidationError) -> InvalidOptionsError:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "options"
        parts.append(f"{where}: {err['msg']}")
    _log.info("refused table options: %s", "; ".join(parts))
    return InvalidOptionsError(L("Those table options don't go together. Nothing was changed."))


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """A table as it is right after the call that returned it.

    ``engine`` is the live engine object (``None`` in the lobby), shared with the service: read
    from it synchronously (render without awaiting in between), never call its ``apply``.
    """

    table_id: int
    guild_id: int
    channel_id: int
    kind: str
    status: str
    host_id: int
    options: BaseModel
    seats: tuple[SeatInfo, ...]
    message_id: int | None
    counter: int
    engine: Engine | None
    turn_seconds: int
    turn_deadline: float | None
    lobby_expires_at: float | None
    version: int = 0
    """Bumped by every change to what the table shows (the publisher records what it shows)."""
    shown_version: int | None = None
    pinged: int | None = None
    locale: str | None = None
    closed_note: dict[str, Any] | None = None
    rated: bool = True
    """Whether its result may count for the skill ratings (``bot.ratings``)."""
    message_webhook: int | None = None
    """The channel webhook that posted the table message (``None``: the bot, or a person's
    interaction)."""
    strays_from: int | None = None
    """Where the table's stale messages may still stand from (``TableRecord.strays_from``)."""
    message_token: tuple[str, float] | None = field(default=None, repr=False)
    """The interaction token that posted the table message and when Discord issued it
    (``TableRecord.message_token``): a credential, never shown."""
    deals: dict[str, Any] | None = field(default=None, repr=False)
    """The table's committed deals' secret (``TableRecord.deals``): for the commitments and
    keys the table shows (``bot.table.fairdeal``), never to be shown itself."""

    @property
    def is_lobby(self) -> bool:
        return self.status == "lobby"

    @property
    def is_playing(self) -> bool:
        return self.status == "playing"

    def seat_of(self, player_id: int) -> SeatInfo | None:
        return next((s for s in self.seats if s.player_id == player_id), None)


@dataclass(frozen=True, slots=True)
class ApplyResult:
    """What a change produced: the engine's events (empty for lobby changes and the start), the
    table after it, and the move counter to attach to the next move's buttons."""

    events: list[Any]
    snapshot: TableSnapshot
    counter: int


class _Live:
    """A channel's table in memory: the record as committed, the engine and its committed
    stored form (to rebuild the engine from when a move does not go through)."""

    __slots__ = ("_kept", "engine", "options", "record", "state")

    def __init__(self, record: TableRecord, options: BaseModel, engine: Engine | None,
                 state: str | None) -> None:
        self.record = record
        self.options = options
        self.engine = engine
        self.state = state
        self._kept: tuple[TableRecord, TableSnapshot] | None = None

    def snapshot(self) -> TableSnapshot:
        r = self.record
        # every change replaces the (frozen) record, and the options or engine it swaps: the
        # same three objects make the same snapshot, so it is made once per change, not per
        # look (a move is looked at several times: its answer, the computers, the timers)
        kept = self._kept
        if (kept is not None and kept[0] is r and kept[1].engine is self.engine
                and kept[1].options is self.options):
            return kept[1]
        snapshot = TableSnapshot(
            table_id=r.id, guild_id=r.guild_id, channel_id=r.channel_id, kind=r.kind,
            status=r.status, host_id=r.host_id, options=self.options, seats=r.seats,
            message_id=r.message_id, counter=r.counter, engine=self.engine,
            turn_seconds=r.turn_seconds, turn_deadline=r.turn_deadline,
            lobby_expires_at=r.lobby_expires_at, version=r.version,
            shown_version=r.shown_version, pinged=r.pinged,
            locale=r.locale, closed_note=r.closed_note, deals=r.deals, rated=r.rated,
            message_webhook=r.message_webhook, strays_from=r.strays_from,
            message_token=None if r.message_token is None or r.message_token_at is None
            else (r.message_token, r.message_token_at),
        )
        self._kept = (r, snapshot)
        return snapshot


class TableService:
    """``TableService(store, games)``: ``games`` maps a kind to its ``GameSpec`` (the
    registry); the service never looks inside a game beyond that spec and the engine protocol.

    ``clock`` (Unix seconds) drives deadlines and timestamps; ``seed_source`` makes the deal
    secret of each started game: 32 bytes from ``secrets`` by default, the master of the table's
    committed deals (``bot.table.fairdeal``); an ``int`` deals the old way, from a Mersenne
    Twister seed, for tests and tools that need a known deal.

    ``shards``: the servers this process owns when the bot runs in several processes (``None``:
    all of them). It limits what the service finds by itself — due deadlines, computers to
    wake, tables to redraw — never what it may change: any process may apply a move to any
    table, and the database's counter and keys keep that correct. A process whose copy of a
    table is behind the database (another process moved it on) reads it again when a caller
    shows it a counter its copy does not have.
    """

    def __init__(
        self,
        store: Store,
        games: Mapping[str, GameSpec],
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int | bytes] = new_master,
        lobby_ttl: float | None = LOBBY_TTL_SECONDS,
        shards: Shards | None = None,
        people: PeopleFirst | None = None,
    ) -> None:
        self._store = store
        self._people = people or PeopleFirst()
        self._shards = shards
        self._games = games
        self._clock = clock
        self._seed_source = seed_source
        self._lobby_ttl = lobby_ttl
        self._cache: dict[int, _Live] = {}
        # a lock lives as long as someone holds or waits for it, so idle channels cost nothing
        self._locks: weakref.WeakValueDictionary[int, Lock] = weakref.WeakValueDictionary()

    @property
    def store(self) -> Store:
        return self._store

    def now(self) -> float:
        """Unix time by the service's clock (a test's clock in tests)."""
        return self._clock()

    @property
    def shards(self) -> Shards | None:
        return self._shards

    @property
    def games(self) -> Mapping[str, GameSpec]:
        return self._games

    def game(self, kind: str) -> GameSpec:
        try:
            return self._games[kind]
        except KeyError:
            raise ValueError(f"unknown game kind {kind!r}") from None

    def _lock(self, channel_id: int) -> Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = Lock()
            self._locks[channel_id] = lock
        return lock

    async def _load(self, channel_id: int) -> _Live | None:
        live = self._cache.get(channel_id)
        if live is not None:
            return live
        loaded = await self._store.live_table(channel_id)
        if loaded is None:
            return None
        record = loaded.record
        game = self.game(record.kind)
        engine = None if loaded.state is None else game.load_engine(json.loads(loaded.state))
        live = _Live(record, game.validate_options(record.options), engine, loaded.state)
        self._cache[channel_id] = live
        return live

    async def _load_at(self, channel_id: int, counter: int | None) -> _Live | None:
        """The channel's table; read again from the database when the caller saw it at another
        move ``counter`` than this process's copy is at, or saw a game where the copy has a
        lobby (the copy may be behind: another process moved the table on)."""
        live = await self._load(channel_id)
        if live is not None and counter is not None and (
            live.record.counter != counter or live.record.status != "playing"
        ):
            self._evict(channel_id)
            live = await self._load(channel_id)
        return live

    async def _require(self, channel_id: int, *, lobby_fresh: bool = False) -> _Live:
        """The channel's table, or ``NoTableError``. ``lobby_fresh``: a lobby is read again
        from the database (lobby changes are few, and another process may have changed it)."""
        cached = self._cache.get(channel_id)
        if lobby_fresh and cached is not None and cached.record.status == "lobby":
            self._evict(channel_id)
        live = await self._load(channel_id)
        if live is None:
            raise NoTableError()
        return live

    def _evict(self, channel_id: int) -> None:
        self._cache.pop(channel_id, None)

    def _rebuild_engine(self, live: _Live) -> None:
        assert live.state is not None
        live.engine = self.game(live.record.kind).load_engine(json.loads(live.state))

    # -- lobby ---------------------------------------------------------------------------------

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        kind: str,
        host_id: int,
        host_name: str,
        options: BaseModel | Mapping[str, Any] | None = None,
        *,
        turn_seconds: int = 0,
        guests: Sequence[Seat] = (),
        locale: str | None = None,
        rated: bool = True,
    ) -> TableSnapshot:
        """A new lobby with the host seated and ``guests`` beside them (computer players have
        negative ids; people a play-again seats again), in one write; ``rated: False`` keeps
        its result out of the skill ratings. Raises
        ``ChannelBusyError`` (with the existing table's message), ``AlreadySeatedError`` or
        ``InvalidOptionsError``."""
        game = self.game(kind)
        try:
            opts = game.validate_options(options)
        except ValidationError as exc:
            raise _options_error(exc) from None
        if turn_seconds < 0:
            raise InvalidOptionsError(L("A turn time cannot be negative."))
        if 1 + len(guests) > game.max_players:
            raise TableFullError(game.max_players)
        async with self._lock(channel_id):
            # a table this process holds is refused at once; any other the write's own check
            # finds (the live-table-per-channel key), so a new channel costs no read before it
            existing = self._cache.get(channel_id)
            if existing is not None:
                raise self._busy(existing.record)
            now = self._clock()
            try:
                record = await self._store.create_lobby(
                    guild_id=guild_id, channel_id=channel_id, kind=kind,
                    host=SeatInfo(player_id=host_id, name=host_name,
                                  is_computer=host_id < 0),
                    options=opts.model_dump(mode="json"), turn_seconds=turn_seconds,
                    lobby_expires_at=None if self._lobby_ttl is None else now + self._lobby_ttl,
                    now=now, locale=locale, rated=rated,
                    guests=[SeatInfo(player_id=g.player_id, name=g.name,
                                     is_computer=g.player_id < 0) for g in guests],
                )
            except ChannelTakenError as exc:
                raise self._busy(exc.existing) from None
            except SeatTakenError as exc:
                raise AlreadySeatedError(channel_id=exc.channel_id,
                                         table_id=exc.table_id) from None
            live = _Live(record, opts, None, None)
            self._cache[channel_id] = live
            _log.info("table %d: %s lobby opened in channel %d", record.id, kind, channel_id)
            return live.snapshot()

    def _busy(self, record: TableRecord) -> ChannelBusyError:
        return ChannelBusyError(
            guild_id=record.guild_id, channel_id=record.channel_id, table_id=record.id,
            kind_label=self.game(record.kind).name, status=record.status,
            message_id=record.message_id,
        )

    async def join(self, channel_id: int, player_id: int, name: str) -> ApplyResult:
        """Sit down: in the lobby, or (for games that take players between hands) through the
        engine's join move. Raises ``AlreadySeatedError``, ``AlreadyJoinedError``,
        ``TableFullError``, ``GameStartedError``, or the engine's ``RuleError``."""
        async with self._lock(channel_id):
            live = await self._require(channel_id, lobby_fresh=True)
            return await self._join(live, SeatInfo(player_id=player_id, name=name,
                                                   is_computer=player_id < 0))

    async def add_computer(
        self, channel_id: int, by_id: int, computer_id: int, name: str
    ) -> ApplyResult:
        """The host seats a computer player (negative ``computer_id``; issue 8)."""
        if computer_id >= 0:
            raise ValueError("computer players have negative ids")
        async with self._lock(channel_id):
            live = await self._require(channel_id, lobby_fresh=True)
            if by_id != live.record.host_id:
                raise NotHostError()
            return await self._join(live, SeatInfo(player_id=computer_id, name=name,
                                                   is_computer=True))

    async def _join(self, live: _Live, seat: SeatInfo) -> ApplyResult:
        record = live.record
        game = self.game(record.kind)
        if any(s.player_id == seat.player_id for s in record.seats):
            raise AlreadyJoinedError()
        if record.status == "playing":
            move = game.rules.join_move(seat.name)
            if move is None:
                raise GameStartedError()
            if not seat.is_computer:
                claim = await self._store.claim_of(record.guild_id, seat.player_id)
                if claim is not None:
                    raise AlreadySeatedError(channel_id=claim.channel_id,
                                             table_id=claim.table_id)
            return await self._apply_locked(
                live, seat.player_id, move, by="computer" if seat.is_computer else "person")
        if len(record.seats) >= game.max_players:
            raise TableFullError(game.max_players)
        return await self._save_lobby(live, (*record.seats, seat), record.host_id)

    async def leave(self, channel_id: int, player_id: int) -> ApplyResult:
        """Stand up. In the lobby the host's role passes to the next human; a lobby with no
        human left is cancelled. In a game this is the engine's leave move."""
        async with self._lock(channel_id):
            live = await self._require(channel_id, lobby_fresh=True)
            record = live.record
            if all(s.player_id != player_id for s in record.seats):
                raise NotSeatedError()
            if record.status == "playing":
                return await self._apply_locked(live, player_id,
                                                self.game(record.kind).rules.leave_move(),
                                                by="person")
            seats = tuple(s for s in record.seats if s.player_id != player_id)
            humans = [s for s in seats if not s.is_computer]
            if not humans:
                return await self._cancel(live, {"why": EMPTY})
            host_id = record.host_id if record.host_id != player_id else humans[0].player_id
            return await self._save_lobby(live, seats, host_id)

    async def _save_lobby(self, live: _Live, seats: Sequence[SeatInfo],
                          host_id: int) -> ApplyResult:
        record = live.record
        try:
            live.record = await self._store.save_lobby(
                record.id, seats=seats, host_id=host_id, now=self._clock(),
                expected_version=record.version,
            )
        except SeatTakenError as exc:
            raise AlreadySeatedError(channel_id=exc.channel_id, table_id=exc.table_id) from None
        except TableChangedError:
            # another process changed the lobby: nothing written, the next use reads it again
            self._evict(record.channel_id)
            raise StaleMoveError(expected=record.counter, actual=None) from None
        except BaseException:
            self._evict(record.channel_id)
            raise
        return ApplyResult([], live.snapshot(), live.record.counter)

    async def cancel(self, channel_id: int, by_id: int, may_manage: bool,
                     note: Mapping[str, Any] | None = None) -> TableSnapshot:
        """Close the lobby or game (the host, or a member allowed to manage messages); ``note``
        says how, for showing it again. Hands already paid stay in the ledger; a game cut short
        records no result. Works even when the stored game cannot be loaded any more (issue 8:
        stop always works)."""
        async with self._lock(channel_id):
            try:
                live = await self._require(channel_id, lobby_fresh=True)
            except NoTableError:
                raise
            except Exception:
                _log.exception("the table in channel %d cannot be loaded", channel_id)
                live = await self._unloadable(channel_id)
            if by_id != live.record.host_id and not may_manage:
                raise NotAllowedError()
            return (await self._cancel(live, note)).snapshot

    async def _unloadable(self, channel_id: int) -> _Live:
        loaded = await self._store.live_table(channel_id)
        if loaded is None:
            raise NoTableError()
        record = loaded.record
        options = self.game(record.kind).options.model_construct(**record.options)
        return _Live(record, options, None, None)

    async def expire_lobby(self, channel_id: int, note: Mapping[str, Any] | None = None
                           ) -> TableSnapshot | None:
        """Cancel the channel's lobby if its expiry has passed (issue 8); ``None`` otherwise
        (also when another process started or closed it meanwhile)."""
        async with self._lock(channel_id):
            # read afresh: another process may have started this lobby since we last saw it
            self._evict(channel_id)
            live = await self._load(channel_id)
            if live is None or live.record.status != "lobby":
                return None
            expires = live.record.lobby_expires_at
            if expires is None or expires > self._clock():
                return None
            try:
                return (await self._cancel(live, note, unchanged=True)).snapshot
            except StaleMoveError:
                return None

    async def _cancel(self, live: _Live, note: Mapping[str, Any] | None = None, *,
                      unchanged: bool = False) -> ApplyResult:
        """Close the table; with ``unchanged``, only if nobody changed it since ``live`` was
        read (else ``StaleMoveError``, as when another process closed it first)."""
        channel_id = live.record.channel_id
        try:
            # a game stopped midway may still have a result to rate (a session of hands)
            rating = (await self._rating(live.record, (), finished=False)
                      if live.record.status == "playing" else None)
            live.record = await self._store.close_table(
                live.record.id, status="cancelled", now=self._clock(),
                note=None if note is None else dict(note),
                expected_version=live.record.version if unchanged else None, rating=rating,
            )
        except TableChangedError:
            raise StaleMoveError(expected=live.record.counter, actual=None) from None
        finally:
            self._evict(channel_id)
        _log.info("table %d: %s", live.record.id, live.record.status)
        return ApplyResult([], live.snapshot(), live.record.counter)

    # -- play ----------------------------------------------------------------------------------

    async def start(self, channel_id: int, by_id: int) -> ApplyResult:
        """The host starts the game: a fresh seed, the engine built from the lobby's seats and
        options. Raises ``NotHostError``, ``NotEnoughPlayersError``, ``GameStartedError``,
        ``InvalidOptionsError`` or the engine's ``RuleError``."""
        async with self._lock(channel_id):
            live = await self._require(channel_id, lobby_fresh=True)
            record = live.record
            if record.status != "lobby":
                raise GameStartedError()
            if by_id != record.host_id:
                raise NotHostError()
            game = self.game(record.kind)
            if len(record.seats) < game.min_players:
                raise NotEnoughPlayersError(game.min_players)
            if len(record.seats) > game.max_players:
                raise TableFullError(game.max_players)
            try:
                options = game.validate_options(record.options)
            except ValidationError as exc:
                raise _options_error(exc) from None
            secret = self._seed_source()
            deals = None if isinstance(secret, int) else new_deals(record.id, secret)
            seed = secret if isinstance(secret, int) else None
            engine = game.new_engine([Seat(s.player_id, s.name) for s in record.seats],
                                     options, secret if deals is None else deals)
            events = list(engine.opening_events)
            state = dumps(engine.to_stored())
            start_record: dict[str, Any] = {
                "type": "start",
                **({"seed": seed} if deals is None else {"deals": start_deals(record.id)}),
                "options": options.model_dump(mode="json"),
                "seats": [s.model_dump() for s in record.seats],
            }
            now = self._clock()
            try:
                live.record = await self._store.start_table(
                    record.id, seats=record.seats, state=state, seed=seed,
                    deals=None if deals is None else stored_secret(deals),
                    start_record=start_record,
                    events=[game.events.to_dict(e) for e in events], by_id=by_id,
                    payments=_payments(game, events),
                    stat_deltas=_stat_deltas(game, events, engine),
                    turn_deadline=self._turn_deadline(record, engine, now), now=now,
                    to_move=engine.to_move, expected_version=record.version,
                )
            except TableChangedError:
                self._evict(channel_id)
                raise StaleMoveError(expected=0, actual=None) from None
            except BaseException:
                self._evict(channel_id)
                raise
            live.options = options
            live.engine = engine
            live.state = state
            _log.info("table %d: started with %d players", record.id, len(record.seats))
            return ApplyResult(events, live.snapshot(), 0)

    async def apply(
        self, channel_id: int, player_id: int, move: Any, expected_counter: int | None = None
    ) -> ApplyResult:
        """Apply one move: checked against ``expected_counter`` (the counter the user's button or
        panel was made for; ``StaleMoveError`` if the table has moved on), applied through the
        engine (its ``RuleError`` propagates and changes nothing), then state, move log, ledger
        rows and stats are committed in one transaction."""
        async with self._lock(channel_id):
            live = await self._load_at(channel_id, expected_counter)
            if live is None:
                raise NoTableError()
            if live.record.status != "playing":
                raise NotPlayingError()
            if expected_counter is not None and expected_counter != live.record.counter:
                raise StaleMoveError(expected=expected_counter, actual=live.record.counter)
            result = await self._apply_locked(live, player_id, move,
                                              by="computer" if player_id < 0 else "person")
            # what follows a move (its answer, the table's drawing, the next person's panel)
            # is the longest stretch the bot runs without awaiting: it waits for its step of
            # the loop (issue 16) while the table stays locked, so the snapshot it draws from
            # is still the table as it is
            await self._people.step()
            return result

    async def expire_turn(self, channel_id: int, counter: int) -> ApplyResult | None:
        """Fire the turn deadline set at move ``counter``: the player to move gets the game's
        automatic move (``GameRules.timeout_move``), or when nobody is to move the table makes its
        idle move (``GameRules.idle_move``). ``None`` if the table has moved on since (here or
        in another process)."""
        async with self._lock(channel_id):
            live = await self._load_at(channel_id, counter)
            if live is None or live.record.status != "playing":
                return None
            record = live.record
            if record.counter != counter or record.deadline_counter != counter:
                return None
            engine = live.engine
            assert engine is not None
            rules = self.game(record.kind).rules
            player = engine.to_move
            try:
                if player is not None:
                    return await self._apply_locked(live, player, rules.timeout_move(),
                                                    by="timer")
                idle = rules.idle_move(engine)
                if idle is None:
                    return None
                return await self._apply_locked(live, *idle, by="timer")
            except StaleMoveError:
                # another process fired the same deadline first
                return None

    def _turn_deadline(self, record: TableRecord, engine: Engine, now: float) -> float | None:
        """The turn timer runs while someone is to move, or while the table waits for someone
        (between hands: ``GameRules.idle_move``)."""
        if record.turn_seconds <= 0 or engine.is_over:
            return None
        if engine.to_move is None and self.game(record.kind).rules.idle_move(engine) is None:
            return None
        return now + record.turn_seconds

    def _seats_after(self, live: _Live) -> tuple[SeatInfo, ...] | None:
        assert live.engine is not None
        current = live.engine.seats
        before = live.record.seats
        if [s.player_id for s in current] == [s.player_id for s in before]:
            return None
        known = {s.player_id: s for s in before}
        return tuple(
            known.get(s.player_id) or SeatInfo(player_id=s.player_id, name=s.name,
                                               is_computer=s.player_id < 0)
            for s in current
        )

    async def _apply_locked(self, live: _Live, player_id: int, move: Any, *,
                            by: MoveBy) -> ApplyResult:
        record = live.record
        game = self.game(record.kind)
        engine = live.engine
        assert engine is not None
        try:
            events = engine.apply(player_id, move)
            over = bool(engine.is_over)
            state = dumps(engine.to_stored())
            seats = self._seats_after(live)
            now = self._clock()
            commit = MoveCommit(
                table_id=record.id,
                expected_counter=record.counter,
                player_id=player_id,
                move=game.moves.to_dict(move),
                events=[game.events.to_dict(e) for e in events],
                state=state,
                status="finished" if over else "playing",
                seats=seats,
                payments=tuple(_payments(game, events)),
                stat_deltas=tuple(_stat_deltas(game, events, engine)),
                turn_deadline=None if over else self._turn_deadline(record, engine, now),
                to_move=None if over else engine.to_move,
                now=now,
            )
        except BaseException:
            # a RuleError may come after the engine changed part of its state
            self._rebuild_engine(live)
            raise
        try:
            rating = await self._rating(record, commit.events, finished=True) if over else None
            await self._store.commit_move(commit, rating=rating)
        except TableChangedError:
            self._evict(record.channel_id)
            raise StaleMoveError(expected=record.counter, actual=None) from None
        except SeatTakenError as exc:
            self._evict(record.channel_id)
            raise AlreadySeatedError(channel_id=exc.channel_id, table_id=exc.table_id) from None
        except BaseException:
            # the outcome of the write is unknown (failed, or cancelled while committing): the
            # next use reloads whatever the database holds
            self._evict(record.channel_id)
            raise
        metrics.MOVES.labels(record.kind, by).inc()
        counter = record.counter + 1
        update: dict[str, Any] = {
            "counter": counter, "version": record.version + 1, "status": commit.status,
            "updated_at": now, "to_move": commit.to_move,
            "turn_deadline": commit.turn_deadline,
            "deadline_counter": None if commit.turn_deadline is None else counter,
        }
        if seats is not None:
            update["seats"] = seats
        live.record = record.model_copy(update=update)
        live.state = state
        if over:
            self._evict(record.channel_id)
            _log.info("table %d: finished after %d moves", record.id, counter)
        return ApplyResult(events, live.snapshot(), counter)

    async def _rating(self, record: TableRecord, events: Sequence[dict[str, Any]], *,
                      finished: bool) -> RatingJob | None:
        """The rated result of a table that is ending, from its move log and the stored
        ``events`` of the move that ends it (``bot.ratings``: the same reading ``rerate``
        makes), or ``None``."""
        game = self.game(record.kind)
        if not record.rated or game.standings is None:
            return None
        moves = await self._store.moves(record.id)
        if not moves:
            return None
        places = rated_places(game, record.rated, moves[0].move,
                              [*log_events(moves), *events], finished)
        return None if places is None else job(places)

    # -- reading -------------------------------------------------------------------------------

    async def live_record(self, channel_id: int) -> TableRecord | None:
        """The channel's lobby or game as stored, without loading its engine (so it works for a
        table whose stored game no longer loads), or ``None``."""
        live = self._cache.get(channel_id)
        if live is not None:
            return live.record
        loaded = await self._store.live_table(channel_id)
        return None if loaded is None else loaded.record

    async def get(self, channel_id: int, *, counter: int | None = None) -> TableSnapshot | None:
        """The channel's lobby or game, or ``None``. ``counter``: the move the caller saw the
        game at (a stored deadline's); a copy at another move is read again from the
        database."""
        async with self._lock(channel_id):
            live = await self._load_at(channel_id, counter)
            return None if live is None else live.snapshot()

    async def message_moved(self, table_id: int, channel_id: int, message_id: int,
                            pinged: int | None, version: int | None = None, *,
                            webhook: int | None = None, strays_from: int | None = None,
                            token: tuple[str, float] | None = None, run: int | None = None
                            ) -> None:
        """The table's message is now ``message_id``, posted anew showing ``version``
        (``pinged``: the person it pinged; ``webhook``: the channel webhook that posted it;
        ``strays_from``: where its stale messages may still stand, ``TableRecord``'s;
        ``token``: the interaction token that posted it and when it was issued; ``run``: the
        process run that claims the table's posts from now on, ``bot.storage.postruns``)."""
        async with self._lock(channel_id):
            await self._store.set_message_id(table_id, message_id, pinged=pinged,
                                             shown_version=version, webhook=webhook,
                                             strays_from=strays_from, token=token, run=run)
            self._note_shown(table_id, channel_id, version, pinged, message_id, webhook)
            self._note_strays(table_id, channel_id, strays_from)
            self._note_token(table_id, channel_id, token)

    async def claim_posts(self, run_id: int) -> dict[int, bool]:
        """Claim the tables of this process's servers for ``run_id``'s posts: each, and
        whether every post of it is recorded (``bot.storage.postruns``)."""
        return await self._store.claim_posts(run_id, shards=self._shards)

    async def hold_posts(self, table_id: int, run_id: int) -> None:
        await self._store.hold_posts(table_id, run_id)

    async def release_posts(self, run_id: int, *, keep: Collection[int] = ()) -> None:
        await self._store.release_posts(run_id, keep=keep)

    async def forget_message_tokens(self, issued_before: float) -> int:
        return await self._store.forget_message_tokens(issued_before)

    def _note_token(self, table_id: int, channel_id: int,
                    token: tuple[str, float] | None) -> None:
        live = self._cache.get(channel_id)
        if live is not None and live.record.id == table_id:
            secret, issued = (None, None) if token is None else token
            live.record = live.record.model_copy(
                update={"message_token": secret, "message_token_at": issued})

    async def message_shows(self, table_id: int, channel_id: int, version: int,
                            pinged: int | None, *, strays_from: int | None = None,
                            token: tuple[str, float] | None = None) -> None:
        """The table's message now shows ``version``, and ``pinged``'s turn is the one it
        pinged for (``None``: none); ``strays_from``: where its stale messages may stand;
        ``token``: a newer interaction token that edits the message, and when Discord issued
        it (``None`` for either: the record stays as it is)."""
        await self._store.mark_shown(table_id, version, pinged=pinged, strays_from=strays_from,
                                     token=token)
        self._note_shown(table_id, channel_id, version, pinged)
        if strays_from is not None:
            self._note_strays(table_id, channel_id, strays_from)
        if token is not None:
            self._note_token(table_id, channel_id, token)

    async def strays_swept(self, table_id: int, channel_id: int, swept: int) -> None:
        """The table's stale messages from ``swept`` on are gone."""
        async with self._lock(channel_id):
            await self._store.clear_strays(table_id, swept)
            live = self._cache.get(channel_id)
            if live is not None and live.record.id == table_id and (
                    live.record.strays_from == swept):
                self._note_strays(table_id, channel_id, None)

    def _note_strays(self, table_id: int, channel_id: int, strays_from: int | None) -> None:
        live = self._cache.get(channel_id)
        if live is not None and live.record.id == table_id and (
                live.record.strays_from != strays_from):
            live.record = live.record.model_copy(update={"strays_from": strays_from})

    def _note_shown(self, table_id: int, channel_id: int, version: int | None,
                    pinged: int | None, message_id: int | None = None,
                    webhook: int | None = None) -> None:
        live = self._cache.get(channel_id)
        if live is None or live.record.id != table_id:
            return
        update: dict[str, Any] = {"pinged": pinged}
        if message_id is not None:
            update["message_id"] = message_id
            update["message_webhook"] = webhook
        if version is not None and version > (live.record.shown_version or -1):
            update["shown_version"] = version
        live.record = live.record.model_copy(update=update)

    async def computer_turns(self) -> list[TableRecord]:
        """Games in play where a computer is to move (start-up wakes them), of the servers this
        process owns."""
        return await self._store.computer_turns(shards=self._shards)

    async def tables_behind(self, limit: int) -> list[TableRecord]:
        """Tables whose message shows an older version than they hold, most recent first, of
        the servers this process owns."""
        return await self._store.tables_behind(limit, shards=self._shards)

    async def closed(self, record: TableRecord) -> TableSnapshot:
        """A table that is no longer live, as it ended (its engine loaded if it has one), to
        show it again."""
        state = await self._store.table_state(record.id)
        game = self.game(record.kind)
        engine = None if state is None else game.load_engine(json.loads(state))
        options = game.options.model_construct(**record.options)
        return _Live(record, options, engine, state).snapshot()

    async def set_deadline(self, channel_id: int, at: float | None) -> bool:
        """Set or clear the turn deadline for the table's current move; ``False`` if there is no
        game in progress."""
        async with self._lock(channel_id):
            live = await self._load(channel_id)
            if live is None or live.record.status != "playing":
                return False
            counter = live.record.counter
            if not await self._store.set_deadline(live.record.id, counter=counter, at=at):
                self._evict(channel_id)
                return False
            live.record = live.record.model_copy(update={
                "turn_deadline": at, "deadline_counter": None if at is None else counter,
            })
            return True

    async def unfinished_tables(self) -> list[TableRecord]:
        """Every lobby and game in progress of the servers this process owns, without loading
        an engine."""
        return await self._store.unfinished_tables(shards=self._shards)

    async def due_deadlines(self, now: float | None = None) -> list[DueDeadline]:
        """The passed deadlines of the servers this process owns."""
        return await self._store.due_deadlines(self._clock() if now is None else now,
                                               shards=self._shards)

    async def next_deadline(self) -> float | None:
        """The next deadline of the servers this process owns."""
        return await self._store.next_deadline(shards=self._shards)

    async def table_of_player(self, guild_id: int, player_id: int) -> TableRecord | None:
        """The live table where the player sits in this server, if any."""
        claim = await self._store.claim_of(guild_id, player_id)
        return None if claim is None else await self._store.table(claim.table_id)

    async def moves(self, table_id: int, *, after: int = -1) -> list[MoveRecord]:
        """The table's move log from ``after + 1`` on (row 0 is the start record)."""
        return await self._store.moves(table_id, after=after)

    async def balances(self, guild_id: int, kind: str, table_id: int | None = None
                       ) -> list[Balance]:
        return await self._store.balances(guild_id, kind, table_id=table_id)

    async def ledger_entries(
        self, guild_id: int, kind: str, player_id: int | None = None, limit: int | None = 20, *,
        table_id: int | None = None,
    ) -> list[LedgerEntry]:
        return await self._store.ledger_entries(guild_id, kind=kind, player_id=player_id,
                                                table_id=table_id, limit=limit)

    async def stats(self, guild_id: int, kind: str, table_id: int | None = None
                    ) -> list[StatsRow]:
        return await self._store.stats(guild_id, kind, table_id=table_id)
