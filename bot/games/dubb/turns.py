"""Whose turn it is, who is out, and the end: passing the turn on past pending and out players
with the pile turns their seats cause (D6, D10), going out (D10), and the end (D11, D13).

Functions of a game's state (``DubbState``), called from the engine's move flow
(``engine.py``) and from leaving (``leaving.py``).
"""

from __future__ import annotations

from bot.games.dubb.events import EndReason, Event, GameOver, PlayerOut
from bot.games.dubb.pile import streak_pending, turn_pile
from bot.games.dubb.state import DubbState
from bot.games.dubb.status import ACTIVE, OUT, PENDING


def go_out(game: DubbState, seat: int, events: list[Event]) -> bool:
    """Seat ``seat`` is out (D10); True when that ended the game (D11)."""
    game._status[seat] = OUT
    game._out_order.append(seat)
    events.append(PlayerOut(game._ids[seat], len(game._out_order)))
    if game._n - len(game._out_order) - len(game._left_order) == 1:
        finish(game, "normal", events)
        return True
    return False


def advance(game: DubbState, s: int, events: list[Event]) -> None:
    """Pass the turn on from seat ``s`` to the next seat holding cards, running D6 and D10."""
    n = game._n
    status = game._status
    pile = game._pile
    for step in range(1, 2 * n + 1):
        t = (s + step) % n
        st = status[t]
        if st == OUT:
            continue
        owns_top = bool(pile) and pile[-1][0] == t
        if st == ACTIVE:
            game._to_move = t
            if owns_top:
                # D6: their own play is on top as their turn begins; the streak's pending
                # players go out (turn order after this seat) and the turn goes on
                broken = streak_pending(game, t)
                turn_pile(game, t, "D6", events)
                for seat in broken:
                    if go_out(game, seat, events):
                        return
            return
        if owns_top:
            # D10: a pending seat whose play is on top turns the pile; the streak's other
            # pending players go out first, then the seat's owner. A departed player's top
            # play is turned the same way (see ``leaving.py``).
            broken = streak_pending(game, t)
            turn_pile(game, t, "D10", events)
            for seat in broken:
                if go_out(game, seat, events):
                    return
            if st == PENDING and go_out(game, t, events):
                return
    raise AssertionError("no seat can take the turn")  # excluded by the D10 invariants


def finish(game: DubbState, reason: EndReason, events: list[Event]) -> None:
    """The game ends: rank everyone (D11; D13 at the cap), leavers last, and say so."""
    n = game._n
    status = game._status
    if reason == "cap":
        # D13: most cards loses (ties: first in turn order from the player to move); the
        # others still in rank after those out, fewest cards first, ties in turn order
        t = game._to_move
        still_in = [(t + i) % n for i in range(n) if status[(t + i) % n] <= PENDING]
        sizes = [len(h) for h in game._hands]
        loser = max(still_in, key=lambda x: sizes[x])
        rest = sorted((x for x in still_in if x != loser), key=lambda x: sizes[x])
        staying = [*game._out_order, *rest, loser]
    else:
        staying = [*game._out_order, *(i for i in range(n) if status[i] <= PENDING)]
    ranking = staying + game._left_order[::-1]
    game._ranking = tuple(ranking)
    game._loser = game._left_order[0] if game._left_order else staying[-1]
    game._end_reason = reason
    game._to_move = -1
    ids = game._ids
    events.append(GameOver(
        tuple(ids[x] for x in ranking), ids[game._loser], reason,
        tuple(ids[x] for x in game._left_order),
    ))
