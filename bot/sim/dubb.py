"""``python -m bot.sim dubb``: play many Dubb games headlessly, check invariants, report.

Every game is dealt from a seed drawn from ``--seed``, and every seat plays the chosen strategy
with its own seeded randomness, so a run is reproducible. After every move the simulator checks
the engine's invariants (cards conserved, no card twice, statuses consistent, D6/D7 settled) and
that the turn went to the right seat: the next seat holding cards after the mover, or the mover
again after aces (D7). ``--no-checks`` skips those checks for a pure speed figure.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.cards import ACE
from bot.games.base import RuleError, Seat
from bot.games.dubb import MOVE_CAP, STRATEGIES, DubbGame, DubbOptions, Played, Strategy


@dataclass
class SimStats:
    games: int = 0
    moves: int = 0
    seconds: float = 0.0
    cap_hits: int = 0
    invariant_violations: int = 0
    max_moves_in_game: int = 0
    losses_by_seat: list[int] = field(default_factory=list)
    end_reasons: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def violation(self, game_no: int, move_no: int, problem: str) -> None:
        self.invariant_violations += 1
        if len(self.examples) < 10:
            self.examples.append(f"game {game_no}, move {move_no}: {problem}")


def play_game(
    game: DubbGame, strategy: Strategy, rng: random.Random, stats: SimStats, game_no: int,
    checks: bool,
) -> None:
    """Play ``game`` to its end with ``strategy`` in every seat, recording into ``stats``."""
    ids = [s.player_id for s in game.seats]
    n = len(ids)
    moves = 0
    if checks:
        for problem in game.check_invariants():
            stats.violation(game_no, 0, problem)
    while not game.is_over:
        player = game.to_move
        assert player is not None
        move = strategy(game.observe(player), rng)
        try:
            events = game.apply(player, move)
        except RuleError as e:
            stats.violation(game_no, moves, f"strategy chose a move the engine refused: {e}")
            return
        moves += 1
        if checks:
            for problem in game.check_invariants():
                stats.violation(game_no, moves, problem)
            if not game.is_over:
                problem = _turn_order_problem(game, ids, n, player, events)
                if problem:
                    stats.violation(game_no, moves, problem)
        if moves > MOVE_CAP:
            stats.violation(game_no, moves, "the game did not end at the move cap (D13)")
            return
    result = game.result
    assert result is not None
    stats.games += 1
    stats.moves += moves
    stats.max_moves_in_game = max(stats.max_moves_in_game, moves)
    stats.end_reasons[result.reason] += 1
    if result.reason == "cap":
        stats.cap_hits += 1
    stats.losses_by_seat[ids.index(result.loser)] += 1


def _turn_order_problem(
    game: DubbGame, ids: list[int], n: int, mover: int, events: list[Any]
) -> str | None:
    """The turn goes to the next seat holding cards (pending and out seats are skipped, D10),
    or back to the mover after aces while they still hold cards (D7)."""
    to_move = game.to_move
    assert to_move is not None
    s, t = ids.index(mover), ids.index(to_move)
    if game.hand_size(mover) and any(
        type(e) is Played and e.player == mover and e.rank == ACE for e in events
    ):
        return None if t == s else "the turn left the player who played aces (D7)"
    for i in range(1, (t - s) % n or n):
        if game.hand_size(ids[(s + i) % n]):
            return f"the turn went from seat {s} to seat {t}, skipping a seat holding cards"
    return None


def run(
    games: int, players: int, seed: int, strategy_name: str, options: DubbOptions, checks: bool
) -> SimStats:
    strategy = STRATEGIES[strategy_name]
    stats = SimStats(losses_by_seat=[0] * players)
    seats = [Seat(i + 1, f"P{i + 1}") for i in range(players)]
    master = random.Random(seed)
    start = time.perf_counter()
    for game_no in range(games):
        game = DubbGame.new(seats, options, master.getrandbits(63))
        play_game(game, strategy, random.Random(master.getrandbits(63)), stats, game_no, checks)
    stats.seconds = time.perf_counter() - start
    return stats


def summary(stats: SimStats, args: argparse.Namespace, options: DubbOptions) -> dict[str, Any]:
    played = max(stats.games, 1)
    return {
        "games": stats.games,
        "moves": stats.moves,
        "seconds": round(stats.seconds, 3),
        "moves_per_second": round(stats.moves / stats.seconds) if stats.seconds else 0,
        "cap_hits": stats.cap_hits,
        "cap_hit_rate": round(stats.cap_hits / played, 5),
        "invariant_violations": stats.invariant_violations,
        "invariant_checks": args.checks,
        "mean_moves_per_game": round(stats.moves / played, 2),
        "max_moves_in_game": stats.max_moves_in_game,
        "losses_by_seat": stats.losses_by_seat,
        "end_reasons": dict(stats.end_reasons),
        "violation_examples": stats.examples,
        "players": args.players,
        "strategy": args.strategy,
        "seed": args.seed,
        "options": options.model_dump(),
    }


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m bot.sim dubb", description="Play Dubb games headlessly and check them."
    )
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--strategy", choices=sorted(STRATEGIES), default="random")
    p.add_argument("--decks", type=int, choices=(1, 2), default=1)
    p.add_argument("--jokers", action="store_true")
    p.add_argument("--hand-limit", action="store_true")
    p.add_argument("--last-player-draw", action="store_true",
                   help="last-player draw-and-play (D12)")
    p.add_argument("--cards-each", type=int, default=None)
    p.add_argument("--no-checks", dest="checks", action="store_false",
                   help="skip the invariant checks (for a pure speed figure)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    options = DubbOptions(
        decks=args.decks,
        jokers=args.jokers,
        hand_limit=args.hand_limit,
        last_player_draw_play=args.last_player_draw,
        cards_each=args.cards_each,
    )
    try:
        options.effective_cards_each(args.players)
    except RuleError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("error: --games must be at least 1", file=sys.stderr)
        return 2
    stats = run(args.games, args.players, args.seed, args.strategy, options, args.checks)
    out = summary(stats, args, options)
    if args.json:
        print(json.dumps(out))
    else:
        print(f"Dubb: {out['games']} games, {args.players} players, {args.strategy} strategy, "
              f"{options.summary()}, seed {args.seed}")
        print(f"  moves {out['moves']} in {out['seconds']} s = {out['moves_per_second']} moves/s "
              f"(invariant checks {'on' if args.checks else 'off'})")
        print(f"  mean moves per game {out['mean_moves_per_game']}, "
              f"longest {out['max_moves_in_game']}")
        print(f"  cap hits (D13) {out['cap_hits']} ({out['cap_hit_rate']:.2%})")
        print(f"  losses by seat {out['losses_by_seat']}")
        print(f"  invariant violations {out['invariant_violations']}")
        for example in stats.examples:
            print(f"    {example}")
    return 1 if stats.invariant_violations else 0
