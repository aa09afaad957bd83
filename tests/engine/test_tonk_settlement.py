"""Every Tonk payment case with exact amounts (part A's list, T4, T6, T8, T10, T11)."""

import pytest

from bot.games.tonk.settlement import HandEnd, Payment, Reason, drop_outcome, net, settle

S = 5  # the basic stake s; amounts below are written as multiples of it
A, B, C, D = 1, 2, 3, 4


def pays(payments: list[Payment]) -> list[tuple[int, int, int]]:
    return [(p.payer, p.payee, p.amount) for p in payments]


def test_tonk_on_deal_pays_double_from_each_t4() -> None:
    got = settle(HandEnd.TONK_ON_DEAL, [A, B, C], {A: 20, B: 49, C: 30}, S, winner=B)
    assert pays(got) == [(A, B, 2 * S), (C, B, 2 * S)]
    assert {p.reason for p in got} == {Reason.TONK_ON_DEAL}


def test_tonk_on_deal_ignores_double_needs_spread_t4() -> None:
    got = settle(HandEnd.TONK_ON_DEAL, [A, B], {A: 50, B: 3}, S, winner=A,
                 double_needs_spread=True)
    assert pays(got) == [(B, A, 2 * S)]


def test_49_and_50_on_the_same_deal_is_a_draw_with_no_payments_t4() -> None:
    assert settle(HandEnd.DRAW_ON_DEAL, [A, B, C], {A: 49, B: 50, C: 12}, S) == []


def test_tonk_out_pays_double_payment_1() -> None:
    got = settle(HandEnd.TONK_OUT, [A, B, C], {A: 0, B: 7, C: 30}, S, winner=A)
    assert pays(got) == [(B, A, 2 * S), (C, A, 2 * S)]


@pytest.mark.parametrize(
    ("variation", "new_spread", "amount"),
    [(True, True, 2 * S), (True, False, S), (False, False, 2 * S), (False, True, 2 * S)],
)
def test_tonk_out_with_a_new_spread_vs_hits_only_t6(
        variation: bool, new_spread: bool, amount: int) -> None:
    got = settle(HandEnd.TONK_OUT, [A, B], {A: 0, B: 7}, S, winner=A,
                 laid_new_spread=new_spread, double_needs_spread=variation)
    assert pays(got) == [(B, A, amount)]


def test_out_by_discard_pays_s_even_with_the_variation_payment_2() -> None:
    for variation in (False, True):
        got = settle(HandEnd.OUT_BY_DISCARD, [A, B, C], {A: 1, B: 0, C: 9}, S, winner=B,
                     laid_new_spread=True, double_needs_spread=variation)
        assert pays(got) == [(A, B, S), (C, B, S)]


def test_dropper_lowest_receives_s_from_each_payment_3() -> None:
    totals = {A: 4, B: 5, C: 30}
    assert drop_outcome(A, totals) is HandEnd.DROP_WON
    got = settle(HandEnd.DROP_WON, [A, B, C], totals, S, dropper=A)
    assert pays(got) == [(B, A, S), (C, A, S)]


def test_dropper_tied_is_caught_two_players_pays_2s_plus_s_t10() -> None:
    # T10's own example: two players, D = L = 5
    totals = {A: 5, B: 5}
    assert drop_outcome(A, totals) is HandEnd.DROP_CAUGHT
    got = settle(HandEnd.DROP_CAUGHT, [A, B], totals, S, dropper=A)
    assert pays(got) == [(A, B, 2 * S), (A, B, S)]
    assert [p.reason for p in got] == [Reason.CAUGHT, Reason.LOWEST_AFTER_DROP]
    assert net(got) == {A: -3 * S, B: 3 * S}


