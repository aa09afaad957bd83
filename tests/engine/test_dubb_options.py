"""D1 (table), D2 (deal) and one test per table option: decks, jokers, hand limit, cards each
(last-player draw-and-play, D12, is tested with the rulings)."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from bot.cards import JOKER_RANK, is_joker, new_deck, sort_key
from bot.gamekit.contract import RuleError, Seat
from bot.games.dubb import HAND_LIMIT, Dubbed, DubbEngine, DubbOptions, DubPickup, play_of
from bot.games.dubb.deal import shuffle_cards
from bot.games.dubb.moves import DRAW, PASS
from tests.engine.conftest import A, B, C, card, position, seats

# ---------------------------------------------------------------- D1 table


@pytest.mark.parametrize("n", [1, 7])
def test_d1_two_to_six_players(n: int) -> None:
    with pytest.raises(RuleError) as info:
        DubbEngine.new([Seat(i + 1, str(i)) for i in range(n)], DubbOptions(), 1)
    assert info.value.ruling == "D1"
    assert "2 to 6 players" in info.value.message


def test_d1_a_player_takes_one_seat() -> None:
    with pytest.raises(RuleError) as info:
        DubbEngine.new([Seat(1, "a"), Seat(1, "a again")], DubbOptions(), 1)
    assert info.value.ruling == "D1"


def test_d1_options_are_fixed_and_checked() -> None:
    options = DubbOptions(decks=2, jokers=True)
    with pytest.raises(ValidationError):
        options.decks = 1  # type: ignore[misc]
    with pytest.raises(ValidationError):
        DubbOptions(decks=3)  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        DubbOptions(colour="red")  # type: ignore[call-arg]


# ---------------------------------------------------------------- D2 deal


@pytest.mark.parametrize(
    ("players", "default", "allowed"),
    [(2, 12, (10, 11, 12)), (3, 8, (7, 8)), (4, 6, (5, 6)), (5, 5, (4, 5)), (6, 4, (4,))],
)
def test_d2_cards_each_defaults_and_ranges(
    players: int, default: int, allowed: tuple[int, ...]
) -> None:
    assert DubbOptions().effective_cards_each(players) == default
    assert DubbOptions().allowed_cards_each(players) == allowed
    for k in allowed:
        assert DubbOptions(cards_each=k).effective_cards_each(players) == k
    for k in (min(allowed) - 1, max(allowed) + 1):
        with pytest.raises(RuleError) as info:
            DubbOptions(cards_each=k).effective_cards_each(players)
        assert info.value.ruling == "D2"
        assert f"with {players} players" in info.value.message
        assert "20 to 25 cards" in info.value.message


def test_d2_error_messages_read_well() -> None:
    with pytest.raises(RuleError) as info:
        DubbOptions(cards_each=9).effective_cards_each(3)
    assert str(info.value) == (
        "D2: with 3 players each player gets 7 or 8 cards, "
        "so that 20 to 25 cards are dealt in total"
    )
    with pytest.raises(RuleError) as info:
        DubbOptions(cards_each=5).effective_cards_each(6)
    assert "exactly 4 cards" in info.value.message
    with pytest.raises(RuleError) as info:
        DubbOptions(cards_each=9).effective_cards_each(2)
    assert "10 to 12 cards" in info.value.message


@pytest.mark.parametrize("players", [2, 3])
def test_d2_with_the_hand_limit_two_and_three_players_get_exactly_seven(players: int) -> None:
    options = DubbOptions(hand_limit=True)
    assert options.effective_cards_each(players) == HAND_LIMIT
    assert options.allowed_cards_each(players) == (HAND_LIMIT,)
    with pytest.raises(RuleError) as info:
        DubbOptions(hand_limit=True, cards_each=8).effective_cards_each(players)
    assert info.value.ruling == "D2"
    assert "exactly 7" in info.value.message


@pytest.mark.parametrize(("players", "allowed"), [(4, (5, 6)), (5, (4, 5)), (6, (4,))])
def test_d2_the_hand_limit_leaves_four_to_six_players_alone(
    players: int, allowed: tuple[int, ...]
) -> None:
    assert DubbOptions(hand_limit=True).allowed_cards_each(players) == allowed


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_d2_deal_is_seeded_one_card_at_a_time_from_the_first_seat(players: int) -> None:
    seed = 20240 + players
    game = DubbEngine.new(seats(players), DubbOptions(), seed)
    deck = new_deck()
    shuffle_cards(random.Random(seed), deck)
    k = DubbOptions().effective_cards_each(players)
    expected = [[deck[-1 - (j * players + i)] for j in range(k)] for i in range(players)]
    for i, seat in enumerate(game.seats):
        assert game.hand(seat.player_id) == tuple(sorted(expected[i], key=sort_key))
    view = game.public_view()
    assert view.draw_pile_size == 52 - k * players
    assert view.pile_size == 0 and view.move_count == 0
    same = DubbEngine.new(seats(players), DubbOptions(), seed)
    assert same.to_stored() == game.to_stored()
    other = DubbEngine.new(seats(players), DubbOptions(), seed + 1)
    assert other.to_stored()["hands"] != game.to_stored()["hands"]


def test_d2_and_d4_a_new_game_starts_with_the_lowest_hand() -> None:
    for seed in range(50):
        game = DubbEngine.new(seats(4), DubbOptions(jokers=True), seed)
        keys = []
        for seat in game.seats:
            ranks = sorted(c & 15 for c in game.hand(seat.player_id) if not is_joker(c))
            keys.append((0 if ranks else 1, ranks))
        starter = min(range(4), key=lambda i: (keys[i], i))
        assert game.to_move == game.seats[starter].player_id
        assert game.public_view().first_move


# ---------------------------------------------------------------- options


def test_option_two_decks_deals_from_104_distinct_cards() -> None:
    game = DubbEngine.new(seats(4), DubbOptions(decks=2), 7)
    stored = game.to_stored()
    everything = [c for h in stored["hands"] for c in h] + stored["draw_pile"]
    assert len(everything) == len(set(everything)) == 104
    assert {c >> 6 for c in everything} == {0, 1}
    assert game.check_invariants() == []


def test_option_two_decks_allow_eight_of_a_rank_in_one_play() -> None:
    sevens = " ".join(f"7{s}" for s in "shdc")
    game = DubbEngine.from_position(
        seats(2),
        hands=[[card(t, d) for d in (0, 1) for t in sevens.split()], [card("3c")]],
        draw_pile=[card("2c")],
        to_move=A,
        options=DubbOptions(decks=2),
    )
    assert play_of(7, 8) in game.legal_moves(A)
    game.apply(A, play_of(7, 8))
    assert game.public_view().top is not None
    assert len(game.public_view().streak[0].cards) == 8


def test_option_jokers_add_two_per_pack() -> None:
    for decks, expected in ((1, 54), (2, 108)):
        game = DubbEngine.new(seats(3), DubbOptions(decks=decks, jokers=True), 3)  # type: ignore[arg-type]
        stored = game.to_stored()
        everything = [c for h in stored["hands"] for c in h] + stored["draw_pile"]
        assert len(everything) == expected
        assert sum(1 for c in everything if c & 15 == JOKER_RANK) == 2 * decks
    plain = DubbEngine.new(seats(3), DubbOptions(), 3).to_stored()
    assert not any(c & 15 == JOKER_RANK for h in plain["hands"] for c in h)


LIMIT = DubbOptions(hand_limit=True)


def test_option_hand_limit_deals_at_most_seven() -> None:
    game = DubbEngine.new(seats(2), LIMIT, 5)
    assert [game.hand_size(s.player_id) for s in game.seats] == [7, 7]


def test_option_hand_limit_blocks_drawing_at_seven_and_allows_passing() -> None:
    game = position(2, ["2c 3c 4c 5c 6c 7c 8c", "2d"], pile=[(B, "9d")], draw="2h",
                    to_move=A, options=LIMIT)
    assert game.legal_moves(A) == [PASS]
    game.apply(A, PASS)
    six = position(2, ["2c 3c 4c 5c 6c 7c", "2d"], pile=[(B, "9d")], draw="2h",
                   to_move=A, options=LIMIT)
    assert six.legal_moves(A) == [DRAW]


def test_option_hand_limit_pick_ups_stop_at_seven() -> None:
    game = position(
        3, ["2c 3c 4c 5c 6c 7c", "2d 3d 4d", "9s 9h jk 3h"], pile=[(A, "9c"), (B, "9d")],
        draw="2s 3s 4s 5s 6s", to_move=C, options=DubbOptions(hand_limit=True, jokers=True),
    )
    events = game.apply(C, play_of(9, 2, 1))
    # round-robin from the seat after C: A takes one (now 7) and stops; B takes three
    assert events[1] == Dubbed(C, 9, 3, (
        DubPickup(A, 1, 2, (card("6s"),)),
        DubPickup(B, 3, 0, (card("5s"), card("4s"), card("3s"))),
    ))
    assert game.hand_size(A) == HAND_LIMIT


def test_option_cards_each_sets_the_deal() -> None:
    game = DubbEngine.new(seats(2), DubbOptions(cards_each=10), 11)
    assert [game.hand_size(s.player_id) for s in game.seats] == [10, 10]
    assert game.cards_each == 10
    assert game.public_view().draw_pile_size == 32
    with pytest.raises(RuleError) as info:
        DubbEngine.new(seats(4), DubbOptions(cards_each=10), 11)
    assert info.value.ruling == "D2"


def test_option_summary_names_every_option() -> None:
    text = DubbOptions(decks=2, jokers=True, hand_limit=True, last_player_draw_play=True,
                       cards_each=5).summary()
    assert text == "2 packs, jokers, hand limit 7, last-player draw-and-play, 5 cards each"
