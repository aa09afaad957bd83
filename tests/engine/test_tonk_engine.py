"""The Tonk table: turns and phases (T5), spreads and hits (T6), going out (T7), the stock
(T8), hit lock (T9), drops (T10), leaving and timeouts (T11), seats (T1), the cut (T3), the
deal (T4), the variations, views, events and the stored form."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Any

import pytest

from bot.cards import make, new_deck, parse_card
from bot.gamekit.contract import RuleError, Seat
from bot.games.tonk import (
    TURN_CAP,
    DealNextHand,
    Discard,
    DrawDiscard,
    DrawStock,
    Drop,
    EndHand,
    Event,
    HandEnd,
    HandEnded,
    Hit,
    Join,
    Leave,
    Phase,
    Spread,
    TableCloses,
    Timeout,
    TonkEngine,
    TonkOptions,
    check_invariants,
    event_to_dict,
    move_from_dict,
    move_to_dict,
    public_form,
    seat_form,
)
from bot.games.tonk.events import (
    CutForDeal,
    Dealt,
    Discarded,
    DrewFromStock,
    Dropped,
    EndedHand,
    HandDrawn,
    Joined,
    Left,
    SpreadHit,
    SpreadLaid,
    TableClosed,
    TableDealt,
    TimedOut,
)
from bot.games.tonk.spreads import sort_cards, tonk_rank

P1, P2, P3, P4 = 1, 2, 3, 4


def c(text: str) -> int:
    p = parse_card(text)
    assert p.suit is not None
    return make(p.rank, p.suit)


def cs(text: str) -> tuple[int, ...]:
    return tuple(c(t) for t in text.split())


def make_table(
    hands: dict[int, str],
    *,
    to_move: int | None = None,
    phase: Phase = Phase.START,
    discards: str = "",
    spreads: Sequence[tuple[int, str]] = (),
    stock_top: str = "",
    stock_empty: bool = False,
    stock: str | None = None,
    options: TonkOptions | None = None,
    dealer: int | None = None,
    taken: str | None = None,
    turns: int = 0,
    hit_locked: Iterable[int] = (),
) -> TonkEngine:
    """A position built through the stored form. ``stock_top`` lists the next cards to be
    drawn, first drawn first; the unused cards fill the stock below them — or, when ``stock``
    gives the whole stock (top first) or ``stock_empty`` is set, the bottom of the pile."""
    ids = list(hands)
    table = TonkEngine.new([Seat(p, f"P{p}") for p in ids], options or TonkOptions(), 0)
    data = table.to_stored()
    hand_cards = [list(cs(hands[p])) for p in ids]
    pile = list(cs(discards))
    laid = [list(sort_cards(cs(text))) for _, text in spreads]
    top = list(cs(stock_top if stock is None else stock))
    used = {x for h in hand_cards for x in h} | set(pile) | {x for s in laid for x in s} | set(top)
    rest = [x for x in new_deck() if x not in used]
    if stock_empty or stock is not None:
        assert not (stock_empty and top)
        stock_cards, pile = top[::-1], rest + pile
    else:
        stock_cards = rest + top[::-1]
    data.update(
        phase=phase.value, hand_number=1, dealer=ids[-1] if dealer is None else dealer,
        next_dealer=None, players=ids, hands=hand_cards, stock=stock_cards, discards=pile,
        spreads=[{"id": i + 1, "owner": owner, "cards": cards}
                 for i, ((owner, _), cards) in enumerate(zip(spreads, laid, strict=True))],
        next_spread_id=len(laid) + 1, to_move=ids[0] if to_move is None else to_move,
        taken_discard=None if taken is None else c(taken), laid_new_spread=False,
        hit_locked=sorted(hit_locked), turns=turns, timeouts=[], last_hand_result=None,
    )
    built = TonkEngine.from_stored(data)
    assert check_invariants(built) == []
    return built


def ended(events: list[Event]) -> HandEnded:
    found = [e for e in events if isinstance(e, HandEnded)]
    assert len(found) == 1
    return found[0]


def pays(events: list[Event]) -> list[tuple[int, int, int]]:
    return [(p.payer, p.payee, p.amount) for p in ended(events).result.payments]


def unchanged_after_error(table: TonkEngine, player: int, move: Any, ruling: str) -> None:
    before = table.to_stored()
    with pytest.raises(RuleError) as info:
        table.apply(player, move)
    assert info.value.ruling == ruling
    assert table.to_stored() == before


class FixedDeck:
    """Stands in for the table's shuffle: the deck comes out in a chosen order."""

    def __init__(self, order: list[int]) -> None:
        self.order = order

    def shuffle(self, deck: list[int]) -> None:
        deck[:] = self.order


def deck_dealing(hands_in_deal_order: list[tuple[int, ...]], upcard: int | None) -> list[int]:
    """A deck order that deals these five-card hands (dealer's left first) and then the upcard;
    the deal pops from the end, one card to each player in turn."""
    dealt = [h[i] for i in range(5) for h in hands_in_deal_order]
    if upcard is not None:
        dealt.append(upcard)
    rest = [x for x in new_deck() if x not in dealt]
    return rest + dealt[::-1]


# ---------------------------------------------------------------- T5 phases


