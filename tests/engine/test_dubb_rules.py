"""One test (or a few) per ruling D3–D14, each from a position built directly."""

from __future__ import annotations

import pytest

from bot.cards import ACE
from bot.gamekit.contract import RuleError
from bot.games.dubb import (
    MOVE_CAP,
    Draw,
    DrawPlayed,
    Drew,
    Dubbed,
    DubbOptions,
    DubPickup,
    GameOver,
    Pass,
    Passed,
    PileTurned,
    Play,
    Played,
    PlayerOut,
    PlayerPending,
    PlayerRejoined,
    event_to_dict,
    play_of,
    public_form,
)
from bot.games.dubb.moves import DRAW, DRAW_PLAY, PASS
from tests.engine.conftest import A, B, C, D, card, cards, position

JOKERS = DubbOptions(jokers=True)


def assert_rejected(game, player: int, move, ruling: str) -> RuleError:  # type: ignore[no-untyped-def]
    before = game.to_stored()
    with pytest.raises(RuleError) as info:
        game.apply(player, move)
    assert info.value.ruling == ruling
    assert game.to_stored() == before, "a refused move changed the game"
    return info.value


# ---------------------------------------------------------------- D3 ranks


def test_d3_aces_are_high_and_suits_never_matter() -> None:
    game = position(2, ["As 2c", "9d"], pile=[(B, "Kh")], to_move=A)
    assert_rejected(game, A, play_of(2, 1), "D5")
    events = game.apply(A, play_of(ACE, 1))
    assert events[0] == Played(A, ACE, (card("As"),))


def test_d3_same_rank_of_another_suit_dubs() -> None:
    game = position(2, ["7s 2c", "9d"], pile=[(B, "7h")], draw="3c", to_move=A)
    events = game.apply(A, play_of(7, 1))
    assert Dubbed(A, 7, 1, (DubPickup(B, 1, 0, (card("3c"),)),)) in events


# ---------------------------------------------------------------- D4 who starts


def test_d4_lowest_sorted_ranks_start() -> None:
    game = position(3, ["3s 5h 9d", "3c 4d Kh", "3d 5c 8s"], first_move=True, to_move=None)
    assert game.to_move == B


def test_d4_a_prefix_is_lower_and_jokers_are_left_out() -> None:
    game = position(2, ["2s 3h 4d", "2c 3d jk"], first_move=True, to_move=None, options=JOKERS)
    assert game.to_move == B


def test_d4_a_hand_of_only_jokers_ranks_after_every_other() -> None:
    game = position(2, ["jk jk2", "Ac Ad"], first_move=True, to_move=None, options=JOKERS)
    assert game.to_move == B


def test_d4_exact_tie_goes_to_the_earlier_seat() -> None:
    game = position(3, ["9s 5h", "5c 9d", "5d 9c"], first_move=True, to_move=None)
    assert game.to_move == A


def test_d4_first_move_is_a_play_of_the_lowest_rank_only() -> None:
    game = position(
        2, ["4s 4h 9d jk", "5c 6d 7h"], draw="2c", first_move=True, to_move=None,
        options=DubbOptions(jokers=True),
    )
    assert game.to_move == A
    assert game.legal_moves(A) == [play_of(4, 1), play_of(4, 2)]
    assert_rejected(game, A, DRAW, "D4")
    assert_rejected(game, A, PASS, "D4")
    assert_rejected(game, A, play_of(9, 1), "D4")
    assert_rejected(game, A, play_of(4, 1, 1), "D9")
    game.apply(A, play_of(4, 2))
    assert game.public_view().first_move is False
    assert DRAW in game.legal_moves(B)


# ---------------------------------------------------------------- D5 a turn


def test_d5_draw_takes_the_top_card_and_passes_the_turn() -> None:
    game = position(2, ["2c", "9d"], draw="3c 4c", to_move=A)
    events = game.apply(A, Draw())
    assert events == [Drew(A, 1, (card("4c"),))]
    assert game.hand(A) == (card("2c"), card("4c"))
    assert game.to_move == B
    assert game.public_view().draw_pile_size == 1


