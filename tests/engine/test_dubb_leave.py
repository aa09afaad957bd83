"""Leaving and turn timeouts: not in the rules article; the engine's decisions, tested."""

from __future__ import annotations

import pytest

from bot.gamekit.contract import RuleError
from bot.games.dubb import (
    Draw,
    Drew,
    Dubbed,
    DubPickup,
    GameOver,
    Leave,
    Passed,
    PileTurned,
    Played,
    PlayerLeft,
    PlayerOut,
    TimedOut,
    Timeout,
    play_of,
)
from tests.engine.conftest import A, B, C, D, card, position


def test_leave_by_the_player_to_move_returns_the_hand_and_passes_the_turn() -> None:
    game = position(3, ["2c 3c", "4d", "5h"], draw="6s", to_move=A)
    events = game.apply(A, Leave())
    assert events == [PlayerLeft(A, 3, 2, False)]
    assert game.to_move == B
    view = game.public_view()
    assert view.draw_pile_size == 3
    assert (view.players[0].status, view.players[0].place, view.players[0].hand_size) == (
        "left", 3, 0
    )
    game.apply(B, play_of(4, 1))  # B pending
    events = game.apply(C, play_of(5, 1))  # breaks B's streak: B out, C is left alone
    # the leaver, not C, is the game's loser
    assert events[-2:] == [PlayerOut(B, 1), GameOver((B, C, A), A, "normal", (A,))]
    assert game.result is not None and game.result.leavers == (A,)


def test_leave_by_another_player_keeps_the_turn() -> None:
    game = position(3, ["2c 3c", "4d", "5h"], draw="6s", to_move=A)
    game.apply(B, Leave())
    assert game.to_move == A
    assert game.legal_moves(B) == []


def test_leave_with_one_player_left_ends_the_game_and_the_leaver_loses() -> None:
    game = position(2, ["2c 3c", "4d"], draw="6s", to_move=A)
    events = game.apply(B, Leave())
    assert events == [PlayerLeft(B, 2, 1, False), GameOver((A, B), B, "left", (B,))]
    assert game.is_over and game.to_move is None
    assert game.result is not None and game.result.loser == B


def test_a_leavers_plays_stay_on_the_pile_but_cannot_be_dubbed() -> None:
    game = position(3, ["", "5h 9c", "3h"], pile=[(C, "5c"), (A, "5d")], draw="2s 2d",
                    to_move=B)
    game.apply(A, Leave())
    events = game.apply(B, play_of(5, 1))
    assert events[1] == Dubbed(B, 5, 1, (DubPickup(C, 1, 0, (card("2d"),)),))
    assert [p.player for p in game.public_view().streak] == [C, A, B]


def test_a_pending_leavers_top_play_is_turned_when_their_seat_comes_up() -> None:
    game = position(3, ["", "3d 4d", "3h 4h"], pile=[(A, "5c")], draw="2c 2d", to_move=B)
    assert game.apply(A, Leave()) == [PlayerLeft(A, 3, 0, False)]
    game.apply(B, Draw())
    events = game.apply(C, Draw())
    assert events == [Drew(C, 1, (card("2c"),)), PileTurned(A, "D10", 1)]
    assert game.to_move == B
    assert game.top_rank == 0


def test_leaving_when_only_pending_players_would_remain_still_ends() -> None:
    # A and C are pending; B, the only player holding cards, leaves
    game = position(3, ["", "3d", ""], pile=[(A, "5c"), (C, "5d")], draw="2c", to_move=B)
    events = game.apply(B, Leave())
    # C's seat comes up with C's play on top: A goes out first, leaving C alone
    assert events == [
        PlayerLeft(B, 3, 1, False), PileTurned(C, "D10", 2), PlayerOut(A, 1),
        GameOver((A, C, B), B, "normal", (B,)),
    ]


def test_the_starter_leaving_before_the_first_move_gives_an_ordinary_turn() -> None:
    game = position(3, ["2c 9c", "4d 5d", "6h 7h"], draw="8s", first_move=True, to_move=None)
    assert game.to_move == A
    game.apply(A, Leave())
    assert game.to_move == B
    assert not game.public_view().first_move
    assert Draw() in game.legal_moves(B)


def test_several_leavers_rank_last_first_leaver_lowest() -> None:
    game = position(4, ["2c", "3c", "4c 5c", "6c"], draw="8s", to_move=C)
    game.apply(A, Leave())
    game.apply(B, Leave())
    events = game.apply(D, Leave())
    assert events[-1] == GameOver((C, D, B, A), A, "left", (A, B, D))


def test_who_may_not_leave() -> None:
    game = position(3, ["", "8h 9c", "3h"], pile=[(A, "5c")], draw="2c", to_move=B)
    game.apply(B, play_of(8, 1))  # A goes out
    before = game.to_stored()
    for player, ruling in ((A, "D10"), (999, "D1")):
        with pytest.raises(RuleError) as info:
            game.apply(player, Leave())
        assert info.value.ruling == ruling
    assert game.to_stored() == before
    game.apply(C, Leave())
    with pytest.raises(RuleError) as info:
        game.apply(B, Leave())
    assert info.value.ruling == "D11"


# ---------------------------------------------------------------- timeouts


def test_timeout_draws_for_the_player() -> None:
    game = position(2, ["2c", "9d"], draw="3c 4c", to_move=A)
    events = game.apply(A, Timeout())
    assert events == [TimedOut(A, "draw", 1), Drew(A, 1, (card("4c"),), True)]
    assert game.to_move == B


def test_timeout_passes_when_drawing_is_not_allowed() -> None:
    game = position(2, ["2c 9s", "9d"], pile=[(B, "5h")], to_move=A)
    events = game.apply(A, Timeout())
    assert events[:2] == [TimedOut(A, "pass", 1), Passed(A, True)]


def test_timeout_on_the_first_move_plays_one_card_of_the_lowest_rank() -> None:
    game = position(2, ["4s 4h 9d", "5c 6d 7h"], draw="2c", first_move=True, to_move=None)
    events = game.apply(A, Timeout())
    assert events == [TimedOut(A, "play", 1), Played(A, 4, (card("4s"),), True)]
    assert game.hand(A) == (card("4h"), card("9d"))


def test_timeout_only_for_the_player_to_move() -> None:
    game = position(2, ["2c", "9d"], draw="3c 4c", to_move=A)
    with pytest.raises(RuleError) as info:
        game.apply(B, Timeout())
    assert info.value.ruling == "D5"


def _round(game, timeout_a: bool) -> list:  # type: ignore[no-untyped-def]
    events = game.apply(A, Timeout() if timeout_a else Draw())
    game.apply(B, Draw())
    game.apply(C, Draw())
    return events


def test_the_third_timeout_in_a_row_moves_and_then_removes_the_player() -> None:
    game = position(3, ["2c", "3c", "4c"], draw="5c 6c 7c 8c 9c Tc Jc Qc Kc", to_move=A)
    _round(game, True)
    _round(game, True)
    events = game.apply(A, Timeout())
    assert events == [
        TimedOut(A, "draw", 3), Drew(A, 1, (card("7c"),), True), PlayerLeft(A, 3, 4, True)
    ]
    assert game.to_move == B


def test_an_own_move_resets_the_timeout_count() -> None:
    game = position(3, ["2c", "3c", "4c"], draw="5d 6d 5c 6c 7c 8c 9c Tc Jc Qc Kc", to_move=A)
    _round(game, True)
    _round(game, True)
    _round(game, False)
    events = game.apply(A, Timeout())
    assert events[0] == TimedOut(A, "draw", 1)
