"""A small engine with the real engines' contract, so storage and the table service can be
tested (and crash-tested) without depending on a card game's rules.

"Race": players take turns adding 1-3 to a running total; whoever reaches the hand's target
(drawn from a seeded generator kept in the state) wins the hand and is paid the stake by every
other player, and again with a second reason when they hit the target exactly. Leaving during a
hand forfeits it (like T11). Joins are allowed at any time. ``Sabotage`` changes the state and
then raises ``RuleError``, to prove the service never keeps a half-applied move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field

from bot.gamekit.contract import DealSource, GameSpec, Payment, RuleError, Seat, StatDelta
from bot.table.fairdeal import engine_from_start

GAMES_PLAYED = "games_played"
LOSSES = "losses"
HANDS_PLAYED = "hands_played"
HANDS_WON = "hands_won"
WON_BY_PREFIX = "won_by:"

_MASK = (1 << 64) - 1


class ToyOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    hands: int = Field(default=3, ge=1, le=50)
    stake: int = Field(default=1, ge=1, le=1000)


@dataclass(frozen=True, slots=True)
class Add:
    n: int


@dataclass(frozen=True, slots=True)
class Join:
    name: str


@dataclass(frozen=True, slots=True)
class Leave:
    pass


@dataclass(frozen=True, slots=True)
class Timeout:
    pass


@dataclass(frozen=True, slots=True)
class Sabotage:
    pass


@dataclass(frozen=True, slots=True)
class Added:
    player: int
    n: int
    total: int


@dataclass(frozen=True, slots=True)
class HandEnded:
    hand_no: int
    how: str
    winner: int | None
    players: tuple[int, ...]
    payments: tuple[tuple[int, int, int, str], ...]


@dataclass(frozen=True, slots=True)
class Joined:
    player: int
    name: str


@dataclass(frozen=True, slots=True)
class Left:
    player: int


@dataclass(frozen=True, slots=True)
class GameOver:
    players: tuple[int, ...]
    loser: int | None


def _next(rng: int) -> int:
    return (rng * 6364136223846793005 + 1442695040888963407) & _MASK


class ToyEngine:
    KIND = "toy"
    STATE_VERSION = 1

    def __init__(self, data: dict[str, Any]) -> None:
        self.d = data

    @classmethod
    def new(cls, seats: Sequence[Seat], options: ToyOptions, seed: int | DealSource) -> Self:
        if not isinstance(seed, int):
            # committed deals: the generator's seed is the first hand's shuffle of 64 bits
            bits = [0] * 32 + [1] * 32
            seed.shuffle(1, bits)
            seed = int("".join(map(str, bits)), 2)
        rng = _next(seed & _MASK)
        return cls({
            "format_version": cls.STATE_VERSION,
            "seats": [[s.player_id, s.name] for s in seats],
            "scores": {str(s.player_id): 0 for s in seats},
            "played": [s.player_id for s in seats],
            "hands": options.hands, "stake": options.stake,
            "hand_no": 1, "hands_done": 0, "total": 0, "target": 8 + (rng >> 61),
            "turn": 0, "rng": rng, "over": False,
        })

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> Self:
        if data.get("format_version") != cls.STATE_VERSION:
            raise ValueError("unknown toy state version")
        return cls(data)

    def to_stored(self) -> dict[str, Any]:
        return self.d

    @property
    def is_over(self) -> bool:
        return bool(self.d["over"])

    @property
    def deals_done(self) -> int:
        return int(self.d["hands_done"])

    @property
    def to_move(self) -> int | None:
        if self.d["over"]:
            return None
        return int(self.d["seats"][self.d["turn"]][0])

    @property
    def seats(self) -> list[Seat]:
        return [Seat(p, n) for p, n in self.d["seats"]]

    @property
    def names(self) -> dict[int, str]:
        return {p: n for p, n in self.d["seats"]}

    @property
    def opening_events(self) -> tuple[Any, ...]:
        return ()

    def legal_moves(self, player_id: int) -> list[Any]:
        if self.d["over"]:
            return []
        ids = [p for p, _ in self.d["seats"]]
        if player_id not in ids:
            return [Join(f"P{player_id}")]
        moves: list[Any] = [Leave()]
        if player_id == self.to_move:
            moves = [Add(1), Add(2), Add(3), Timeout(), *moves]
        return moves

    def apply(self, player_id: int, move: Any) -> list[Any]:
        d = self.d
        if d["over"]:
            raise RuleError("X0", "the game is over")
        ids = [p for p, _ in d["seats"]]
        if isinstance(move, Join):
            if player_id in ids:
                raise RuleError("X1", "already seated")
            d["seats"].append([player_id, move.name])
            d["scores"].setdefault(str(player_id), 0)
            if player_id not in d["played"]:
                d["played"].append(player_id)
            return [Joined(player_id, move.name)]
        if player_id not in ids:
            raise RuleError("X1", "not at this table")
        if isinstance(move, Sabotage):
            d["total"] += 100
            raise RuleError("X9", "sabotage is never allowed")
        if isinstance(move, Leave):
            return self._leave(player_id, ids)
        if player_id != self.to_move:
            raise RuleError("X2", "not your turn")
        n = 1 if isinstance(move, Timeout) else move.n
        if n not in (1, 2, 3):
            raise RuleError("X3", "add 1, 2 or 3")
        d["total"] += n
        events: list[Any] = [Added(player_id, n, d["total"])]
        if d["total"] >= d["target"]:
            exact = d["total"] == d["target"]
            s = d["stake"]
            payments = [(p, player_id, s, "won") for p in ids if p != player_id]
            if exact:
                payments += [(p, player_id, s, "exact") for p in ids if p != player_id]
            events.append(self._end_hand("exact" if exact else "reached", player_id, ids,
                                         payments))
            d["hands_done"] += 1
            if d["hands_done"] >= d["hands"]:
                events.append(self._game_over())
                return events
        d["turn"] = (d["turn"] + 1) % len(d["seats"])
        return events

    def _leave(self, player_id: int, ids: list[int]) -> list[Any]:
        d = self.d
        s = d["stake"]
        payments = [(player_id, p, s, "forfeit") for p in ids if p != player_id]
        events: list[Any] = [Left(player_id),
                             self._end_hand("forfeit", None, ids, payments)]
        index = ids.index(player_id)
        del d["seats"][index]
        if len(d["seats"]) < 2:
            events.append(self._game_over())
            return events
        if index < d["turn"]:
            d["turn"] -= 1
        d["turn"] %= len(d["seats"])
        return events

    def _end_hand(self, how: str, winner: int | None, ids: list[int],
                  payments: list[tuple[int, int, int, str]]) -> HandEnded:
        d = self.d
        for payer, payee, amount, _ in payments:
            d["scores"][str(payer)] -= amount
            d["scores"][str(payee)] += amount
        ended = HandEnded(d["hand_no"], how, winner, tuple(ids), tuple(payments))
        d["hand_no"] += 1
        d["total"] = 0
        d["rng"] = _next(d["rng"])
        d["target"] = 8 + (d["rng"] >> 61)
        return ended

    def _game_over(self) -> GameOver:
        d = self.d
        d["over"] = True
        players = tuple(d["played"])
        scores = d["scores"]
        loser = min(players, key=lambda p: (scores[str(p)], p)) if players else None
        return GameOver(players, loser)


_MOVES: dict[str, type] = {"add": Add, "join": Join, "leave": Leave, "timeout": Timeout,
                           "sabotage": Sabotage}
_NAMES = {v: k for k, v in _MOVES.items()}


class ToyMoves:
    def to_dict(self, move: Any) -> dict[str, Any]:
        return {"type": _NAMES[type(move)], **asdict(move)}

    def from_dict(self, data: Mapping[str, Any]) -> Any:
        fields = dict(data)
        return _MOVES[fields.pop("type")](**fields)


class ToyEvents:
    def to_dict(self, event: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"type": type(event).__name__, **asdict(event)}
        for key, value in out.items():
            if isinstance(value, tuple):
                out[key] = [list(v) if isinstance(v, tuple) else v for v in value]
        return out

    def public(self, stored: Mapping[str, Any]) -> dict[str, Any]:
        return dict(stored)

    def for_seat(self, stored: Mapping[str, Any], player_id: int) -> dict[str, Any]:
        return dict(stored)


class ToyRules:
    def join_move(self, name: str) -> Any | None:
        return Join(name)

    def leave_move(self) -> Any:
        return Leave()

    def timeout_move(self) -> Any:
        return Timeout()

    def idle_move(self, engine: Any) -> None:
        return None

    def payments(self, events: Sequence[Any]) -> list[Payment]:
        return [
            Payment(e.hand_no, payer, payee, amount, reason)
            for e in events if isinstance(e, HandEnded)
            for payer, payee, amount, reason in e.payments
        ]

    def stat_deltas(self, events: Sequence[Any], engine: Any) -> list[StatDelta]:
        deltas: list[StatDelta] = []
        for e in events:
            if isinstance(e, HandEnded):
                deltas += [StatDelta(p, HANDS_PLAYED) for p in e.players]
                if e.winner is not None:
                    deltas.append(StatDelta(e.winner, HANDS_WON))
                    deltas.append(StatDelta(e.winner, WON_BY_PREFIX + e.how))
            elif isinstance(e, GameOver):
                deltas += [StatDelta(p, GAMES_PLAYED) for p in e.players]
                if e.loser is not None:
                    deltas.append(StatDelta(e.loser, LOSSES))
        return deltas


TOY = GameSpec(
    kind="toy", name="Race", summary="add up to the target first.", min_players=2,
    max_players=5, options=ToyOptions, engine=ToyEngine, moves=ToyMoves(), events=ToyEvents(),
    rules=ToyRules(), strategies={}, computer="", stakes=True,
)


def replay(game: GameSpec, start: Mapping[str, Any],
           moves: Sequence[tuple[int, Mapping[str, Any]]],
           deals: DealSource | None = None) -> Any:
    """Rebuild an engine from a move log's start record and moves (``deals``: the table's
    committed deals, for a table dealt from them rather than from an old seed)."""
    engine = engine_from_start(game, start, deals)
    for player_id, move in moves:
        engine.apply(player_id, game.moves.from_dict(move))
    return engine
