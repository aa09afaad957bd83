"""The expert computer player (issue 34): Monte Carlo search over one seat's information set.

Nothing here names a game. A game that wants an expert supplies ``SearchRules``: what its seat
knows (``information``, built only from what the seat was shown), how to draw a whole hidden
world consistent with that (``world``), the moves worth comparing (``candidates``, its own
strong player's choice first) and how to play a world on from a move to the end of what is
scored (``rollout``).

The search is determinized Monte Carlo with the game's strong player in the rollouts, the
"policy rollout" of Tesauro and Galperin: every iteration draws a fresh world from the
information set (as Information Set MCTS does, Cowling, Powley and Whitehouse 2012) and plays
every candidate in that same world with the same random numbers, so candidates are compared on
common worlds and the noise of the deal mostly cancels. A move other than the strong player's is
chosen only when its advantage over it, averaged over the worlds, stays positive by
``CONFIDENCE`` standard errors: the expert then plays at least about as well as the player its
rollouts use, and better wherever the search is sure. Candidates that have changed no world's
outcome after the first few worlds are dropped (successive rejection), since most decisions keep
the strong player's move: the rollouts go to the others, or the search ends early. A tree below
the root (full ISMCTS) was
left out: at the budget a decision has (a few hundred rollouts in 150 ms of Python), the root's
statistics are all a tree would get to refine.

``search`` is pure: the same information, seed and budget give the same decision as long as the
iterations run out before the CPU cap (the cap is a safety net for a loaded machine). It runs off
the event loop, in a process pool (``bot.table.computers``), taking only the information set.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

CONFIDENCE = 2.0
"""Standard errors by which a candidate's advantage over the strong player's move must stay
positive for the expert to prefer it. With a few candidates and a few dozen worlds each, one
standard error let noise pick moves often enough to lose games (a first measurement at 40
rollouts per decision lost 0.36 of a shedding game's games against smart's 0.25)."""
DEVIATE_WORLDS = 20
"""Worlds a candidate must have been played in before the expert may prefer it to the strong
player's move. With fewer, a standard error estimated from a handful of wins and ties in a
handful of worlds is too small too often: at 64 playouts a decision, a shedding game's moves
chosen on 9 to 16 worlds by two standard errors were, weighed again on 800 worlds, no better
than smart's on average (one lost 0.12 of a game)."""
SCREEN_WORLDS = 10
"""Worlds every candidate is played in before any is dropped (``search``)."""
SPARE = 1.0
"""A candidate is dropped after ``SCREEN_WORLDS`` worlds unless its mean advantage plus this
many standard errors is above zero: one that has not changed a single world's outcome yet (or is
behind) is dropped, and with it most of the rollouts, since most decisions keep the strong
player's move."""


@dataclass(frozen=True, slots=True)
class Budget:
    """What one decision may spend: ``iterations`` rollouts in all, and at most ``seconds`` of
    CPU time (whichever ends first; a decision always plays at least one world). The CPU time
    is the searching thread's own: a process's other threads (an event loop, a test's
    simulator) must not cut a search short, or the same seed would give another decision."""

    iterations: int = 200
    seconds: float = 0.15

    def scaled(self, effort: float) -> Budget:
        """This budget times ``effort`` (``SearchRules.effort``), both its parts."""
        if effort == 1.0:
            return self
        return Budget(max(1, round(self.iterations * effort)), self.seconds * effort)


class SearchRules(Protocol):
    """What a game supplies for the expert. ``information`` and every value it returns must be
    picklable: it crosses to a worker process."""

    def memory(self) -> Any:
        """A fresh memory for one seat, or ``None`` when the view says all a seat knows."""
        ...

    def remember(self, memory: Any, events: Sequence[Mapping[str, Any]]) -> None:
        """Events as that seat was shown them (``EventCodec.for_seat``), in order."""
        ...

    def information(self, view: Any, memory: Any) -> Any:
        """The seat's information set: its view and memory, and nothing hidden from it."""
        ...

    def candidates(self, info: Any, rng: random.Random) -> list[Any]:
        """The moves to compare, the game's strong player's choice first."""
        ...

    def effort(self, info: Any) -> float:
        """How many times the host's budget (``Budget``) a computer's decision here may spend:
        1 for most, more where one decision weighs much of what is scored and its playouts are
        dear (a hint, being that computer's decision, spends the same; a review its own)."""
        ...

    def world(self, info: Any, rng: random.Random) -> Any:
        """A whole game state drawn at random among those consistent with ``info``."""
        ...

    def rollout(self, info: Any, world: Any, move: Any, rng: random.Random) -> float:
        """Make ``move`` for the seat in ``world``, play on with the strong player in every seat
        to the end of what is scored, and return the seat's score (higher is better)."""
        ...

    def outlook(self, score: float) -> tuple[str, dict[str, Any]]:
        """What a mean score means to a player, as a gettext message (``N_``) and its values,
        for hints and reviews: "about a 20% chance of losing". Numbers are ``Later`` values
        (``bot.i18n``), written as the reader's language writes them: "20 %", "+1,5"."""
        ...

    measure_label: str
    """What ``measure`` gives, as a chart's title (a gettext message)."""

    def measure(self, score: float) -> float:
        """A mean score as a reader's number (a chance in percent, chips), for a chart."""
        ...