def test_d5_you_can_only_pass_when_you_cannot_draw() -> None:
    game = position(2, ["2c", "9d"], draw="3c", to_move=A)
    err = assert_rejected(game, A, Pass(), "D5")
    assert "only pass when you cannot draw" in str(err)
    assert PASS not in game.legal_moves(A)


def test_d5_no_draw_from_an_empty_draw_pile_and_pass_even_with_a_play() -> None:
    game = position(2, ["2c 9s", "9d"], pile=[(B, "5h")], to_move=A)
    assert_rejected(game, A, Draw(), "D5")
    assert game.legal_moves(A) == [PASS, play_of(9, 1)]
    # B's own play is on top as B's turn begins (D6)
    assert game.apply(A, Pass()) == [Passed(A), PileTurned(B, "D6", 1)]
    assert game.to_move == B


def test_d5_a_play_must_be_of_the_top_rank_or_higher() -> None:
    game = position(3, ["7c 8c 9c", "3d", "4d"], pile=[(C, "8h")], draw="2s", to_move=A)
    assert_rejected(game, A, play_of(7, 1), "D5")
    assert [m for m in game.legal_moves(A) if isinstance(m, Play)] == [
        play_of(8, 1), play_of(9, 1)
    ]
    game.apply(A, play_of(9, 1))
    assert game.top_rank == 9


def test_d5_any_rank_on_an_empty_pile() -> None:
    game = position(2, ["2c Kc", "3d"], draw="2s", to_move=A)
    assert game.legal_moves(A) == [DRAW, play_of(2, 1), play_of(13, 1)]
    game.apply(A, play_of(2, 1))
    assert game.top_rank == 2


def test_d5_legal_plays_list_every_rank_natural_and_joker_count() -> None:
    game = position(
        2, ["7h 7s 9c jk", "3d"], pile=[(B, "7d")], draw="2s", to_move=A,
        options=DubbOptions(jokers=True),
    )
    assert game.legal_moves(A) == [
        DRAW,
        play_of(7, 1, 0), play_of(7, 1, 1), play_of(7, 2, 0), play_of(7, 2, 1),
        play_of(9, 1, 0), play_of(9, 1, 1),
        play_of(7, 0, 1),
    ]


def test_d5_only_the_player_to_move_may_move() -> None:
    game = position(2, ["2c", "9d"], draw="3c", to_move=A)
    assert game.legal_moves(B) == []
    assert_rejected(game, B, Draw(), "D5")


def test_d5_named_cards_must_be_held_and_match_the_play() -> None:
    game = position(2, ["7h 7s 9c", "3d"], draw="2s", to_move=A)
    assert_rejected(game, A, play_of(7, 3), "D5")
    assert_rejected(game, A, Play(7, 2, 0, (card("7h"), card("7d"))), "D5")
    assert_rejected(game, A, Play(7, 2, 0, (card("7h"), card("9c"))), "D5")
    assert_rejected(game, A, Play(7, 2, 0, (card("7h"), card("7h"))), "D5")
    assert_rejected(game, A, Play(7, 1, 0, (card("7h"), card("7s"))), "D5")
    events = game.apply(A, Play(7, 1, 0, (card("7s"),)))
    assert events[0] == Played(A, 7, (card("7s"),))
    assert game.hand(A) == (card("7h"), card("9c"))


def test_d5_engine_picks_the_lowest_codes_when_cards_are_not_named() -> None:
    game = position(2, ["7c 7h 7s", "3d"], draw="2s", to_move=A)
    events = game.apply(A, play_of(7, 2))
    assert events[0] == Played(A, 7, (card("7s"), card("7h")))


def test_d5_typed_text_becomes_a_play() -> None:
    game = position(2, ["7c 7h 7s 9d", "3d"], draw="2s", to_move=A)
    assert game.play_from_text(A, "7h 7") == Play(7, 2, 0, (card("7h"), card("7s")))
    with pytest.raises(RuleError) as info:
        game.play_from_text(A, "7h 9d")
    assert info.value.ruling == "D5"


# ---------------------------------------------------------------- D6 own card on top


