"""What a Dubb game shows (D14): the public view everyone at the table may see, one seat's
private view, and how the game ended. Functions of a ``DubbState``; ``DubbEngine`` offers them
as its views, and a seat's ``DubbObservation`` as part of what that seat sees."""

from __future__ import annotations

from bot.cards import sorted_hand
from bot.gamekit.contract import RuleError
from bot.games.dubb.legal import legal
from bot.games.dubb.moves import Move
from bot.games.dubb.options import MOVE_CAP
from bot.games.dubb.state import DubbState
from bot.games.dubb.status import LEFT, OUT, PENDING
from bot.games.dubb.views import (
    DubbPrivateView,
    DubbPublicView,
    DubbResult,
    PlayerStatus,
    PlayerView,
    PlayView,
)


def seat_of(game: DubbState, player_id: int) -> int:
    """``player_id``'s seat, or a ``RuleError`` if they are not playing in ``game``."""
    s = game._index.get(player_id, -1)
    if s < 0:
        raise RuleError("D1", "you are not playing in this game")
    return s


def result(game: DubbState) -> DubbResult | None:
    """How the game ended, or ``None`` while it goes on."""
    if game._end_reason is None:
        return None
    ids = game._ids
    return DubbResult(
        ranking=tuple(ids[s] for s in game._ranking),
        loser=ids[game._loser],
        reason=game._end_reason,
        leavers=tuple(ids[s] for s in game._left_order),
    )


def legal_moves(game: DubbState, player_id: int) -> list[Move]:
    """Every turn move ``player_id`` may make now; empty when it is not their turn."""
    s = game._index.get(player_id, -1)
    if s < 0 or s != game._to_move:
        return []
    return legal(game, s)


def hand(game: DubbState, player_id: int) -> tuple[int, ...]:
    """``player_id``'s cards, sorted for display (private: only for that player's eyes)."""
    return tuple(sorted_hand(game._hands[seat_of(game, player_id)]))


def public_view(game: DubbState) -> DubbPublicView:
    """What everyone at the table may see (D14), kept in the state until the next move: a
    move's table, panel and picture all ask for it (issue 16), and the view is immutable."""
    if game._public is None:
        game._public = make_public_view(game)
    return game._public


def private_view(game: DubbState, player_id: int) -> DubbPrivateView:
    """What only ``player_id`` may see: their sorted hand and their legal moves (D14)."""
    return DubbPrivateView(
        player_id=player_id,
        hand=hand(game, player_id),
        legal_moves=tuple(legal_moves(game, player_id)),
    )


def make_public_view(game: DubbState) -> DubbPublicView:
    """The public view of the state as it is now, made afresh."""
    ids = game._ids
    pile = game._pile
    streak = tuple(
        PlayView(ids[seat], rank, cards)
        for seat, rank, cards in pile[len(pile) - game._streak:]
    )
    return DubbPublicView(
        players=tuple(_player_view(game, i) for i in range(game._n)),
        to_move=None if game._to_move < 0 else ids[game._to_move],
        top=streak[-1] if streak else None,
        top_rank=pile[-1][1] if pile else 0,
        streak=streak,
        pile_size=sum(len(p[2]) for p in pile),
        draw_pile_size=len(game._draw),
        move_count=game._move_count,
        move_cap=MOVE_CAP,
        first_move=game._first_move,
        options=game._options,
        cards_each=game._cards_each,
        result=result(game),
    )


def _player_view(game: DubbState, i: int) -> PlayerView:
    st = game._status[i]
    status: PlayerStatus
    if st == LEFT:
        status = "left"
    elif st == OUT:
        status = "out"
    elif st == PENDING:
        status = "pending"
    else:
        status = "to_move" if i == game._to_move else "waiting"
    place: int | None = None
    if game._ranking:
        place = game._ranking.index(i) + 1
    elif st == OUT:
        place = game._out_order.index(i) + 1
    elif st == LEFT:
        place = game._n - game._left_order.index(i)
    return PlayerView(game._ids[i], game._seats[i].name, len(game._hands[i]), status, place)
