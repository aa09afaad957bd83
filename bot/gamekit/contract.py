"""The shape every game shares with the host: the engine, its codecs, its computer strategies,
and the spec a game registers with.

A game is one package under ``bot/games/<game>/`` that declares one ``GameSpec`` (in the spirit of
OpenSpiel's per-game ``GameType`` and python-chess's ``VARIANTS``); the registry lists the specs,
and the host (storage, the table service, timers, computers, the simulator, the Discord layer)
only ever reaches a game through these protocols. Nothing here imports discord.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, Self

from pydantic import BaseModel

from bot.errors import KortbordError

if TYPE_CHECKING:
    from bot.gamekit.search import SearchRules


class RuleError(KortbordError, ValueError):
    """A move the rules do not allow. ``ruling`` names the rule (``"D5"``, ``"T5"``), for logs
    and the full rules; players are told ``template`` in their language (it is a gettext message,
    its ``{placeholders}`` filled from ``values``), never the ruling's number."""

    def __init__(self, ruling: str, template: str, /, **values: object) -> None:
        self.ruling = ruling
        self.template = template
        self.values = values
        self.message = template.format(**values) if values else template
        super().__init__(f"{ruling}: {self.message}")


@dataclass(frozen=True, slots=True)
class Seat:
    """A player at a table: a stable id (the Discord user id, or a computer player's negative
    id) and the name shown on the table."""

    player_id: int
    name: str


@dataclass(frozen=True, slots=True)
class Payment:
    """Money a move moves, for games played for stakes: ``payer`` pays ``payee`` ``amount`` for
    ``reason`` in round ``round_no`` of the table (a hand). The host writes it to the
    server's ledger in the same transaction as the move, at most once per (round, payer, payee,
    reason)."""

    round_no: int
    payer: int
    payee: int
    amount: int
    reason: str


@dataclass(frozen=True, slots=True)
class StatDelta:
    """Add ``amount`` to ``player``'s counter ``counter`` (a name the game declares)."""

    player: int
    counter: str
    amount: int = 1


class DealSource(Protocol):
    """Where an engine's shuffles come from (``bot.deals``): the host hands a new engine one,
    and the engine asks it for every shuffle (the deal, each reshuffle), saying which hand
    (deal) of the table it is for, numbered from 1. Same source, same requests: same cards.
    An engine built from a plain ``int`` seed shuffles the old way instead (its own Mersenne
    Twister stream), as every game stored before committed deals did."""

    def shuffle(self, hand: int, cards: list[int]) -> None: ...

    def to_stored(self) -> dict[str, Any]: ...


