"""The shared card module: codes, parsing of user text, display."""

import pytest

from bot import cards
from bot.cards import CardPattern, CardTextError


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("7h", CardPattern(7, cards.HEARTS)),
        ("7♥", CardPattern(7, cards.HEARTS)),
        ("7♥\ufe0f", CardPattern(7, cards.HEARTS)),
        ("10s", CardPattern(10, cards.SPADES)),
        ("Qd", CardPattern(cards.QUEEN, cards.DIAMONDS)),
        ("a♠", CardPattern(cards.ACE, cards.SPADES)),
        ("KC", CardPattern(cards.KING, cards.CLUBS)),
        ("7", CardPattern(7)),
        ("joker", CardPattern(cards.JOKER_RANK)),
        ("JK", CardPattern(cards.JOKER_RANK)),
        ("jk", CardPattern(cards.JOKER_RANK)),
    ],
)
def test_parse_card(typed: str, expected: CardPattern) -> None:
    assert cards.parse_card(typed) == expected


@pytest.mark.parametrize("typed", ["", "zz", "11x", "0h", "7x", "hearts", "77"])
def test_parse_card_rejects_nonsense(typed: str) -> None:
    with pytest.raises(CardTextError):
        cards.parse_card(typed)


def test_parse_cards_lists_and_glued() -> None:
    assert cards.parse_cards("7h 7s, 8") == [
        CardPattern(7, cards.HEARTS), CardPattern(7, cards.SPADES), CardPattern(8)
    ]
    assert cards.parse_cards("7h7s") == [CardPattern(7, cards.HEARTS), CardPattern(7, cards.SPADES)]
    with pytest.raises(CardTextError):
        cards.parse_cards("   ")


def test_pick_from_hand_prefers_exact_suits_and_never_reuses_a_card() -> None:
    seven_s, seven_h, nine_d = cards.make(7, 0), cards.make(7, 1), cards.make(9, 2)
    hand = [seven_s, seven_h, nine_d]
    assert cards.pick_from_hand(cards.parse_cards("7 7h"), hand) == [seven_h, seven_s]
    with pytest.raises(CardTextError, match="not_held: 3× 7"):
        cards.pick_from_hand(cards.parse_cards("7 7 7"), hand)


def test_decks_have_distinct_codes_and_display() -> None:
    two = cards.new_deck(decks=2, jokers=True)
    assert len(two) == 108 == len(set(two))
    assert sum(1 for c in two if cards.is_joker(c)) == 4
    assert cards.display(cards.make(10, cards.SPADES)) == "10♠"
    assert cards.text(cards.make(cards.QUEEN, cards.DIAMONDS)) == "Qd"
    for c in two:
        if not cards.is_joker(c):
            assert cards.parse_card(cards.text(c)).matches(c)
