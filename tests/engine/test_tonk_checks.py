"""What the Tonk table keeps for speed and how it is checked: the running count of cards in
spreads stays equal to a recount, a move ``legal_moves`` listed skips its second validation only
while the table has not changed, the cheap check (``check_quick``) and the full check catch a
damaged table, and the quick answers of ``spreads_in`` and ``hits_on`` agree with a search of
every choice of cards."""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.gamekit.contract import RuleError, Seat
from bot.games.tonk import (
    DealNextHand,
    Discard,
    DrawStock,
    Hit,
    Phase,
    Spread,
    Timeout,
    TonkEngine,
    TonkOptions,
    check_invariants,
    check_quick,
)
from bot.games.tonk.spreads import DECK_ORDER, SORT_KEY, hits_on, is_spread, spreads_in
from bot.games.tonk.terms import TableSpread
from tests.engine.test_tonk_engine import P1, P2, P3, cs, make_table

options_st = st.builds(
    TonkOptions,
    upcard=st.booleans(),
    must_spread=st.booleans(),
    double_needs_spread=st.booleans(),
    hit_lock=st.booleans(),
)


def copy_of(move: object) -> object:
    """An equal move that is not the listed object."""
    if isinstance(move, Spread):
        return Spread(tuple(move.cards))
    if isinstance(move, Hit):
        return Hit(move.spread_id, tuple(move.cards))
    if isinstance(move, Discard):
        return Discard(move.card)
    return type(move)()


def _lay_first(legal: list[object], rng: random.Random) -> object:
    lays = [m for m in legal if isinstance(m, Spread | Hit)]
    return rng.choice(lays) if lays and rng.random() < 0.7 else rng.choice(legal)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), options=options_st, seed=st.integers(0, 2**40),
       chooser=st.integers(0, 2**32))
def test_a_listed_move_and_an_equal_new_one_do_the_same(
    players: int, options: TonkOptions, seed: int, chooser: int,
) -> None:
    table = TonkEngine.new([Seat(i + 1, f"P{i + 1}") for i in range(players)], options, seed)
    rng = random.Random(chooser)
    for _ in range(200):
        if table.phase is Phase.HAND_OVER:
            player = table.player_ids[0]
        else:
            assert table.to_move is not None
            player = table.to_move
        if table.phase is not Phase.HAND_OVER and rng.random() < 0.03:
            move: object = Timeout()
        else:
            move = _lay_first(table.legal_moves(player), rng)
        twin = TonkEngine.from_stored(json.loads(json.dumps(table.to_stored())))
        assert twin.apply(player, copy_of(move)) == table.apply(player, move)  # type: ignore[arg-type]
        assert twin.to_stored() == table.to_stored()
        assert table._in_spreads == sum(len(sp.cards) for sp in table.spreads)
        assert check_quick(table) == []
        assert check_invariants(table) == []
        if table.is_over:
            break


def test_a_listed_move_is_checked_again_once_the_table_has_moved_on() -> None:
    table = make_table({P1: "5s 5h 5d Kc 2c 3h", P2: "9d 9h 4c 8s 2d", P3: "Jd Jh Js 10c 7h"},
                       phase=Phase.AFTER_DRAW)
    legal = table.legal_moves(P1)
    discard = next(m for m in legal if m == Discard(cs("5s")[0]))
    table.apply(P1, next(m for m in legal if m == Spread(cs("5s 5h 5d"))))
    with pytest.raises(RuleError) as info:
        table.apply(P1, discard)
    assert info.value.ruling == "T5"


def test_a_list_changed_after_it_was_handed_out_gives_no_licence() -> None:
    table = make_table({P1: "5s 5h 2h Kc 2c 3h", P2: "9d 9h 4c 8s 2d", P3: "Jd Jh Js 10c 7h"},
                       phase=Phase.AFTER_DRAW)
    legal = table.legal_moves(P1)
    not_mine = Discard(cs("9d")[0])
    legal.append(not_mine)
    with pytest.raises(RuleError):
        table.apply(P1, not_mine)


