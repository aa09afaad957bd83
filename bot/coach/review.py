"""A review of one player's decisions in a finished game (issue 34), for any game with an
expert (``GameSpec.search``).

The game is replayed from its move log. At each of the player's decisions that had a choice,
the player's information set is taken as it was then — their view, and a memory fed only the
events as their seat was shown them — and the expert's search weighs the move they made against
its candidates, by playouts from that information set alone. The review is what a player
could have known at the time plus the public record; it never sees another hand. Each
decision's search has its own seed, made from the table, the player and the move's place in the
log, so a review is the same every time it is made.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.gamekit.contract import Engine, GameSpec
from bot.gamekit.search import Budget, SearchRules, search
from bot.storage import MoveRecord

MOST_DECISIONS = 40
"""A review weighs at most the player's last this many moves (a long table of many hands would
otherwise take minutes)."""


@dataclass(frozen=True, slots=True)
class Position:
    """One of the player's decisions: where it is in the move log, their information set then,
    the move they made, and the engine as it was (for naming moves: only their own view of it
    is read)."""

    seq: int
    info: Any
    move: Any
    engine: Engine


@dataclass(frozen=True, slots=True)
class ReviewJob:
    """The searches of one review, as they cross to a worker: information sets, moves and
    seeds only."""

    rules: SearchRules
    items: tuple[tuple[Any, Any, int], ...]
    budget: Budget


@dataclass(frozen=True, slots=True)
class Weighed:
    """One decision weighed: the mean score of the move made and of the best move found."""

    score: float
    best: Any
    best_score: float

    @property
    def cost(self) -> float:
        return self.best_score - self.score


def positions(game: GameSpec, engine: Engine, records: Sequence[MoveRecord],
              player_id: int) -> list[Position]:
    """Replay ``records`` (the whole log, its start record first) on ``engine`` (as dealt),
    keeping ``player_id``'s decisions that had a choice."""
    rules = game.search
    assert rules is not None
    memory = rules.memory()
    # only the last moves of the player are weighed: their information sets and copies of the
    # engine are made for those alone
    theirs = [r.seq for r in records if r.seq > 0 and r.player_id == player_id]
    wanted = set(theirs[-MOST_DECISIONS:])
    found: list[Position] = []
    for record in records:
        if record.seq > 0:
            move = game.moves.from_dict(record.move)
            if record.seq in wanted and engine.to_move == player_id:
                legal = engine.legal_moves(player_id)
                if len(legal) > 1 and move in legal:
                    info = rules.information(engine.observe(player_id), memory)
                    found.append(Position(record.seq, info, move,
                                          game.load_engine(engine.to_stored())))
            engine.apply(record.player_id, move)
        rules.remember(memory, [game.events.for_seat(e, player_id) for e in record.events])
    return found


def review_job(rules: SearchRules, table_id: int, player_id: int, found: Sequence[Position],
               budget: Budget) -> ReviewJob:
    seeds = [random.Random(f"kortbord-review:{table_id}:{player_id}:{p.seq}").getrandbits(63)
             for p in found]
    return ReviewJob(rules, tuple((p.info, p.move, seed) for p, seed in zip(found, seeds,
                                                                        strict=True)), budget)


def run_review(job: ReviewJob) -> list[Weighed]:
    """A worker's entry point: weigh every decision of the review."""
    weighed = []
    for info, move, seed in job.items:
        decision = search(job.rules, info, seed, job.budget, include=move)
        made = next(e for e in decision.estimates if e.move == move)
        best = max(decision.estimates, key=lambda e: e.score)
        weighed.append(Weighed(made.score, best.move, best.score))
    return weighed