def test_d6_own_play_on_top_turns_the_pile_and_the_turn_goes_on() -> None:
    game = position(2, ["9c 3c", "4d"], draw="2s 2h", to_move=A)
    game.apply(A, play_of(9, 1))
    events = game.apply(B, Draw())
    assert events == [Drew(B, 1, (card("2h"),)), PileTurned(A, "D6", 1)]
    assert game.to_move == A
    assert game.top_rank == 0
    view = game.public_view()
    assert view.pile_size == 0 and view.draw_pile_size == 2
    assert game.legal_moves(A) == [DRAW, play_of(3, 1)]


def test_d6_turning_puts_the_streaks_pending_players_out() -> None:
    # A went pending on 5♣, B dubbed A with the draw pile empty, so A picked up nothing
    game = position(3, ["", "9c", "4d"], pile=[(A, "5c"), (B, "5d")], to_move=C)
    events = game.apply(C, Pass())
    assert events == [Passed(C), PileTurned(B, "D6", 2), PlayerOut(A, 1)]
    assert game.to_move == B


# ---------------------------------------------------------------- D7 aces


def test_d7_aces_turn_the_pile_at_once_and_the_player_goes_again() -> None:
    game = position(
        2, ["Ac Ah jk 4c", "3d"], pile=[(B, "9d")], draw="2s", to_move=A,
        options=DubbOptions(jokers=True),
    )
    events = game.apply(A, play_of(ACE, 2, 1))
    assert events == [
        Played(A, ACE, (card("Ah"), card("Ac"), card("jk"))),
        PileTurned(A, "D7", 4),
    ]
    assert game.to_move == A
    assert game.top_rank == 0
    assert game.public_view().draw_pile_size == 5


def test_d7_aces_cannot_be_dubbed() -> None:
    game = position(2, ["Ac 4c", "Ad 3d"], draw="2s", to_move=A)
    game.apply(A, play_of(ACE, 1))
    game.apply(A, play_of(4, 1))
    assert play_of(ACE, 1) in game.legal_moves(B)
    events = game.apply(B, play_of(ACE, 1))
    assert not any(isinstance(e, Dubbed) for e in events)


# ---------------------------------------------------------------- D8 streak and dubbing


def test_d8_two_streak_players_share_a_short_draw_pile_round_robin() -> None:
    game = position(
        4, ["3s", "4s", "7h 7s 3c", "5s"], pile=[(A, "7c"), (B, "7d")], draw="2c 2d 2h",
        to_move=C,
    )
    events = game.apply(C, play_of(7, 2))
    # dealt one at a time from the seat after C: (D not dubbed) A, B, A, then the pile is empty
    assert events == [
        Played(C, 7, (card("7s"), card("7h"))),
        Dubbed(C, 7, 2, (
            DubPickup(A, 2, 0, (card("2h"), card("2c"))),
            DubPickup(B, 1, 1, (card("2d"),)),
        )),
    ]
    assert game.hand(A) == (card("2h"), card("2c"), card("3s"))
    assert game.hand(B) == (card("2d"), card("4s"))
    assert game.to_move == D
    assert [p.player for p in game.public_view().streak] == [A, B, C]


def test_d8_each_player_picks_up_once_per_dubbing_play() -> None:
    game = position(
        3, ["3s", "4s", "5s 9c"], pile=[(A, "5c"), (B, "5d"), (A, "5h")], draw="2c 2d 2h",
        to_move=C,
    )
    events = game.apply(C, play_of(5, 1))
    dub = events[1]
    assert isinstance(dub, Dubbed)
    assert [(v.player, v.picked_up) for v in dub.victims] == [(A, 1), (B, 1)]


def test_d8_you_cannot_dub_yourself() -> None:
    game = position(2, ["5h 9c", "3d"], pile=[(A, "5c"), (B, "5d")], draw="2c 2d", to_move=A)
    events = game.apply(A, play_of(5, 1))
    assert events[1] == Dubbed(A, 5, 1, (DubPickup(B, 1, 0, (card("2d"),)),))
    assert game.hand_size(A) == 1