def test_dropper_caught_with_two_players_tied_for_lowest_t10() -> None:
    # D = 10; B and C tie for lowest at 4; D pays 2s to both, and both get s from everyone
    # outside the group — here only the dropper
    totals = {A: 10, B: 4, C: 4}
    got = settle(HandEnd.DROP_CAUGHT, [A, B, C], totals, S, dropper=A)
    assert pays(got) == [(A, B, 2 * S), (A, C, 2 * S), (A, B, S), (A, C, S)]
    assert net(got) == {A: -6 * S, B: 3 * S, C: 3 * S}


def test_caught_with_tied_lowest_and_a_higher_player_four_players_t10() -> None:
    totals = {A: 10, B: 4, C: 4, D: 12}
    got = settle(HandEnd.DROP_CAUGHT, [A, B, C, D], totals, S, dropper=A)
    assert pays(got) == [
        (A, B, 2 * S), (A, C, 2 * S),
        (A, B, S), (D, B, S), (A, C, S), (D, C, S),
    ]
    assert net(got) == {A: -6 * S, B: 4 * S, C: 4 * S, D: -2 * S}


def test_caught_pays_2s_to_a_player_tied_with_the_dropper_who_is_not_lowest_t10() -> None:
    # D = 8, B = 5 (lowest), C = 8 (equal to D): C gets 2s but also pays B's s
    totals = {A: 8, B: 5, C: 8}
    got = settle(HandEnd.DROP_CAUGHT, [A, B, C], totals, S, dropper=A)
    assert pays(got) == [(A, B, 2 * S), (A, C, 2 * S), (A, B, S), (C, B, S)]
    assert net(got) == {A: -5 * S, B: 4 * S, C: S}


def test_caught_by_one_lower_player_only_t10() -> None:
    totals = {A: 9, B: 3, C: 20}
    got = settle(HandEnd.DROP_CAUGHT, [A, B, C], totals, S, dropper=A)
    assert pays(got) == [(A, B, 2 * S), (A, B, S), (C, B, S)]


def test_drop_outcome_must_match_the_totals() -> None:
    with pytest.raises(ValueError):
        settle(HandEnd.DROP_WON, [A, B], {A: 5, B: 5}, S, dropper=A)


def test_stock_out_lowest_receives_s_from_each_payment_5() -> None:
    got = settle(HandEnd.STOCK_OUT, [A, B, C], {A: 9, B: 2, C: 14}, S)
    assert pays(got) == [(A, B, S), (C, B, S)]


def test_stock_out_with_a_tie_t8() -> None:
    got = settle(HandEnd.STOCK_OUT, [A, B, C], {A: 4, B: 9, C: 4}, S)
    assert pays(got) == [(B, A, S), (B, C, S)]
    assert net(got) == {A: S, B: -2 * S, C: S}


def test_stock_out_everyone_tied_pays_nothing_t8() -> None:
    assert settle(HandEnd.STOCK_OUT, [A, B], {A: 7, B: 7}, S) == []


def test_forfeit_pays_s_to_each_other_player_t11() -> None:
    got = settle(HandEnd.FORFEIT, [A, B, C, D], {A: 1, B: 2, C: 3, D: 4}, S, leaver=C)
    assert pays(got) == [(C, A, S), (C, B, S), (C, D, S)]
    assert {p.reason for p in got} == {Reason.FORFEIT}


@pytest.mark.parametrize("how", list(HandEnd))
def test_every_case_sums_to_zero_t12(how: HandEnd) -> None:
    totals = {A: 2, B: 5, C: 9} if how is HandEnd.DROP_WON else {A: 5, B: 5, C: 9}
    got = settle(how, [A, B, C], totals, 3, winner=B, dropper=A, leaver=C)
    assert sum(net(got).values()) == 0
    assert all(p.amount > 0 and p.payer != p.payee for p in got)


def test_missing_player_is_an_error() -> None:
    with pytest.raises(ValueError):
        settle(HandEnd.TONK_OUT, [A, B], {A: 0, B: 1}, S)


def test_payment_dict_round_trip() -> None:
    p = Payment(A, B, 10, Reason.CAUGHT)
    assert Payment.from_dict(p.to_dict()) == p