def test_start_phase_offers_drop_and_both_draws_t5() -> None:
    t = make_table({P1: "2s 3h 9d Kc Qd", P2: "4s 5h 6d 7c 8d"}, discards="Jh")
    assert t.legal_moves(P1) == [Drop(), DrawStock(), DrawDiscard()]
    assert t.legal_moves(P2) == []
    unchanged_after_error(t, P2, DrawStock(), "T5")


def test_no_drop_after_drawing_t5() -> None:
    t = make_table({P1: "2s 3h 9d Kc Qd", P2: "4s 5h 6d 7c 8d"}, discards="Jh")
    t.apply(P1, DrawStock())
    assert t.phase is Phase.AFTER_DRAW
    assert Drop() not in t.legal_moves(P1)
    unchanged_after_error(t, P1, Drop(), "T5")
    unchanged_after_error(t, P1, DrawStock(), "T5")


def test_lay_and_discard_need_a_draw_first_t5() -> None:
    t = make_table({P1: "2s 3s 4s Kc Qd", P2: "4h 5h 6d 7c 8d"}, discards="Jh")
    unchanged_after_error(t, P1, Spread(cs("2s 3s 4s")), "T5")
    unchanged_after_error(t, P1, Discard(c("Kc")), "T5")


def test_may_not_discard_the_card_just_taken_from_the_pile_t5() -> None:
    t = make_table({P1: "2s 3h 9d Kc Qd", P2: "4s 5h 6d 7c 8d"}, discards="Jh")
    t.apply(P1, DrawDiscard())
    assert t.taken_discard == c("Jh")
    assert Discard(c("Jh")) not in t.legal_moves(P1)
    unchanged_after_error(t, P1, Discard(c("Jh")), "T5")
    events = t.apply(P1, Discard(c("Kc")))
    assert events == [Discarded(P1, c("Kc"))]
    assert t.to_move == P2 and t.discard_top == c("Kc")


def test_taken_card_may_be_discarded_when_it_is_the_last_card_t5_t7() -> None:
    t = make_table({P1: "2c 3c", P2: "4s 5h 6d 7c 8d"}, discards="9d",
                   spreads=[(P2, "4c 5c 6c")], options=TonkOptions(stake=3))
    t.apply(P1, DrawDiscard())
    t.apply(P1, Hit(1, cs("2c 3c")))
    assert t.legal_moves(P1) == [Discard(c("9d"))]
    events = t.apply(P1, Discard(c("9d")))
    assert ended(events).result.how is HandEnd.OUT_BY_DISCARD
    assert pays(events) == [(P2, P1, 3)]


def test_turn_passes_clockwise() -> None:
    t = make_table({P1: "2s 3h 9d Kc Qd", P2: "4s 5h 6d 7c 8d", P3: "As 2h 3d 4c 10d"},
                   discards="Jh")
    for player in (P1, P2, P3, P1):
        assert t.to_move == player
        t.apply(player, DrawStock())
        t.apply(player, next(m for m in t.legal_moves(player) if isinstance(m, Discard)))


# ---------------------------------------------------------------- T6 spreads and hits


def test_spread_and_hit_any_spread_with_stable_ids_and_owners_t6() -> None:
    t = make_table({P1: "As 2s 3s 9d Kc", P2: "4s 5h 6d 7c 8d"}, discards="Jd",
                   spreads=[(P2, "10h Jh Qh")], stock_top="9h")
    t.apply(P1, DrawStock())
    events = t.apply(P1, Spread(cs("3s As 2s")))
    assert events == [SpreadLaid(P1, 2, cs("As 2s 3s"))]
    assert [(s.id, s.label, s.owner) for s in t.spreads] == [(1, "S1", P2), (2, "S2", P1)]
    # hitting another player's spread, at the low end
    events = t.apply(P1, Hit(1, cs("9h")))
    assert events == [SpreadHit(P1, 1, P2, cs("9h"))]
    assert t.spreads[0].cards == cs("9h 10h Jh Qh")
    assert t.spreads[0].owner == P2


def test_hit_both_ends_of_a_run_at_once_t6() -> None:
    t = make_table({P1: "4c 8c 9d Kc Qd", P2: "4s 5h 6d 7h 8d"}, spreads=[(P2, "5c 6c 7c")],
                   discards="2h")
    t.apply(P1, DrawStock())
    assert Hit(1, cs("4c 8c")) in t.legal_moves(P1)
    t.apply(P1, Hit(1, cs("8c 4c")))
    assert t.spreads[0].cards == cs("4c 5c 6c 7c 8c")


@pytest.mark.parametrize(
    ("spread", "hit"),
    [
        ("Js Qs Ks", "As"),  # never K-A
        ("5c 6c 7c", "9c"),  # gap
        ("5c 6c 7c", "8h"),  # other suit
        ("9s 9h 9d 9c", "2s"),  # a full book takes nothing
    ],
)
def test_invalid_hits_are_refused_t6(spread: str, hit: str) -> None:
    t = make_table({P1: f"{hit} 3d 10d Kd Qd", P2: "4s 5h 6d 7h 8d"}, spreads=[(P2, spread)],
                   discards="2h")
    t.apply(P1, DrawStock())
    unchanged_after_error(t, P1, Hit(1, cs(hit)), "T6")
    unchanged_after_error(t, P1, Hit(7, cs(hit)), "T6")


