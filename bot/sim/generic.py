"""A simulator for any registered game: play many games between computer strategies through
the engine protocol alone, checking the engine's invariants after every move and, for games
played for stakes, that every payment moves something between two players."""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.gamekit.contract import GameSpec, RuleError, Seat


@dataclass
class GenericStats:
    games: int = 0
    moves: int = 0
    violations: int = 0
    unfinished: int = 0
    problems: list[str] = field(default_factory=list)
    cpu_seconds: float = 0.0

    def problem(self, text: str) -> None:
        self.violations += 1
        if len(self.problems) < 5:
            self.problems.append(text)


def run(spec: GameSpec, *, games: int, players: int, seed: int, strategy: str,
        checks: bool = True, max_moves: int = 100_000) -> GenericStats:
    """Play ``games`` games of ``players`` seats, ``strategy`` in every seat."""
    stats = GenericStats()
    master = random.Random(seed)
    seats = [Seat(i + 1, f"P{i + 1}") for i in range(players)]
    options = spec.validate_options(None)
    start = time.process_time()
    for game_no in range(games):
        engine = spec.new_engine(seats, options, master.getrandbits(63))
        rng = random.Random(master.getrandbits(63))
        strategies = {s.player_id: spec.strategies[strategy]() for s in seats}
        _show(spec, strategies, engine.opening_events)
        moves = 0
        while not engine.is_over and moves < max_moves:
            player = engine.to_move
            if player is None:
                break
            move = strategies[player].choose(engine.observe(player), rng)
            try:
                events = engine.apply(player, move)
            except RuleError as exc:
                stats.problem(f"game {game_no}: the strategy chose a refused move: {exc}")
                break
            moves += 1
            _show(spec, strategies, events)
            for payment in spec.rules.payments(events):
                if payment.amount <= 0 or payment.payer == payment.payee:
                    stats.problem(f"game {game_no}: a payment of nothing, or to oneself")
            if checks:
                for problem in engine.check_invariants():
                    stats.problem(f"game {game_no}, move {moves}: {problem}")
        stats.unfinished += not engine.is_over
        stats.games += 1
        stats.moves += moves
    stats.cpu_seconds = time.process_time() - start
    return stats


def _show(spec: GameSpec, strategies: dict[int, Any], events: Sequence[Any]) -> None:
    stored = [spec.events.to_dict(e) for e in events]
    for player, strategy in strategies.items():
        if strategy.remembers:
            strategy.remember([spec.events.for_seat(e, player) for e in stored])


def main(spec: GameSpec, argv: Sequence[str]) -> int:
    p = argparse.ArgumentParser(prog=f"python -m bot.sim {spec.kind}",
                                description=f"Play {spec.name} games between computer players.")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--players", type=int, default=spec.min_players,
                   choices=range(spec.min_players, spec.max_players + 1))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--strategy", choices=sorted(spec.strategies), default=spec.computer)
    p.add_argument("--no-checks", dest="checks", action="store_false")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(list(argv))
    stats = run(spec, games=args.games, players=args.players, seed=args.seed,
                strategy=args.strategy, checks=args.checks)
    report = {
        "game": spec.kind, "games": stats.games, "moves": stats.moves,
        "invariant_violations": stats.violations, "unfinished": stats.unfinished,
        "moves_per_second": round(stats.moves / stats.cpu_seconds) if stats.cpu_seconds else None,
        "problems": stats.problems,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    return 1 if stats.violations or stats.unfinished else 0