def test_d8_an_empty_draw_pile_forgives_every_pick_up() -> None:
    game = position(3, ["3s", "4s", "5s 9c"], pile=[(A, "5c")], to_move=C)
    events = game.apply(C, play_of(5, 1))
    assert events[1] == Dubbed(C, 5, 1, (DubPickup(A, 0, 1, ()),))
    assert game.hand_size(A) == 1


def test_d8_a_play_of_a_higher_rank_starts_a_new_streak() -> None:
    game = position(3, ["3s", "6s", "5s 9c"], pile=[(A, "5c")], draw="2c", to_move=B)
    events = game.apply(B, play_of(6, 1))
    assert events == [Played(B, 6, (card("6s"),)), PlayerPending(B)]
    assert [p.player for p in game.public_view().streak] == [B]


# ---------------------------------------------------------------- D9 jokers


def test_d9_jokers_alone_on_an_empty_pile_are_rejected() -> None:
    game = position(2, ["jk 7c", "3d"], draw="2s", to_move=A, options=JOKERS)
    assert_rejected(game, A, play_of(7, 0, 1), "D9")
    assert_rejected(game, A, play_of(7, 1, 1), "D9")
    assert game.legal_moves(A) == [DRAW, play_of(7, 1)]
    with pytest.raises(RuleError) as info:
        game.play_for_cards(A, [card("jk")])
    assert info.value.ruling == "D9"


def test_d9_a_hand_of_only_jokers_cannot_play_on_an_empty_pile() -> None:
    game = position(2, ["jk jk2", "3d"], to_move=A, options=JOKERS)
    assert game.legal_moves(A) == [PASS]


def test_d9_jokers_alone_take_the_top_rank_and_dub() -> None:
    game = position(2, ["jk jk2 4c", "3d"], pile=[(B, "9d")], draw="2s 2h", to_move=A,
                    options=JOKERS)
    assert_rejected(game, A, play_of(10, 0, 1), "D9")
    assert game.play_for_cards(A, [card("jk"), card("jk2")]) == Play(
        9, 0, 2, (card("jk"), card("jk2"))
    )
    events = game.apply(A, play_of(9, 0, 2))
    assert events[0] == Played(A, 9, (card("jk"), card("jk2")))
    assert events[1] == Dubbed(A, 9, 2, (DubPickup(B, 2, 0, (card("2h"), card("2s"))),))


def test_d9_jokers_with_naturals_take_their_rank_and_count_in_k() -> None:
    game = position(2, ["9h jk 4c", "3d"], pile=[(B, "9d")], draw="2s 2h", to_move=A,
                    options=JOKERS)
    events = game.apply(A, play_of(9, 1, 1))
    assert events[1] == Dubbed(A, 9, 2, (DubPickup(B, 2, 0, (card("2h"), card("2s"))),))


def test_d9_jokers_with_higher_naturals_break_the_streak() -> None:
    game = position(2, ["Jh jk 4c", "3d"], pile=[(B, "9d")], draw="2s", to_move=A,
                    options=JOKERS)
    events = game.apply(A, play_of(11, 1, 1))
    assert events == [Played(A, 11, (card("Jh"), card("jk")))]
    assert game.top_rank == 11


# ---------------------------------------------------------------- D10 out, and pending


def test_d10_a_player_who_empties_their_hand_is_pending_and_skipped() -> None:
    game = position(3, ["5c", "5d 4d", "3h 4h"], pile=[(C, "2s")], to_move=A)
    events = game.apply(A, play_of(5, 1))
    assert events == [Played(A, 5, (card("5c"),)), PlayerPending(A)]
    assert game.public_view().players[0].status == "pending"
    game.apply(B, play_of(5, 1))  # dubs A, but the draw pile is empty: A stays pending
    assert game.public_view().players[0].status == "pending"
    events = game.apply(C, Pass())
    # A's seat is skipped; B's own play is on top, so B turns the pile and A goes out (D6)
    assert events == [Passed(C), PileTurned(B, "D6", 3), PlayerOut(A, 1)]
    assert game.to_move == B