def test_invalid_spreads_are_refused_t6() -> None:
    t = make_table({P1: "Qs Ks As 5d 5h", P2: "4s 5s 6d 7h 8d"}, discards="2h", stock_top="5c")
    t.apply(P1, DrawStock())
    unchanged_after_error(t, P1, Spread(cs("Qs Ks As")), "T6")
    unchanged_after_error(t, P1, Spread(cs("5d 5h")), "T6")
    unchanged_after_error(t, P1, Spread(cs("5d 5h 5s")), "T6")  # 5♠ is not in the hand
    unchanged_after_error(t, P1, Spread(cs("5d 5h 5d")), "T6")
    t.apply(P1, Spread(cs("5d 5h 5c")))
    assert t.hand_size(P1) == 3


# ---------------------------------------------------------------- T7 going out


def test_tonk_out_by_laying_the_last_cards_t7() -> None:
    t = make_table({P1: "4h 5h 6h 9s 9d", P2: "4s 5s 6d 7c 8d", P3: "Ks Kh 2d 3c 8c"},
                   stock_top="9c", discards="2h")
    t.apply(P1, DrawStock())
    t.apply(P1, Spread(cs("4h 5h 6h")))
    events = t.apply(P1, Spread(cs("9s 9d 9c")))
    result = ended(events).result
    assert result.how is HandEnd.TONK_OUT and result.winner == P1
    assert pays(events) == [(P2, P1, 2), (P3, P1, 2)]
    assert t.phase is Phase.HAND_OVER and t.to_move is None


@pytest.mark.parametrize(("variation", "amount"), [(False, 2), (True, 1)])
def test_tonk_out_by_hits_only_double_needs_spread_t6(variation: bool, amount: int) -> None:
    t = make_table({P1: "7h 8h", P2: "4s 5s 6d 7c 8d"}, spreads=[(P2, "4h 5h 6h")],
                   stock_top="9h", discards="2c",
                   options=TonkOptions(double_needs_spread=variation))
    t.apply(P1, DrawStock())
    events = t.apply(P1, Hit(1, cs("7h 8h 9h")))
    assert ended(events).result.how is HandEnd.TONK_OUT
    assert pays(events) == [(P2, P1, amount)]


def test_tonk_out_with_a_new_spread_pays_double_under_the_variation_t6() -> None:
    # the new spread and a hit in the same turn: the turn laid a new spread, so 2s
    t = make_table({P1: "7h 8h 5h", P2: "4s 5s 6d 7c 8d"}, spreads=[(P2, "2h 3h 4h")],
                   stock_top="9h", discards="2c", options=TonkOptions(double_needs_spread=True))
    t.apply(P1, DrawStock())
    t.apply(P1, Spread(cs("7h 8h 9h")))
    events = t.apply(P1, Hit(1, cs("5h")))
    assert pays(events) == [(P2, P1, 2)]


# ---------------------------------------------------------------- T10 drops


def test_drop_lowest_wins_t10() -> None:
    t = make_table({P1: "As 2h 3d", P2: "4s 5s 6d 7c 8d", P3: "Ks Kh 2d 3c 8c"},
                   options=TonkOptions(stake=10))
    events = t.apply(P1, Drop())
    assert events[0] == Dropped(P1)
    assert ended(events).result.how is HandEnd.DROP_WON
    assert pays(events) == [(P2, P1, 10), (P3, P1, 10)]
    assert ended(events).result.totals == (6, 30, 33)


def test_drop_tied_is_caught_two_players_t10() -> None:
    t = make_table({P1: "2s 3h", P2: "As 4d"})
    events = t.apply(P1, Drop())
    assert ended(events).result.how is HandEnd.DROP_CAUGHT
    assert pays(events) == [(P1, P2, 2), (P1, P2, 1)]


def test_drop_caught_with_two_tied_lowest_t10() -> None:
    t = make_table({P1: "9s Ah", P2: "2s 2h", P3: "3s Ad"})
    events = t.apply(P1, Drop())
    assert ended(events).result.how is HandEnd.DROP_CAUGHT
    assert pays(events) == [(P1, P2, 2), (P1, P3, 2), (P1, P2, 1), (P1, P3, 1)]


# ---------------------------------------------------------------- T8 stock


def test_empty_stock_offers_drop_discard_or_end_t8() -> None:
    t = make_table({P1: "2s 3h 9d Kc Qd", P2: "4s 5s 6d 7c 8d"}, stock_empty=True)
    assert t.legal_moves(P1) == [Drop(), DrawDiscard(), EndHand()]
    unchanged_after_error(t, P1, DrawStock(), "T8")
    events = t.apply(P1, EndHand())
    assert events[0] == EndedHand(P1)
    assert ended(events).result.how is HandEnd.STOCK_OUT
    assert pays(events) == [(P1, P2, 1)]


def test_end_hand_needs_an_empty_stock_t8() -> None:
    t = make_table({P1: "2s 3h 9d Kc Qd", P2: "4s 5s 6d 7c 8d"}, discards="2h")
    unchanged_after_error(t, P1, EndHand(), "T8")


def test_stock_out_with_a_tie_t8() -> None:
    t = make_table({P1: "2s 3h 9d Kc Qd", P2: "4s 6d", P3: "3s 7h"}, stock_empty=True)
    events = t.apply(P1, EndHand())
    assert pays(events) == [(P1, P2, 1), (P1, P3, 1)]


