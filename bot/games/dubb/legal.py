"""Which turn moves a Dubb player may make (D4, D5, D9, D12): the list ``legal_moves`` offers,
and the checks a move that was not taken from that list must pass.

A hand is read through its rank counts (``rank_counts``), which the engine keeps up to date, so
that listing the moves costs one pass over the ranks. Functions of a game's state (``DubbState``);
``legal`` is on every computer's playout's path.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.cards import ACE, JOKER_RANK, rank_name
from bot.gamekit.contract import RuleError
from bot.games.dubb.moves import DRAW, DRAW_PLAY, PASS, PLAY_TABLE, PLAYS_UP_TO, Move, Play
from bot.games.dubb.options import HAND_LIMIT
from bot.games.dubb.state import DubbState
from bot.games.dubb.status import ACTIVE


def lowest(counts: Sequence[int]) -> int:
    """The lowest natural rank of a hand given as its rank counts."""
    return min(r for r in range(2, ACE + 1) if counts[r])


def listed(move: Move, moves: tuple[Move, ...]) -> bool:
    """Whether ``move`` is one of ``moves`` itself (not merely an equal move)."""
    for m in moves:  # noqa: SIM110 - a plain loop: any() over a generator takes twice as long
        if m is move:
            return True
    return False


def can_draw(game: DubbState, s: int) -> bool:
    # D5: the draw pile must hold a card, and with the hand limit the hand fewer than 7
    return bool(game._draw) and len(game._hands[s]) < game._limit


def legal(game: DubbState, s: int) -> list[Move]:
    """Seat ``s``'s moves, kept (as a tuple) in ``game._offered`` until the next ``apply`` as
    the moves that need no second validation.

    Draw or pass first (D5; draw-and-play after draw, D12), then each distinct play by rank,
    number of naturals and number of jokers (D5, D9), jokers-only plays last."""
    counts = game._counts[s]
    if game._first_move:
        low = lowest(counts)
        plays = PLAYS_UP_TO[low][counts[low]][0]
        game._offered = (s, plays)
        return list(plays)
    jokers = counts[JOKER_RANK]
    moves: list[Move]
    if game._draw and len(game._hands[s]) < game._limit:
        moves = [DRAW]
        if game._draw_play and game._status.count(ACTIVE) == 1:
            moves.append(DRAW_PLAY)
    else:
        moves = [PASS]
    pile = game._pile
    if pile:
        top = pile[-1][1]
        for r in range(top, ACE + 1):
            k = counts[r]
            if k:
                moves.extend(PLAYS_UP_TO[r][k][jokers])
        if jokers:
            # D9: jokers alone take the top rank
            moves.extend(PLAY_TABLE[top][0][1 : jokers + 1])
    else:
        # D9: no jokers on an empty pile
        for r in range(2, ACE + 1):
            k = counts[r]
            if k:
                moves.extend(PLAYS_UP_TO[r][k][0])
    game._offered = (s, tuple(moves))
    return moves


def check_draw(game: DubbState, s: int) -> None:
    if game._first_move:
        raise RuleError("D4", "the first move must be a play of your lowest rank")
    if not game._draw:
        raise RuleError("D5", "the draw pile is empty — play or pass")
    if len(game._hands[s]) >= game._limit:
        raise RuleError("D5", "you hold {limit} cards, the hand limit: play or pass",
                        limit=HAND_LIMIT)


def check_pass(game: DubbState, s: int) -> None:
    if game._first_move:
        raise RuleError("D4", "the first move must be a play of your lowest rank")
    if can_draw(game, s):
        raise RuleError("D5", "you can only pass when you cannot draw")


def check_draw_play(game: DubbState, s: int) -> None:
    if not game._draw_play:
        raise RuleError("D12", "last-player draw-and-play is not on at this table")
    if game._first_move:
        raise RuleError("D4", "the first move must be a play of your lowest rank")
    if game._status.count(ACTIVE) != 1:
        raise RuleError("D12", "you can only draw-and-play when nobody else holds cards")
    if not can_draw(game, s):
        raise RuleError("D12", "you can only draw-and-play when you could draw")


def check_play(game: DubbState, s: int, move: Play) -> list[int]:
    """The cards ``move`` plays from seat ``s``'s hand, or a ``RuleError``."""
    rank, naturals, jokers = move.rank, move.naturals, move.jokers
    if naturals < 0 or jokers < 0 or naturals + jokers < 1:
        raise RuleError("D5", "a play needs at least one card")
    if not 2 <= rank <= ACE:
        raise RuleError("D3", "there is no such rank")
    pile = game._pile
    hand = game._hands[s]
    if game._first_move:
        low = lowest(game._counts[s])
        if jokers:
            raise RuleError("D9", "the first play goes on an empty pile, so no jokers")
        if rank != low:
            raise RuleError("D4", "the first move must be a play of your lowest rank, {rank}",
                            rank=rank_name(low))
    if jokers and not pile:
        raise RuleError("D9", "jokers cannot be played on an empty pile")
    if pile:
        top = pile[-1][1]
        if naturals == 0 and rank != top:
            raise RuleError("D9", "jokers played alone take the top card's rank, {rank}",
                            rank=rank_name(top))
        if rank < top:
            raise RuleError("D5", "you must play {rank} or higher", rank=rank_name(top))
    if move.cards is None:
        counts = game._counts[s]
        if counts[rank] < naturals:
            raise RuleError("D5", "you don't hold {count}× {rank}", count=naturals,
                            rank=rank_name(rank))
        if counts[JOKER_RANK] < jokers:
            raise RuleError("D5", "you don't hold that many jokers")
        return pick(game, s, move)
    cards = list(move.cards)
    if len(set(cards)) != len(cards):
        raise RuleError("D5", "the same card is named twice")
    if any(c not in hand for c in cards):
        raise RuleError("D5", "you don't hold all of those cards")
    got_jokers = sum(1 for c in cards if c & 15 == JOKER_RANK)
    if any(c & 15 not in (rank, JOKER_RANK) for c in cards):
        raise RuleError("D5", "cards played together must all have the same rank")
    if got_jokers != jokers or len(cards) - got_jokers != naturals:
        raise RuleError("D5", "those cards do not match the play")
    return cards


def pick(game: DubbState, s: int, move: Play) -> list[int]:
    """The cards a play seat ``s`` can make takes: exactly ``move.cards`` if it names them,
    otherwise the lowest codes of its rank, then the lowest joker codes."""
    if move.cards is not None:
        return list(move.cards)
    rank = move.rank
    hand = game._hands[s]
    cards = sorted([c for c in hand if c & 15 == rank])[:move.naturals]
    if move.jokers:
        cards += sorted([c for c in hand if c & 15 == JOKER_RANK])[:move.jokers]
    return cards
