"""Dubb moves: small immutable values, with a JSON form for the move log.

Turn moves (``Draw``, ``Pass``, ``Play``, ``DrawPlay``) are what ``legal_moves`` offers the player
to move. ``Leave`` and ``Timeout`` are not choices of play but still go through ``apply`` so that a
game's move log replays it exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.cards import ACE, JOKER_RANK


@dataclass(frozen=True, slots=True)
class Draw:
    """D5: draw one card from the draw pile."""


@dataclass(frozen=True, slots=True)
class Pass:
    """D5: pass — only when drawing is not allowed."""


@dataclass(frozen=True, slots=True)
class Play:
    """D5/D9: play ``naturals`` cards of ``rank`` and ``jokers`` jokers.

    ``rank`` is the rank the play takes: the naturals' rank, or for jokers only the top rank of
    the pile (D9). With ``cards`` None the engine picks the lowest codes of that rank and the
    lowest joker codes; with ``cards`` given (a user typed ``7h 7s``) exactly those are played.
    """

    rank: int
    naturals: int
    jokers: int = 0
    cards: tuple[int, ...] | None = None

    @property
    def count(self) -> int:
        """The k of D8: every card of the play, jokers included."""
        return self.naturals + self.jokers


@dataclass(frozen=True, slots=True)
class DrawPlay:
    """D12 (option): turn up the draw pile's top card and play it if it is legal on the pile."""


@dataclass(frozen=True, slots=True)
class Leave:
    """A seated player still in the game leaves (any time); it counts as their loss."""


@dataclass(frozen=True, slots=True)
class Timeout:
    """The turn timer of the player to move ran out: the engine moves for them."""


Move = Draw | Pass | Play | DrawPlay | Leave | Timeout
TurnMove = Draw | Pass | Play | DrawPlay

DRAW = Draw()
PASS = Pass()
DRAW_PLAY = DrawPlay()
LEAVE = Leave()
TIMEOUT = Timeout()

_MAX_NATURALS = 8  # two packs hold eight cards of a rank
_MAX_JOKERS = 4  # two packs hold four jokers
# legal_moves hands out these shared instances instead of building new ones every turn:
# PLAY_TABLE[rank][naturals][jokers]
PLAY_TABLE: list[list[list[Play]]] = [
    [[Play(r, a, b) for b in range(_MAX_JOKERS + 1)] for a in range(_MAX_NATURALS + 1)]
    for r in range(ACE + 1)
]
# PLAYS_UP_TO[rank][k][j]: every play of 1..k naturals of rank with 0..j jokers, by naturals then
# jokers (the order legal_moves lists them in), so a legal-move list is one extend per rank
PLAYS_UP_TO: list[list[list[tuple[Play, ...]]]] = [
    [[tuple(PLAY_TABLE[r][a][b] for a in range(1, k + 1) for b in range(j + 1))
      for j in range(_MAX_JOKERS + 1)] for k in range(_MAX_NATURALS + 1)]
    for r in range(ACE + 1)
]


def play_of(rank: int, naturals: int, jokers: int = 0) -> Play:
    """The play of ``naturals`` cards of ``rank`` plus ``jokers`` jokers (engine picks cards)."""
    if 0 <= rank <= ACE and 0 <= naturals <= _MAX_NATURALS and 0 <= jokers <= _MAX_JOKERS:
        return PLAY_TABLE[rank][naturals][jokers]
    return Play(rank, naturals, jokers)


_SIMPLE: dict[str, Move] = {
    "draw": DRAW, "pass": PASS, "draw_play": DRAW_PLAY, "leave": LEAVE, "timeout": TIMEOUT,
}
_SIMPLE_NAMES: dict[type, str] = {type(m): name for name, m in _SIMPLE.items()}


def move_to_dict(move: Move) -> dict[str, Any]:
    """The JSON form of a move: ``{"type": "draw"}``, ``{"type": "play", "rank": 7, ...}``."""
    if isinstance(move, Play):
        return {
            "type": "play",
            "rank": move.rank,
            "naturals": move.naturals,
            "jokers": move.jokers,
            "cards": None if move.cards is None else list(move.cards),
        }
    return {"type": _SIMPLE_NAMES[type(move)]}


def move_from_dict(data: dict[str, Any]) -> Move:
    """Read a move back from ``move_to_dict``'s form; ``ValueError`` on anything else."""
    if not isinstance(data, dict):
        raise ValueError(f"a Dubb move is a dict, not {type(data).__name__}")
    kind = data.get("type")
    if kind in _SIMPLE:
        if set(data) != {"type"}:
            raise ValueError(f"unexpected fields in a {kind} move: {sorted(set(data) - {'type'})}")
        return _SIMPLE[kind]
    if kind != "play":
        raise ValueError(f"unknown Dubb move type {kind!r}")
    if not set(data) <= {"type", "rank", "naturals", "jokers", "cards"}:
        raise ValueError(f"unexpected fields in a play move: {sorted(data)}")
    rank = _int_field(data, "rank", JOKER_RANK + 2, ACE)
    naturals = _int_field(data, "naturals", 0, 1_000)
    jokers = _int_field(data, "jokers", 0, 1_000, default=0)
    raw_cards = data.get("cards")
    if raw_cards is None:
        return play_of(rank, naturals, jokers)
    if not isinstance(raw_cards, list) or not all(
        isinstance(c, int) and not isinstance(c, bool) for c in raw_cards
    ):
        raise ValueError("a play's cards must be a list of card codes")
    return Play(rank, naturals, jokers, tuple(raw_cards))


def _int_field(data: dict[str, Any], name: str, low: int, high: int, default: int | None = None
               ) -> int:
    value = data.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"a play's {name} must be an integer from {low} to {high}, not {value!r}")
    return value