def test_play_continues_on_discards_after_the_stock_runs_out_t8() -> None:
    t = make_table({P1: "2s 3h 9d Kc Qd", P2: "4s 5s 6d 7c 8d"}, stock="Jd")
    t.apply(P1, DrawStock())
    assert t.stock_size == 0
    t.apply(P1, Discard(c("Kc")))
    t.apply(P2, DrawDiscard())
    t.apply(P2, Discard(c("8d")))
    assert t.legal_moves(P1) == [Drop(), DrawDiscard(), EndHand()]


def test_the_hand_ends_when_200_turns_complete_t8() -> None:
    t = make_table({P1: "2s 3h 9d Kc Qd", P2: "4s 5s 6d 7c 8d"}, discards="Jh")
    events: list[Event] = []
    for _ in range(TURN_CAP):
        assert t.phase is Phase.START
        player = t.to_move
        assert player is not None
        t.apply(player, DrawDiscard())
        discard = next(m for m in t.legal_moves(player) if isinstance(m, Discard))
        events = t.apply(player, discard)
    result = ended(events).result
    assert result.how is HandEnd.STOCK_OUT and result.capped
    assert t.turns == TURN_CAP
    assert sum(p.amount for p in result.payments) > 0 or result.totals[0] == result.totals[1]


def test_going_out_on_the_200th_turn_still_counts_t8() -> None:
    t = make_table({P1: "2c 3c", P2: "4s 5h 6d 7c 8d"}, discards="9d",
                   spreads=[(P2, "4c 5c 6c")], turns=TURN_CAP - 1)
    t.apply(P1, DrawDiscard())
    t.apply(P1, Hit(1, cs("2c 3c")))
    result = ended(t.apply(P1, Discard(c("9d")))).result
    assert result.how is HandEnd.OUT_BY_DISCARD and not result.capped


def test_the_200th_turn_without_going_out_is_capped_t8() -> None:
    t = make_table({P1: "2c 3c Kd", P2: "4s 5h 6d 7c 8d"}, discards="9d", turns=TURN_CAP - 1)
    t.apply(P1, DrawStock())
    result = ended(t.apply(P1, Discard(c("Kd")))).result
    assert result.how is HandEnd.STOCK_OUT and result.capped


# ---------------------------------------------------------------- T9 hit lock


def _hit_p2_spread(options: TonkOptions) -> TonkEngine:
    t = make_table({P1: "8h 2s 3d Kc Qd", P2: "As 2h 3c 4d 5s"}, spreads=[(P2, "5h 6h 7h")],
                   discards="Jd", options=options)
    t.apply(P1, DrawStock())
    t.apply(P1, Hit(1, cs("8h")))
    t.apply(P1, Discard(c("Kc")))
    return t


def test_hit_lock_stops_the_owner_dropping_next_turn_t9() -> None:
    t = _hit_p2_spread(TonkOptions(hit_lock=True))
    assert t.hit_locked == {P2}
    assert t.public_view().hit_locked == (P2,)
    assert Drop() not in t.legal_moves(P2)
    unchanged_after_error(t, P2, Drop(), "T9")
    t.apply(P2, DrawStock())
    t.apply(P2, Discard(c("5s")))
    # the lock ended with that turn
    assert t.hit_locked == set()
    t.apply(P1, DrawStock())
    t.apply(P1, Discard(c("Qd")))
    assert Drop() in t.legal_moves(P2)


def test_without_the_option_a_hit_locks_nothing_t9() -> None:
    t = _hit_p2_spread(TonkOptions())
    assert t.hit_locked == set()
    assert Drop() in t.legal_moves(P2)


def test_hitting_your_own_spread_locks_nothing_t9() -> None:
    t = make_table({P1: "8h 2s 3d Kc Qd", P2: "As 2h 3c 4d 5s"}, spreads=[(P1, "5h 6h 7h")],
                   discards="Jd", options=TonkOptions(hit_lock=True))
    t.apply(P1, DrawStock())
    t.apply(P1, Hit(1, cs("8h")))
    assert t.hit_locked == set()


# ---------------------------------------------------------------- variations


def test_no_upcard_first_player_may_drop_or_draw_from_stock() -> None:
    t = TonkEngine.new([Seat(P1, "a"), Seat(P2, "b")], TonkOptions(upcard=False), 11)
    if t.phase is Phase.HAND_OVER:
        pytest.skip("seed dealt a 49/50")
    assert t.discard_top is None and t.stock_size == 52 - 10
    first = t.to_move
    assert first is not None
    assert t.legal_moves(first) == [Drop(), DrawStock()]
    unchanged_after_error(t, first, DrawDiscard(), "T5")
    t.apply(first, DrawStock())
    card = next(m for m in t.legal_moves(first) if isinstance(m, Discard)).card
    t.apply(first, Discard(card))
    assert t.discard_top == card


def test_upcard_starts_the_discard_pile() -> None:
    t = TonkEngine.new([Seat(P1, "a"), Seat(P2, "b"), Seat(P3, "c")], TonkOptions(), 11)
    assert t.discard_size == 1 and t.stock_size == 52 - 15 - 1


