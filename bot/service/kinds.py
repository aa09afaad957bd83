"""Per-game adapters: what the table service needs to know about each engine.

A ``GameKind`` names the engine class and options model, turns moves and events into JSON-safe
dicts, says who sits at the table and who is to move, and pulls the ledger payments (T12) and the
stat counters out of the events of one move.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from bot.games import dubb, tonk
from bot.games.base import Seat
from bot.games.dubb import options as dubb_options
from bot.storage.models import (
    GAMES_PLAYED,
    HANDS_PLAYED,
    HANDS_WON,
    LOSSES,
    TONKS,
    WON_BY_PREFIX,
    Payment,
    StatDelta,
)


class GameKind(ABC):
    kind: ClassVar[str]
    """The stored kind ('dubb', 'tonk'), also the key in the service's kinds mapping."""
    label: ClassVar[str]
    """The name users see ("Dubb")."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_model: ClassVar[type[BaseModel]]

    def validate_options(self, options: BaseModel | Mapping[str, Any] | None) -> BaseModel:
        """The options as the engine's model; raises pydantic's ``ValidationError``."""
        if isinstance(options, self.options_model):
            return options
        if isinstance(options, BaseModel):
            options = options.model_dump()
        return self.options_model.model_validate(dict(options or {}))

    @abstractmethod
    def new_engine(self, seats: Sequence[Seat], options: BaseModel, seed: int) -> Any: ...

    @abstractmethod
    def load_engine(self, stored: dict[str, Any]) -> Any: ...

    def store_engine(self, engine: Any) -> dict[str, Any]:
        return engine.to_stored()  # type: ignore[no-any-return]

    def start_events(self, engine: Any) -> list[Any]:
        """Events of the deal itself, for games whose engine reports them (none by default)."""
        return []

    @abstractmethod
    def move_to_dict(self, move: Any) -> dict[str, Any]: ...

    @abstractmethod
    def move_from_dict(self, data: Mapping[str, Any]) -> Any: ...

    @abstractmethod
    def event_to_dict(self, event: Any) -> dict[str, Any]: ...

    @abstractmethod
    def to_move(self, engine: Any) -> int | None:
        """The player whose turn it is, or ``None`` when no one is (between hands, game over)."""

    @abstractmethod
    def seats(self, engine: Any) -> list[Seat]:
        """The players still sitting at the table, in seat order (leavers excluded)."""

    def join_move(self, name: str) -> Any | None:
        """The move that seats a new player in a running game, or ``None`` if the game does not
        take players once started."""
        return None

    @abstractmethod
    def leave_move(self) -> Any: ...

    @abstractmethod
    def timeout_move(self) -> Any: ...

    def payments(self, events: Sequence[Any]) -> list[Payment]:
        """The ledger payments in one move's events (T12); none for games without stakes."""
        return []

    def stat_deltas(self, events: Sequence[Any], engine: Any) -> list[StatDelta]:
        """The stat counters one move's events change."""
        return []


class DubbKind(GameKind):
    """One Dubb game per table; no one joins once it has started (D1)."""

    kind = "dubb"
    label = "Dubb"
    min_players = dubb_options.MIN_PLAYERS
    max_players = dubb_options.MAX_PLAYERS
    options_model = dubb.DubbOptions

    def new_engine(self, seats: Sequence[Seat], options: BaseModel, seed: int) -> dubb.DubbGame:
        assert isinstance(options, dubb.DubbOptions)
        return dubb.DubbGame.new(list(seats), options, seed)

    def load_engine(self, stored: dict[str, Any]) -> dubb.DubbGame:
        return dubb.DubbGame.from_stored(stored)

    def move_to_dict(self, move: Any) -> dict[str, Any]:
        return dubb.move_to_dict(move)

    def move_from_dict(self, data: Mapping[str, Any]) -> Any:
        return dubb.move_from_dict(dict(data))

    def event_to_dict(self, event: Any) -> dict[str, Any]:
        return dubb.event_to_dict(event)

    def to_move(self, engine: Any) -> int | None:
        return engine.to_move  # type: ignore[no-any-return]

    def seats(self, engine: Any) -> list[Seat]:
        # players who are out stay at the table until the end; those who left do not
        return [Seat(p.player_id, p.name) for p in engine.public_view().players
                if p.status != "left"]

    def leave_move(self) -> Any:
        return dubb.Leave()

    def timeout_move(self) -> Any:
        return dubb.Timeout()

    def stat_deltas(self, events: Sequence[Any], engine: Any) -> list[StatDelta]:
        # leaving is a loss when it happens (issue 6), so it counts even if the game is later
        # stopped; the end then records everyone else and a loser who did not leave
        deltas: list[StatDelta] = []
        for e in events:
            if isinstance(e, dubb.PlayerLeft):
                deltas.append(StatDelta(player_id=e.player, counter=GAMES_PLAYED))
                deltas.append(StatDelta(player_id=e.player, counter=LOSSES))
            elif isinstance(e, dubb.GameOver):
                deltas += [StatDelta(player_id=p, counter=GAMES_PLAYED)
                           for p in e.ranking if p not in e.leavers]
                if e.loser not in e.leavers:
                    deltas.append(StatDelta(player_id=e.loser, counter=LOSSES))
        return deltas