def test_d10_a_pending_players_own_card_turns_the_pile_and_they_go_out() -> None:
    game = position(3, ["", "3d 4d", "3h 4h"], pile=[(A, "5c")], draw="2c 2d", to_move=B)
    game.apply(B, Draw())
    events = game.apply(C, Draw())
    assert events == [Drew(C, 1, (card("2c"),)), PileTurned(A, "D10", 1), PlayerOut(A, 1)]
    assert game.to_move == B
    assert game.top_rank == 0
    view = game.public_view()
    assert (view.players[0].status, view.players[0].place) == ("out", 1)


def test_d10_a_pending_player_dubbed_back_into_play() -> None:
    game = position(3, ["", "5h 9c", "3h 4h"], pile=[(A, "5c")], draw="2c 2d", to_move=B)
    events = game.apply(B, play_of(5, 1))
    assert events == [
        Played(B, 5, (card("5h"),)),
        Dubbed(B, 5, 1, (DubPickup(A, 1, 0, (card("2d"),)),)),
        PlayerRejoined(A, 1),
    ]
    assert game.to_move == C
    game.apply(C, Draw())
    assert game.to_move == A
    assert game.hand(A) == (card("2d"),)


def test_d10_a_dubbed_pending_player_who_picks_up_nothing_stays_pending() -> None:
    game = position(3, ["", "5h 9c", "3h 4h"], pile=[(A, "5c")], to_move=B)
    events = game.apply(B, play_of(5, 1))
    assert events[-1] == Dubbed(B, 5, 1, (DubPickup(A, 0, 1, ()),))
    assert game.public_view().players[0].status == "pending"


def test_d10_other_pending_players_in_the_streak_go_out_first() -> None:
    # A went pending on 5♣; B dubbed A with B's last card and an empty draw pile
    game = position(4, ["", "", "3c", "4c"], pile=[(A, "5c"), (B, "5d")], to_move=C)
    game.apply(C, Pass())
    events = game.apply(D, Pass())
    assert events == [Passed(D), PileTurned(B, "D10", 2), PlayerOut(A, 1), PlayerOut(B, 2)]
    assert game.to_move == C


def test_d10_a_higher_play_puts_the_pending_player_out() -> None:
    game = position(3, ["", "8h 9c", "3h"], pile=[(A, "5c")], draw="2c", to_move=B)
    events = game.apply(B, play_of(8, 1))
    assert events == [Played(B, 8, (card("8h"),)), PlayerOut(A, 1)]


# ---------------------------------------------------------------- D11 the end


def test_d11_ace_with_the_last_card_puts_the_mover_out_after_the_broken_streak() -> None:
    game = position(3, ["", "Ah", "3c"], pile=[(A, "5c")], draw="2c", to_move=B)
    events = game.apply(B, play_of(ACE, 1))
    assert events == [
        Played(B, ACE, (card("Ah"),)),
        PileTurned(B, "D7", 2),
        PlayerOut(A, 1),
        PlayerOut(B, 2),
        GameOver((A, B, C), C, "normal", ()),
    ]
    assert game.is_over and game.to_move is None
    assert game.result is not None and game.result.loser == C


def test_d11_breaking_the_last_streak_with_your_last_card_ace_loses() -> None:
    game = position(2, ["", "Ah"], pile=[(A, "5c")], draw="2c", to_move=B)
    events = game.apply(B, play_of(ACE, 1))
    assert events[-2:] == [PlayerOut(A, 1), GameOver((A, B), B, "normal", ())]


def test_d11_breaking_the_last_streak_while_holding_cards_loses() -> None:
    game = position(2, ["", "8h 9c"], pile=[(A, "5c")], draw="2c", to_move=B)
    events = game.apply(B, play_of(8, 1))
    assert events == [
        Played(B, 8, (card("8h"),)), PlayerOut(A, 1), GameOver((A, B), B, "normal", ())
    ]


def test_d11_a_mover_whose_last_cards_stay_on_top_is_pending_even_when_nobody_holds_cards() -> None:
    game = position(2, ["", "5h"], pile=[(A, "5c")], to_move=B)
    events = game.apply(B, play_of(5, 1))
    # B is pending; B's seat then turns the pile (D10): A goes out first, leaving B alone
    assert events == [
        Played(B, 5, (card("5h"),)),
        Dubbed(B, 5, 1, (DubPickup(A, 0, 1, ()),)),
        PlayerPending(B),
        PileTurned(B, "D10", 2),
        PlayerOut(A, 1),
        GameOver((A, B), B, "normal", ()),
    ]