@dataclass(frozen=True, slots=True)
class Estimate:
    """A candidate after the search: its mean score, its mean advantage over the strong
    player's move (0 for that move itself) and that advantage's standard error."""

    move: Any
    score: float
    advantage: float
    error: float


@dataclass(frozen=True, slots=True)
class Decision:
    move: Any
    baseline: Any
    estimates: tuple[Estimate, ...]
    worlds: int
    capped: bool
    """Whether the CPU cap ended the search before its iterations (not reproducible then)."""
    cpu: float


@dataclass(slots=True)
class _Sums:
    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def error(self) -> float:
        if self.n < 2:
            return math.inf
        var = max(self.squares / self.n - self.mean ** 2, 0.0) * self.n / (self.n - 1)
        return math.sqrt(var / self.n)


def search(rules: SearchRules, info: Any, seed: int, budget: Budget,
           include: Any = None) -> Decision:
    """The expert's decision for the seat whose information set is ``info``; ``include``, a
    legal move, is weighed too (a review weighs the move the player made).

    Candidates are played world after world until the rollouts are spent; from ``SCREEN_WORLDS``
    worlds on, a candidate whose mean advantage over the strong player's move, plus ``SPARE``
    standard errors, is not above zero is no longer played (successive rejection): it would
    need far more worlds than are left to clear ``CONFIDENCE``, and its rollouts go to the
    others.
    When none is left but the strong player's move, the search stops: that is its decision."""
    started = time.thread_time()
    rng = random.Random(seed)
    candidates = rules.candidates(info, random.Random(rng.getrandbits(64)))
    if include is not None and include not in candidates:
        candidates.append(include)
    if len(candidates) == 1 and include is None:
        only = candidates[0]
        return Decision(only, only, (Estimate(only, 0.0, 0.0, 0.0),), 0, False,
                        time.thread_time() - started)
    scores = [_Sums() for _ in candidates]
    advantages = [_Sums() for _ in candidates]
    # the move a review weighs is kept to the end: its estimate is what the review shows
    kept = {0} if include is None else {0, candidates.index(include)}
    alive = list(range(len(candidates)))
    worlds = rollouts = 0
    capped = False
    while worlds == 0 or (len(alive) > 1 and rollouts + len(alive) <= budget.iterations):
        if worlds and time.thread_time() - started > budget.seconds:
            capped = True
            break
        world_seed = rng.getrandbits(64)
        base = 0.0
        for i in alive:
            # the same world and the same random numbers for every candidate
            world = rules.world(info, random.Random(world_seed))
            score = rules.rollout(info, world, candidates[i],
                                  random.Random(world_seed ^ 0x5DEECE66D))
            scores[i].add(score)
            if i == 0:
                base = score
            advantages[i].add(score - base)
        worlds += 1
        rollouts += len(alive)
        if worlds >= SCREEN_WORLDS:
            alive = [i for i in alive if i in kept or
                     advantages[i].mean + SPARE * advantages[i].error > 0]
    estimates = tuple(
        Estimate(m, s.mean, a.mean, 0.0 if i == 0 else a.error)
        for i, (m, s, a) in enumerate(zip(candidates, scores, advantages, strict=True)))
    best = 0
    best_bound = 0.0
    for i, e in enumerate(estimates[1:], start=1):
        if advantages[i].n < DEVIATE_WORLDS:
            continue
        bound = e.advantage - CONFIDENCE * e.error
        if bound > best_bound:
            best, best_bound = i, bound
    return Decision(candidates[best], candidates[0], estimates, worlds, capped,
                    time.thread_time() - started)


@dataclass(frozen=True, slots=True)
class SearchJob:
    """One decision to make in a worker: the game's rules (a module-level object, pickled by
    name), the information set, the seed and the budget — nothing else of the table crosses."""

    rules: SearchRules
    info: Any
    seed: int
    budget: Budget


def run_job(job: SearchJob) -> Decision:
    """A worker's entry point."""
    return search(job.rules, job.info, job.seed, job.budget)


@dataclass
class ExpertStrategy:
    """A computer player that searches (``search``); the game's ``SearchRules`` do the rest.
    ``choose`` searches in this process (simulators); a table asks ``job`` for the work and
    runs it in a worker (``bot.table.computers``)."""

    rules: SearchRules
    budget: Budget = field(default_factory=Budget)
    _memory: Any = None

    name: ClassVar[str] = "expert"
    remembers: ClassVar[bool] = True

    def __post_init__(self) -> None:
        self._memory = self.rules.memory()

    def remember(self, events: Sequence[Mapping[str, Any]]) -> None:
        self.rules.remember(self._memory, events)

    def job(self, view: Any, rng: random.Random) -> SearchJob:
        info = self.rules.information(view, self._memory)
        return SearchJob(self.rules, info, rng.getrandbits(63),
                         self.budget.scaled(self.rules.effort(info)))

    def decide(self, view: Any, rng: random.Random) -> Decision:
        job = self.job(view, rng)
        return search(job.rules, job.info, job.seed, job.budget)

    def choose(self, view: Any, rng: random.Random) -> Any:
        return self.decide(view, rng).move
