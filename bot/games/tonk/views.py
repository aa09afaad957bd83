"""What each seat may see: the public view (everyone), the private view (one player), and the
compact ``SeatView`` that computer players decide from (``TonkEngine.observe``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from bot.games.tonk.events import CutForDeal
from bot.games.tonk.moves import Move, move_to_dict
from bot.games.tonk.options import TonkOptions
from bot.games.tonk.settlement import HandResult
from bot.games.tonk.terms import Phase, TableSpread


@dataclass(frozen=True, slots=True)
class SeatPublic:
    """A seat as everyone sees it. ``hand_size`` is ``None`` for a player not dealt into the
    hand in play (and for everyone between hands)."""

    player_id: int
    name: str
    hand_size: int | None
    hit_locked: bool
    timeouts_in_a_row: int


@dataclass(frozen=True, slots=True)
class TonkPublicView:
    """Spreads with owners and ids, discard top, stock size, hand sizes, whose turn, phase,
    dealer, stake, hand number, hit-lock status, the cut for deal (T3), and the last finished
    hand with every total and hand revealed."""

    hand_number: int
    phase: Phase
    dealer: int | None
    next_dealer: int | None
    to_move: int | None
    options: TonkOptions
    seats: tuple[SeatPublic, ...]
    spreads: tuple[TableSpread, ...]
    discard_top: int | None
    discard_size: int
    stock_size: int
    turns: int
    turn_cap: int
    cut: CutForDeal | None
    last_hand_result: HandResult | None

    @property
    def stake(self) -> int:
        return self.options.stake

    @property
    def in_hand(self) -> bool:
        """A hand is being played (not between hands, not closed)."""
        return self.phase is Phase.START or self.phase is Phase.AFTER_DRAW

    @property
    def hit_locked(self) -> tuple[int, ...]:
        return tuple(s.player_id for s in self.seats if s.hit_locked)

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand_number": self.hand_number,
            "phase": self.phase.value,
            "dealer": self.dealer,
            "next_dealer": self.next_dealer,
            "to_move": self.to_move,
            "options": self.options.model_dump(),
            "seats": [
                {"player_id": s.player_id, "name": s.name, "hand_size": s.hand_size,
                 "hit_locked": s.hit_locked, "timeouts_in_a_row": s.timeouts_in_a_row}
                for s in self.seats
            ],
            "spreads": [{"id": sp.id, "label": sp.label, "owner": sp.owner,
                         "cards": list(sp.cards)} for sp in self.spreads],
            "discard_top": self.discard_top,
            "discard_size": self.discard_size,
            "stock_size": self.stock_size,
            "turns": self.turns,
            "turn_cap": self.turn_cap,
            "cut": None if self.cut is None else {
                "rounds": [[[p, card] for p, card in r] for r in self.cut.rounds],
                "dealer": self.cut.dealer,
            },
            "last_hand_result": (None if self.last_hand_result is None
                                 else self.last_hand_result.to_dict()),
        }


@dataclass(frozen=True, slots=True)
class TonkPrivateView:
    """The player's own hand (Tonk order), its total, the discard they took this turn (T5),
    and the moves open to them now."""

    player_id: int
    hand: tuple[int, ...]
    total: int
    taken_discard: int | None
    legal_moves: tuple[Move, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "player_id": self.player_id,
            "hand": list(self.hand),
            "total": self.total,
            "taken_discard": self.taken_discard,
            "legal_moves": [move_to_dict(m) for m in self.legal_moves],
        }


class SeatView(NamedTuple):
    """Everything one seat may know at its decision point, and nothing more.

    ``hand_sizes`` lists the other players of the hand in turn order starting after this seat.
    A named tuple rather than a frozen dataclass: as immutable, and built four times faster,
    which counts because the table builds one for every decision a computer player makes.
    """

    player_id: int
    phase: Phase
    options: TonkOptions
    hand: tuple[int, ...]
    legal: tuple[Move, ...]
    spreads: tuple[TableSpread, ...]
    discard_top: int | None
    stock_size: int
    hand_sizes: tuple[tuple[int, int], ...]
    taken_discard: int | None
    hit_locked: bool
    turns: int