def test_must_spread_forbids_discarding_while_holding_a_spread_t6() -> None:
    t = make_table({P1: "5s 5h 5d Kc Qd", P2: "4s 6s 6d 7c 8d"}, discards="Jh",
                   options=TonkOptions(must_spread=True))
    t.apply(P1, DrawStock())
    assert not any(isinstance(m, Discard) for m in t.legal_moves(P1))
    unchanged_after_error(t, P1, Discard(c("Kc")), "T6")
    t.apply(P1, Spread(cs("5s 5h 5d")))
    t.apply(P1, Discard(c("Kc")))


def test_must_spread_lets_three_aces_be_held_t6() -> None:
    t = make_table({P1: "As Ah Ad Kc Qd", P2: "4s 6s 6d 7c 8d"}, discards="Jh",
                   stock_top="9c", options=TonkOptions(must_spread=True))
    t.apply(P1, DrawStock())
    t.apply(P1, Discard(c("Kc")))
    assert t.hand(P1) == sort_cards(cs("As Ah Ad Qd 9c"))


@pytest.mark.parametrize("hand", ["As Ah Ad Ac Qd", "As Ah Ad 2s 3s"])
def test_must_spread_four_aces_or_a_run_with_an_ace_must_be_laid_t6(hand: str) -> None:
    t = make_table({P1: hand, P2: "4s 6s 6d 7c 8d"}, discards="Jh", stock_top="9c",
                   options=TonkOptions(must_spread=True))
    t.apply(P1, DrawStock())
    unchanged_after_error(t, P1, Discard(c("9c")), "T6")


def test_must_spread_does_not_stop_a_drop_t6() -> None:
    t = make_table({P1: "As Ah Ad Ac 2d", P2: "4s 6s 6d 7c 8d"},
                   options=TonkOptions(must_spread=True))
    assert ended(t.apply(P1, Drop())).result.how is HandEnd.DROP_WON


# ---------------------------------------------------------------- T11 leaving and timeouts


def test_leaving_mid_hand_forfeits_and_the_table_continues_t11() -> None:
    t = make_table({P1: "2s 3h 9d Kc Qd", P2: "4s 5s 6d 7c 8d", P3: "As 2h 3d 4c 10d"},
                   discards="Jh", options=TonkOptions(stake=4), dealer=P3)
    events = t.apply(P2, Leave())
    assert events[0] == Left(P2, True)
    result = ended(events).result
    assert result.how is HandEnd.FORFEIT and result.leaver == P2
    assert pays(events) == [(P2, P1, 4), (P2, P3, 4)]
    assert t.phase is Phase.HAND_OVER and t.player_ids == (P1, P3)
    assert not t.is_over
    assert t.next_dealer == P1
    t.apply(P3, DealNextHand())
    assert t.dealer == P1 and t.hand_players == (P1, P3)


def test_leaving_with_two_players_closes_the_table_t11() -> None:
    t = make_table({P1: "2s 3h 9d Kc Qd", P2: "4s 5s 6d 7c 8d"}, discards="Jh")
    events = t.apply(P1, Leave())
    assert pays(events) == [(P1, P2, 1)]
    assert events[-1] == TableClosed(1)
    assert t.is_over and t.phase is Phase.TABLE_CLOSED
    assert t.legal_moves(P2) == []
    unchanged_after_error(t, P2, DealNextHand(), "T1")


def test_leaving_between_hands_just_stands_up_t1() -> None:
    t = make_table({P1: "2s", P2: "4s 5s 6d 7c 8d", P3: "As 2h 3d 4c 10d"})
    t.apply(P1, Drop())
    events = t.apply(P2, Leave())
    assert events == [Left(P2, False)]
    assert t.player_ids == (P1, P3)


def test_timeout_draws_and_discards_per_t11() -> None:
    t = make_table({P1: "5s 5h 5d Kc Qd", P2: "4s 6s 6d 7c 8d"}, discards="Jh",
                   stock_top="Kh")
    events = t.apply(P1, Timeout())
    assert events[0] == TimedOut(P1, 1)
    assert isinstance(events[1], DrewFromStock) and events[1].private_card == c("Kh")
    # the book of fives is kept (no must-spread); of the tens the kings go first, and of
    # the kings ♥ before ♣
    assert events[2] == Discarded(P1, c("Kh"))
    assert t.timeouts_in_a_row(P1) == 1 and t.to_move == P2


def test_timeout_after_a_discard_draw_keeps_the_taken_card_t11() -> None:
    t = make_table({P1: "2s 3h 9d 4c 5d", P2: "4s 6s 6d 7c 8d"}, discards="Kh")
    t.apply(P1, DrawDiscard())
    events = t.apply(P1, Timeout())
    assert events == [TimedOut(P1, 1), Discarded(P1, c("9d"))]


def test_timeout_with_must_spread_lays_largest_total_first_t11() -> None:
    t = make_table({P1: "2s 3s 4s Kh Kd", P2: "4h 6s 6d 7c 8d"}, discards="Jh",
                   stock_top="Kc", options=TonkOptions(must_spread=True))
    events = t.apply(P1, Timeout())
    laid = [e for e in events if isinstance(e, SpreadLaid)]
    assert [e.cards for e in laid] == [cs("Kh Kd Kc"), cs("2s 3s 4s")]
    assert isinstance(events[-1], HandEnded)
    assert ended(events).result.how is HandEnd.TONK_OUT


