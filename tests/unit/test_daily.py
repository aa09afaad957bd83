"""The daily deal without storage (``bot.daily``): the same game for the same day and moves
whoever plays, the deal from the day's committed secret, the sitting's end, what an abandoned
daily scores, the baseline, the duplicate score and streaks."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest

from bot.daily.baseline import compute_baseline
from bot.daily.day import day_end, day_of, day_start, deal_number, streak
from bot.daily.play import PERSON, DailyGame, daily_seats
from bot.daily.progress import cards_at_turns
from bot.daily.score import score_of
from bot.daily.secret import day_commitment, day_deals
from bot.deals import commitment, hand_key
from bot.gamekit.search import Budget
from bot.games.registry import GAMES

DAY = date(2026, 3, 14)
SECRET = bytes(range(32))
QUICK = Budget(iterations=6, seconds=float("inf"))


def _played(kind: str, name: str, day: date = DAY, secret: bytes = SECRET,
            seed: int = 7) -> DailyGame:
    """A daily played to its end by a person who plays as the smart computer would."""
    game = GAMES[kind]
    daily = DailyGame(game, day, secret, name)
    daily.advance()
    me = game.strategies["smart"]()
    rng = random.Random(seed)
    seen = 0
    while not daily.is_over:
        if me.remembers:
            events = [*daily.opening, *(e for s in daily.steps for e in s.events)]
            me.remember([game.events.for_seat(e, PERSON) for e in events[seen:]])
            seen = len(events)
        daily.play(me.choose(daily.engine.observe(PERSON), rng))
    return daily


@pytest.mark.parametrize("kind", ["dubb", "tonk"])
def test_the_same_moves_give_the_same_game_whoever_plays(kind: str) -> None:
    anna = _played(kind, "Anna")
    bo = DailyGame.replay(GAMES[kind], DAY, SECRET, "Bo", anna.moves_record())
    assert [(s.player, s.move, s.events) for s in bo.steps] == [
        (s.player, s.move, s.events) for s in anna.steps]
    assert bo.opening == anna.opening
    assert bo.is_over and bo.outcome() == anna.outcome()


@pytest.mark.parametrize("kind", ["dubb", "tonk"])
def test_the_first_hand_is_the_days_and_another_day_deals_another(kind: str) -> None:
    game = GAMES[kind]
    first = DailyGame(game, DAY, SECRET, "Anna")
    again = DailyGame(game, DAY, SECRET, "Cecilia")
    tomorrow = DailyGame(game, DAY + timedelta(days=1), SECRET, "Anna")
    assert first.engine.hand(PERSON) == again.engine.hand(PERSON)
    assert first.engine.hand(PERSON) != tomorrow.engine.hand(PERSON)


def test_the_daily_seats_the_person_and_the_games_computers() -> None:
    assert [s.player_id for s in daily_seats(GAMES["dubb"], "Anna")] == [PERSON, -1, -2, -3]
    assert [s.name for s in daily_seats(GAMES["tonk"], "Anna")] == [
        "Anna", "🤖 Astrid", "🤖 Bertil"]


def test_a_tonk_daily_is_three_hands_and_scores_net_chips() -> None:
    daily = _played("tonk", "Anna")
    assert daily.engine.deals_done == 3 and not daily.engine.is_over
    assert daily.outcome() == daily.nets.get(PERSON, 0)
    assert sum(daily.nets.values()) == 0


def test_a_dubb_daily_is_one_game_and_scores_the_place() -> None:
    daily = _played("dubb", "Anna")
    assert daily.engine.is_over
    ranking = daily.engine.result.ranking  # type: ignore[attr-defined]
    assert daily.outcome() == ranking.index(PERSON) + 1


@pytest.mark.parametrize("kind", ["dubb", "tonk"])
def test_an_abandoned_daily_plays_on_as_if_every_turn_timed_out(kind: str) -> None:
    game = GAMES[kind]
    daily = DailyGame(game, DAY, SECRET, "Anna")
    daily.time_out(game.rules.timeout_move)
    assert daily.is_over
    mine = [s for s in daily.steps if s.player == PERSON and not s.by_table]
    assert mine and all(s.move == game.moves.to_dict(game.rules.timeout_move()) for s in mine)
    # three timed-out turns in a row and the engine removes the person (Dubb: last place)
    assert PERSON not in {s.player_id for s in daily.engine.seats}
    if kind == "dubb":
        assert daily.outcome() == 4


def test_the_deal_follows_from_the_committed_day_secret() -> None:
    deals = day_deals(DAY, SECRET)
    key = hand_key(SECRET, deal_number(DAY), 1)
    assert deals.commitment(1) == commitment(key, deal_number(DAY), 1)
    assert day_commitment("dubb", DAY, SECRET) != day_commitment("tonk", DAY, SECRET)
    assert day_commitment("dubb", DAY, SECRET) != day_commitment("dubb", DAY, bytes(32))
    assert len(day_commitment("dubb", DAY, SECRET)) == 64


@pytest.mark.parametrize("kind", ["dubb", "tonk"])
def test_the_baseline_is_the_same_every_time(kind: str) -> None:
    first = compute_baseline(GAMES[kind], DAY, SECRET, QUICK)
    second = compute_baseline(GAMES[kind], DAY, SECRET, QUICK)
    assert (first.outcome, first.moves) == (second.outcome, second.moves)
    # the expert's game replays as a daily: its moves are legal and give its result
    replayed = DailyGame.replay(GAMES[kind], DAY, SECRET, "Expert", first.moves)
    assert replayed.is_over and replayed.outcome() == first.outcome


def test_the_duplicate_score_counts_places_and_chips_the_right_way_round() -> None:
    # finished 2nd, the expert 3rd: one place better
    assert score_of(GAMES["dubb"], 2, 3) == 1
    assert score_of(GAMES["dubb"], 4, 1) == -3
    # won 5 chips, the expert lost 1
    assert score_of(GAMES["tonk"], 5, -1) == 6


def test_days_are_utc_days() -> None:
    assert day_of(day_start(DAY)) == DAY
    assert day_of(day_end(DAY) - 0.001) == DAY
    assert day_of(day_end(DAY)) == DAY + timedelta(days=1)
    assert deal_number(date(1970, 1, 1)) == 1
    assert deal_number(DAY + timedelta(days=1)) == deal_number(DAY) + 1


def test_a_streak_is_days_in_a_row_kept_until_a_day_is_missed() -> None:
    d = DAY
    played = [d - timedelta(days=3), d - timedelta(days=2), d - timedelta(days=1)]
    assert streak(played, d) == 3  # today's still to play
    assert streak([*played, d], d) == 4
    assert streak(played[:2], d) == 0  # yesterday missed
    assert streak([], d) == 0


@pytest.mark.parametrize("kind", ["dubb", "tonk"])
def test_the_cards_held_are_counted_once_a_turn_from_the_stored_moves(kind: str) -> None:
    game = GAMES[kind]
    played = _played(kind, "Anna")
    moves = played.moves_record()
    held = cards_at_turns(game, DAY, SECRET, moves)
    # one count for each run of the person's moves, the table's deals breaking none
    turns, mover = 0, None
    for m in moves:
        player = None if m.get("table") else m["player"]
        turns += player == PERSON and mover != PERSON
        mover = player
    assert len(held) == turns > 0
    first = DailyGame(game, DAY, SECRET, "Anna")
    first.advance()
    assert held[0] == len(first.engine.hand(PERSON))
