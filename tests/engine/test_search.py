"""The expert's search itself (``bot.gamekit.search``), on a made-up game whose candidates' scores
are known: which candidates keep being played, when the search stops, and what its CPU cap
counts."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from bot.gamekit import search as searching
from bot.gamekit.search import DEVIATE_WORLDS, SCREEN_WORLDS, Budget, search


class _Rules:
    """Moves named by strings: ``base`` (the strong player's) scores a world's coin, ``same``
    always scores as ``base`` does, ``better`` one more and ``worse`` one less. Counts the
    rollouts each move gets."""

    def __init__(self, moves: list[str]) -> None:
        self.moves = moves
        self.played: Counter[str] = Counter()

    def candidates(self, info: Any, rng: random.Random) -> list[str]:
        return list(self.moves)

    def world(self, info: Any, rng: random.Random) -> float:
        return rng.random()

    def rollout(self, info: Any, world: float, move: str, rng: random.Random) -> float:
        self.played[move] += 1
        coin = -1.0 if world < 0.5 else 0.0
        return coin + {"base": 0.0, "same": 0.0, "better": 1.0, "worse": -1.0}[move]


def test_candidates_that_change_no_outcome_stop_being_played_and_their_rollouts_go_on() -> None:
    rules = _Rules(["base", "same", "worse", "better"])
    decision = search(rules, None, 5, Budget(iterations=120, seconds=60.0))  # type: ignore[arg-type]
    assert decision.move == "better"
    assert rules.played["same"] == rules.played["worse"] == SCREEN_WORLDS
    # what the two dropped would have had went to the two left: 120 rollouts in all
    assert rules.played["better"] == rules.played["base"] == (120 - 2 * SCREEN_WORLDS) // 2
    assert decision.worlds == rules.played["base"]


def test_the_search_stops_once_only_the_strong_players_move_is_left() -> None:
    rules = _Rules(["base", "same", "worse"])
    decision = search(rules, None, 5, Budget(iterations=200, seconds=60.0))  # type: ignore[arg-type]
    assert decision.move == "base"
    assert decision.worlds == SCREEN_WORLDS
    assert sum(rules.played.values()) == 3 * SCREEN_WORLDS


def test_a_weighed_move_is_played_in_every_world_even_when_it_changes_nothing() -> None:
    rules = _Rules(["base", "worse"])
    decision = search(rules, None, 5, Budget(iterations=60, seconds=60.0),  # type: ignore[arg-type]
                      include="same")
    assert rules.played["same"] == rules.played["base"] == decision.worlds
    assert rules.played["worse"] == SCREEN_WORLDS
    assert decision.worlds > SCREEN_WORLDS


def test_the_cpu_cap_counts_only_the_searching_threads_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # other threads of the process (a test's event loop, a simulator's) spend a second of CPU
    # between any two looks at the process's clock; the search's own thread spends next to none
    clock = iter(range(0, 10**9))
    monkeypatch.setattr(searching.time, "process_time", lambda: float(next(clock)))
    rules = _Rules(["base", "better"])
    decision = search(rules, None, 5, Budget(iterations=100, seconds=5.0))  # type: ignore[arg-type]
    assert not decision.capped
    assert decision.worlds == 50


def test_a_better_move_is_preferred_only_once_it_has_been_played_in_enough_worlds() -> None:
    few = search(_Rules(["base", "better"]), None, 5,  # type: ignore[arg-type]
                 Budget(iterations=2 * (DEVIATE_WORLDS - 1), seconds=60.0))
    assert few.worlds == DEVIATE_WORLDS - 1 and few.move == "base"
    enough = search(_Rules(["base", "better"]), None, 5,  # type: ignore[arg-type]
                    Budget(iterations=2 * DEVIATE_WORLDS, seconds=60.0))
    assert enough.worlds == DEVIATE_WORLDS and enough.move == "better"


class _Effortful(_Rules):
    """``_Rules`` whose decisions ask ``effort`` times the host's budget, with a memoryless
    information set (the view itself)."""

    def __init__(self, effort: float) -> None:
        super().__init__(["base", "better"])
        self._effort = effort

    def memory(self) -> None:
        return None

    def information(self, view: Any, memory: Any) -> Any:
        return view

    def effort(self, info: Any) -> float:
        return self._effort


@pytest.mark.parametrize("effort", [1.0, 3.0])
def test_a_computers_decision_gets_the_budget_times_its_games_effort(effort: float) -> None:
    budget = Budget(iterations=40, seconds=0.5)
    expert = searching.ExpertStrategy(_Effortful(effort), budget)  # type: ignore[arg-type]
    job = expert.job("view", random.Random(1))
    assert job.budget == Budget(iterations=round(40 * effort), seconds=0.5 * effort)
    # the decision made in this process spends the same
    rules = _Effortful(effort)
    searching.ExpertStrategy(rules, budget).decide("view", random.Random(1))  # type: ignore[arg-type]
    assert sum(rules.played.values()) == round(40 * effort)
