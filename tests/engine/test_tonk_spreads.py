"""Tonk spreads and hits at the edges (T6), card values (T2) and the T11 automatic choices."""

import pytest

from bot.cards import make, parse_card
from bot.games.tonk.autoplay import auto_discard, largest_spread
from bot.games.tonk.spreads import (
    card_value,
    cards_in_spreads,
    hand_total,
    hits_on,
    is_book,
    is_run,
    is_spread,
    required_spreads,
    sort_cards,
    spreads_in,
    tonk_rank,
)


def c(text: str) -> int:
    p = parse_card(text)
    assert p.suit is not None
    return make(p.rank, p.suit)


def cs(text: str) -> tuple[int, ...]:
    return tuple(c(t) for t in text.split())


def test_values_ace_counts_one_and_faces_ten_t2() -> None:
    assert [card_value(x) for x in cs("As 2h 9d 10c Js Qh Kd")] == [1, 2, 9, 10, 10, 10, 10]
    assert tonk_rank(c("As")) == 1 and tonk_rank(c("Ks")) == 13
    assert hand_total(cs("As Kh 5d")) == 16


@pytest.mark.parametrize(
    ("cards", "valid"),
    [
        ("As 2s 3s", True),  # ace low
        ("Qs Ks As", False),  # never K-A
        ("Ks As 2s", False),  # no wrapping
        ("2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh", True),
        ("As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks", True),
        ("3s 4s 6s", False),  # gap
        ("3s 4h 5s", False),  # two suits
        ("3s 4s", False),  # too short
        ("Js Jh Jd", True),
        ("4s 4h 4d 4c", True),
        ("4s 4h", False),
        ("As Ah Ad", True),
    ],
)
def test_spread_validity_t6(cards: str, valid: bool) -> None:
    assert is_spread(cs(cards)) is valid


def test_a_book_of_five_is_impossible_t6() -> None:
    # one pack holds four of a rank; a repeated card never makes a fifth
    four = cs("4s 4h 4d 4c")
    assert not is_book((*four, four[0]))
    assert hits_on(cs("4s 9h"), four) == []


def test_run_and_book_are_told_apart() -> None:
    assert is_run(cs("5c 6c 7c")) and not is_book(cs("5c 6c 7c"))
    assert is_book(cs("5c 5h 5s")) and not is_run(cs("5c 5h 5s"))
    assert not is_run(cs("5s 5s 5s"))


def test_spreads_in_lists_every_stretch_and_every_book_choice() -> None:
    hand = cs("As 2s 3s 4s 9d")
    assert spreads_in(hand) == [cs("As 2s 3s"), cs("As 2s 3s 4s"), cs("2s 3s 4s")]
    books = spreads_in(cs("7s 7h 7d 7c"))
    assert len(books) == 5 and cs("7s 7h 7d 7c") in books
    assert spreads_in(cs("Qs Ks As")) == []


def test_hits_on_a_run_grow_at_either_end_or_both_t6() -> None:
    run = cs("5c 6c 7c")
    options = hits_on(cs("3c 4c 8c 9h"), run)
    assert set(options) == {cs("4c"), cs("3c 4c"), cs("8c"), cs("4c 8c"), cs("3c 4c 8c")}
    # nothing below the ace, nothing above the king
    assert hits_on(cs("Kh 5s"), cs("Ah 2h 3h")) == []
    assert hits_on(cs("As"), cs("Js Qs Ks")) == []
    assert hits_on(cs("As"), cs("2s 3s 4s")) == [cs("As")]


def test_hits_on_a_book_fill_it_to_four_t6() -> None:
    book = sort_cards(cs("9h 9c 9d"))
    assert hits_on(cs("9s 2c"), book) == [cs("9s")]
    assert is_spread(book + cs("9s"))


def test_must_spread_keeps_only_three_aces_t6() -> None:
    assert required_spreads(cs("As Ah Ad 7c")) == []
    assert required_spreads(cs("As Ah Ad Ac")) == [cs("As Ah Ad Ac")]
    assert required_spreads(cs("As Ah Ad 2s 3s")) == [cs("As 2s 3s")]
    assert required_spreads(cs("5s 5h 5d Kc")) == [cs("5s 5h 5d")]


def test_sort_cards_is_ace_low() -> None:
    assert sort_cards(cs("Ks As 10s")) == cs("As 10s Ks")


def test_auto_discard_follows_t11_order() -> None:
    # highest value outside every spread the hand could form
    assert auto_discard(cs("5s 5h 5d Kc 9h"), None) == c("Kc")
    # K before Q at equal value; ♠ before ♥ at equal rank
    assert auto_discard(cs("Qs Kh 2c"), None) == c("Kh")
    assert auto_discard(cs("Kh Ks 2c"), None) == c("Ks")
    # the card taken from the pile is not legal while another card is held
    assert auto_discard(cs("Kc 2h"), c("Kc")) == c("2h")
    # every legal card in a spread: the highest legal card
    assert auto_discard(cs("5s 5h 5d"), None) == c("5s")
    assert cards_in_spreads(cs("5s 5h 5d 7c")) == set(cs("5s 5h 5d"))


def test_largest_spread_first_t11() -> None:
    assert largest_spread([cs("2s 3s 4s"), cs("9s 9h 9d")]) == cs("9s 9h 9d")
    assert largest_spread(spreads_in(cs("As 2s 3s 4s"))) == cs("As 2s 3s 4s")