def test_d11_dubbing_with_the_last_card_keeps_the_game_going_when_the_victim_picks_up() -> None:
    game = position(2, ["", "5h"], pile=[(A, "5c")], draw="2c", to_move=B)
    events = game.apply(B, play_of(5, 1))
    assert events[-2:] == [PlayerRejoined(A, 1), PlayerPending(B)]
    assert game.to_move == A


def test_d11_ranking_follows_the_order_players_went_out() -> None:
    game = position(3, ["4c", "6c", "2h 3h"], pile=[(C, "2c")], draw="2s", to_move=A)
    game.apply(A, play_of(4, 1))  # A pending
    game.apply(B, play_of(6, 1))  # A out (1st), B pending
    events = game.apply(C, Draw())
    # C drew; A's seat is out, B's seat owns the top: the pile turns and B goes out, C loses
    assert events[-3:] == [
        PileTurned(B, "D10", 3), PlayerOut(B, 2), GameOver((A, B, C), C, "normal", ())
    ]


# ---------------------------------------------------------------- D12 draw-and-play


D12 = DubbOptions(last_player_draw_play=True, jokers=True)


def test_d12_offered_only_to_the_last_holder_with_the_option_on() -> None:
    game = position(2, ["", "3c"], pile=[(A, "5c")], draw="9d", to_move=B, options=D12)
    assert game.legal_moves(B) == [DRAW, DRAW_PLAY]
    off = position(2, ["", "3c"], pile=[(A, "5c")], draw="9d", to_move=B)
    assert DRAW_PLAY not in off.legal_moves(B)
    assert_rejected(off, B, DRAW_PLAY, "D12")
    two_hold = position(3, ["", "3c", "4c"], pile=[(A, "5c")], draw="9d", to_move=B, options=D12)
    assert_rejected(two_hold, B, DRAW_PLAY, "D12")
    empty = position(3, ["", "3c", ""], pile=[(A, "5c"), (C, "5d")], to_move=B, options=D12)
    assert_rejected(empty, B, DRAW_PLAY, "D12")


def test_d12_a_legal_card_is_played_and_can_dub() -> None:
    game = position(3, ["", "3c", ""], pile=[(A, "5c")], out=[C], draw="2h 5d", to_move=B,
                    options=D12)
    events = game.apply(B, DRAW_PLAY)
    assert events[:4] == [
        DrawPlayed(B, card("5d"), True),
        Played(B, 5, (card("5d"),)),
        Dubbed(B, 5, 1, (DubPickup(A, 1, 0, (card("2h"),)),)),
        PlayerRejoined(A, 1),
    ]
    assert game.hand(B) == (card("3c"),)
    assert game.to_move == A


def test_d12_a_card_that_cannot_be_played_goes_into_the_hand() -> None:
    game = position(2, ["", "3c"], pile=[(A, "5c")], draw="2h 4d", to_move=B, options=D12)
    events = game.apply(B, DRAW_PLAY)
    assert events[0] == DrawPlayed(B, card("4d"), False)
    assert game.hand(B) == (card("3c"), card("4d"))
    assert public_form(event_to_dict(events[0]))["card"] == card("4d")


def test_d12_a_turned_up_joker_takes_the_top_rank() -> None:
    game = position(3, ["", "3c", ""], pile=[(A, "5c")], out=[C], draw="2h jk", to_move=B,
                    options=D12)
    events = game.apply(B, DRAW_PLAY)
    assert events[1] == Played(B, 5, (card("jk"),))
    assert isinstance(events[2], Dubbed)


def test_d12_a_turned_up_ace_turns_the_pile() -> None:
    game = position(3, ["", "3c", ""], pile=[(A, "5c")], out=[C], draw="2h Ad", to_move=B,
                    options=D12)
    events = game.apply(B, DRAW_PLAY)
    assert events[:4] == [
        DrawPlayed(B, card("Ad"), True), Played(B, ACE, (card("Ad"),)),
        PileTurned(B, "D7", 2), PlayerOut(A, 2),
    ]
    assert isinstance(events[4], GameOver) and events[4].loser == B


