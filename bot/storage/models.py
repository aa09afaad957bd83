"""The rows that cross the storage boundary, as frozen pydantic models.

Times are Unix seconds (``float``) from the caller's clock, so tests can drive them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

TableStatus = Literal["lobby", "playing", "finished", "cancelled"]
LIVE_STATUSES: tuple[TableStatus, ...] = ("lobby", "playing")
FINAL_STATUSES: tuple[TableStatus, ...] = ("finished", "cancelled")


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SeatInfo(_Row):
    """A seat as the table service tracks it. Computer players have negative ids (a Discord
    user id is always positive); they never claim a seat in the one-table-per-server rule."""

    player_id: int
    name: str
    is_computer: bool = False


class TableRecord(_Row):
    """A table row without its engine state (cheap to list at start-up)."""

    id: int
    guild_id: int
    channel_id: int
    kind: str
    status: TableStatus
    host_id: int
    options: dict[str, Any]
    seats: tuple[SeatInfo, ...]
    message_id: int | None
    seed: int | None
    counter: int
    created_at: float
    updated_at: float
    lobby_expires_at: float | None
    turn_seconds: int
    turn_deadline: float | None
    deadline_counter: int | None
    version: int = 0
    """Bumped by every write that changes what the table shows."""
    shown_version: int | None = None
    """The version the table message was last seen to show (``None``: not yet)."""
    to_move: int | None = None
    """Whose turn it is in a game in play (computers have negative ids)."""
    pinged: int | None = None
    """The person whose turn the table message was posted to ping, while that turn lasts (a
    turn is pinged once, restarts included)."""
    locale: str | None = None
    """The language the table's public messages use, fixed when it opened."""
    closed_note: dict[str, Any] | None = None
    """How a table that did not finish by its rules ended (stopped, by whom; closed idle), so
    it can be shown again after a restart."""
    deals: dict[str, Any] | None = Field(default=None, repr=False)
    """A table dealt from committed deals: ``bot.deals.CommittedDeals``'s ``version``, ``table``
    and ``master`` (the secret: never shown, logged or exported; only the hand keys it gives
    are revealed once their hands are over). ``None``: an old table, dealt from ``seed``."""
    rated: bool = True
    """Whether the table's result counts for the skill ratings (the host's choice when the
    lobby opened; a table with computer players is never rated, whatever this says)."""
    message_webhook: int | None = None
    """The channel webhook that posted the table message (``None``: the bot did, or an
    interaction's follow-up): only that webhook can edit it."""
    strays_from: int | None = None
    """The table's messages from this id on, but for ``message_id``, may still stand in the
    channel until a sweep deletes them (``None``: none may): a replaced message whose delete
    waits in the background, or a post a killed process never recorded."""
    message_token: str | None = Field(default=None, repr=False)
    """The token of the interaction whose follow-up posted the table message, or where only
    interactions write the table (a group DM) the newest person's token at its last write
    (``None``: none, or too old): a credential, never shown or logged. It edits and deletes
    that message until 15 minutes after ``message_token_at``, a restart included."""
    message_token_at: float | None = None
    """When Discord issued ``message_token`` (Unix seconds: the interaction id's time)."""

    @property
    def has_started(self) -> bool:
        """The table was dealt (its move log has a start record)."""
        return self.seed is not None or self.deals is not None

    @property
    def is_live(self) -> bool:
        return self.status in LIVE_STATUSES


class LoadedTable(_Row):
    """A table with its engine state, still as JSON text (the service parses it)."""

    record: TableRecord
    state: str | None


class SeatClaim(_Row):
    """Where a player sits in a server: at most one live table each."""

    guild_id: int
    player_id: int
    table_id: int
    channel_id: int


class Payment(_Row):
    """One ledger payment, before it is written: ``payer_id`` pays ``payee_id`` ``amount`` for
    ``reason`` in round ``hand_no`` of its table (a hand, in a game of hands). A table writes each
    (round, payer, payee, reason) at most once."""

    hand_no: int
    payer_id: int
    payee_id: int
    amount: int = Field(gt=0)
    reason: str

    @model_validator(mode="after")
    def _two_players(self) -> Self:
        if self.payer_id == self.payee_id:
            raise ValueError("a payment needs two different players")
        return self


class StatDelta(_Row):
    """Add ``amount`` to one of a player's stat counters. Counters are the game's own names
    (``bot.games.<game>`` declares them); storage only adds them up."""

    player_id: int
    counter: str
    amount: int = 1


class MoveCommit(_Row):
    """Everything one applied move changes, written in one transaction or not at all."""

    table_id: int
    expected_counter: int
    player_id: int
    move: dict[str, Any]
    events: list[dict[str, Any]]
    state: str
    status: Literal["playing", "finished"]
    seats: tuple[SeatInfo, ...] | None = None
    """The seating after the move, or ``None`` when it did not change."""
    payments: tuple[Payment, ...] = ()
    stat_deltas: tuple[StatDelta, ...] = ()
    turn_deadline: float | None = None
    to_move: int | None = None
    now: float


