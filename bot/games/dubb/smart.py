"""A stronger Dubb player than greedy, deciding only from what its seat may see (D14).

Simulation shows that most of greedy's habits are hard to beat: dub whenever you can (D8), and
otherwise get rid of every card of your lowest playable rank. Counting unseen cards to avoid
being dubbed did not improve on them. Two things do:

- High cards are worth keeping. When the pile is so high that the lowest playable rank is a
  high one while the hand still holds several lower ranks, this player draws instead (D5): the
  low ranks need a low pile, which comes back after the next turn of the pile (D6, D7), and the
  high cards are what lets it play on a high pile then, and what wins the duel below.
- The duel at the end, when only one other player is left in, decides the game: whoever first
  plays their last cards without being dubbed leaves the other alone (D10, D11). There it

  - with only aces and one other rank left, plays the aces first (D7 gives another turn), then
    that rank on the empty pile — it is pending at once and the opponent must dub it;
  - when the opponent holds a single card, plays its highest rank that is not its last, so
    that the opponent's card is unlikely to go on top of it and they must draw (D5, D6).

With nobody else holding cards it dubs if it can, or tries draw-and-play (D12), since any other
move leaves it alone with the pending players (D11).
"""

from __future__ import annotations

import random
from operator import attrgetter

from bot.cards import ACE, JOKER_RANK
from bot.games.dubb.moves import DRAW, DRAW_PLAY, Move, Play
from bot.games.dubb.observation import DubbObservation

BLOCK_BELOW = 2
"""In the duel, block when the opponent holds fewer cards than this."""
KEEP_FROM = {2: 13, 3: 11}
"""Keep (draw instead of playing) a lowest playable rank at least this high while the hand holds
this many lower ranks; with more lower ranks, ``KEEP_FROM_MANY``."""
KEEP_FROM_MANY = 10
KEEP_HAND_MARGIN = 3
"""Stop keeping high cards once the hand holds this many cards more than were dealt: tables of
smart players would otherwise all draw until their hands are large and games get long."""
KEEP_UNTIL_MOVE = 500
"""Stop keeping high cards after this many moves, well before the D13 cap."""


def smart_strategy(me: DubbObservation, rng: random.Random) -> Move:
    """The move for ``me`` (the player to move). Deterministic: ``rng`` is not needed."""
    moves = me.legal_moves
    if len(moves) == 1:
        return moves[0]
    top = me.top_rank
    if me.first_move:
        return _greedy(moves, top)
    holding = me.others_holding_count()
    if holding == 1 and me.others_in() == 1:
        return _duel(me, moves, me.others_holding()[0])
    if not holding:
        return _alone(moves, top)
    move = _greedy(moves, top)
    if (type(move) is Play and move.rank != top and moves[0] is DRAW
            and me.move_count < KEEP_UNTIL_MOVE):
        hand = me.hand
        if len(hand) >= me.cards_each + KEEP_HAND_MARGIN:
            return move
        lower = len({c & 15 for c in hand if JOKER_RANK < c & 15 < move.rank})
        keep_from = KEEP_FROM.get(lower, KEEP_FROM_MANY if lower > 3 else ACE + 1)
        if move.rank >= keep_from:
            return DRAW
    return move


_NATURALS = attrgetter("naturals")
_JOKERS = attrgetter("jokers")


def _greedy(moves: list[Move], top: int) -> Move:
    """Dub with every natural of the top rank (else every joker); otherwise all naturals of the
    lowest playable rank; otherwise draw-and-play (D12), draw or pass."""
    plays = [m for m in moves if type(m) is Play]
    if plays:
        dubs = [m for m in plays if m.rank == top]
        if dubs:
            natural = [m for m in dubs if m.jokers == 0]
            if natural:
                return max(natural, key=_NATURALS)
            return max(dubs, key=_JOKERS)
        return _all_of(plays, min([m.rank for m in plays]))
    return DRAW_PLAY if DRAW_PLAY in moves else moves[0]


def _all_of(plays: list[Play], rank: int) -> Play:
    """The play of every natural of ``rank`` (no jokers), or the largest play of that rank."""
    natural = [m for m in plays if m.rank == rank and m.jokers == 0]
    if natural:
        return max(natural, key=_NATURALS)
    return max((m for m in plays if m.rank == rank), key=lambda m: m.count)


def _alone(moves: list[Move], top: int) -> Move:
    """Nobody else holds cards, so everyone else in is pending in the streak: only a dub keeps
    this player from being left alone (D11); draw-and-play may turn up a card that dubs (D12)."""
    plays = [m for m in moves if type(m) is Play]
    dubs = [m for m in plays if m.rank == top]
    if dubs:
        return max(dubs, key=lambda m: m.count)
    return DRAW_PLAY if DRAW_PLAY in moves else _greedy(moves, top)


def _duel(me: DubbObservation, moves: list[Move], opponent_cards: int) -> Move:
    top = me.top_rank
    plays = [m for m in moves if type(m) is Play]
    if not plays or any(m.rank == top for m in plays):
        return _greedy(moves, top)
    counts = [0] * (ACE + 1)
    for c in me.hand:
        counts[c & 15] += 1
    others = [r for r in range(2, ACE) if counts[r]]
    playable = {m.rank for m in plays}
    if counts[ACE] and ACE in playable and len(others) == 1 and not counts[JOKER_RANK]:
        # D7: the aces turn the pile and give another turn, so the last rank goes down at once
        # and this player is pending before the opponent can empty their hand
        return _all_of(plays, ACE)
    if opponent_cards < BLOCK_BELOW:
        # keep the pile above the opponent's last card: they draw instead of going pending
        ranks = [r for r in playable if r != ACE and counts[r] + counts[JOKER_RANK] < len(me.hand)]
        if ranks:
            return _all_of(plays, max(ranks))
    return _greedy(moves, top)