def test_timeout_with_an_empty_stock_ends_the_hand_t11() -> None:
    t = make_table({P1: "2s 3h 9d Kc Qd", P2: "4s 5s 6d 7c 8d"}, stock_empty=True)
    events = t.apply(P1, Timeout())
    assert events[1] == EndedHand(P1)
    assert ended(events).result.how is HandEnd.STOCK_OUT


def test_timeout_only_for_the_player_to_move_t11() -> None:
    t = make_table({P1: "2s 3h 9d Kc Qd", P2: "4s 5s 6d 7c 8d"}, discards="Jh")
    unchanged_after_error(t, P2, Timeout(), "T11")


def test_own_move_resets_the_timeout_count_and_three_in_a_row_remove_t11() -> None:
    t = make_table({P1: "2s 3h 9d Kc Qd", P2: "4s 5s 6d 7c 8d", P3: "As 2h 3d 4c 10d"},
                   discards="Jh")
    t.apply(P1, Timeout())
    t.apply(P2, Timeout())
    t.apply(P3, Timeout())
    t.apply(P1, Timeout())
    assert t.timeouts_in_a_row(P1) == 2
    t.apply(P2, DrawStock())  # P2's own move resets P2's count
    assert t.timeouts_in_a_row(P2) == 0
    t.apply(P2, Timeout())
    assert t.timeouts_in_a_row(P2) == 1
    t.apply(P3, Timeout())
    events = t.apply(P1, Timeout())
    assert events[0] == TimedOut(P1, 3)
    assert Left(P1, True) in events
    assert pays(events) == [(P1, P2, 1), (P1, P3, 1)]
    assert t.player_ids == (P2, P3)


# ---------------------------------------------------------------- T1 seats, T3 cut, T4 deal


def test_a_newcomer_sits_at_the_right_of_the_next_dealer_and_deals_last_t1() -> None:
    t = make_table({P1: "2s", P2: "4s 5s 6d 7c 8d", P3: "As 2h 3d 4c 10d"}, dealer=P3)
    t.apply(P1, Drop())
    assert t.next_dealer == P1
    unchanged_after_error(t, P2, Join("again"), "T1")
    events = t.apply(P4, Join("Dora"))
    assert events == [Joined(P4, "Dora", 0)]
    assert t.player_ids == (P4, P1, P2, P3)
    dealers = []
    for _ in range(4):
        t.apply(P1, DealNextHand())
        dealers.append(t.dealer)
        while t.phase is not Phase.HAND_OVER:
            player = t.to_move
            assert player is not None
            t.apply(player, Drop() if Drop() in t.legal_moves(player) else EndHand())
    assert dealers == [P1, P2, P3, P4]


def test_join_only_between_hands_and_at_most_four_t1() -> None:
    t = make_table({P1: "2s 3h 9d Kc Qd", P2: "4s 5s 6d 7c 8d", P3: "As 2h 3d 4c 10d",
                    P4: "Ad 2d 3c 4h 10c"})
    unchanged_after_error(t, 9, Join("late"), "T1")
    t.apply(P1, Drop())
    unchanged_after_error(t, 9, Join("full"), "T1")
    t.apply(P4, Leave())
    t.apply(9, Join("nine"))
    assert len(t.player_ids) == 4


def test_deal_passes_on_when_the_next_dealer_has_left_t1() -> None:
    t = make_table({P1: "2s", P2: "4s 5s 6d 7c 8d", P3: "As 2h 3d 4c 10d"}, dealer=P3)
    t.apply(P1, Drop())
    t.apply(P1, Leave())
    assert t.next_dealer == P2
    t.apply(P2, DealNextHand())
    assert t.dealer == P2


def test_deal_next_hand_only_when_over_and_by_a_seated_player() -> None:
    t = make_table({P1: "2s 3h 9d Kc Qd", P2: "4s 5s 6d 7c 8d"}, discards="Jh")
    unchanged_after_error(t, P1, DealNextHand(), "T5")
    t.apply(P1, Drop())
    assert t.legal_moves(P2) == [DealNextHand()]
    unchanged_after_error(t, 99, DealNextHand(), "T1")


def test_cut_for_deal_ties_cut_again_and_highest_deals_t3() -> None:
    seats = [Seat(P1, "a"), Seat(P2, "b"), Seat(P3, "c"), Seat(P4, "d")]
    tied = None
    for seed in range(500):
        t = TonkEngine.new(seats, TonkOptions(), seed)
        assert t.cut is not None
        if len(t.cut.rounds) > 1:
            tied = t
            break
    assert tied is not None and tied.cut is not None
    rounds = tied.cut.rounds
    for earlier, later in pairwise(rounds):
        best = max(tonk_rank(card) for _, card in earlier)
        assert [p for p, _ in later] == [p for p, card in earlier if tonk_rank(card) == best]
    last = rounds[-1]
    ranks = sorted(tonk_rank(card) for _, card in last)
    assert ranks[-1] > ranks[-2]  # the last round has one highest card
    winner = max(last, key=lambda pc: tonk_rank(pc[1]))
    assert tied.cut.dealer == winner[0] == tied.dealer
    assert isinstance(tied.opening_events[0], CutForDeal)
    assert tied.public_view().to_dict()["cut"]["rounds"] == [[list(pc) for pc in r] for r in rounds]