def three_hands() -> TonkEngine:
    return make_table({P1: "5s 5h 5d Kc 2c", P2: "9d 9h 4c 8s 2d", P3: "Jd Jh Js 10c 7h"})


def test_the_quick_check_catches_a_lost_or_doubled_card() -> None:
    table = three_hands()
    assert check_quick(table) == []
    table._stock.append(table._stock[0])
    assert "cards not conserved: 53 cards" in check_quick(table)
    table._stock.pop()
    table._hands[P2].pop()
    assert "cards not conserved: 51 cards" in check_quick(table)


def test_the_quick_check_catches_a_bad_spread_the_move_laid() -> None:
    table = three_hands()
    table.apply(P1, DrawStock())
    legal = table.legal_moves(P1)
    table.apply(P1, next(m for m in legal if m == Spread(cs("5s 5h 5d"))))
    assert check_quick(table) == []
    table._spreads[-1] = TableSpread(1, P1, cs("5s 5h 6d"))
    assert "spread S1 is not a valid book or run" in check_quick(table)


def test_the_quick_check_catches_the_hand_and_the_turn_of_the_player_to_move() -> None:
    table = three_hands()
    table._hands[P1].append(table._stock.pop())
    assert "the hand of the player to move holds no cards or too many" in check_quick(table)
    table._stock.append(table._hands[P1].pop())
    table.phase = Phase.HAND_OVER
    assert "a player to move between hands" in check_quick(table)


def test_the_full_check_catches_a_stale_running_count() -> None:
    table = make_table({P1: "Kc 2c 3h 4h 7d", P2: "9d 9h 4c 8s 2d"}, spreads=[(P1, "5s 5h 5d")])
    assert check_invariants(table) == []
    table._in_spreads += 1
    problems = check_invariants(table)
    assert "the running count of cards in spreads is out of date" in problems
    assert check_quick(table) == ["cards not conserved: 53 cards"]


hands_st = st.lists(st.sampled_from(DECK_ORDER), min_size=0, max_size=9, unique=True)


@settings(max_examples=400, deadline=None)
@given(hand=hands_st)
def test_spreads_in_finds_every_choice_of_cards_that_is_a_spread(hand: list[int]) -> None:
    found = spreads_in(hand)
    every = {tuple(sorted(cards, key=SORT_KEY.__getitem__))
             for k in range(3, len(hand) + 1) for cards in combinations(hand, k)
             if is_spread(cards)}
    assert set(found) == every and len(found) == len(every)
    assert found == sorted(found, key=lambda cards: [SORT_KEY[c] for c in cards])


@settings(max_examples=400, deadline=None)
@given(cards=st.lists(st.sampled_from(DECK_ORDER), min_size=5, max_size=14, unique=True),
       pick=st.integers(0, 2**30))
def test_hits_on_finds_every_choice_of_cards_that_grows_a_spread(cards: list[int],
                                                                 pick: int) -> None:
    spreads = spreads_in(cards[:7]) or [tuple(sorted(cs("4s 5s 6s"), key=SORT_KEY.__getitem__))]
    spread = spreads[pick % len(spreads)]
    hand = [c for c in cards if c not in spread]
    found = hits_on(hand, spread)
    every = {tuple(sorted(h, key=SORT_KEY.__getitem__))
             for k in range(1, len(hand) + 1) for h in combinations(hand, k)
             if is_spread((*spread, *h))}
    assert {tuple(sorted(h, key=SORT_KEY.__getitem__)) for h in found} == every
    assert len(found) == len(every)


def test_a_deal_is_a_listed_move_between_hands() -> None:
    table = make_table({P1: "Kc 2c 3h 4h 7d", P2: "9d 9h 4c 8s 2d"}, stock_empty=True)
    table.apply(P1, table.legal_moves(P1)[-1])  # end the hand: the stock is out (T8)
    assert table.phase is Phase.HAND_OVER
    listed = table.legal_moves(P2)
    assert listed == [DealNextHand()]
    twin = TonkEngine.from_stored(table.to_stored())
    assert table.apply(P2, listed[0]) == twin.apply(P2, DealNextHand())
    assert table.to_stored() == twin.to_stored()
