"""The computer strategies and the simulator."""

from __future__ import annotations

import json
import random

import pytest

from bot.games.dubb import DubbEngine, DubbOptions, Play, greedy_move, random_move, sim
from bot.games.dubb.moves import DRAW, DRAW_PLAY, PASS, play_of
from tests.engine.conftest import A, B, C, position, seats

JOKERS = DubbOptions(jokers=True, last_player_draw_play=True)


def test_random_strategy_picks_every_legal_move_and_only_those() -> None:
    game = position(2, ["7h 7s 9c", "3d"], pile=[(B, "7d")], draw="2s", to_move=A)
    rng = random.Random(0)
    seen = {random_move(game.observe(A), rng) for _ in range(400)}
    assert seen == set(game.legal_moves(A))


def test_greedy_dubs_with_all_its_naturals_of_the_top_rank() -> None:
    game = position(2, ["7h 7s 9c jk", "3d"], pile=[(B, "7d")], draw="2s", to_move=A,
                    options=JOKERS)
    assert greedy_move(game.observe(A), random.Random(0)) == play_of(7, 2)


def test_greedy_dubs_with_jokers_when_it_has_no_natural_of_the_top_rank() -> None:
    game = position(2, ["9c jk jk2", "3d"], pile=[(B, "7d")], draw="2s", to_move=A,
                    options=JOKERS)
    assert greedy_move(game.observe(A), random.Random(0)) == play_of(7, 0, 2)


def test_greedy_otherwise_plays_all_of_its_lowest_legal_rank() -> None:
    game = position(2, ["3c 9c 9h Kd", "3d"], pile=[(B, "8d")], draw="2s", to_move=A)
    assert greedy_move(game.observe(A), random.Random(0)) == play_of(9, 2)


def test_greedy_draws_draw_plays_or_passes_when_it_cannot_play() -> None:
    rng = random.Random(0)
    draws = position(2, ["3c", "3d"], pile=[(B, "8d")], draw="2s", to_move=A)
    assert greedy_move(draws.observe(A), rng) == DRAW
    passes = position(2, ["3c", "3d"], pile=[(B, "8d")], to_move=A)
    assert greedy_move(passes.observe(A), rng) == PASS
    last = position(2, ["3c", ""], pile=[(B, "8d")], draw="2s", to_move=A, options=JOKERS)
    assert greedy_move(last.observe(A), rng) == DRAW_PLAY


def test_an_observation_shows_only_the_seats_own_hand() -> None:
    game = position(3, ["3c 9c", "4d", "5h"], pile=[(B, "8d")], draw="2s", to_move=A)
    me = game.observe(C)
    assert sorted(me.hand) == sorted(game.hand(C))
    assert me.legal_moves == []
    assert me.private_view().hand == game.hand(C)
    assert me.public_view() == game.public_view()
    assert all(isinstance(m, Play) or m in (DRAW, PASS) for m in game.observe(A).legal_moves)


@pytest.mark.parametrize("strategy", [random_move, greedy_move])
def test_strategies_finish_games_with_every_option(strategy) -> None:  # type: ignore[no-untyped-def]
    options = DubbOptions(decks=2, jokers=True, hand_limit=True, last_player_draw_play=True)
    for seed in range(5):
        game = DubbEngine.new(seats(5), options, seed)
        rng = random.Random(seed)
        while not game.is_over:
            player = game.to_move
            assert player is not None
            game.apply(player, strategy(game.observe(player), rng))
        assert game.check_invariants() == []


def test_uniform_random_play_can_reach_the_cap_d13() -> None:
    options = DubbOptions(decks=2, jokers=True)
    for seed in range(30):
        stats = sim.run(1, 6, seed, "random", options, checks=False)
        if stats.cap_hits:
            assert stats.moves == 2000
            break
    else:
        raise AssertionError("no capped game in 30 six-player two-pack games")


def test_simulator_json_has_the_promised_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code = sim.main(["--games", "20", "--players", "3", "--seed", "4", "--jokers",
                     "--hand-limit", "--last-player-draw", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("games", "moves", "seconds", "moves_per_second", "cap_hits",
                "invariant_violations", "mean_moves_per_game", "losses_by_seat"):
        assert key in out
    assert out["games"] == 20 and out["invariant_violations"] == 0
    assert sum(out["losses_by_seat"]) == 20 and len(out["losses_by_seat"]) == 3


def test_simulator_is_reproducible_and_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--games", "10", "--players", "4", "--seed", "9", "--strategy", "greedy"]
    assert sim.main(args) == 0
    first = capsys.readouterr().out
    assert "invariant violations 0" in first
    assert sim.main([*args, "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert sim.main([*args, "--json", "--no-checks"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert one["moves"] == two["moves"] and one["losses_by_seat"] == two["losses_by_seat"]
    assert two["invariant_checks"] is False


def test_simulator_refuses_a_bad_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert sim.main(["--players", "3", "--cards-each", "12"]) == 2
    assert "D2" in capsys.readouterr().err
