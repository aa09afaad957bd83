"""Tonk computer players: random is uniform over the legal moves, greedy plays as the issue
describes from its seat's view only, and CardMemory follows the events a seat is shown."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from bot.cards import make, parse_card
from bot.gamekit.contract import Seat
from bot.games.tonk import (
    CardMemory,
    Discard,
    DrawDiscard,
    DrawStock,
    Drop,
    EndHand,
    GreedyStrategy,
    Hit,
    Phase,
    RandomStrategy,
    Spread,
    TonkEngine,
    TonkOptions,
    event_to_dict,
    seat_form,
    sort_cards,
)
from bot.games.tonk.players import STRATEGIES
from bot.games.tonk.terms import TableSpread
from bot.games.tonk.views import SeatView

P1, P2, P3 = 1, 2, 3

def decide(strategy: Any, seen: Any, rng: random.Random | None = None) -> Any:
    """The strategy's move for a seat's view; ``rng`` defaults to a fresh seeded one, so the
    same view gives the same move."""
    return strategy.choose(seen, rng or random.Random(7))



def c(text: str) -> int:
    p = parse_card(text)
    assert p.suit is not None
    return make(p.rank, p.suit)


def cs(text: str) -> tuple[int, ...]:
    return tuple(c(t) for t in text.split())


def view(hand: str, legal: tuple, *, phase: Phase = Phase.START, top: str | None = None,
         spreads: tuple[TableSpread, ...] = (), others: tuple[int, ...] = (5, 5),
         taken: str | None = None, stock: int = 20) -> SeatView:
    return SeatView(
        player_id=P1, phase=phase, options=TonkOptions(), hand=cs(hand), legal=legal,
        spreads=spreads, discard_top=None if top is None else c(top), stock_size=stock,
        hand_sizes=tuple((P2 + i, n) for i, n in enumerate(others)),
        taken_discard=None if taken is None else c(taken), hit_locked=False, turns=3,
    )


def test_random_is_uniform_over_legal_moves() -> None:
    legal = (Drop(), DrawStock(), DrawDiscard())
    player, rng = RandomStrategy(), random.Random(1)
    counts = Counter(decide(player, view("2s 3h", legal), rng) for _ in range(3000))
    assert set(counts) == set(legal)
    assert all(800 < n < 1200 for n in counts.values())


def test_greedy_takes_the_discard_that_completes_a_spread() -> None:
    legal = (Drop(), DrawStock(), DrawDiscard())
    greedy = GreedyStrategy()
    assert decide(greedy, view("9s 9h 2d Kc Qd", legal, top="9d")) == DrawDiscard()
    assert decide(greedy, view("9s 8h 2d Kc Qd", legal, top="9d")) == DrawStock()
    run = (TableSpread(1, P2, cs("5d 6d 7d")),)
    assert decide(greedy, view("9s 8h 2d Kc Qd", legal, top="8d", spreads=run)) == DrawDiscard()


def test_greedy_drops_when_low_against_the_shortest_other_hand() -> None:
    legal = (Drop(), DrawStock(), DrawDiscard())
    greedy = GreedyStrategy()
    assert decide(greedy, view("As 2h 3d", legal, top="Kd", others=(5, 4))) == Drop()
    assert decide(greedy, view("As 2h 3d", legal, top="Kd", others=(5, 2))) == DrawStock()
    assert decide(greedy, view("As 2h 3d", legal[1:], top="Kd", others=(5, 4))) == DrawStock()


def test_greedy_ends_the_hand_when_the_stock_is_out() -> None:
    legal = (Drop(), DrawDiscard(), EndHand())
    assert decide(GreedyStrategy(), view("9s 8h 2d Kc Qd", legal, top="4c", stock=0)) == EndHand()


def test_greedy_lays_then_hits_then_discards_highest_unmatched() -> None:
    greedy = GreedyStrategy()
    hand = "9s 9h 9d 4c Kd 2h"
    legal = (Spread(cs("9s 9h 9d")), Hit(1, cs("4c")), Discard(c("Kd")), Discard(c("2h")))
    assert decide(greedy, view(hand, legal, phase=Phase.AFTER_DRAW)) == Spread(cs("9s 9h 9d"))
    legal = (Hit(1, cs("4c")), Discard(c("Kd")), Discard(c("2h")), Discard(c("4c")))
    assert decide(greedy, view("4c Kd 2h", legal, phase=Phase.AFTER_DRAW)) == Hit(1, cs("4c"))
    legal = (Discard(c("2h")), Discard(c("5h")))
    assert decide(greedy, view("Kd 2h 5h", legal, phase=Phase.AFTER_DRAW, taken="Kd")) == (
        Discard(c("5h")))


def test_strategies_by_name() -> None:
    assert isinstance(STRATEGIES["greedy"](), GreedyStrategy)
    assert isinstance(STRATEGIES["random"](), RandomStrategy)


def test_strategies_see_only_their_seat() -> None:
    table = TonkEngine.new([Seat(P1, "a"), Seat(P2, "b"), Seat(P3, "c")], TonkOptions(), 4)
    player = table.to_move
    assert player is not None
    seen = table.observe(player)
    assert sort_cards(seen.hand) == table.hand(player)
    assert {p for p, _ in seen.hand_sizes} == set(table.player_ids) - {player}
    assert not any(hasattr(seen, name) for name in ("hands", "stock"))


def test_card_memory_follows_what_the_seat_is_shown() -> None:
    table = TonkEngine.new([Seat(P1, "a"), Seat(P2, "b")], TonkOptions(), 8)
    memory = CardMemory(P1)
    for e in table.opening_events:
        memory.observe(seat_form(event_to_dict(e), P1))
    assert memory.held[P1] == set(table.hand(P1))
    assert memory.pile == [table.discard_top]
    while table.phase is not Phase.HAND_OVER and table.hand_number == 1:
        player = table.to_move
        assert player is not None
        move = decide(GreedyStrategy(), table.observe(player))
        if isinstance(move, Drop | EndHand):
            break
        for e in table.apply(player, move):
            memory.observe(seat_form(event_to_dict(e), P1))
        if table.phase is Phase.START:
            assert memory.pile[-1] == table.discard_top
            assert memory.held[P1] == set(table.hand(P1))
            assert memory.gone == {x for s in table.spreads for x in s.cards}