class MoveRecord(_Row):
    """A row of the move log; ``seq`` 0 is the start record (seats, options, seed)."""

    table_id: int
    seq: int
    player_id: int
    move: dict[str, Any]
    events: list[dict[str, Any]]
    created_at: float


class LedgerEntry(_Row):
    """One written payment, with both players' names as last seen in the server."""

    id: int
    guild_id: int
    kind: str
    season: int
    table_id: int
    hand_no: int
    payer_id: int
    payer_name: str | None
    payee_id: int
    payee_name: str | None
    amount: int
    reason: str
    created_at: float


class ChainedEntry(LedgerEntry):
    """A ledger row with its link in the server's hash chain (``bot.storage.chain``): its
    number, its digest and the digest of the link before it, so that the row's digest can be
    recomputed from the row alone (an export of one season or table leaves gaps)."""

    chain_seq: int
    previous: str
    digest: str


class Balance(_Row):
    """A player's net in one game's ledger of a server: received minus paid."""

    player_id: int
    name: str | None
    is_computer: bool
    net: int


class StatsRow(_Row):
    """A player's stat counters for one game kind in one server."""

    guild_id: int
    kind: str
    player_id: int
    name: str | None
    is_computer: bool
    counters: dict[str, int] = Field(default_factory=dict)

    def count(self, counter: str) -> int:
        return self.counters.get(counter, 0)


class Season(_Row):
    """A ledger season of one game in a server (season 1 needs no row: it is where every
    server starts)."""

    guild_id: int
    kind: str
    season: int
    started_at: float | None
    started_by: int | None


class Shards(_Row):
    """The servers one bot process owns: those whose shard is among ``ids``, out of ``count``
    shards in all. A server's shard is Discord's routing of its events,
    ``(guild_id >> 22) % count``, so a process owns exactly the servers whose events it gets."""

    count: int = Field(ge=1)
    ids: tuple[int, ...]

    @model_validator(mode="after")
    def _ids_in_range(self) -> Self:
        if not self.ids:
            raise ValueError("a process owns at least one shard")
        if len(set(self.ids)) != len(self.ids):
            raise ValueError("a shard is listed twice")
        if not all(0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids run from 0 to {self.count - 1}")
        return self

    @property
    def owns_all(self) -> bool:
        return len(self.ids) == self.count

    def owns(self, guild_id: int) -> bool:
        return (guild_id >> 22) % self.count in self.ids


class DueDeadline(_Row):
    """A deadline that has passed: a turn timer (``counter`` is the move it was set against)
    or an idle lobby."""

    table_id: int
    guild_id: int
    channel_id: int
    what: Literal["turn", "lobby"]
    at: float
    counter: int | None


class Skill(_Row):
    """A player's skill rating as the rating model keeps it (``bot.ratings``): its mean, its
    uncertainty and the conservative estimate the leaderboard sorts by."""

    mu: float
    sigma: float
    ordinal: float


Rate = Callable[[Sequence[Sequence[int]], Mapping[int, Skill]], Mapping[int, Skill]]
"""The rating update: the places of a table (groups of player ids, best first; a group ties)
and the ratings its players hold (absent: never rated) give their new ratings. The store calls
it inside the transaction that records the result, so the ratings it reads are current."""


@dataclass(frozen=True, slots=True)
class RatingJob:
    """A table's result to rate: ``places`` as ``Rate`` takes them, the update, and the
    rating a player starts from (recorded as a newcomer's rating before the table)."""

    places: tuple[tuple[int, ...], ...]
    rate: Rate
    fresh: Skill


class RatingRow(_Row):
    """A player's rating in one server, game and season, with their record in it."""

    guild_id: int
    kind: str
    season: int
    player_id: int
    name: str | None
    mu: float
    sigma: float
    ordinal: float
    games: int
    firsts: int
    lasts: int


class RatingChange(_Row):
    """What one rated table did to one player's rating (``place`` 1 is first; tied players
    share a place)."""

    table_id: int
    player_id: int
    season: int
    place: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    ended_at: float


EventStatus = Literal["registering", "running", "finished", "cancelled"]


class EventRecord(_Row):
    """An event (a tournament across tables) of one game in a server. ``settings`` are the
    host's choices as the event layer stores them; ``round`` is the round in play (0 while
    people register), ``announced`` the last round whose standings were posted, ``seated`` the
    last whose seating was."""

    id: int
    guild_id: int
    channel_id: int
    kind: str
    status: EventStatus
    host_id: int
    settings: dict[str, Any]
    round: int = 0
    announced: int = 0
    seated: int = 0
    message_id: int | None = None
    locale: str | None = None
    created_at: float
    updated_at: float


class EventEntrant(_Row):
    """Someone registered for an event (computer players have negative ids); ``seq`` is the
    order they registered in."""

    event_id: int
    player_id: int
    name: str
    is_computer: bool = False
    seq: int


class EventTable(_Row):
    """One table of one round of an event: who was seated there (in seat order), the thread it
    is played in and its table once they exist, and its result once it has ended (the event
    layer's own form)."""

    event_id: int
    round: int
    table_no: int
    players: tuple[int, ...]
    thread_id: int | None = None
    table_id: int | None = None
    result: list[dict[str, Any]] | None = None
