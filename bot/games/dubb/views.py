"""What players may see of a Dubb game (D14), and how it ended."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from bot.games.dubb.events import EndReason
from bot.games.dubb.moves import Move, move_to_dict
from bot.games.dubb.options import DubbOptions

PlayerStatus = Literal["to_move", "waiting", "pending", "out", "left"]


@dataclass(frozen=True, slots=True)
class DubbResult:
    """How a game ended. ``ranking`` holds every player, best first, and ends with ``loser``.

    Leaving counts as a loss: everyone in ``leavers`` (in the order they left) forfeited and is
    ranked below all who stayed, the first to leave last of all; that first leaver is ``loser``.
    Without leavers the loser is the last player left in (D11) or the D13 cap's choice.
    """

    ranking: tuple[int, ...]
    loser: int
    reason: EndReason
    leavers: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "ranking": list(self.ranking),
            "loser": self.loser,
            "reason": self.reason,
            "leavers": list(self.leavers),
        }


@dataclass(frozen=True, slots=True)
class PlayView:
    """One play on the pile: who played which cards, as which rank (jokers take a rank, D9)."""

    player: int
    rank: int
    cards: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "rank": self.rank, "cards": list(self.cards)}


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A seat as everyone sees it (D14). ``place`` is the finishing place once known."""

    player_id: int
    name: str
    hand_size: int
    status: PlayerStatus
    place: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "player_id": self.player_id,
            "name": self.name,
            "hand_size": self.hand_size,
            "status": self.status,
            "place": self.place,
        }


@dataclass(frozen=True, slots=True)
class DubbPublicView:
    """Everything anyone at the table may see (D14).

    ``streak`` runs from its oldest play to the top play (``top``); ``top_rank`` is 0 on an empty
    pile. ``first_move`` is true while the starter's opening play (D4) is still to come.
    """

    players: tuple[PlayerView, ...]
    to_move: int | None
    top: PlayView | None
    top_rank: int
    streak: tuple[PlayView, ...]
    pile_size: int
    draw_pile_size: int
    move_count: int
    move_cap: int
    first_move: bool
    options: DubbOptions
    cards_each: int
    result: DubbResult | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": [p.to_dict() for p in self.players],
            "to_move": self.to_move,
            "top": None if self.top is None else self.top.to_dict(),
            "top_rank": self.top_rank,
            "streak": [p.to_dict() for p in self.streak],
            "pile_size": self.pile_size,
            "draw_pile_size": self.draw_pile_size,
            "move_count": self.move_count,
            "move_cap": self.move_cap,
            "first_move": self.first_move,
            "options": self.options.model_dump(),
            "cards_each": self.cards_each,
            "result": None if self.result is None else self.result.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class DubbPrivateView:
    """What only ``player_id`` may see: their hand (sorted by rank, jokers last) and the moves
    they can make now (empty when it is not their turn)."""

    player_id: int
    hand: tuple[int, ...]
    legal_moves: tuple[Move, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "player_id": self.player_id,
            "hand": list(self.hand),
            "legal_moves": [move_to_dict(m) for m in self.legal_moves],
        }
