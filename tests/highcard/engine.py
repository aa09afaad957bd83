"""The rules of high card: pure Python, the engine protocol of ``bot.gamekit.contract``."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict

from bot import cards
from bot.gamekit.contract import DealSource, RuleError, Seat


class HighCardOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


@dataclass(frozen=True, slots=True)
class Show:
    pass


@dataclass(frozen=True, slots=True)
class Leave:
    pass


@dataclass(frozen=True, slots=True)
class Timeout:
    pass


@dataclass(frozen=True, slots=True)
class Shown:
    player: int
    card: int


@dataclass(frozen=True, slots=True)
class Left:
    player: int


@dataclass(frozen=True, slots=True)
class GameOver:
    players: tuple[int, ...]
    winner: int | None


MOVES: dict[str, type] = {"show": Show, "leave": Leave, "timeout": Timeout}
EVENTS: dict[type, str] = {Shown: "shown", Left: "left", GameOver: "game_over"}


@dataclass(frozen=True, slots=True)
class PublicView:
    seats: tuple[Seat, ...]
    shown: Mapping[int, int]
    to_move: int | None
    winner: int | None
    over: bool


@dataclass(frozen=True, slots=True)
class PrivateView:
    player_id: int
    hand: tuple[int, ...]
    legal_moves: tuple[Any, ...]


class HighCardGame:
    KIND: ClassVar[str] = "highcard"
    STATE_VERSION: ClassVar[int] = 1

    def __init__(self, data: dict[str, Any]) -> None:
        self._d = data

    @classmethod
    def new(cls, seats: Sequence[Seat], options: Any, seed: int | DealSource) -> Self:
        if len(seats) != 2:
            raise RuleError("H1", "high card is for two players")
        deck = cards.new_deck()
        if isinstance(seed, int):
            random.Random(seed).shuffle(deck)
        else:
            seed.shuffle(1, deck)
        return cls({
            "format_version": cls.STATE_VERSION,
            "seats": [[s.player_id, s.name] for s in seats],
            "cards": {str(s.player_id): deck[i] for i, s in enumerate(seats)},
            "shown": [], "left": [], "over": False, "winner": None,
        })

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> Self:
        if data.get("format_version") != cls.STATE_VERSION:
            raise ValueError("not a stored high card game")
        return cls(data)

    def to_stored(self) -> dict[str, Any]:
        return self._d

    @property
    def opening_events(self) -> tuple[Any, ...]:
        return ()

    @property
    def names(self) -> dict[int, str]:
        return {p: n for p, n in self._d["seats"]}

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(Seat(p, n) for p, n in self._d["seats"] if p not in self._d["left"])

    @property
    def is_over(self) -> bool:
        return bool(self._d["over"])

    @property
    def deals_done(self) -> int:
        return 1 if self.is_over else 0

    @property
    def to_move(self) -> int | None:
        if self.is_over:
            return None
        return next(p for p, _ in self._d["seats"] if p not in self._d["shown"])

    def hand(self, player_id: int) -> tuple[int, ...]:
        return (self._d["cards"][str(player_id)],)

    def legal_moves(self, player_id: int) -> list[Any]:
        return [Show()] if player_id == self.to_move else []

    def apply(self, player_id: int, move: Any) -> list[Any]:
        if self.is_over:
            raise RuleError("H2", "the game is over")
        if isinstance(move, Leave):
            others = [p for p, _ in self._d["seats"] if p != player_id]
            self._d["left"].append(player_id)
            return [Left(player_id), self._end(others[0])]
        if not isinstance(move, Show | Timeout):
            raise RuleError("H2", "the only move is to show your card")
        if player_id != self.to_move:
            raise RuleError("H2", "it is not your turn")
        self._d["shown"].append(player_id)
        events: list[Any] = [Shown(player_id, self._d["cards"][str(player_id)])]
        if len(self._d["shown"]) == 2:
            ranked = sorted(self._d["shown"], key=lambda p: -cards.rank(self._d["cards"][str(p)]))
            a, b = (cards.rank(self._d["cards"][str(p)]) for p in ranked)
            events.append(self._end(ranked[0] if a > b else None))
        return events

    def _end(self, winner: int | None) -> GameOver:
        self._d["over"] = True
        self._d["winner"] = winner
        return GameOver(tuple(p for p, _ in self._d["seats"]), winner)

    def public_view(self) -> PublicView:
        shown = {p: self._d["cards"][str(p)] for p in self._d["shown"]}
        return PublicView(self.seats, shown, self.to_move, self._d["winner"], self.is_over)

    def private_view(self, player_id: int) -> PrivateView:
        return PrivateView(player_id, self.hand(player_id), tuple(self.legal_moves(player_id)))

    def observe(self, player_id: int) -> PrivateView:
        return self.private_view(player_id)

    def check_invariants(self) -> list[str]:
        dealt = list(self._d["cards"].values())
        return [] if len(set(dealt)) == len(dealt) == 2 else ["the two cards are not distinct"]


class Moves:
    def to_dict(self, move: Any) -> dict[str, Any]:
        return {"type": next(k for k, v in MOVES.items() if v is type(move))}

    def from_dict(self, data: Mapping[str, Any]) -> Any:
        return MOVES[data["type"]]()


class Events:
    def to_dict(self, event: Any) -> dict[str, Any]:
        out = {"type": EVENTS[type(event)], **asdict(event)}
        return {k: list(v) if isinstance(v, tuple) else v for k, v in out.items()}

    def public(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        return dict(stored)

    def for_seat(self, stored: Mapping[str, Any], player_id: int) -> dict[str, Any]:
        return dict(stored)
