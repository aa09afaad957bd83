"""The arithmetic of events (``bot.table.tourney``, docs/events.md): table sizes, seating by
strength and Swiss-style, what a table scores, and the standings' tie-breaks."""

from __future__ import annotations

from bot.table.tourney import (
    Score,
    first_round,
    score_table,
    standings,
    swiss_round,
    table_sizes,
    withdrawn,
)


def test_tables_are_as_even_as_can_be_and_never_below_the_games_least() -> None:
    assert table_sizes(9, 3, 2) == [3, 3, 3]
    assert table_sizes(7, 3, 2) == [3, 2, 2]
    assert table_sizes(10, 4, 2) == [4, 3, 3]
    assert table_sizes(12, 6, 2) == [6, 6]
    # three players at tables of two: one table of three rather than one of one
    assert table_sizes(3, 2, 2) == [3]
    assert table_sizes(1, 3, 2) == []


def test_round_one_deals_the_strongest_back_and_forth_over_the_tables() -> None:
    players = list(range(1, 10))
    strengths = {p: float(p) for p in players}  # 9 is strongest
    tables = first_round(players, strengths, [3, 3, 3])
    assert tables == [[9, 4, 3], [8, 5, 2], [7, 6, 1]]
    sums = [sum(t) for t in tables]
    assert max(sums) - min(sums) <= 2
    # equal strengths: registration order, dealt the same way
    assert first_round(players, {}, [3, 3, 3]) == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]


def test_later_rounds_seat_similar_scores_together() -> None:
    players = list(range(1, 8))
    points = {7: 4, 6: 4, 5: 3, 1: 2}
    tables = swiss_round(players, points, {}, [3, 2, 2])
    assert tables == [[6, 7, 5], [1, 2], [3, 4]]
    # equal points: the stronger first
    assert swiss_round([1, 2, 3, 4], {}, {4: 1.0, 3: 0.5}, [2, 2]) == [[4, 3], [1, 2]]


def test_a_table_scores_seats_minus_place_and_leavers_and_no_shows_score_nothing() -> None:
    # D11: 5 went out first, 4 second, 6 was left with cards; 7 left the game (D12); 8 never
    # sat down (seated elsewhere, or the table could not seat them)
    scores = score_table([(5,), (4,), (7,), (6,)], [4, 5, 6, 7, 8], {7}, seats=5)
    assert [(s.player_id, s.place, s.points, s.left) for s in scores] == [
        (5, 1, 4, False), (4, 2, 3, False), (6, 3, 2, False),
        (7, 4, 0, True), (8, 4, 0, True)]
    # ties share the better place (T12: equal nets), the next place counts them both
    tied = score_table([(1, 2), (3,)], [1, 2, 3], set(), seats=3)
    assert [(s.player_id, s.place, s.points) for s in tied] == [(1, 1, 2), (2, 1, 2), (3, 3, 0)]


def test_standings_break_ties_by_buchholz_then_wins_and_share_what_stays_equal() -> None:
    round1 = [Score(1, 1, 2, False), Score(2, 2, 1, False), Score(3, 3, 0, False),
              Score(4, 1, 2, False), Score(5, 2, 1, False), Score(6, 3, 0, True)]
    round2 = [Score(1, 2, 1, False), Score(4, 1, 2, False), Score(2, 3, 0, False),
              Score(3, 1, 1, False), Score(5, 2, 0, False)]
    table = standings([1, 2, 3, 4, 5, 6], [round1[:3], round1[3:], round2[:3], round2[3:]])
    rows = [(s.player_id, s.rank, s.points, s.buchholz, s.wins, s.withdrawn) for s in table]
    # tables {1,2,3} {4,5,6} {1,4,2} {3,5}; points 1:3 2:1 3:1 4:4 5:1 6:0
    assert rows == [
        (4, 1, 4, 5, 2, False),   # Buchholz: 5 + 6 at table 2, 1 + 2 at table 3
        (1, 2, 3, 7, 1, False),
        (2, 3, 1, 11, 0, False),  # three players on 1 point: 2's Buchholz is highest
        (3, 4, 1, 5, 1, False),   # 3 and 5 equal on Buchholz: 3 won a table
        (5, 5, 1, 5, 0, False),
        (6, 6, 0, 5, 0, True),
    ]
    assert withdrawn([round1]) == {6}
    same = standings([1, 2], [[Score(1, 1, 1, False), Score(2, 1, 1, False)]])
    assert [(s.player_id, s.rank) for s in same] == [(1, 1), (2, 1)]
