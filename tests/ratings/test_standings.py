"""How each game ranks a table for the ratings (its ``GameSpec.standings``), from stored events
alone, and which tables the host rates at all."""

from __future__ import annotations

from typing import Any

from bot.games.registry import GAMES
from bot.ratings.results import rated_places

TONK = GAMES["tonk"].standings
DUBB = GAMES["dubb"].standings


def hand(number: int, players: list[int], *payments: tuple[int, int, int]) -> dict[str, Any]:
    return {"type": "hand_ended", "hand_number": number,
            "players": [{"player": p, "total": 0, "hand": []} for p in players],
            "payments": [{"payer": a, "payee": b, "amount": n, "reason": "won"}
                         for a, b, n in payments]}


def test_a_tonk_session_ranks_by_net_chips_with_ties_together() -> None:
    events = [hand(1, [1, 2, 3], (2, 1, 1), (3, 1, 1)), hand(2, [1, 2, 3], (1, 2, 1))]
    assert TONK.places([1, 2, 3], events, False) == [[1], [2], [3]]
    # after one hand the two who paid the same tie (T12's payments decide, nothing else)
    assert TONK.places([1, 2, 3], events[:1], True) == [[1], [2, 3]]


def test_a_tonk_forfeit_or_removal_ranks_last_and_leaving_between_hands_does_not() -> None:
    events = [hand(1, [1, 2, 3, 4], (2, 1, 5), (3, 1, 5), (4, 1, 5)),
              {"type": "left", "player": 1, "forfeit": True},  # T11: during a hand
              hand(2, [1, 2, 3, 4], (1, 2, 1), (1, 3, 2), (1, 4, 1)),
              {"type": "timed_out", "player": 2, "in_a_row": 3},  # T11: removed
              {"type": "left", "player": 2, "forfeit": False},
              {"type": "left", "player": 4, "forfeit": False}]  # T1: between hands, free
    assert TONK.places([1, 2, 3, 4], events, True) == [[3], [4], [2], [1]]


def test_a_tonk_table_without_two_players_dealt_in_has_no_result() -> None:
    assert TONK.places([1, 2], [], False) is None


def test_a_dubb_game_ranks_as_it_ended_and_a_stopped_one_has_no_result() -> None:
    over = [{"type": "game_over", "ranking": [3, 1, 2], "loser": 2, "reason": "normal",
             "leavers": []}]
    assert DUBB.places([1, 2, 3], over, True) == [[3], [1], [2]]
    assert DUBB.places([1, 2, 3], over, False) is None


def test_the_host_rates_no_table_with_a_computer_or_an_unrated_flag() -> None:
    game = GAMES["dubb"]
    over = [{"type": "game_over", "ranking": [3, 1], "loser": 1, "reason": "normal",
             "leavers": []}]
    people = {"seats": [{"player_id": 1, "is_computer": False},
                        {"player_id": 3, "is_computer": False}]}
    assert rated_places(game, True, people, over, True) == ((3,), (1,))
    assert rated_places(game, False, people, over, True) is None
    computer = {"seats": [{"player_id": 1, "is_computer": False},
                          {"player_id": -1, "is_computer": True}]}
    assert rated_places(game, True, computer, [{**over[0], "ranking": [-1, 1]}], True) is None