def test_cut_counts_the_ace_low_t3(monkeypatch: pytest.MonkeyPatch) -> None:
    # P1 cuts an ace, P2 a two: the two is higher (ace low)
    order = [*cs("As 2h"), *(x for x in new_deck() if x not in cs("As 2h"))]
    monkeypatch.setattr(TonkEngine, "_rng", lambda self: FixedDeck(order))
    t = TonkEngine.new([Seat(P1, "a"), Seat(P2, "b")], TonkOptions(), 0)
    assert t.cut is not None and t.cut.rounds == (((P1, c("As")), (P2, c("2h"))),)
    assert t.dealer == P2


def test_deal_is_five_each_from_the_dealers_left_t4(monkeypatch: pytest.MonkeyPatch) -> None:
    t = make_table({P1: "2s", P2: "4s 5s 6d 7c 8d", P3: "As 2h 3d 4c 10d"}, dealer=P3)
    t.apply(P1, Drop())
    h2, h3, h1 = cs("2c 3c 4c 5c 6c"), cs("2d 3d 4d 5d 6d"), cs("2h 3h 4h 5h 6h")
    monkeypatch.setattr(TonkEngine, "_rng", lambda self: FixedDeck(
        deck_dealing([h2, h3, h1], c("Kd"))))
    events = t.apply(P3, DealNextHand())
    assert t.dealer == P1 and t.to_move == P2
    assert (t.hand(P2), t.hand(P3), t.hand(P1)) == tuple(map(sort_cards, (h2, h3, h1)))
    assert t.discard_top == c("Kd") and t.hand_number == 2
    dealt = events[0]
    assert isinstance(dealt, Dealt) and dealt.upcard == c("Kd")


def test_a_49_on_the_deal_wins_double_at_once_t4(monkeypatch: pytest.MonkeyPatch) -> None:
    t = make_table({P1: "2s", P2: "4s 5s 6d 7c 8d"}, dealer=P2, options=TonkOptions(stake=2))
    t.apply(P1, Drop())
    tonk = cs("Ks Kh Kd Kc 9s")  # 49
    monkeypatch.setattr(TonkEngine, "_rng", lambda self: FixedDeck(
        deck_dealing([cs("2c 3c 4c 5c 6c"), tonk], c("2d"))))
    events = t.apply(P1, DealNextHand())
    result = ended(events).result
    assert result.how is HandEnd.TONK_ON_DEAL and result.winner == P1
    assert pays(events) == [(P2, P1, 4)]
    assert t.phase is Phase.HAND_OVER and t.next_dealer == P2


def test_a_49_and_a_50_on_the_same_deal_is_a_draw_t4(monkeypatch: pytest.MonkeyPatch) -> None:
    t = make_table({P1: "2s", P2: "4s 5s 6d 7c 8d", P3: "As 2h 3d 4c 10d"}, dealer=P3)
    t.apply(P1, Drop())
    monkeypatch.setattr(TonkEngine, "_rng", lambda self: FixedDeck(deck_dealing(
        [cs("Ks Kh Kd Kc 9s"), cs("2c 3c 4c 5c 6c"), cs("Qs Qh Qd Qc 10s")], c("2d"))))
    events = t.apply(P2, DealNextHand())
    assert t.dealer == P1
    assert HandDrawn(2, (P1, P2)) in events
    result = ended(events).result
    assert result.how is HandEnd.DRAW_ON_DEAL and result.payments == ()
    assert t.next_dealer == P2  # the deal still moves on (T3)


# ---------------------------------------------------------------- views, events, stored form


def test_views_hide_hands_until_the_hand_ends() -> None:
    t = make_table({P1: "As 2h 3d", P2: "4s 5s 6d 7c 8d"}, discards="Jh")
    pub = t.public_view().to_dict()
    text = json.dumps(pub)
    assert pub["seats"][0]["hand_size"] == 3 and pub["discard_top"] == c("Jh")
    assert pub["to_move"] == P1 and pub["phase"] == "start" and t.public_view().stake == 1
    assert pub["last_hand_result"] is None and "hand\"" not in text
    mine = t.private_view(P1).to_dict()
    assert mine["hand"] == list(cs("As 2h 3d")) and mine["total"] == 6
    assert mine["legal_moves"] == [{"type": "drop"}, {"type": "draw_stock"},
                                   {"type": "draw_discard"}]
    t.apply(P1, Drop())
    revealed = t.public_view().to_dict()["last_hand_result"]
    assert [(r["player"], r["total"], r["hand"]) for r in revealed["players"]] == [
        (P1, 6, list(cs("As 2h 3d"))), (P2, 30, list(cs("4s 5s 6d 7c 8d")))]


def test_private_cards_only_under_private() -> None:
    t = make_table({P1: "As 2h 3d", P2: "4s 5s 6d 7c 8d"}, discards="Jh", stock_top="Kd")
    [drew] = t.apply(P1, DrawStock())
    d = event_to_dict(drew)
    assert d == {"type": "drew_from_stock", "player": P1, "stock_size": t.stock_size,
                 "private": {"card": c("Kd")}}
    assert "private" not in public_form(event_to_dict(drew))
    assert seat_form(event_to_dict(drew), P1)["private"] == {"card": c("Kd")}
    assert "private" not in seat_form(event_to_dict(drew), P2)
    new = TonkEngine.new([Seat(P1, "a"), Seat(P2, "b")], TonkOptions(), 3)
    dealt = next(e for e in new.opening_events if isinstance(e, Dealt))
    assert "private" not in public_form(event_to_dict(dealt))
    assert seat_form(event_to_dict(dealt), P2)["private"]["hand"] == list(dealt.private_hands[1][1])
    for e in new.opening_events:
        json.dumps(event_to_dict(e))


