"""The play pile: its plays, the streak and dubbing (D8), and turning it (D6, D7, D10).

The pile is a list of plays (``state.PilePlay``), bottom first, so its top is the end of the
list. The functions work on a game's state (``DubbState``) and are called from the engine's move
flow (``engine.py``); they keep its running counts (cards on the pile, the streak's length, the
rank counts of the hands) up to date.
"""

from __future__ import annotations

from bot.cards import sort_key
from bot.games.dubb.deal import shuffle
from bot.games.dubb.events import (
    Dubbed,
    DubPickup,
    Event,
    PileTurned,
    PileTurnReason,
    PlayerRejoined,
)
from bot.games.dubb.state import DubbState
from bot.games.dubb.status import ACTIVE, PENDING

SHOW_ORDER: tuple[tuple[int, int, int], ...] = tuple(sort_key(c) for c in range(128))
"""``bot.cards.sort_key`` of every card code of two packs, looked up instead of computed."""


def dub(game: DubbState, s: int, rank: int, victims: set[int], k: int, events: list[Event]
        ) -> None:
    """Seat ``s`` played ``k`` cards of the top ``rank``: ``victims`` (the other seats still in
    with a play in the streak) pick up (D8), and pending ones who get cards rejoin (D10)."""
    n = game._n
    order = [(s + i) % n for i in range(1, n) if (s + i) % n in victims]
    got: dict[int, list[int]] = {v: [] for v in order}
    draw = game._draw
    hands = game._hands
    limit = game._limit
    # D8: one card at a time, round-robin from the seat after the dubber; what the draw
    # pile or the hand limit does not allow is forgiven
    taking = order
    for _ in range(k):
        still: list[int] = []
        for v in taking:
            if not draw:
                break
            hand = hands[v]
            if len(hand) < limit:
                card = draw.pop()
                hand.append(card)
                game._counts[v][card & 15] += 1
                got[v].append(card)
                still.append(v)
        taking = still
        if not taking or not draw:
            break
    ids = game._ids
    events.append(Dubbed(
        ids[s], rank, k,
        tuple(DubPickup(ids[v], len(got[v]), k - len(got[v]), tuple(got[v])) for v in order),
    ))
    status = game._status
    for v in order:
        if status[v] == PENDING and got[v]:
            # D10: a dubbed pending player who picks up cards is back in the turn order
            status[v] = ACTIVE
            events.append(PlayerRejoined(ids[v], len(got[v])))


def streak_pending(game: DubbState, seat: int) -> list[int]:
    """Pending seats with a play in the streak, in turn order after ``seat``: those who go out
    when the streak is broken or the pile turned (D10, D11)."""
    status = game._status
    pile = game._pile
    in_streak = {p[0] for p in pile[len(pile) - game._streak:]}
    n = game._n
    return [
        t for t in ((seat + i) % n for i in range(1, n))
        if status[t] == PENDING and t in in_streak
    ]


def turn_pile(game: DubbState, seat: int, reason: PileTurnReason, events: list[Event]) -> None:
    """Turn the play pile (D6, D7, D10): its cards are shuffled into the draw pile."""
    cards = [c for p in game._pile for c in p[2]]
    draw = game._draw
    draw.extend(cards)
    shuffle(game, draw)
    game._pile.clear()
    game._pile_cards = 0
    game._streak = 0
    events.append(PileTurned(game._ids[seat], reason, len(cards)))