class Engine(Protocol):
    """One game in play: seeded state, legal moves, ``apply -> events``, views, a stored form.

    Moves, events and views are the game's own typed objects; the host moves them around
    through the game's ``MoveCodec`` and ``EventCodec`` and hands views to the game's own
    rendering. Every engine is built by ``new`` from seats, options and a seed, and
    ``from_stored(engine.to_stored())`` continues exactly where it left off.
    """

    KIND: ClassVar[str]
    STATE_VERSION: ClassVar[int]

    @classmethod
    def new(cls, seats: Sequence[Seat], options: Any, seed: int | DealSource) -> Self: ...

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> Self: ...

    def to_stored(self) -> dict[str, Any]: ...

    @property
    def opening_events(self) -> Sequence[Any]:
        """What happened while the game was set up (a cut for deal, a first deal), for the log."""
        ...

    @property
    def to_move(self) -> int | None:
        """The player whose turn it is, or ``None`` (between hands, game over)."""
        ...

    @property
    def is_over(self) -> bool: ...

    @property
    def deals_done(self) -> int:
        """How many hands (deals) are over, so that all their cards may be shown: the hand in
        play, or the next one to be dealt, is ``deals_done + 1``."""
        ...

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Everyone still at the table, in seat order."""
        ...

    @property
    def names(self) -> Mapping[int, str]:
        """Everyone who ever sat at the table, those who left included (results name them)."""
        ...

    def legal_moves(self, player_id: int) -> Sequence[Any]: ...

    def apply(self, player_id: int, move: Any) -> list[Any]:
        """Apply ``move``; ``RuleError`` if the rules refuse it (the host then rebuilds the
        engine from its stored form, so a refused move may leave the object half-changed)."""
        ...

    def hand(self, player_id: int) -> tuple[int, ...]:
        """The cards ``player_id`` holds (private: only for that player's eyes)."""
        ...

    def public_view(self) -> Any:
        """Everything anyone watching may see."""
        ...

    def private_view(self, player_id: int) -> Any:
        """What only ``player_id`` may see besides the public view: their hand, their moves."""
        ...

    def observe(self, player_id: int) -> Any:
        """Everything ``player_id``'s seat may know now, for a computer player to decide on."""
        ...

    def check_invariants(self) -> list[str]:
        """What must always hold, as a list of problems (empty when all is well)."""
        ...


class MoveCodec(Protocol):
    """Moves as JSON-safe dicts for the move log and component ids, and back."""

    def to_dict(self, move: Any) -> dict[str, Any]: ...

    def from_dict(self, data: Mapping[str, Any]) -> Any: ...


class EventCodec(Protocol):
    """Events in their stored form (everything, private cards included, for the move log) and
    the forms made from it: ``public`` is what the whole table may see, ``for_seat`` what one
    seat was shown (the public form plus that seat's own private cards)."""

    def to_dict(self, event: Any) -> dict[str, Any]: ...

    def public(self, stored: Mapping[str, Any]) -> dict[str, Any]: ...

    def for_seat(self, stored: Mapping[str, Any], player_id: int) -> dict[str, Any]: ...


class Strategy(Protocol):
    """A computer player. ``choose`` picks one of the seat's legal moves from what the seat may
    see (``Engine.observe``), drawing any randomness from ``rng``. A strategy that
    ``remembers`` is shown, in order, every event as its seat saw it (``EventCodec.for_seat``),
    and may keep what it learns; one made afresh (after a restart) is shown the table's logged
    events again."""

    name: str
    remembers: bool

    def choose(self, view: Any, rng: random.Random) -> Any: ...

    def remember(self, events: Sequence[Mapping[str, Any]]) -> None: ...


@dataclass(frozen=True)
class StatCounter:
    """A counter a game keeps per player and server, e.g. ``losses``."""

    name: str
    """The stored counter name."""
    label: str
    """What it is called where stats are shown."""


class GameRules(Protocol):
    """Everything a game decides beyond one engine: the moves the host makes on a player's
    behalf, and what a move's events mean for stats and money."""

    def join_move(self, name: str) -> Any | None:
        """The move that seats a newcomer in a running game, or ``None`` if the game takes no
        players once started."""
        ...

    def leave_move(self) -> Any: ...

    def timeout_move(self) -> Any:
        """The move the turn timer makes for the player to move."""
        ...

    def idle_move(self, engine: Any) -> tuple[int, Any] | None:
        """When nobody is to move but the table waits on someone (between hands), the move the
        table makes itself once the turn time runs out, and in whose name; ``None`` when there
        is nothing to wait for."""
        ...

    def payments(self, events: Sequence[Any]) -> list[Payment]:
        """The money one move's events move (none for games without stakes)."""
        ...

    def stat_deltas(self, events: Sequence[Any], engine: Any) -> list[StatDelta]: ...


class Standings(Protocol):
    """How a finished table of a game ranks its players, for the host's skill ratings
    (``bot.ratings``). Worked out from the table's move log alone, so that the ratings can
    always be rebuilt from it (``python -m bot.storage rerate``)."""

    def places(self, seats: Sequence[int], events: Sequence[Mapping[str, Any]],
               finished: bool) -> list[list[int]] | None:
        """The players of the table, best first, in groups: players in one group tied. ``seats``
        are the player ids seated at the start, ``events`` every stored event of the table in
        order (the deal's first); ``finished``: the game ended by a move (otherwise it was
        stopped or closed). ``None``: the table has no result to rate."""
        ...


class EventRules(Protocol):
    """How a game's tables play and score in an event (a tournament across tables): the host
    seats the players, opens the tables and adds up the places; the game says what a place is
    and what its tables need beyond the players' own moves."""

    plays_hands: bool
    """Whether a table plays hand after hand (a round is then a number of hands the event's
    host picks); otherwise a table plays one game to its end."""

    def places(self, engine: Any, money: Mapping[int, int] | None) -> list[tuple[int, ...]]:
        """The table's players from first place to last, players tied for a place together,
        as the table stands now (finished, or stopped part-way). ``money``: each player's net
        at this table, for games played for stakes. Players who left may be anywhere: the host
        puts them last."""
        ...

    def next_move(self, engine: Any, hands: int) -> tuple[int, Any] | None:
        """The move the event makes itself at a table of ``hands`` hands a round, and in whose
        name (dealing the next hand), or ``None``."""
        ...

    def round_over(self, engine: Any, hands: int) -> bool:
        """Whether the table has played its part of the round (its ``hands`` hands) though its
        game goes on; the host then closes it."""
        ...


@dataclass(frozen=True)
class DailyRules:
    """What a game's daily deal is (``bot.daily``): one deal a day, the same for everyone, a
    person against the game's computers, scored against the expert in the same seat. The host
    plays it with the game's ``EventRules`` (how hands follow each other, who places where)."""

    computers: int
    """Computer players beside the person."""
    hands: int = 1
    """Hands the sitting plays, for games that play hand after hand (``EventRules.plays_hands``);
    a game of one game plays it to its end."""
    measure: Literal["place", "chips"] = "place"
    """What is compared with the expert: the person's place (1 is first; fewer is better), or
    their net chips at the sitting (more is better)."""
    computer: str = "smart"
    """The strategy the computers play: one whose moves follow from what their seat sees and
    the random numbers they are given, so the same moves get the same replies everywhere."""


@dataclass(frozen=True)
class GameSpec:
    """A game, as it registers with the host. One package under ``bot/games`` (or anywhere: the
    test suite registers its own) builds one of these; the registry lists them."""

    kind: str
    """The stored kind, the command group's name and the key in component ids (``"chess"``)."""
    name: str
    """What players call it (``"Chess"``)."""
    summary: str
    """The game in one sentence, for help."""
    min_players: int
    max_players: int
    options: type[BaseModel]
    """The table options, validated from what the lobby stored."""
    engine: type[Engine]
    moves: MoveCodec
    events: EventCodec
    rules: GameRules
    strategies: Mapping[str, Callable[[], Strategy]]
    """Computer players by name, each made fresh per seat."""
    computer: str
    """The strategy computer players at a Discord table play."""
    counters: tuple[StatCounter, ...] = ()
    """The stat counters ``rules.stat_deltas`` writes."""
    stakes: bool = False
    """Whether the game moves money (``rules.payments``) and so has a ledger."""
    face: str = ""
    """Where the game's Discord face lives, ``"module:attribute"``; only the Discord layer
    loads it, so engines and the simulator never import discord."""
    simulator: Callable[[Sequence[str]], int] | None = None
    """The game's own ``python -m bot.sim <kind>``; games without one get the generic runner."""
    default_turn_seconds: int = 90
    """The turn timer a new table gets unless its server or host says otherwise."""
    standings: Standings | None = None
    """How a table's result ranks its players; games without one are never rated."""
    event: EventRules | None = None
    """How its tables play and score in an event; ``None``: the game runs no events."""
    search: SearchRules | None = None
    """What the game tells the expert computer player (``bot.gamekit.search``); a game without
    it has no expert level."""
    daily: DailyRules | None = None
    """The game's daily deal; ``None``: it has none. A daily needs ``event`` and ``search``
    too (the sitting's hands and places; the expert who sets the score to beat)."""

    def validate_options(self, options: BaseModel | Mapping[str, Any] | None) -> BaseModel:
        """The options as the game's model; raises pydantic's ``ValidationError``."""
        if isinstance(options, self.options):
            return options
        if isinstance(options, BaseModel):
            options = options.model_dump()
        return self.options.model_validate(dict(options or {}))

    def new_engine(self, seats: Sequence[Seat], options: BaseModel,
                   seed: int | DealSource) -> Engine:
        return self.engine.new(seats, options, seed)

    def load_engine(self, stored: dict[str, Any]) -> Engine:
        return self.engine.from_stored(stored)