def test_move_dicts_round_trip() -> None:
    moves = [Drop(), DrawStock(), DrawDiscard(), EndHand(), Spread(cs("As 2s 3s")),
             Hit(3, cs("4s")), Discard(c("Kd")), DealNextHand(), Join("Åsa"), Leave(),
             Timeout()]
    for m in moves:
        d = move_to_dict(m)
        assert move_from_dict(json.loads(json.dumps(d))) == m


@pytest.mark.parametrize("bad", [
    {"type": "fly"}, {"type": "discard", "card": 99}, {"type": "discard"},
    {"type": "spread", "cards": "As"}, {"type": "hit", "spread_id": "1", "cards": [1]},
    {"type": "join", "name": ""}, {"type": "drop", "extra": 1}, [],
])
def test_move_from_dict_rejects_malformed(bad: Any) -> None:
    with pytest.raises(ValueError):
        move_from_dict(bad)


def test_stored_form_round_trips_through_json() -> None:
    t = make_table({P1: "8h 2s 3d Kc Qd", P2: "As 2h 3c 4d 5s"}, spreads=[(P2, "5h 6h 7h")],
                   discards="Jd", options=TonkOptions(hit_lock=True, stake=7))
    t.apply(P1, DrawDiscard())
    t.apply(P1, Hit(1, cs("8h")))
    data = t.to_stored()
    assert data["format_version"] == 2
    back = TonkEngine.from_stored(json.loads(json.dumps(data)))
    assert back.to_stored() == data
    assert back.legal_moves(P1) == t.legal_moves(P1)
    assert back.taken_discard == c("Jd") and back.hit_locked == {P2}


def test_from_stored_rejects_broken_data() -> None:
    t = make_table({P1: "8h 2s 3d Kc Qd", P2: "As 2h 3c 4d 5s"}, discards="Jd")
    data = t.to_stored()
    for key, value in [("format_version", 3), ("stock", data["stock"][1:]),
                       ("hands", [[1000], data["hands"][1]]), ("turns", "3"),
                       ("options", {"stake": 0})]:
        broken = dict(data)
        broken[key] = value
        with pytest.raises(ValueError):
            TonkEngine.from_stored(broken)


def test_new_table_needs_two_to_four_distinct_players_t1() -> None:
    with pytest.raises(RuleError):
        TonkEngine.new([Seat(P1, "a")], TonkOptions(), 1)
    with pytest.raises(RuleError):
        TonkEngine.new([Seat(P1, "a"), Seat(P1, "b")], TonkOptions(), 1)


def test_options_are_validated() -> None:
    with pytest.raises(ValueError):
        TonkOptions(stake=0)
    with pytest.raises(ValueError):
        TonkOptions(stake=1_000_001)
    assert TonkOptions().model_dump() == {"stake": 1, "upcard": True, "must_spread": False,
                                          "double_needs_spread": False, "hit_lock": False}


def test_a_table_nobody_deals_at_closes_with_nobody_paying_or_dealt_in() -> None:
    """Issue 36: between hands nobody is to move, and T1 lets players leave then at no cost;
    when nobody deals in time the host closes the table in the next dealer's name. Everyone
    stays seated, no hand is dealt, nothing is paid, and the last hand's result stands."""
    t = make_table({P1: "As 2h 3d", P2: "4s 5s 6d 7c 8d"}, discards="Jh")
    with pytest.raises(RuleError):
        t.apply(P1, TableCloses())  # a hand is being played
    t.apply(P1, Timeout())
    t.apply(P2, Drop())
    assert t.phase is Phase.HAND_OVER
    last = t.last_hand_result
    dealer = t.next_dealer
    assert dealer is not None
    other = P1 if dealer == P2 else P2
    with pytest.raises(RuleError):
        t.apply(other, TableCloses())
    events = t.apply(dealer, TableCloses())
    assert events == [TableClosed(2)]
    assert t.is_over and t.phase is Phase.TABLE_CLOSED
    assert t.hand_number == 1 and t.last_hand_result is last
    assert [s.player_id for s in t.seats] == [P1, P2]
    assert not any(isinstance(e, HandEnded) for e in events)
    assert t.legal_moves(P1) == [] and t.legal_moves(P2) == []
    assert check_invariants(t) == []
    assert move_from_dict(move_to_dict(TableCloses())) == TableCloses()
    assert TonkEngine.from_stored(json.loads(json.dumps(t.to_stored()))).is_over


def test_a_logged_table_deal_still_replays() -> None:
    """Before issue 36 the table dealt the next hand itself; move logs holding that move must
    still replay (a finished table's Replay)."""
    t = make_table({P1: "As 2h 3d", P2: "4s 5s 6d 7c 8d"}, discards="Jh")
    t.apply(P1, Drop())
    dealer = t.next_dealer
    assert dealer is not None
    logged = move_from_dict({"type": "table_deals"})
    events = t.apply(dealer, logged)
    assert isinstance(events[0], TableDealt) and events[0].hand_number == 2
    assert isinstance(events[1], Dealt) and t.dealer == dealer
    assert check_invariants(t) == []
