"""One daily played out, without storage or Discord: the day's deal, the person's seat and the
game's computers, moved on after each of the person's moves until it is the person's turn again
or the daily is over (``docs/daily.md``).

Everything here is a pure function of the game, the day, its secret and the moves so far: the
deal comes from the day's secret (``bot.daily.secret``); a computer decides from what its seat
has seen, with random numbers seeded from the day, its seat and the move number, never from the
clock, the machine or who plays. So two people who make the same moves see the same game, and a
stored daily is rebuilt by replaying its moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from bot.daily.secret import day_deals
from bot.gamekit.contract import (
    DailyRules,
    Engine,
    EventRules,
    GameSpec,
    Payment,
    Seat,
    Strategy,
)
from bot.storage import SeatInfo
from bot.table.computers import computer_label, free_computer, level_name

PERSON = 1
"""The person's player id inside a daily: the same for everyone, so nothing of the game
depends on who plays it."""
TIMEOUTS_TO_LEAVE = 3
"""Timed-out turns in a row after which a player is removed (the engines count them too)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a daily and the events it made, in stored form (private cards included)."""

    player: int
    move: dict[str, Any]
    events: tuple[dict[str, Any], ...]
    by_table: bool = False
    """The table's own move in ``player``'s name (dealing the next hand)."""


class DailyError(ValueError):
    """A game without a daily, or a daily asked for a move it cannot take."""


def daily_rules(game: GameSpec) -> tuple[DailyRules, EventRules]:
    if game.daily is None or game.event is None:
        raise DailyError(f"{game.kind} has no daily")
    return game.daily, game.event


def daily_seats(game: GameSpec, name: str) -> list[Seat]:
    """The person first, then the computers of the daily's strategy's level."""
    rules, _ = daily_rules(game)
    level = level_name(rules.computer) or "normal"
    seats = [Seat(PERSON, name)]
    taken: list[SeatInfo] = []
    for _ in range(rules.computers):
        player_id, computer = free_computer(taken, level)
        taken.append(SeatInfo(player_id=player_id, name=computer, is_computer=True))
        seats.append(Seat(player_id, computer_label(computer)))
    return seats


def decision_rng(kind: str, day: date, player: int, move_no: int) -> random.Random:
    """The random numbers a computer decides move ``move_no`` with (a string seed is hashed
    the same way by every Python)."""
    return random.Random(f"kortbord/daily/v1:{kind}:{day.isoformat()}:{player}:{move_no}")


class DailyGame:
    """A daily in play. ``seat`` plays the person's seat instead of a person (the expert, for
    the baseline); otherwise ``play`` takes the person's moves."""

    def __init__(self, game: GameSpec, day: date, secret: bytes, name: str,
                 seat: Strategy | None = None) -> None:
        self.game = game
        self.day = day
        self.rules, self.event = daily_rules(game)
        options = game.validate_options({})
        self.engine: Engine = game.new_engine(daily_seats(game, name), options,
                                              day_deals(day, secret))
        self.steps: list[Step] = []
        self.opening = tuple(game.events.to_dict(e) for e in self.engine.opening_events)
        self.nets: dict[int, int] = {}
        """Each player's net at the sitting so far, for games played for stakes."""
        self.payments: list[Payment] = []
        self._pay(self.engine.opening_events)
        self._players: dict[int, Strategy] = {
            s.player_id: game.strategies[self.rules.computer]()
            for s in self.engine.seats if s.player_id != PERSON}
        if seat is not None:
            self._players[PERSON] = seat
        self._show(self.opening)

    @classmethod
    def replay(cls, game: GameSpec, day: date, secret: bytes, name: str,
               moves: Sequence[Mapping[str, Any]]) -> DailyGame:
        """The daily after ``moves`` (``{"player", "move"}``, as ``moves_record`` gives)."""
        daily = cls(game, day, secret, name)
        for m in moves:
            daily.replay_move(m)
        return daily

    def replay_move(self, move: Mapping[str, Any]) -> None:
        """One stored move (``{"player", "move"}``, as ``moves_record`` gives) applied again."""
        self._apply(int(move["player"]), self.game.moves.from_dict(move["move"]),
                    bool(move.get("table")))

    def moves_record(self) -> list[dict[str, Any]]:
        return [{"player": s.player, "move": s.move, **({"table": True} if s.by_table else {})}
                for s in self.steps]

    @property
    def is_over(self) -> bool:
        if self.engine.is_over or PERSON not in {s.player_id for s in self.engine.seats}:
            return True
        return self.engine.to_move is None and self._table_move() is None

    @property
    def my_turn(self) -> bool:
        return not self.is_over and self.engine.to_move == PERSON

    def _table_move(self) -> tuple[int, Any] | None:
        if self.event.round_over(self.engine, self.rules.hands):
            return None
        return self.event.next_move(self.engine, self.rules.hands)

    def _show(self, events: Sequence[Mapping[str, Any]]) -> None:
        for player_id, strategy in self._players.items():
            if strategy.remembers:
                strategy.remember([self.game.events.for_seat(e, player_id) for e in events])

    def _pay(self, events: Sequence[Any]) -> None:
        for payment in self.game.rules.payments(events):
            self.payments.append(payment)
            self.nets[payment.payer] = self.nets.get(payment.payer, 0) - payment.amount
            self.nets[payment.payee] = self.nets.get(payment.payee, 0) + payment.amount

    def _apply(self, player: int, move: Any, by_table: bool = False) -> Step:
        events = self.engine.apply(player, move)
        self._pay(events)
        step = Step(player, self.game.moves.to_dict(move),
                    tuple(self.game.events.to_dict(e) for e in events), by_table)
        self.steps.append(step)
        self._show(step.events)
        return step

    def advance(self) -> list[Step]:
        """The computers' moves and the table's own (dealing the next hand) until the person
        is to move or the daily is over."""
        made: list[Step] = []
        while not self.is_over:
            mover = self.engine.to_move
            if mover is None:
                table = self._table_move()
                assert table is not None  # is_over says so
                made.append(self._apply(*table, by_table=True))
                continue
            strategy = self._players.get(mover)
            if strategy is None:
                break
            rng = decision_rng(self.game.kind, self.day, mover, len(self.steps))
            made.append(self._apply(mover, strategy.choose(self.engine.observe(mover), rng)))
        return made

    def play(self, move: Any) -> list[Step]:
        """The person's ``move`` (``RuleError`` if the rules refuse it; the daily is then to be
        rebuilt from its moves) and everything that follows until their next turn."""
        if not self.my_turn:
            raise DailyError("it is not the person's turn")
        return [self._apply(PERSON, move), *self.advance()]

    def time_out(self, move_timed_out: Callable[[], Any]) -> list[Step]:
        """The daily played to its end as the turn timer would: each of the person's turns a
        timed-out move, until the engine removes them (``docs/daily.md``: what an unfinished
        daily scores)."""
        made = self.advance()
        while self.my_turn:
            made += self.play(move_timed_out())
        return made

    def outcome(self) -> int:
        """The person's result in the daily's measure: their place (1 first), or net chips."""
        if self.rules.measure == "chips":
            return self.nets.get(PERSON, 0)
        places = self.event.places(self.engine, self.nets)
        for number, group in enumerate(places, start=1):
            if PERSON in group:
                return sum(len(g) for g in places[:number - 1]) + 1
        return len(self.engine.names)  # removed: last
