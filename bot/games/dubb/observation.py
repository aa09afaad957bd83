"""What one seat of a Dubb game may see, for the computers' strategies (D14)."""

from __future__ import annotations

from bot.games.dubb.legal import legal
from bot.games.dubb.moves import Move
from bot.games.dubb.showing import private_view, public_view
from bot.games.dubb.state import DubbState
from bot.games.dubb.status import ACTIVE, PENDING
from bot.games.dubb.views import DubbPrivateView, DubbPublicView


class DubbObservation:
    """What one seat may see, for strategies (D14): their own hand and legal moves, the public
    view, and a few public facts cheap enough for a simulator's inner loop."""

    __slots__ = ("_game", "_seat")

    def __init__(self, game: DubbState, seat: int) -> None:
        self._game = game
        self._seat = seat

    @property
    def player_id(self) -> int:
        return self._game._ids[self._seat]

    @property
    def hand(self) -> tuple[int, ...]:
        """Their own cards, unsorted."""
        return tuple(self._game._hands[self._seat])

    @property
    def legal_moves(self) -> list[Move]:
        game = self._game
        return legal(game, self._seat) if game._to_move == self._seat else []

    @property
    def top_rank(self) -> int:
        pile = self._game._pile
        return pile[-1][1] if pile else 0

    @property
    def first_move(self) -> bool:
        """Whether the game's opening move (D4) is still to be made."""
        return self._game._first_move

    @property
    def move_count(self) -> int:
        return self._game._move_count

    @property
    def cards_each(self) -> int:
        return self._game._cards_each

    def others_holding_count(self) -> int:
        """How many other players hold cards."""
        status = self._game._status
        return status.count(ACTIVE) - (status[self._seat] == ACTIVE)

    def others_holding(self) -> list[int]:
        """The hand sizes of the other players holding cards, in seat order."""
        game = self._game
        me = self._seat
        return [len(h) for i, (h, st) in enumerate(zip(game._hands, game._status, strict=True))
                if st == ACTIVE and i != me]

    def others_in(self) -> int:
        """How many other players are still in: holding cards, or pending (D10)."""
        me = self._seat
        return sum(1 for i, st in enumerate(self._game._status) if st <= PENDING and i != me)

    def public_view(self) -> DubbPublicView:
        return public_view(self._game)

    def private_view(self) -> DubbPrivateView:
        return private_view(self._game, self.player_id)
