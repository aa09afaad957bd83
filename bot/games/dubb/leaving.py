"""Leaving a Dubb game: not in the rules, decided here.

The leaver forfeits and is ranked below everyone who stays; their hand is shuffled into the draw
pile; their plays stay on the pile and can no longer be dubbed, and when the turn passes their
seat while their play is on top the pile is turned as for a pending player (D10), since nobody
else may turn it (D6). A player the turn timer removes (three timeouts in a row) leaves the same
way.
"""

from __future__ import annotations

from bot.cards import ACE
from bot.gamekit.contract import RuleError
from bot.games.dubb.deal import shuffle
from bot.games.dubb.events import Event, PlayerLeft
from bot.games.dubb.state import DubbState
from bot.games.dubb.status import LEFT, OUT
from bot.games.dubb.turns import advance, finish


def check_can_leave(game: DubbState, s: int) -> None:
    """A ``RuleError`` unless seat ``s`` is still in the game (holding cards or pending)."""
    st = game._status[s]
    if st == OUT:
        raise RuleError("D10", "you are already out of this game")
    if st == LEFT:
        raise RuleError("D1", "you have already left this game")


def leave(game: DubbState, s: int, auto: bool, events: list[Event]) -> None:
    """Seat ``s`` leaves: a forfeit, ranked below everyone who stays.

    Their hand is shuffled into the draw pile. If they were to move, the turn passes on as
    after a move; if the starter leaves before the first move, the next player takes an
    ordinary turn (D4 binds only the starter). Plays they made stay on the pile: dubbing
    skips them (D8 needs a player to pick up), and their top play is turned when their seat
    comes up (D10). With fewer than two players left in, the game ends at once.
    """
    hand = game._hands[s]
    returned = len(hand)
    if hand:
        game._draw.extend(hand)
        hand.clear()
        game._counts[s] = [0] * (ACE + 1)
        shuffle(game, game._draw)
    game._status[s] = LEFT
    game._left_order.append(s)
    game._strikes[s] = 0
    events.append(PlayerLeft(game._ids[s], game._n - len(game._left_order) + 1, returned, auto))
    if game._n - len(game._out_order) - len(game._left_order) < 2:
        finish(game, "left", events)
        return
    if s == game._to_move:
        game._first_move = False
        advance(game, s, events)