class TonkKind(GameKind):
    """Tonk tables play hand after hand; every ``HandEnded`` carries the hand's payments (T12)."""

    kind = "tonk"
    label = "Tonk"
    min_players = tonk.MIN_PLAYERS
    max_players = tonk.MAX_PLAYERS
    options_model = tonk.TonkOptions

    def new_engine(self, seats: Sequence[Seat], options: BaseModel, seed: int) -> tonk.TonkTable:
        assert isinstance(options, tonk.TonkOptions)
        return tonk.TonkTable.new(list(seats), options, seed)

    def load_engine(self, stored: dict[str, Any]) -> tonk.TonkTable:
        return tonk.TonkTable.from_stored(stored)

    def start_events(self, engine: Any) -> list[Any]:
        # T3/T4: the cut and the first deal happen in ``new``; a tonk on that deal ends hand 1
        return list(engine.opening_events)

    def move_to_dict(self, move: Any) -> dict[str, Any]:
        return tonk.move_to_dict(move)

    def move_from_dict(self, data: Mapping[str, Any]) -> Any:
        return tonk.move_from_dict(data)

    def event_to_dict(self, event: Any) -> dict[str, Any]:
        return tonk.event_to_dict(event)

    def to_move(self, engine: Any) -> int | None:
        return engine.to_move  # type: ignore[no-any-return]

    def seats(self, engine: Any) -> list[Seat]:
        return list(engine.seats)

    def join_move(self, name: str) -> Any | None:
        return tonk.Join(name)

    def leave_move(self) -> Any:
        return tonk.Leave()

    def timeout_move(self) -> Any:
        return tonk.Timeout()

    def payments(self, events: Sequence[Any]) -> list[Payment]:
        return [
            Payment(hand_no=e.result.hand_number, payer_id=p.payer, payee_id=p.payee,
                    amount=p.amount, reason=p.reason.value)
            for e in events if isinstance(e, tonk.HandEnded)
            for p in e.result.payments
        ]

    def stat_deltas(self, events: Sequence[Any], engine: Any) -> list[StatDelta]:
        deltas: list[StatDelta] = []
        for e in events:
            if not isinstance(e, tonk.HandEnded):
                continue
            result = e.result
            # every hand that ends counts as played by everyone dealt into it, draws and
            # forfeits included
            deltas += [StatDelta(player_id=p, counter=HANDS_PLAYED) for p in result.players]
            how = result.how
            for winner in _tonk_winners(result):
                deltas.append(StatDelta(player_id=winner, counter=HANDS_WON))
                deltas.append(StatDelta(player_id=winner, counter=WON_BY_PREFIX + how.value))
                if how in (tonk.HandEnd.TONK_ON_DEAL, tonk.HandEnd.TONK_OUT):
                    deltas.append(StatDelta(player_id=winner, counter=TONKS))
        return deltas


def _tonk_winners(result: tonk.HandResult) -> list[int]:
    """Who won a Tonk hand: the player who went out or held 49/50 (T4, T7), the dropper who
    was lowest, after a caught drop the other player(s) holding the lowest total (T10), after a
    stock-out everyone tied for lowest (T8); nobody after a draw on the deal or a forfeit."""
    how = result.how
    if how in (tonk.HandEnd.TONK_ON_DEAL, tonk.HandEnd.TONK_OUT, tonk.HandEnd.OUT_BY_DISCARD):
        return [] if result.winner is None else [result.winner]
    if how is tonk.HandEnd.DROP_WON:
        return [] if result.dropper is None else [result.dropper]
    if how is tonk.HandEnd.DROP_CAUGHT:
        others = [p for p in result.players if p != result.dropper]
        low = min(result.total_of(p) for p in others)
        return [p for p in others if result.total_of(p) == low]
    if how is tonk.HandEnd.STOCK_OUT:
        low = min(result.totals)
        return [p for p in result.players if result.total_of(p) == low]
    return []