def test_d12_not_allowed_at_the_hand_limit() -> None:
    options = DubbOptions(last_player_draw_play=True, hand_limit=True)
    game = position(2, ["", "3c 3d 3h 3s 4c 4d 4h"], pile=[(A, "5c")], draw="2h", to_move=B,
                    options=options)
    assert game.legal_moves(B) == [PASS]
    assert_rejected(game, B, DRAW_PLAY, "D12")


# ---------------------------------------------------------------- D13 termination


def test_d13_the_cap_ends_the_game_and_the_most_cards_lose() -> None:
    game = position(
        4, ["2c 3c 4c", "6c 7c 8c 9c", "", ""], pile=[(C, "5c")], out=[D], draw="Kd",
        to_move=A, move_count=MOVE_CAP - 1,
    )
    events = game.apply(A, Draw())
    # B is to move: B and A hold 4 each, B comes first in turn order from B and loses;
    # the others still in rank by fewest cards: C (pending, 0) then A
    assert events == [Drew(A, 1, (card("Kd"),)), GameOver((D, C, A, B), B, "cap", ())]
    assert game.result is not None and game.result.reason == "cap"
    assert game.move_count == MOVE_CAP


def test_d13_cap_ties_follow_turn_order_from_the_player_to_move() -> None:
    game = position(3, ["2c 3c", "6c 7c", "8c 9c"], pile=[(A, "Qd")], to_move=B,
                    move_count=MOVE_CAP - 1)
    events = game.apply(B, Pass())
    assert events[-1] == GameOver((A, B, C), C, "cap", ())


def test_d13_no_cap_before_the_limit() -> None:
    game = position(2, ["2c", "9d"], draw="3c 4c", to_move=A, move_count=MOVE_CAP - 2)
    game.apply(A, Draw())
    assert not game.is_over


# ---------------------------------------------------------------- D14 public and private


def test_d14_public_view_shows_counts_streak_and_statuses_but_no_hands() -> None:
    game = position(3, ["", "5h 9c", "3h 4h"], pile=[(C, "3s"), (A, "5c")], draw="2c 2d",
                    to_move=B)
    view = game.public_view()
    assert [(p.player_id, p.hand_size, p.status) for p in view.players] == [
        (A, 0, "pending"), (B, 2, "to_move"), (C, 2, "waiting")
    ]
    assert view.top is not None and (view.top.player, view.top.cards) == (A, (card("5c"),))
    assert [p.player for p in view.streak] == [A]
    assert (view.pile_size, view.draw_pile_size, view.to_move) == (2, 2, B)
    data = view.to_dict()
    assert set(data["players"][0]) == {"player_id", "name", "hand_size", "status", "place"}
    private = game.private_view(B)
    assert private.hand == (card("5h"), card("9c"))
    assert private.legal_moves == (DRAW, play_of(5, 1), play_of(9, 1))
    assert game.private_view(C).legal_moves == ()


def test_d14_drawn_cards_are_private_in_the_public_event_form() -> None:
    game = position(2, ["2c", "9d"], draw="3c 4c", to_move=A)
    (drew,) = game.apply(A, Draw())
    assert event_to_dict(drew) == {
        "type": "drew", "player": A, "count": 1, "private_cards": [card("4c")], "auto": False
    }
    assert public_form(event_to_dict(drew)) == {
        "type": "drew", "player": A, "count": 1, "auto": False
    }


def test_d14_dub_pick_ups_are_private_in_the_public_event_form() -> None:
    game = position(2, ["5h 9c", "3d"], pile=[(B, "5d")], draw="2c 2d", to_move=A)
    events = game.apply(A, play_of(5, 1))
    public = public_form(event_to_dict(events[1]))
    assert public == {
        "type": "dubbed", "player": A, "rank": 5, "count": 1,
        "victims": [{"player": B, "picked_up": 1, "forgiven": 0}],
    }
    assert cards("2d") == event_to_dict(events[1])["victims"][0]["private_cards"]
